export { REPORT_FILE_NAMES, parseBenchResult, readBenchResults, resolveBenchResultsDirectory, resolveRepositoryRoot, writeBenchResult } from "./bench-result.ts";
export type { BenchFigure, BenchFigures, BenchResult, WriteBenchResultOptions } from "./bench-result.ts";
export { EXPECTED_BENCH_NAMES, buildBenchReport, figureAt, flattenFigures, formatNumber, renderBenchReportMarkdown } from "./bench-report.ts";
export type { BenchReport, BuildBenchReportInput, KeyFigure } from "./bench-report.ts";
export { describeMachine } from "./describe-machine.ts";
export type { MachineDescription } from "./describe-machine.ts";
export { buildSubtitleScalingChart, formatTickValue, logDomainOf, logTicksOf, renderScalingChartSvg } from "./scaling-chart.ts";
export type { ChartPanel, ChartSeries, ScalingChart } from "./scaling-chart.ts";
export { createSeededRandom } from "./seeded-random.ts";
