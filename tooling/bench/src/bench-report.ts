import type { BenchFigure, BenchFigures, BenchResult } from "./bench-result.ts";
import type { MachineDescription } from "./describe-machine.ts";
import { engineLabelOf, figureAt, flattenFigures, formatKilobytes, formatMegabytes, formatNumber, formatRatio, formatScore, isObject, missing, numberAt, objectAt, renderTable, trimTrailingBlankLines, type Table } from "./bench-report-format.ts";
export { figureAt, flattenFigures, formatNumber } from "./bench-report-format.ts";
import { hostileBodiesOf, largestAlignmentOf, renderHostileInputSection, renderScaleOutSection } from "./bench-report-operations.ts";
import { collectSubtitleCardKeyFigures, renderSubtitleCardLines } from "./bench-report-subtitles.ts";

/** The benches `pnpm bench` runs itself; a report without one of them says so. Others (server-fuzz, …) are shown when present. */
export const EXPECTED_BENCH_NAMES = ["site", "identity", "study", "subtitles", "fresh-clone"] as const;

export interface KeyFigure {
  area: string;
  figure: string;
  value: string;
}

export interface BenchReport {
  generatedAt: string;
  machine: MachineDescription;
  keyFigures: KeyFigure[];
  benches: Record<string, { measuredAt: string; figures: BenchFigures; notes: string[] }>;
  missingBenches: string[];
  problems: string[];
  notes: string[];
}

export interface BuildBenchReportInput {
  results: BenchResult[];
  machine: MachineDescription;
  generatedAt: string;
  /** Sentences about result files that could not be read. */
  problems?: string[];
}

const staleAfterMilliseconds = 24 * 60 * 60 * 1000;

function pagesOf(site: BenchResult | undefined): Array<[string, BenchFigure]> {
  const pages = site?.figures.pages;
  return isObject(pages) ? Object.entries(pages) : [];
}

function enginesOf(study: BenchResult | undefined): Array<[string, BenchFigure]> {
  const engines = study?.figures.engines;
  return isObject(engines) ? Object.entries(engines) : [];
}


/** Issue 16's goals for the throughput ratios: the session call and a rating, each ÷ bare node:http in the same run. */
export const throughputRatioGoals = { session: 0.5, rating: { sqlite: 0.3, postgresql: 0.15 } as Record<string, number> } as const;

/** Issue 16's goal for Atelier's requests per second ÷ a real django-allauth's on the same calls. */
export const allauthComparisonGoal = 10;

/** Issue 16's goal for each study call's p95 ÷ GET /site-config's p95, the calls taken in turn. */
export const interleavedRatioGoal = 5;

/** Issue 16's goal for aligning a 20,000 × 20,000-cue pair, warm. */
export const alignmentGoal = { cues: 20_000, warmMilliseconds: 600 } as const;

/** Issue 16's goal for the 200 learners' p99 on each engine, with no error. */
export const studyLoadP99GoalMilliseconds: Record<string, number> = { sqlite: 100, postgresql: 150 };

const metOrNot = (met: boolean) => (met ? "met" : "not met");

/** The 200-learner load of apps/resilience, one row for both engines: p99 (and after the warm-up), errors, throughput. */
function studyLoadKeyFigure(load: BenchResult | undefined): KeyFigure | null {
  if (load === undefined) return null;
  // The load writes flat names ("sqlite.p99Milliseconds"), not nested figures.
  const at = (engine: string, key: string) => {
    const value = load.figures[`${engine}.${key}`];
    return typeof value === "number" ? value : undefined;
  };
  const engines = Object.keys(studyLoadP99GoalMilliseconds).filter((engine) => at(engine, "p99Milliseconds") !== undefined);
  if (engines.length === 0) return null;
  const first = engines[0] as string;
  const described = engines.map((engine) => {
    const errors = at(engine, "errors");
    return `${engineLabelOf(engine)} ${formatNumber(at(engine, "p99Milliseconds"), " ms")} (steady ${formatNumber(at(engine, "steadyP99Milliseconds"), " ms")}), ${formatNumber(errors)} ${errors === 1 ? "error" : "errors"}, ${formatNumber(at(engine, "requestsPerSecond"))} req/s`;
  });
  const met = engines.every((engine) => {
    const p99 = at(engine, "p99Milliseconds");
    const goal = studyLoadP99GoalMilliseconds[engine];
    return p99 !== undefined && goal !== undefined && p99 <= goal && at(engine, "errors") === 0;
  });
  const goals = engines.map((engine) => `≤ ${formatNumber(studyLoadP99GoalMilliseconds[engine])}`).join(" / ");
  return {
    area: "Load",
    figure: `${formatNumber(at(first, "learners"))} learners × ${formatNumber(at(first, "seconds"))} s, p99 ${engines.map(engineLabelOf).join(" / ")}`,
    value: `${described.join("; ")} (goal ${goals} ms and no error, ${metOrNot(met)})`,
  };
}

