import type { GroupStats } from "@atelier/site-api";

/** The four stats cards of the setup and session screens (spec §2.12, §2.13). */
export function StudyStatsCards({ stats }: { stats: Pick<GroupStats, "total" | "not_started" | "in_progress" | "memorized"> }) {
  const items = [
    ["Total Cards", stats.total],
    ["New Cards", stats.not_started],
    ["In Progress", stats.in_progress],
    ["Memorized", stats.memorized],
  ] as const;
  return (
    <dl className="study-stats">
      {items.map(([label, value]) => (
        <div key={label} className="study-stats__card">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Labelled counts as CSS bars over a plain list, so the numbers are text for everyone. */
function CountBars({ caption, rows }: { caption: string; rows: readonly (readonly [string, number])[] }) {
  const largest = Math.max(1, ...rows.map(([, count]) => count));
  return (
    <figure className="box-chart">
      <figcaption>{caption}</figcaption>
      <ul className="box-chart__list">
        {rows.map(([label, count]) => (
          <li key={label} className="box-chart__row">
            <span className="box-chart__label">{label}</span>
            <span className="box-chart__track" aria-hidden="true">
              <span className="box-chart__bar" style={{ width: `${(count / largest) * 100}%` }} />
            </span>
            <span className="box-chart__value">
              {count} {count === 1 ? "card" : "cards"}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The box distribution. */
export function BoxDistributionChart({ stats }: { stats: Pick<GroupStats, "box_distribution" | "memorized"> }) {
  return (
    <CountBars
      caption="Cards per box"
      rows={[
        ["Box 1", stats.box_distribution.box1],
        ["Box 2", stats.box_distribution.box2],
        ["Box 3", stats.box_distribution.box3],
        ["Box 4", stats.box_distribution.box4],
        ["Box 5 (memorized)", stats.memorized],
      ]}
    />
  );
}

const MILLISECONDS_PER_DAY = 24 * 60 * 60 * 1000;

/** "Today", "Tomorrow", then "Thu 27 Nov": the schedule's days are UTC days, and so are these names. */
export function forecastDayLabel(dayIndex: number, now: Date): string {
  if (dayIndex === 0) return "Today";
  if (dayIndex === 1) return "Tomorrow";
  return new Date(now.getTime() + dayIndex * MILLISECONDS_PER_DAY).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
}

/** How many cards fall due on each of the next 7 days; today's bar holds the overdue ones too. */
export function DueForecastChart({ forecast, now }: { forecast: readonly number[]; now: Date }) {
  if (forecast.length === 0) return null;
  return <CountBars caption="Due in the next 7 days" rows={forecast.map((count, dayIndex) => [forecastDayLabel(dayIndex, now), count] as const)} />;
}

/** The box as a row of five stars, named for screen readers. */
export function BoxStars({ box }: { box: number }) {
  return (
    <span className="box-stars" role="img" aria-label={`Box ${box} of 5`}>
      {"★".repeat(box)}
      {"☆".repeat(Math.max(0, 5 - box))}
    </span>
  );
}

/** The quiet mark of a pair the alignment was unsure of: a learner should check it. */
export function DoubtfulPairMark() {
  return (
    <span className="doubtful-pair-mark" title="The two files' timing did not settle this pair well: check that the sentences match.">
      <span aria-hidden="true">?</span>
      <span className="atelier-visually-hidden">Check this pair</span>
    </span>
  );
}
