import { Fragment, useId, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Link, useNavigate } from "react-router";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { LockIcon } from "../components/LockIcon.tsx";
import { useAuthStatus } from "@atelier/auth/react";
import { Button, ConfirmDialog, Pagination, Slider, Spinner } from "@atelier/ui";
import { cardCountOptions, DEFAULT_SETUP, PREVIEW_PAGE_SIZES, type SessionConfig, type SessionMode } from "@atelier/leitner";
import { PairEditor, usePairDeletionWithUndo } from "./PairFixes.tsx";
import { groupExportPath, isDoubtfulPair, type GroupStats, type PreviewPage, type PreviewQuery, type StudyClient, type StudyResult } from "@atelier/site-api";
import { useStudyClient } from "./study-client.ts";
import { useStudyDirection } from "./study-preferences.ts";
import { BoxDistributionChart, BoxStars, DoubtfulPairMark, DueForecastChart, StudyStatsCards } from "./StudyStats.tsx";

type SetupRange = "new" | "in-progress" | "memorized";

const CARD_TYPES: { value: SetupRange; label: string }[] = [
  { value: "new", label: "New" },
  { value: "in-progress", label: "In Progress" },
  { value: "memorized", label: "Memorized" },
];

/** What the setup shows: the group's stats, or the error state (spec §8: a stats failure goes to the console only). */
export type StudySetupData = { status: "error" } | { status: "ready"; stats: GroupStats };

/** The setup's `clientLoader` (routes/study/config.tsx), a plain function so tests call it with a fake client. */
export async function loadStudySetup(client: StudyClient, groupId: string): Promise<StudySetupData> {
  const result = await client.loadStats(groupId);
  if (result.status === "ok") return { status: "ready", stats: result.data };
  console.error(result.message);
  return { status: "error" };
}

/** Shown while the setup's data loads on a first visit (the route's `HydrateFallback`). */
export function StudySetupLoading() {
  return (
    <section className="page study-page">
      <Spinner label="Loading the group" />
    </section>
  );
}

/**
 * How many cards of the chosen type the From–To window can hold: new and in-progress, the type's count at most the
 * window's size; memorized, the group's count for the whole group, and for a narrower window the server's count
 * (`memorizedInWindow`; until it arrives, the type's count at most the window's size).
 */
export function availableCardCount(
  stats: Pick<GroupStats, "not_started" | "in_progress" | "memorized" | "total">,
  range: SetupRange,
  from: number,
  to: number,
  memorizedInWindow?: number,
): number {
  if (range === "memorized" && !(from <= 1 && to >= stats.total) && memorizedInWindow !== undefined) return memorizedInWindow;
  const count = range === "new" ? stats.not_started : range === "in-progress" ? stats.in_progress : stats.memorized;
  return Math.max(0, Math.min(count, to - from + 1));
}

/** The loader's stats hold the preview's first page in the default size; every other page is asked for when shown. */
function isLoadersPage(stats: GroupStats, query: PreviewQuery): boolean {
  return query.page === 1 && query.pageSize === stats.pairs_page.page_size && !query.onlyDoubtful;
}