/** The identity bench's comparison with django-allauth: its calls, or why it was not measured (no allauth here). */
function allauthComparisonOf(identity: BenchResult | undefined): { reason: string } | { calls: Array<[string, BenchFigure]>; server: string; loadAverage: number | undefined } | null {
  const comparison = identity === undefined ? undefined : figureAt(identity.figures, "allauthComparison");
  if (!isObject(comparison)) return null;
  if (comparison.measured !== true) return { reason: typeof comparison.reason === "string" ? comparison.reason : "not measured" };
  const server = typeof comparison.allauthServer === "string" ? comparison.allauthServer : missing;
  return { calls: Object.entries(objectAt(comparison, "calls")), server, loadAverage: numberAt(comparison, "loadAverage") };
}

function goalOf(ratio: number | undefined, goal: number | undefined): string {
  if (goal === undefined) return missing;
  return `≥ ${formatNumber(goal)}${ratio === undefined ? "" : ` (${metOrNot(ratio >= goal)})`}`;
}

/** "0.42×", or "0.42× (rounds 0.40–0.45×)" when the ratio is the median of rounds. */
function formatRatioOfRounds(figures: BenchFigure | undefined): string {
  const ratio = numberAt(figures, "ratioToBare");
  const lowest = numberAt(figures, "lowestRoundRatio");
  const highest = numberAt(figures, "highestRoundRatio");
  return lowest === undefined || highest === undefined ? formatRatio(ratio) : `${formatRatio(ratio)} (rounds ${lowest.toFixed(2)}–${formatRatio(highest)})`;
}

/** "0.42× (4,200 vs 10,000 req/s; goal ≥ 0.5 (not met); load 1.2)": a ratio, what it came from, its goal and the load. */
function describeRatio(figures: BenchFigure | undefined, goal: number | undefined): string {
  const ratio = numberAt(figures, "ratioToBare");
  const load = numberAt(figures, "loadAverage");
  return `${formatRatioOfRounds(figures)} (${formatNumber(numberAt(figures, "requestsPerSecond"))} vs ${formatNumber(numberAt(figures, "bareRequestsPerSecond"))} req/s; goal ${goalOf(ratio, goal)}${load === undefined ? "" : `; load ${formatNumber(load)}`})`;
}

function lastIndexOf(values: BenchFigure | undefined): number {
  return Array.isArray(values) ? values.length - 1 : -1;
}

