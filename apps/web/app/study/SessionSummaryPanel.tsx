import type { ReactNode } from "react";
import { Button } from "@atelier/ui";
import { describeReviewDelay } from "@atelier/leitner";
import type { SessionSummary } from "./session-state.ts";

/** The session's answers in figures, shown once every card has one, and when the first of the cards comes back. */
export function SessionSummaryPanel({ headingId, summary, backToConfig, onKeepGoing }: {
  headingId: string;
  summary: SessionSummary;
  backToConfig: ReactNode;
  onKeepGoing: () => void;
}) {
  return (
    <section className="study-summary" aria-labelledby={headingId}>
      <h2 id={headingId}>Session summary</h2>
      <dl className="study-summary__figures">
        <div>
          <dt>Right</dt>
          <dd>{summary.right}</dd>
        </div>
        <div>
          <dt>Again</dt>
          <dd>{summary.again}</dd>
        </div>
        <div>
          <dt>Moved up a box</dt>
          <dd>{summary.movedUp}</dd>
        </div>
        <div>
          <dt>Back to box 1</dt>
          <dd>{summary.movedDown}</dd>
        </div>
      </dl>
      {summary.nextDueInDays !== undefined ? <p>The first of these cards comes back {describeReviewDelay(summary.nextDueInDays)}.</p> : null}
      <div className="study-actions">
        <Button onClick={onKeepGoing}>Keep going</Button>
        {backToConfig}
      </div>
    </section>
  );
}
