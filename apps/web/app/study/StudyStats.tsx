import type { GroupStats } from "./study-client.ts";

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

/** The box distribution as CSS bars over a plain list, so the numbers are text for everyone. */
export function BoxDistributionChart({ stats }: { stats: Pick<GroupStats, "box_distribution" | "memorized"> }) {
  const rows = [
    ["Box 1", stats.box_distribution.box1],
    ["Box 2", stats.box_distribution.box2],
    ["Box 3", stats.box_distribution.box3],
    ["Box 4", stats.box_distribution.box4],
    ["Box 5 (memorized)", stats.memorized],
  ] as const;
  const largest = Math.max(1, ...rows.map(([, count]) => count));
  return (
    <figure className="box-chart">
      <figcaption>Cards per box</figcaption>
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

/** The box as a row of five stars, named for screen readers. */
export function BoxStars({ box }: { box: number }) {
  return (
    <span className="box-stars" role="img" aria-label={`Box ${box} of 5`}>
      {"★".repeat(box)}
      {"☆".repeat(Math.max(0, 5 - box))}
    </span>
  );
}