function collectKeyFigures(byName: Map<string, BenchResult>): KeyFigure[] {
  const rows: KeyFigure[] = [];
  const pages = pagesOf(byName.get("site"));
  if (pages.length > 0) {
    const extremes = (key: string, format: (value: number | undefined) => string) => {
      const measured = pages.flatMap(([pagePath, page]) => {
        const value = numberAt(page, key);
        return value === undefined ? [] : [{ pagePath, value }];
      });
      if (measured.length === 0) return missing;
      const lowest = measured.reduce((best, entry) => (entry.value < best.value ? entry : best));
      const highest = measured.reduce((best, entry) => (entry.value > best.value ? entry : best));
      if (format(lowest.value) === format(highest.value)) return `${format(lowest.value)} on every page`;
      return `${format(lowest.value)} (${lowest.pagePath}) to ${format(highest.value)} (${highest.pagePath})`;
    };
    const lowestScores = ["accessibility", "seo", "bestPractices"].map((key) => {
      const values = pages.map(([, page]) => numberAt(page, key)).filter((value): value is number => value !== undefined);
      return formatScore(values.length === 0 ? undefined : Math.min(...values));
    });
    const runs = Math.max(...pages.map(([, page]) => numberAt(page, "lighthouseRuns") ?? 1));
    const ofRuns = runs > 1 ? `, median of ${runs} runs` : "";
    rows.push({ area: "Public pages", figure: `Lighthouse performance, ${pages.length} pages${ofRuns}`, value: extremes("performance", formatScore) });
    rows.push({ area: "Public pages", figure: `Lighthouse LCP${ofRuns}`, value: extremes("largestContentfulPaintMs", (value) => formatNumber(value, " ms")) });
    rows.push({ area: "Public pages", figure: "Lighthouse accessibility / SEO / best practices, lowest", value: lowestScores.join(" / ") });
    rows.push({ area: "Public pages", figure: "transfer on first load", value: extremes("totalBytes", formatKilobytes) });
    rows.push({ area: "Public pages", figure: "JavaScript on first load (gzip)", value: extremes("javaScriptGzipBytes", formatKilobytes) });
  }
  const controlPages = controlPagesOf(byName.get("site"));
  if (controlPages !== null) {
    rows.push({ area: "Public pages", figure: "Lighthouse of a control page (text, no script) on this machine: bare / with the site's headers", value: controlPages.map(([, control]) => describeControlRun(control)).join(" / ") });
  }
  const identity = byName.get("identity");
  if (identity !== undefined) {
    rows.push({
      area: "Throughput",
      figure: "GET session (signed in) ÷ bare node:http",
      value: describeRatio(figureAt(identity.figures, "session"), throughputRatioGoals.session),
    });
  }
  const comparison = allauthComparisonOf(identity);
  if (comparison !== null) {
    rows.push({
      area: "Throughput",
      figure: "requests/s ÷ django-allauth, same calls",
      value:
        "reason" in comparison
          ? comparison.reason
          : `${comparison.calls.map(([call, figures]) => `${call} ×${formatNumber(numberAt(figures, "ratio"))}`).join(", ")} (goal ≥ ${allauthComparisonGoal} each, ${metOrNot(comparison.calls.every(([, figures]) => (numberAt(figures, "ratio") ?? 0) >= allauthComparisonGoal))}; allauth served by ${comparison.server}${comparison.loadAverage === undefined ? "" : `; load ${formatNumber(comparison.loadAverage)}`})`,
    });
  }
  const study = byName.get("study");
  for (const [engine, figures] of enginesOf(study)) {
    rows.push({
      area: "Throughput",
      figure: `POST rate (${engineLabelOf(engine)}) ÷ bare node:http`,
      value: describeRatio(figureAt(figures, "rating"), throughputRatioGoals.rating[engine]),
    });
  }
  const engines = enginesOf(study);
  for (const [engine, figures] of engines) {
    const interleaved = Object.entries(objectAt(figures, "interleaved"))
      .filter(([call]) => call !== "GET /site-config")
      .map(([call, latency]) => [call, numberAt(latency, "ratioToSiteConfigP95")] as const);
    if (interleaved.length === 0) continue;
    rows.push({
      area: "Study queries",
      figure: `p95 ÷ GET /site-config's p95, interleaved (${engineLabelOf(engine)})`,
      value: `${interleaved.map(([call, ratio]) => `${call} ×${formatNumber(ratio)}`).join(", ")} (goal ≤ ×${interleavedRatioGoal} each, ${metOrNot(interleaved.every(([, ratio]) => (ratio ?? Number.POSITIVE_INFINITY) <= interleavedRatioGoal))})`,
    });
  }
  const queryNames = [...new Set(engines.flatMap(([, figures]) => Object.keys(objectAt(figures, "queries"))))];
  for (const query of queryNames) {
    rows.push({
      area: "Study queries",
      figure: `${query}, p50 ${engines.map(([engine]) => engineLabelOf(engine)).join(" / ")}`,
      value: engines.map(([, figures]) => formatNumber(numberAt(objectAt(figures, "queries")[query], "p50Milliseconds"), " ms")).join(" / "),
    });
  }
  const studyLoad = studyLoadKeyFigure(byName.get("resilience-load"));
  if (studyLoad !== null) rows.push(studyLoad);
  const subtitles = byName.get("subtitles");
  if (subtitles !== undefined) {
    for (const kind of ["parse", "alignment"] as const) {
      const cues = figureAt(subtitles.figures, `${kind}.cues`);
      const last = lastIndexOf(cues);
      if (last < 0) continue;
      const at = (key: string) => {
        const values = figureAt(subtitles.figures, `${kind}.${key}`);
        const value = Array.isArray(values) ? values[last] : undefined;
        return typeof value === "number" ? value : undefined;
      };
      const warm = at("warmMilliseconds");
      const alignmentGoalText =
        kind === "alignment" && at("cues") === alignmentGoal.cues && warm !== undefined ? ` (goal ≤ ${formatNumber(alignmentGoal.warmMilliseconds, " ms")} warm, ${metOrNot(warm <= alignmentGoal.warmMilliseconds)})` : "";
      rows.push({
        area: "Subtitles",
        figure: `${kind === "parse" ? "Parse" : "Align"} ${formatNumber(at("cues"))} cues: warm time, peak RSS Δ`,
        value: `${formatNumber(warm, " ms")}, ${formatMegabytes(at("peakRssDeltaBytes"))}${alignmentGoalText}`,
      });
    }
    rows.push(...collectSubtitleCardKeyFigures(subtitles));
  }
  const hostileBodies = hostileBodiesOf(byName.get("hostile-input"));
  if (hostileBodies.length > 0) {
    const largest = (key: string) => {
      const values = hostileBodies.map(([, body]) => numberAt(body, key)).filter((value): value is number => value !== undefined);
      return values.length === 0 ? undefined : Math.max(...values);
    };
    const statuses = [...new Set(hostileBodies.map(([, body]) => formatNumber(numberAt(body, "status"))))].join(", ");
    rows.push({
      area: "Hostile input",
      figure: `${hostileBodies.length} oversized bodies: statuses, slowest answer, largest server RSS Δ`,
      value: `${statuses}; ${formatNumber(largest("millisecondsToAnswer"), " ms")}; ${formatNumber(largest("serverResidentGrowthMegabytes"), " MB")}`,
    });
  }
  const largestAlignment = largestAlignmentOf(byName.get("hostile-input"));
  if (largestAlignment !== undefined) {
    rows.push({
      area: "Hostile input",
      figure: "GET /site-config while the largest accepted pair is aligned twice at once: p50 / p99 / max",
      value: `${formatNumber(numberAt(largestAlignment, "siteConfigMedianMilliseconds"), " ms")} / ${formatNumber(numberAt(largestAlignment, "siteConfigP99Milliseconds"), " ms")} / ${formatNumber(numberAt(largestAlignment, "siteConfigMaximumMilliseconds"), " ms")}`,
    });
  }
  const freshClone = byName.get("fresh-clone");
  if (freshClone !== undefined) {
    rows.push({
      area: "Fresh clone",
      figure: "clone + install + build and start → first page (total)",
      value: `${formatNumber(numberAt(freshClone.figures, "cloneSeconds"), " s")} + ${formatNumber(numberAt(freshClone.figures, "installSeconds"), " s")} + ${formatNumber(numberAt(freshClone.figures, "buildAndStartSeconds"), " s")} (${formatNumber(numberAt(freshClone.figures, "totalSeconds"), " s")})`,
    });
  }
  return rows;
}