function PreviewCards({ stats, onChanged }: { stats: GroupStats; onChanged: () => void }) {
  const client = useStudyClient();
  const id = useId();
  const [query, setQuery] = useState<PreviewQuery>({ page: 1, pageSize: DEFAULT_SETUP.previewPageSize, onlyDoubtful: false });
  const [fetched, setFetched] = useState<PreviewPage>();
  const [loading, setLoading] = useState(false);
  const latestRequest = useRef(0);
  const [editing, setEditing] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  // Other pages come from the server as the learner pages, filters or resizes (issue 16): only the latest answer is
  // shown, and the rows shown before stay until it arrives.
  const show = async (next: PreviewQuery) => {
    setQuery(next);
    const request = ++latestRequest.current;
    if (isLoadersPage(stats, next)) {
      setLoading(false);
      setFetched(undefined);
      return;
    }
    setLoading(true);
    const result = await client.loadPreviewPage(stats.id, next);
    if (request !== latestRequest.current) return;
    setLoading(false);
    if (result.status === "error") {
      setActionError(result.message);
      return;
    }
    // A page past the last (pairs were deleted or hidden meanwhile) is answered with the last page.
    setQuery({ ...next, page: result.data.page });
    setFetched(result.data);
  };
  // After a change the loader brings the first page again, and the page shown is asked for again.
  const changed = () => {
    onChanged();
    void show(query);
  };
  const { pendingDeletion, deletePair, undoDeletion } = usePairDeletionWithUndo(changed);
  // A keyboard user's focus goes back to the row's button when its editor closes or its deletion is undone, and to
  // Undo when a pair is deleted, instead of being dropped on the page's body: the change is rendered at once so that
  // the control is there to take it.
  const changeThenFocus = (change: () => void, pairId: string, control: "fix" | "undo") => {
    flushSync(change);
    document.getElementById(`${id}-${control}-${pairId}`)?.focus();
  };
  const doubtfulCount = stats.doubtful_count;
  const pageCount = Math.max(1, Math.ceil((query.onlyDoubtful ? doubtfulCount : stats.pairs_page.total) / query.pageSize));
  const currentPage = Math.min(query.page, pageCount);
  // Each pair keeps its number in the film (the server's), also when only the doubtful ones are listed.
  const shown = isLoadersPage(stats, query) ? stats.pairs : (fetched?.pairs ?? stats.pairs);
  const hideOrShow = async (change: Promise<StudyResult<unknown>>) => {
    const result = await change;
    if (result.status === "ok") changed();
    else setActionError(result.message);
  };
  return (
    <section className="study-panel" aria-labelledby={`${id}-heading`}>
      <div className="study-panel__header">
        <h2 id={`${id}-heading`}>Preview Cards</h2>
        <div className="form-field form-field--inline">
          <label htmlFor={`${id}-size`}>Cards per page</label>
          <select id={`${id}-size`} value={query.pageSize} onChange={(event) => void show({ ...query, page: 1, pageSize: Number(event.target.value) })}>
            {PREVIEW_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="form-field form-field--checkbox">
        <input
          id={`${id}-doubtful`}
          type="checkbox"
          checked={query.onlyDoubtful}
          disabled={doubtfulCount === 0 && !query.onlyDoubtful}
          onChange={(event) => void show({ ...query, page: 1, onlyDoubtful: event.target.checked })}
        />
        <label htmlFor={`${id}-doubtful`}>
          Check doubtful pairs ({doubtfulCount} {doubtfulCount === 1 ? "pair" : "pairs"})
        </label>
      </div>
      <FormGeneralErrors errors={actionError ? [actionError] : []} />
      {/* The roles are the elements' own: on a phone each row is laid out as a card (display: grid), which some browsers take as
          leaving the table, so they are stated. */}
      <table className="preview-table" role="table" aria-busy={loading || undefined}>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">#</th>
            <th scope="col" role="columnheader">English</th>
            <th scope="col" role="columnheader">Swedish</th>
            <th scope="col" role="columnheader">Box</th>
            <th scope="col" role="columnheader">
              <span className="atelier-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {shown.map((pair) =>
            pair.id === pendingDeletion ? (
              <tr key={pair.id} className="preview-table__deleted" role="row">
                <td colSpan={5} role="cell">
                  <span role="status">Pair {pair.number} deleted.</span>{" "}
                  <Button
                    id={`${id}-undo-${pair.id}`}
                    size="small"
                    variant="ghost"
                    aria-label={`Undo deleting pair ${pair.number}`}
                    onClick={() => changeThenFocus(undoDeletion, pair.id, "fix")}
                  >
                    Undo
                  </Button>
                </td>
              </tr>
            ) : (
              <Fragment key={pair.id}>
                <tr className="preview-table__pair" role="row" data-doubtful={isDoubtfulPair(pair) ? "" : undefined}>
                  <td role="cell">
                    {pair.number}
                    {isDoubtfulPair(pair) ? <DoubtfulPairMark /> : null}
                  </td>
                  <td lang="en" role="cell">{pair.english}</td>
                  <td lang="sv" role="cell">{pair.swedish}</td>
                  <td role="cell">
                    <BoxStars box={pair.current_box} />
                  </td>
                  <td role="cell">
                    {stats.is_owner ? (
                      <Button
                        id={`${id}-fix-${pair.id}`}
                        size="small"
                        variant="ghost"
                        aria-expanded={editing === pair.id}
                        aria-label={`Fix pair ${pair.number}`}
                        onClick={() => setEditing(editing === pair.id ? undefined : pair.id)}
                      >
                        Fix
                      </Button>
                    ) : (
                      <Button size="small" variant="ghost" aria-label={`Hide pair ${pair.number}`} onClick={() => void hideOrShow(client.hidePair(pair.id))}>
                        Hide
                      </Button>
                    )}
                  </td>
                </tr>
                {editing === pair.id ? (
                  <tr className="preview-table__editor" role="row">
                    <td colSpan={5} role="cell">
                      <PairEditor
                        pair={{ id: pair.id, english: pair.english, swedish: pair.swedish, number: pair.number, isLast: pair.number === stats.total }}
                        onCancel={() => changeThenFocus(() => setEditing(undefined), pair.id, "fix")}
                        onDone={() => {
                          changeThenFocus(() => setEditing(undefined), pair.id, "fix");
                          changed();
                        }}
                        onDelete={() =>
                          changeThenFocus(
                            () => {
                              setEditing(undefined);
                              deletePair(pair.id);
                            },
                            pair.id,
                            "undo",
                          )
                        }
                      />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ),
          )}
        </tbody>
      </table>
      <Pagination currentPage={currentPage} pageCount={pageCount} onPageChange={(page) => void show({ ...query, page })} navigationLabel="Preview pages" />
      {stats.hidden_pairs.length > 0 ? (
        <details className="hidden-pairs">
          <summary>Hidden pairs ({stats.hidden_pairs.length})</summary>
          <ul>
            {stats.hidden_pairs.map((pair) => (
              <li key={pair.id}>
                <span lang="en">{pair.english}</span> · <span lang="sv">{pair.swedish}</span>{" "}
                <Button size="small" variant="ghost" onClick={() => void hideOrShow(client.showPair(pair.id))}>
                  Show again
                </Button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** Own decks always export; someone else's shared deck takes Plus or Studio, and the lock says so. */
function ExportLinks({ groupId, canExport }: { groupId: string; canExport: boolean }) {
  const { isAuthenticated } = useAuthStatus();
  if (canExport) {
    return (
      <>
        <a className="atelier-button atelier-button--secondary atelier-button--medium" href={groupExportPath(groupId, "csv")} download>
          Export CSV
        </a>
        <a className="atelier-button atelier-button--secondary atelier-button--medium" href={groupExportPath(groupId, "tsv")} download>
          Export for Anki
        </a>
      </>
    );
  }
  return (
    <p className="plan-lock">
      <LockIcon />
      {isAuthenticated ? (
        <>
          Exporting a deck someone shared is part of <Link to="/pricing">Plus and Studio</Link>.
        </>
      ) : (
        "Sign in to export flashcards."
      )}
    </p>
  );
}

function SetupForm({ groupId, stats, onReset }: { groupId: string; stats: GroupStats; onReset: () => void }) {
  const studyClient = useStudyClient();
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
  const [memorizedInWindow, setMemorizedInWindow] = useState<{ from: number; to: number; available: number }>();
  const latestCount = useRef(0);

  // The memorized cards of a narrower window are counted by the server (issue 16: the stats no longer hold every pair),
  // asked for as the learner chooses the type or moves a slider; only the latest answer counts.
  const countMemorizedInWindow = async (nextRange: SetupRange, nextFrom: number, nextTo: number) => {
    const request = ++latestCount.current;
    if (nextRange !== "memorized" || (nextFrom <= 1 && nextTo >= stats.total)) return;
    const result = await studyClient.countAvailableCards(groupId, { range: "memorized", startIndex: nextFrom, endIndex: nextTo });
    if (request !== latestCount.current) return;
    if (result.status === "ok") setMemorizedInWindow({ from: nextFrom, to: nextTo, available: result.data.available });
    else console.error(result.message);
  };
  const chooseWindow = (nextFrom: number, nextTo: number) => {
    setFrom(nextFrom);
    setTo(nextTo);
    void countMemorizedInWindow(range, nextFrom, nextTo);
  };

  const countedWindow = memorizedInWindow?.from === from && memorizedInWindow.to === to ? memorizedInWindow.available : undefined;
  const available = availableCardCount(stats, range, from, Math.min(to, stats.total), countedWindow);
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
    else setMemorizedInWindow({ from, to, available: 0 });
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
        <ExportLinks groupId={groupId} canExport={stats.can_export} />
      </div>

      <section className="study-panel" aria-labelledby={`${id}-setup`}>
        <h2 id={`${id}-setup`}>Setup</h2>
        <fieldset className="study-card-type">
          <legend>Card Type</legend>
          {CARD_TYPES.map((type) => (
            <div key={type.value} className="form-field form-field--checkbox">
              <input
                id={`${id}-${type.value}`}
                type="radio"
                name="card-type"
                value={type.value}
                checked={range === type.value}
                onChange={() => {
                  setRange(type.value);
                  void countMemorizedInWindow(type.value, from, to);
                }}
              />
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
          <Slider label="From" min={1} max={total} value={Math.min(from, to)} onValueChange={(value) => chooseWindow(Math.min(value, to), to)} disabled={stats.total === 0} />
          <Slider
            label="To"
            min={1}
            max={total}
            value={to}
            // The From slider is capped at To (spec §5).
            onValueChange={(value) => chooseWindow(Math.min(from, value), value)}
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

/**
 * The setup of spec §2.12 (/study/{groupId}/config), from its route's loader data; `reload` runs the loader again after
 * a change (a reset, a fix, a hidden pair).
 */
export function StudySetupPage({ groupId, data, reload }: { groupId: string; data: StudySetupData; reload: () => void }) {
  if (data.status === "error") {
    return (
      <section className="page study-page">
        <h1>Setup</h1>
        <p>
          <Link to="/upload-subtitles">Back to the subtitle groups</Link>
        </p>
      </section>
    );
  }
  const { stats } = data;
  return (
    <section className="page study-page">
      <p className="study-breadcrumb">
        <Link to="/upload-subtitles">Subtitle groups</Link>
      </p>
      <h1>{stats.name}</h1>
      <StudyStatsCards stats={stats} />
      <SetupForm key={stats.total} groupId={groupId} stats={stats} onReset={reload} />
      <div className="study-charts">
        <BoxDistributionChart stats={stats} />
        <DueForecastChart forecast={stats.due_forecast} now={new Date()} />
      </div>
      <PreviewCards stats={stats} onChanged={reload} />
    </section>
  );
}
