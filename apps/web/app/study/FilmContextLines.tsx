import type { FilmContext } from "@atelier/site-api";
import type { SpeechLanguage } from "./speech.ts";

/**
 * The film's neighbouring lines, quiet and folded: the line before and after in the card's front language, and once
 * the card is flipped in the other language too.
 */
export function FilmContextLines({ context, promptLanguage, flipped, open, onOpenChange }: {
  context: FilmContext | undefined;
  promptLanguage: SpeechLanguage;
  flipped: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  if (!context || (context.before === null && context.after === null)) return null;
  const answerLanguage: SpeechLanguage = promptLanguage === "sv" ? "en" : "sv";
  const lineIn = (line: NonNullable<FilmContext["before"]>, language: SpeechLanguage) => (language === "sv" ? line.swedish : line.english);
  const rows = [
    ["Line before", context.before],
    ["Line after", context.after],
  ] as const;
  return (
    <details className="flashcard-context" open={open} onToggle={(event) => onOpenChange(event.currentTarget.open)}>
      <summary>Context from the film</summary>
      <dl>
        {rows.map(([label, line]) =>
          line === null ? null : (
            <div key={label} className="flashcard-context__line">
              <dt>{label}</dt>
              <dd>
                <span lang={promptLanguage}>{lineIn(line, promptLanguage)}</span>
                {flipped ? (
                  <span className="flashcard-context__answer" lang={answerLanguage}>
                    {lineIn(line, answerLanguage)}
                  </span>
                ) : null}
              </dd>
            </div>
          ),
        )}
      </dl>
    </details>
  );
}