/**
 * Merges the benches' results into one report: machine, key figures, every bench's figures and notes.
 *
 * @example
 * const report = buildBenchReport({ results: readBenchResults(directory).results, machine: describeMachine(root), generatedAt: new Date().toISOString() });
 */
export function buildBenchReport(input: BuildBenchReportInput): BenchReport {
  const byName = new Map(input.results.map((result) => [result.name, result]));
  const benches: BenchReport["benches"] = {};
  for (const result of input.results) benches[result.name] = { measuredAt: result.measuredAt, figures: result.figures, notes: result.notes };
  const loadAverage = input.machine.loadAverage.map((value) => value.toFixed(2)).join(", ");
  return {
    generatedAt: input.generatedAt,
    machine: input.machine,
    keyFigures: collectKeyFigures(byName),
    benches,
    missingBenches: EXPECTED_BENCH_NAMES.filter((name) => !byName.has(name)),
    problems: [
      ...(input.problems ?? []),
      ...input.results
        .filter((result) => Date.parse(input.generatedAt) - Date.parse(result.measuredAt) > staleAfterMilliseconds)
        .map((result) => `The ${result.name} result was measured ${result.measuredAt}, more than a day before this report; run its bench again to compare like with like.`),
    ],
    notes: [
      `One run on one machine (${input.machine.cores} cores; load average ${loadAverage} when the report was written). Throughput and timings move with whatever else the machine is doing; the ratios to a bare node:http server measured in the same run are the figures to compare between runs.`,
    ],
  };
}


