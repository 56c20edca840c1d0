// `pnpm bench` ends here: merges every bench-results/*.json into report.json, report.md and scaling.svg.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readBenchResults, resolveBenchResultsDirectory, resolveRepositoryRoot } from "./bench-result.ts";
import { buildBenchReport, renderBenchReportMarkdown } from "./bench-report.ts";
import { describeMachine } from "./describe-machine.ts";
import { buildSubtitleScalingChart, renderScalingChartSvg } from "./scaling-chart.ts";

const chartFileName = "scaling.svg";
const directory = resolveBenchResultsDirectory();
const { results, problems } = readBenchResults(directory);
const report = buildBenchReport({ results, problems, machine: describeMachine(resolveRepositoryRoot()), generatedAt: new Date().toISOString() });

const subtitles = results.find((result) => result.name === "subtitles");
const chart = subtitles === undefined ? null : buildSubtitleScalingChart(subtitles.figures);
if (chart === null) rmSync(path.join(directory, chartFileName), { force: true });
else writeFileSync(path.join(directory, chartFileName), renderScalingChartSvg(chart));

writeFileSync(path.join(directory, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(path.join(directory, "report.md"), renderBenchReportMarkdown(report, { chartFileName: chart === null ? null : chartFileName }));

console.info(`Benchmark report from ${results.length} results (${results.map((result) => result.name).join(", ")}):`);
for (const row of report.keyFigures) console.info(`  ${row.area.padEnd(14)} ${row.figure.padEnd(62)} ${row.value}`);
for (const name of report.missingBenches) console.warn(`  No result from the ${name} bench.`);
for (const problem of problems) console.warn(`  ${problem}`);
console.info(`Written: ${path.join(directory, "report.md")}, report.json${chart === null ? "" : `, ${chartFileName}`}`);
