import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { LockIcon } from "../components/LockIcon.tsx";
import { Button } from "@atelier/ui";
import { validateSubtitleFiles, type DeckAllowance, type UploadAnswer } from "@atelier/site-api";
import { useStudyClient } from "./study-client.ts";
import { describeUploadResult, groupNameFromFileName } from "./upload-result.ts";

export interface UploadFormProps {
  onUploaded?: (answer: UploadAnswer) => void;
  /** The plan's private-deck allowance; when it is used up the privacy checkbox is locked. */
  allowance?: DeckAllowance;
  /** Groups deleted since the page loaded: an upload's report no longer links to one of them. */
  deletedGroupIds?: ReadonlySet<string>;
}

type UploadState = { status: "idle" } | { status: "uploading"; fractionSent: number } | { status: "done"; answer: UploadAnswer } | { status: "error"; message: string };

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

function AlignmentReportView({ answer, deleted }: { answer: UploadAnswer; deleted: boolean }) {
  const { report, pair_count: pairCount, group } = answer;
  const { headline, details } = describeUploadResult(report, pairCount);
  return (
    <div className="upload-report" role="status">
      <h3>{headline}</h3>
      {details.map((detail) => (
        <p key={detail}>{detail}</p>
      ))}
      {report.warning ? <p className="upload-report__warning">{report.warning}</p> : null}
      <p>{deleted ? `${group.name} has been deleted.` : <Link to={`/study/${encodeURIComponent(group.id)}/config`}>Study {group.name}</Link>}</p>
      <details className="upload-report__figures">
        <summary>Alignment figures</summary>
        <dl className="upload-report__facts">
          <dt>Time offset</dt>
          <dd>{report.offsetMilliseconds} ms</dd>
          <dt>Frame-rate ratio</dt>
          <dd>{report.frameRateRatio.toFixed(4)}</dd>
          <dt>English coverage</dt>
          <dd>{percent(report.englishCoverage)}</dd>
          <dt>Swedish coverage</dt>
          <dd>{percent(report.swedishCoverage)}</dd>
          <dt>Mean overlap</dt>
          <dd>{percent(report.meanOverlap)}</dd>
          <dt>Pairs</dt>
          <dd>{report.pairCount}</dd>
        </dl>
      </details>
    </div>
  );
}

function privateDecksUsedUp(allowance: DeckAllowance): string {
  const limit = allowance.private_deck_limit ?? 0;
  const decks = `${limit} private deck${limit === 1 ? "" : "s"}`;
  return allowance.plan === null ? `Without a plan you can keep ${decks}, and you have ${allowance.private_decks}.` : `Your ${allowance.plan} plan keeps up to ${decks}, and you have ${allowance.private_decks}.`;
}

/**
 * The upload form of spec §2.11: a Swedish and an English XML file, an optional name and the privacy checkbox, sent
 * with the study client's `uploadSubtitles`.
 */
export function UploadForm({ onUploaded, allowance, deletedGroupIds }: UploadFormProps) {
  const studyClient = useStudyClient();
  const id = useId();
  const [name, setName] = useState("");
  const [nameTyped, setNameTyped] = useState(false);
  const [swedish, setSwedish] = useState<File | null>(null);
  const [english, setEnglish] = useState<File | null>(null);
  const [isPrivate, setIsPrivate] = useState(false);
  const privateLocked = allowance !== undefined && !allowance.may_add_private_deck;
  // Until the learner types a name, the Swedish file's name (else the English one's) is the group's.
  const namedAfter = swedish ?? english;
  const shownName = nameTyped ? name : namedAfter ? groupNameFromFileName(namedAfter.name) : "";
  const [state, setState] = useState<UploadState>({ status: "idle" });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.status === "uploading") return;
    const form = event.currentTarget;
    const validationError = validateSubtitleFiles({ swedish, english });
    if (validationError !== undefined || !swedish || !english) {
      setState({ status: "error", message: validationError ?? "" });
      return;
    }
    setState({ status: "uploading", fractionSent: 0 });
    const result = await studyClient.uploadSubtitles({ swedish, english, isPublic: !(isPrivate && !privateLocked), name: shownName }, (fractionSent) => setState({ status: "uploading", fractionSent }));
    if (result.status === "ok") {
      // The sent files leave the form: a second press would upload the same film again as a second group.
      form.reset();
      setSwedish(null);
      setEnglish(null);
      setName("");
      setNameTyped(false);
      setState({ status: "done", answer: result.data });
      onUploaded?.(result.data);
    } else {
      setState({ status: "error", message: result.message });
    }
  };

  return (
    <form className="upload-form" onSubmit={handleSubmit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Upload subtitles</h2>
      <div className="form-field">
        <label htmlFor={`${id}-name`}>Group name</label>
        <input
          id={`${id}-name`}
          name="name"
          type="text"
          value={shownName}
          maxLength={200}
          placeholder="Taken from the file name"
          onChange={(event) => {
            setName(event.target.value);
            setNameTyped(event.target.value !== "");
          }}
        />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-swedish`}>Swedish subtitles (XML)</label>
        <input id={`${id}-swedish`} name="swedish" type="file" accept=".xml,application/xml,text/xml" onChange={(event) => setSwedish(event.target.files?.[0] ?? null)} />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-english`}>English subtitles (XML)</label>
        <input id={`${id}-english`} name="english" type="file" accept=".xml,application/xml,text/xml" onChange={(event) => setEnglish(event.target.files?.[0] ?? null)} />
      </div>
      <div className="form-field form-field--checkbox">
        <input
          id={`${id}-private`}
          name="private"
          type="checkbox"
          checked={isPrivate && !privateLocked}
          disabled={privateLocked}
          aria-describedby={privateLocked ? `${id}-private-locked` : undefined}
          onChange={(event) => setIsPrivate(event.target.checked)}
        />
        <label htmlFor={`${id}-private`}>Make these cards private</label>
      </div>
      {privateLocked && allowance ? (
        <p id={`${id}-private-locked`} className="plan-lock">
          <LockIcon />{privateDecksUsedUp(allowance)} These cards will be public. <Link to="/pricing">See the plans</Link> to keep more decks private.
        </p>
      ) : null}
      {state.status === "error" ? (
        <p role="alert" className="form-general-errors">
          {state.message}
        </p>
      ) : null}
      {state.status === "uploading" ? (
        <div className="upload-progress">
          <label htmlFor={`${id}-progress`}>Sending files: {percent(state.fractionSent)}</label>
          <progress id={`${id}-progress`} max={1} value={state.fractionSent} />
        </div>
      ) : null}
      {state.status === "done" ? <AlignmentReportView answer={state.answer} deleted={deletedGroupIds?.has(state.answer.group.id) === true} /> : null}
      <div className="account-form__actions">
        <Button type="submit" disabled={state.status === "uploading"} aria-busy={state.status === "uploading"}>
          {state.status === "uploading" ? "Uploading…" : "Upload"}
        </Button>
      </div>
    </form>
  );
}