/** A page's median over several Lighthouse runs with their range, "1,196 ms (1,151 ms–1,502 ms)"; one run's value alone. */
function withRunRange(page: BenchFigure, key: string, format: (value: number | undefined) => string): string {
  const runs = figureAt(page, `${key}Runs`);
  const values = Array.isArray(runs) ? runs.filter((value): value is number => typeof value === "number") : [];
  const median = format(numberAt(page, key));
  if (values.length < 2) return median;
  return `${median} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/** The site bench's control page, bare and with the site's document headers, when both were measured. */
function controlPagesOf(site: BenchResult | undefined): Array<[string, BenchFigure]> | null {
  const controls = objectAt(site?.figures, "controlPages");
  const measured = (["bare", "siteHeaders"] as const).flatMap((key) => (controls[key] === undefined ? [] : [[key, controls[key]] as [string, BenchFigure]]));
  return measured.length === 0 ? null : measured;
}

const describeControlRun = (control: BenchFigure) => `${formatScore(numberAt(control, "performance"))} (TBT ${formatNumber(numberAt(control, "totalBlockingTimeMs"), " ms")}, LCP ${formatNumber(numberAt(control, "largestContentfulPaintMs"), " ms")})`;

function renderControlPages(site: BenchResult): string[] {
  const controls = controlPagesOf(site);
  if (controls === null) return [];
  const benchmarkIndexes = [...pagesOf(site), ...controls].map(([, figures]) => numberAt(figures, "benchmarkIndex")).filter((value): value is number => value !== undefined);
  return [
    "",
    "The machine's own share: a control page (a text page without script or image, from a bare node:http server) measured the same way.",
    "",
    ...renderTable({
      columns: ["control page", "headers", "performance", "LCP", "TBT"],
      rows: controls.map(([key, control]) => [
        key === "bare" ? "bare" : "with the site's document headers",
        key === "bare" ? "Content-Type only" : String(figureAt(control, "headers") ?? missing),
        withRunRange(control, "performance", formatScore),
        withRunRange(control, "largestContentfulPaintMs", (value) => formatNumber(value, " ms")),
        formatNumber(numberAt(control, "totalBlockingTimeMs"), " ms"),
      ]),
    }),
    ...(benchmarkIndexes.length === 0
      ? []
      : ["", `Lighthouse's benchmark index of this machine over the runs: ${formatNumber(Math.min(...benchmarkIndexes))} to ${formatNumber(Math.max(...benchmarkIndexes))} (medians per page).`]),
  ];
}

function renderSitePages(site: BenchResult): Table {
  return {
    columns: ["page", "JS (gzip)", "CSS (gzip)", "images", "total transfer", "requests", "performance", "accessibility", "SEO", "best practices", "LCP", "CLS", "TBT"],
    rows: pagesOf(site).map(([pagePath, page]) => [
      `\`${pagePath}\``,
      formatKilobytes(numberAt(page, "javaScriptGzipBytes")),
      formatKilobytes(numberAt(page, "cssGzipBytes")),
      formatKilobytes(numberAt(page, "imageBytes")),
      formatKilobytes(numberAt(page, "totalBytes")),
      formatNumber(numberAt(page, "requestCount")),
      withRunRange(page, "performance", formatScore),
      formatScore(numberAt(page, "accessibility")),
      formatScore(numberAt(page, "seo")),
      formatScore(numberAt(page, "bestPractices")),
      withRunRange(page, "largestContentfulPaintMs", (value) => formatNumber(value, " ms")),
      numberAt(page, "cumulativeLayoutShift")?.toFixed(3) ?? missing,
      formatNumber(numberAt(page, "totalBlockingTimeMs"), " ms"),
    ]),
  };
}

