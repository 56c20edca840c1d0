import { useCallback, useEffect, useId, useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, ConfirmDialog, Pagination, Slider, Spinner } from "@atelier/ui";
import { cardCountOptions, DEFAULT_SETUP, PREVIEW_PAGE_SIZES, type SessionConfig, type SessionMode } from "@atelier/leitner";
import { groupExportPath, studyClient, type GroupStats } from "./study-client.ts";
import { useStudyDirection } from "./study-preferences.ts";
import { BoxDistributionChart, BoxStars, StudyStatsCards } from "./StudyStats.tsx";

type SetupRange = "new" | "in-progress" | "memorized";

const CARD_TYPES: { value: SetupRange; label: string }[] = [
  { value: "new", label: "New" },
  { value: "in-progress", label: "In Progress" },
  { value: "memorized", label: "Memorized" },
];

type StatsState = { status: "loading" } | { status: "error" } | { status: "ready"; stats: GroupStats };

/** How many cards of the chosen type the From–To window can hold: the type's count, at most the window's size. */
export function availableCardCount(stats: Pick<GroupStats, "not_started" | "in_progress" | "memorized" | "pairs">, range: SetupRange, from: number, to: number): number {
  if (range === "memorized") return stats.pairs.slice(from - 1, to).filter((pair) => pair.current_box === 5).length;
  const count = range === "new" ? stats.not_started : stats.in_progress;
  return Math.max(0, Math.min(count, to - from + 1));
}

