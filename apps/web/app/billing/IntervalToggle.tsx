import type { PricingInterval } from "@atelier/site-api";

const INTERVAL_LABELS = { month: "Monthly", year: "Yearly" } as const satisfies Record<PricingInterval, string>;

/** Month or year (spec 4.4), as a pair of buttons with aria-pressed inside a labelled group. */
export function IntervalToggle({ interval, onChange }: { interval: PricingInterval; onChange: (interval: PricingInterval) => void }) {
  return (
    <div className="interval-toggle" role="group" aria-label="Billing interval">
      {(["month", "year"] as const).map((option) => (
        <button
          key={option}
          type="button"
          className="interval-toggle__option"
          aria-pressed={interval === option}
          data-state={interval === option ? "on" : "off"}
          onClick={() => onChange(option)}
        >
          {INTERVAL_LABELS[option]}
        </button>
      ))}
    </div>
  );
}