function throughputCells(figures: BenchFigure | undefined, goal: number | undefined): string[] {
  const ratio = numberAt(figures, "ratioToBare");
  return [
    formatNumber(numberAt(figures, "requestsPerSecond")),
    formatNumber(numberAt(figures, "bareRequestsPerSecond")),
    formatRatioOfRounds(figures),
    goalOf(ratio, goal),
    formatNumber(numberAt(figures, "cpuMicrosecondsPerRequest"), " µs"),
    formatNumber(numberAt(figures, "bareCpuMicrosecondsPerRequest"), " µs"),
    formatNumber(numberAt(figures, "loadAverage")),
  ];
}

function renderThroughput(identity: BenchResult | undefined, study: BenchResult | undefined): Table {
  const rows: string[][] = [];
  if (identity !== undefined) {
    const session = figureAt(identity.figures, "session");
    rows.push(["GET /_allauth/browser/v1/auth/session (signed in)", "SQLite", ...throughputCells(session, throughputRatioGoals.session)]);
  }
  for (const [engine, figures] of enginesOf(study)) {
    rows.push(["POST /api/subtitle-pairs/:id/rate/", engineLabelOf(engine), ...throughputCells(figureAt(figures, "rating"), throughputRatioGoals.rating[engine])]);
  }
  return { columns: ["endpoint", "engine", "requests/s", "bare node:http requests/s", "ratio", "goal (issue 16)", "server CPU per answer", "bare CPU per answer", "load average"], rows };
}

function renderAllauthComparison(calls: Array<[string, BenchFigure]>): Table {
  const rows = calls.map(([call, figures]) => {
    const ratio = numberAt(figures, "ratio");
    const lowest = numberAt(figures, "lowestRoundRatio");
    const highest = numberAt(figures, "highestRoundRatio");
    return [
      call,
      formatNumber(numberAt(figures, "atelierRequestsPerSecond")),
      formatNumber(numberAt(figures, "allauthRequestsPerSecond")),
      `×${formatNumber(ratio)}${lowest === undefined || highest === undefined ? "" : ` (rounds ×${formatNumber(lowest)}–${formatNumber(highest)})`}`,
      `≥ ×${allauthComparisonGoal}${ratio === undefined ? "" : ` (${metOrNot(ratio >= allauthComparisonGoal)})`}`,
    ];
  });
  return { columns: ["call", "Atelier requests/s", "django-allauth requests/s", "Atelier ÷ allauth", "goal (issue 16)"], rows };
}

function renderStudyQueries(study: BenchResult): Table {
  const engines = enginesOf(study);
  const queryNames = [...new Set(engines.flatMap(([, figures]) => Object.keys(objectAt(figures, "queries"))))];
  const rows = queryNames.map((query) => [
    query,
    ...engines.flatMap(([, figures]) => {
      const latency = objectAt(figures, "queries")[query];
      return [formatNumber(numberAt(latency, "p50Milliseconds"), " ms"), formatNumber(numberAt(latency, "p95Milliseconds"), " ms")];
    }),
  ]);
  rows.push(["seeding the group", ...engines.flatMap(([, figures]) => [formatNumber(numberAt(figures, "seedMilliseconds"), " ms"), ""])]);
  rows.push([
    "POST rate, sequential / 10 clients (req/s)",
    ...engines.flatMap(([, figures]) => [formatNumber(numberAt(figures, "rating.sequentialRequestsPerSecond")), formatNumber(numberAt(figures, "rating.tenClientsRequestsPerSecond"))]),
  ]);
  return { columns: ["query", ...engines.flatMap(([engine]) => [`${engineLabelOf(engine)} p50`, `${engineLabelOf(engine)} p95`])], rows };
}

/** Issue 16's figure: each study call's p95 over GET /site-config's p95, the calls taken in turn in one loop. */
function renderInterleavedStudyCalls(study: BenchResult): Table | null {
  const engines = enginesOf(study);
  const callNames = [...new Set(engines.flatMap(([, figures]) => Object.keys(objectAt(figures, "interleaved"))))].filter((call) => call !== "GET /site-config");
  if (callNames.length === 0) return null;
  const rows = callNames.map((call) => [
    call,
    ...engines.flatMap(([, figures]) => {
      const latency = objectAt(figures, "interleaved")[call];
      return [formatNumber(numberAt(latency, "p95Milliseconds"), " ms"), `×${formatNumber(numberAt(latency, "ratioToSiteConfigP95"))}`];
    }),
  ]);
  rows.push(["GET /site-config (the baseline)", ...engines.flatMap(([, figures]) => [formatNumber(numberAt(objectAt(figures, "interleaved")["GET /site-config"], "p95Milliseconds"), " ms"), "×1"])]);
  return { columns: ["call", ...engines.flatMap(([engine]) => [`${engineLabelOf(engine)} p95`, `${engineLabelOf(engine)} ÷ config`])], rows };
}