function PreviewCards({ pairs }: { pairs: GroupStats["pairs"] }) {
  const id = useId();
  const [pageSize, setPageSize] = useState<number>(DEFAULT_SETUP.previewPageSize);
  const [page, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(pairs.length / pageSize));
  const currentPage = Math.min(page, pageCount);
  const shown = pairs.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  return (
    <section className="study-panel" aria-labelledby={`${id}-heading`}>
      <div className="study-panel__header">
        <h2 id={`${id}-heading`}>Preview Cards</h2>
        <div className="form-field form-field--inline">
          <label htmlFor={`${id}-size`}>Cards per page</label>
          <select
            id={`${id}-size`}
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(1);
            }}
          >
            {PREVIEW_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>
      <table className="preview-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">English</th>
            <th scope="col">Swedish</th>
            <th scope="col">Box</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((pair, offset) => (
            <tr key={pair.id}>
              <td>{(currentPage - 1) * pageSize + offset + 1}</td>
              <td lang="en">{pair.english}</td>
              <td lang="sv">{pair.swedish}</td>
              <td>
                <BoxStars box={pair.current_box} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination currentPage={currentPage} pageCount={pageCount} onPageChange={setPage} navigationLabel="Preview pages" />
    </section>
  );
}

function SetupForm({ groupId, stats, onReset }: { groupId: string; stats: GroupStats; onReset: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const total = Math.max(1, stats.total);
  const [range, setRange] = useState<SetupRange>(DEFAULT_SETUP.range);
  const [chosenCardCount, setChosenCardCount] = useState<number>(DEFAULT_SETUP.cardCount);
  const [from, setFrom] = useState(1);
  const [to, setTo] = useState(total);
  const [resetOpen, setResetOpen] = useState(false);
  const [direction, setDirection] = useStudyDirection();
  const [resetPending, setResetPending] = useState(false);

  const available = availableCardCount(stats, range, from, Math.min(to, stats.total));
  const options = useMemo(() => cardCountOptions(available), [available]);
  const cardCount = options.includes(chosenCardCount) ? chosenCardCount : (options.at(-1) ?? 0);

  const start = (mode: SessionMode) => {
    const config: SessionConfig = { mode, range, cardCount, startIndex: from, endIndex: to };
    void navigate(`/study/${encodeURIComponent(groupId)}/session`, { state: config });
  };

  const reset = async () => {
    setResetPending(true);
    const result = await studyClient.resetStats(groupId);
    setResetPending(false);
    setResetOpen(false);
    if (result.status === "error") console.error(result.message);
    onReset();
  };

  return (
    <>
      <div className="study-actions">
        <ConfirmDialog
          open={resetOpen}
          onOpenChange={setResetOpen}
          trigger={<Button variant="secondary">Reset Progress</Button>}
          title="Reset Progress?"
          description="Every card of this group goes back to New."
          confirmLabel="Reset Progress"
          confirmPendingLabel="Resetting…"
          confirmPending={resetPending}
          onConfirm={reset}
        />
        <a className="atelier-button atelier-button--ghost atelier-button--medium" href={groupExportPath(groupId, "csv")} download>
          Export CSV
        </a>
        <a className="atelier-button atelier-button--ghost atelier-button--medium" href={groupExportPath(groupId, "tsv")} download>
          Export for Anki
        </a>
      </div>

      <section className="study-panel" aria-labelledby={`${id}-setup`}>
        <h2 id={`${id}-setup`}>Setup</h2>
        <fieldset className="study-card-type">
          <legend>Card Type</legend>
          {CARD_TYPES.map((type) => (
            <div key={type.value} className="form-field form-field--checkbox">
              <input id={`${id}-${type.value}`} type="radio" name="card-type" value={type.value} checked={range === type.value} onChange={() => setRange(type.value)} />
              <label htmlFor={`${id}-${type.value}`}>{type.label}</label>
            </div>
          ))}
        </fieldset>

        <fieldset className="study-card-type">
          <legend>Show first</legend>
          {(
            [
              ["english-first", "English, then Swedish"],
              ["swedish-first", "Swedish, then English"],
            ] as const
          ).map(([value, label]) => (
            <div key={value} className="form-field form-field--checkbox">
              <input id={`${id}-${value}`} type="radio" name="direction" value={value} checked={direction === value} onChange={() => setDirection(value)} />
              <label htmlFor={`${id}-${value}`}>{label}</label>
            </div>
          ))}
        </fieldset>

        <div className="form-field form-field--inline">
          <label htmlFor={`${id}-count`}>Number of cards</label>
          <select id={`${id}-count`} value={cardCount} disabled={options.length === 0} onChange={(event) => setChosenCardCount(Number(event.target.value))}>
            {options.length === 0 ? <option value={0}>0</option> : null}
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <p className="study-available">
          {available} {available === 1 ? "card" : "cards"} available in this range.
        </p>

        <div className="study-range" role="group" aria-labelledby={`${id}-range`}>
          <h3 id={`${id}-range`}>Study by Range</h3>
          <Slider label="From" min={1} max={total} value={Math.min(from, to)} onValueChange={(value) => setFrom(Math.min(value, to))} disabled={stats.total === 0} />
          <Slider
            label="To"
            min={1}
            max={total}
            value={to}
            onValueChange={(value) => {
              setTo(value);
              // The From slider is capped at To (spec §5).
              setFrom((current) => Math.min(current, value));
            }}
            disabled={stats.total === 0}
          />
        </div>

        <div className="study-actions">
          <Button disabled={available === 0} onClick={() => start("study")}>
            Study
          </Button>
          <Button variant="secondary" disabled={available === 0} onClick={() => start("test")}>
            Test
          </Button>
        </div>
      </section>
    </>
  );
}

/** /study/{groupId}/config (spec §2.12). */
export function StudySetupPage({ groupId }: { groupId: string }) {
  const [state, setState] = useState<StatsState>({ status: "loading" });

  const loadStats = useCallback(async () => {
    const result = await studyClient.loadStats(groupId);
    if (result.status === "ok") {
      setState({ status: "ready", stats: result.data });
      return;
    }
    // Spec §8: a stats failure is logged to the console only.
    console.error(result.message);
    setState({ status: "error" });
  }, [groupId]);

  useEffect(() => {
    void loadStats();
  }, [loadStats]);

  if (state.status === "loading") {
    return (
      <section className="page study-page">
        <Spinner label="Loading the group" />
      </section>
    );
  }
  if (state.status === "error") {
    return (
      <section className="page study-page">
        <h1>Setup</h1>
        <p>
          <Link to="/upload-subtitles">Back to the subtitle groups</Link>
        </p>
      </section>
    );
  }
  const { stats } = state;
  return (
    <section className="page study-page">
      <p className="study-breadcrumb">
        <Link to="/upload-subtitles">Subtitle groups</Link>
      </p>
      <h1>{stats.name}</h1>
      <StudyStatsCards stats={stats} />
      <SetupForm key={stats.total} groupId={groupId} stats={stats} onReset={() => void loadStats()} />
      <BoxDistributionChart stats={stats} />
      <PreviewCards pairs={stats.pairs} />
    </section>
  );
}
