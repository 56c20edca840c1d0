import { useId, useState, type FormEvent } from "react";
import { Button } from "@atelier/ui";
import { validateSubtitleFiles, type AlignmentReport, type StudyResult, type UploadAnswer, type UploadSubtitlesInput } from "./study-client.ts";

export interface UploadFormProps {
  upload: (input: UploadSubtitlesInput, onProgress: (fractionSent: number) => void) => Promise<StudyResult<UploadAnswer>>;
  onUploaded?: (answer: UploadAnswer) => void;
}

type UploadState = { status: "idle" } | { status: "uploading"; fractionSent: number } | { status: "done"; answer: UploadAnswer } | { status: "error"; message: string };

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

function AlignmentReportView({ report, pairCount }: { report: AlignmentReport; pairCount: number }) {
  return (
    <div className="upload-report" role="status">
      <h3>Upload complete: {pairCount} pairs</h3>
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
      {report.warning ? <p className="upload-report__warning">{report.warning}</p> : null}
    </div>
  );
}

/** The upload form of spec §2.11: a Swedish and an English XML file, an optional name and the privacy checkbox. */
export function UploadForm({ upload, onUploaded }: UploadFormProps) {
  const id = useId();
  const [name, setName] = useState("");
  const [swedish, setSwedish] = useState<File | null>(null);
  const [english, setEnglish] = useState<File | null>(null);
  const [isPrivate, setIsPrivate] = useState(false);
  const [state, setState] = useState<UploadState>({ status: "idle" });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.status === "uploading") return;
    const validationError = validateSubtitleFiles({ swedish, english });
    if (validationError !== undefined || !swedish || !english) {
      setState({ status: "error", message: validationError ?? "" });
      return;
    }
    setState({ status: "uploading", fractionSent: 0 });
    const result = await upload({ swedish, english, isPublic: !isPrivate, name }, (fractionSent) => setState({ status: "uploading", fractionSent }));
    if (result.status === "ok") {
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
        <label htmlFor={`${id}-name`}>Group name (optional)</label>
        <input id={`${id}-name`} name="name" type="text" value={name} onChange={(event) => setName(event.target.value)} />
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
        <input id={`${id}-private`} name="private" type="checkbox" checked={isPrivate} onChange={(event) => setIsPrivate(event.target.checked)} />
        <label htmlFor={`${id}-private`}>Make these cards private</label>
      </div>
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
      {state.status === "done" ? <AlignmentReportView report={state.answer.report} pairCount={state.answer.pair_count} /> : null}
      <div className="account-form__actions">
        <Button type="submit" disabled={state.status === "uploading"} aria-busy={state.status === "uploading"}>
          {state.status === "uploading" ? "Uploading…" : "Upload"}
        </Button>
      </div>
    </form>
  );
}