function renderSubtitleScaling(subtitles: BenchResult, kind: "parse" | "alignment"): Table | null {
  const cues = figureAt(subtitles.figures, `${kind}.cues`);
  if (!Array.isArray(cues)) return null;
  const column = (key: string, index: number) => {
    const values = figureAt(subtitles.figures, `${kind}.${key}`);
    const value = Array.isArray(values) ? values[index] : undefined;
    return typeof value === "number" ? value : undefined;
  };
  return {
    columns: ["cues", "cold", "warm", "heap Δ (result kept)", "peak RSS Δ"],
    rows: cues.map((_, index) => [
      formatNumber(column("cues", index)),
      formatNumber(column("coldMilliseconds", index), " ms"),
      formatNumber(column("warmMilliseconds", index), " ms"),
      formatMegabytes(column("retainedHeapBytes", index)),
      formatMegabytes(column("peakRssDeltaBytes", index)),
    ]),
  };
}

function renderFreshClone(freshClone: BenchResult): Table {
  const seconds = (key: string) => formatNumber(numberAt(freshClone.figures, key), " s");
  return {
    columns: ["git clone", "pnpm install", "pnpm start → / answers 200", "total"],
    rows: [[seconds("cloneSeconds"), seconds("installSeconds"), seconds("buildAndStartSeconds"), seconds("totalSeconds")]],
  };
}

/** The `bodies` of the hostile-input bench, in the order it sent them. */


const maximumGenericRows = 60;

/** The report as markdown: key figures first, then one section per area, notes and problems last. */
export function renderBenchReportMarkdown(report: BenchReport, options: { chartFileName?: string | null } = {}): string {
  const results = new Map(Object.entries(report.benches).map(([name, bench]) => [name, { name, ...bench }]));
  const { machine } = report;
  const lines: string[] = [
    "# Benchmark report",
    "",
    `Written ${report.generatedAt} by \`pnpm bench\`. Machine: ${machine.cpuModel}, ${machine.cores} cores, ${formatNumber(machine.memoryBytes / 1024 ** 3, " GiB")} memory, ${machine.platform}, Node ${machine.nodeVersion}. Commit ${machine.gitCommit ?? "unknown"}${machine.gitWorkingTree === "modified" ? " with uncommitted changes in the work tree" : ""}.`,
    "",
  ];
  const section = (title: string, body: string[]) => lines.push(`## ${title}`, "", ...body, "");

  if (report.keyFigures.length > 0) {
    section("Key figures", renderTable({ columns: ["area", "figure", "value"], rows: report.keyFigures.map((row) => [row.area, row.figure, row.value]) }));
  }
  const site = results.get("site");
  if (site !== undefined) {
    section("Public pages: page weight and Lighthouse (mobile)", [
      ...renderTable(renderSitePages(site)),
      "",
      "Scores out of 100. Transfer sizes are what the browser received on a first load (JavaScript and CSS compressed).",
      ...renderControlPages(site),
    ]);
  }
  const identity = results.get("identity");
  const study = results.get("study");
  if (identity !== undefined || study !== undefined) {
    const loginP50 = numberAt(identity?.figures, "login.p50Milliseconds");
    section("Throughput against a bare node:http server", [
      ...renderTable(renderThroughput(identity, study)),
      "",
      "autocannon in a child process; each endpoint is measured in rounds, each a run of a bare node:http JSON server in the same process followed by a run of the endpoint, and the ratio is the median of the rounds' endpoint ÷ bare (the lowest and highest round beside it). CPU per answer is the server process's CPU time over a run divided by its answers. The load average (one minute) is the machine's just before the rounds: the busier the machine, the less the bare server reaches, and the ratios move with it.",
      ...(loginP50 === undefined ? [] : ["", `Sign-in (argon2id), sequential: p50 ${formatNumber(loginP50, " ms")}, p99 ${formatNumber(numberAt(identity?.figures, "login.p99Milliseconds"), " ms")}.`]),
    ]);
  }
  const comparison = allauthComparisonOf(identity);
  if (comparison !== null) {
    section(
      "Against django-allauth on the same calls",
      "reason" in comparison
        ? [`The identity bench's comparison: ${comparison.reason}.`]
        : [
            ...renderTable(renderAllauthComparison(comparison.calls)),
            "",
            `allauth served by ${comparison.server}, on this machine; each round runs allauth then Atelier (autocannon as above for the GETs, which carry the CSRF cookie and the session a returning browser sends), and the ratio is the median of the rounds'. Sign-ins run one after another, alternating between the servers; their requests per second is 1,000 over the mean duration, and the password hash is most of it.`,
          ],
    );
  }
  if (study !== undefined) {
    const interleaved = renderInterleavedStudyCalls(study);
    section(`Study queries on both engines (${formatNumber(numberAt(study.figures, "pairCount"))} pairs)`, [
      ...renderTable(renderStudyQueries(study)),
      ...(interleaved === null
        ? []
        : ["", "The same calls taken in turn with GET /site-config in one loop, so the machine's noise falls on all alike (issue 16's goal: ×5 at most):", "", ...renderTable(interleaved)]),
    ]);
  }
  const subtitles = results.get("subtitles");
  if (subtitles !== undefined) {
    const body: string[] = [];
    if (options.chartFileName) body.push(`![Subtitle parse and alignment scaling](${options.chartFileName})`, "");
    for (const kind of ["parse", "alignment"] as const) {
      const table = renderSubtitleScaling(subtitles, kind);
      if (table !== null) body.push(`${kind === "parse" ? "Parse (synthetic TTML)" : "Alignment (synthetic English/Swedish pair)"}:`, "", ...renderTable(table), "");
    }
    const realFilm = figureAt(subtitles.figures, "realFilm");
    if (isObject(realFilm)) {
      body.push(
        `A real film (the en–et OPUS fixtures, ${formatNumber(numberAt(realFilm, "englishCues"))} × ${formatNumber(numberAt(realFilm, "swedishCues"))} cues): alignment ${formatNumber(numberAt(realFilm, "warmMilliseconds"), " ms")} warm, ${formatNumber(numberAt(realFilm, "coldMilliseconds"), " ms")} cold, peak RSS Δ ${formatMegabytes(numberAt(realFilm, "peakRssDeltaBytes"))}, ${formatNumber(numberAt(realFilm, "pairCount"))} pairs.`,
      );
    }
    if (body.at(-1) !== "") body.push("");
    body.push(...renderSubtitleCardLines(subtitles));
    section("Subtitles: parse and alignment across sizes", trimTrailingBlankLines(body));
  }
  const freshClone = results.get("fresh-clone");
  if (freshClone !== undefined) section("Fresh clone to first page", renderTable(renderFreshClone(freshClone)));

  const hostileInputSection = renderHostileInputSection(results);
  if (hostileInputSection !== null) section("Hostile input", hostileInputSection);

  const scaleOutSection = renderScaleOutSection(results, machine);
  if (scaleOutSection !== null) section("Several processes on one PostgreSQL, kill, drain and backup", scaleOutSection);

  const dedicated = new Set<string>([...EXPECTED_BENCH_NAMES, "hostile-input", "resilience-scale-out", "server-backup"]);
  for (const [name, result] of results) {
    if (dedicated.has(name)) continue;
    const rows = flattenFigures(result.figures);
    section(`${name}`, [
      ...renderTable({ columns: ["figure", "value"], rows: rows.slice(0, maximumGenericRows) }),
      ...(rows.length > maximumGenericRows ? ["", `${rows.length - maximumGenericRows} more figures in report.json.`] : []),
    ]);
  }

  const notes = [...report.notes, ...[...results.values()].flatMap((result) => result.notes.map((note) => `${result.name}: ${note}`))];
  section("Notes", notes.map((note) => `- ${note}`));
  const measured = [...results.values()].map((result) => `${result.name} ${result.measuredAt}`);
  if (measured.length > 0) lines.push(`Measured: ${measured.join("; ")}.`, "");
  if (report.missingBenches.length > 0 || report.problems.length > 0) {
    section("Missing", [
      ...report.missingBenches.map((name) => `- No result from the ${name} bench.`),
      ...report.problems.map((problem) => `- ${problem}`),
    ]);
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
