import type { BenchFigure, BenchResult } from "./bench-result.ts";

/** Helpers shared by the report's sections: reading figures, formatting numbers, Markdown tables. */

export type Table = { columns: string[]; rows: string[][] };

export const missing = "—";

export function isObject(value: BenchFigure | undefined): value is { [key: string]: BenchFigure } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a dotted path ("engines.sqlite.rating.ratioToBare"), or undefined. */
export function figureAt(figures: BenchFigure | undefined, dottedPath: string): BenchFigure | undefined {
  let current: BenchFigure | undefined = figures;
  for (const key of dottedPath.split(".")) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function objectAt(figures: BenchFigure | undefined, dottedPath: string): { [key: string]: BenchFigure } {
  const value = figureAt(figures, dottedPath);
  return isObject(value) ? value : {};
}

export function numberAt(figures: BenchFigure | undefined, dottedPath: string): number | undefined {
  const value = figureAt(figures, dottedPath);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** 1,234 for large values, 12.3 and 1.23 for small ones; "—" when absent. */
export function formatNumber(value: number | undefined, unit = ""): string {
  if (value === undefined) return missing;
  const magnitude = Math.abs(value);
  const maximumFractionDigits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return `${value.toLocaleString("en-US", { maximumFractionDigits })}${unit}`;
}

export const formatKilobytes = (bytes: number | undefined) => (bytes === undefined ? missing : formatNumber(bytes / 1024, " KB"));
export const formatMegabytes = (bytes: number | undefined) => (bytes === undefined ? missing : formatNumber(bytes / 1_048_576, " MB"));
export const formatScore = (score: number | undefined) => (score === undefined ? missing : String(Math.round(score * 100)));
export const formatRatio = (ratio: number | undefined) => (ratio === undefined ? missing : `${ratio.toFixed(2)}×`);

export function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

export function renderTable({ columns, rows }: Table): string[] {
  return [`| ${columns.map(escapeCell).join(" | ")} |`, `|${columns.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.map(escapeCell).join(" | ")} |`)];
}

export function flatNumberOf(result: BenchResult | undefined, key: string): number | undefined {
  const value = isObject(result?.figures) ? result.figures[key] : undefined;
  return typeof value === "number" ? value : undefined;
}

export const engineLabels: Record<string, string> = { sqlite: "SQLite", postgresql: "PostgreSQL" };
export const engineLabelOf = (engine: string) => engineLabels[engine] ?? engine;
export function trimTrailingBlankLines(lines: string[]): string[] {
  const trimmed = [...lines];
  while (trimmed.at(-1) === "") trimmed.pop();
  return trimmed;
}
export function formatLeaf(value: BenchFigure): string {
  if (typeof value === "number") return formatNumber(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "number" || typeof item === "string")) {
    return value.map((item) => (typeof item === "number" ? formatNumber(item) : item)).join(", ");
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}
/** Any bench's figures as `figure | value` rows, for benches this report has no dedicated table for. */
export function flattenFigures(figures: BenchFigure, prefix = ""): string[][] {
  if (isObject(figures)) {
    return Object.entries(figures).flatMap(([key, value]) => flattenFigures(value, prefix === "" ? key : `${prefix}.${key}`));
  }
  if (Array.isArray(figures) && figures.some((item) => isObject(item) || Array.isArray(item))) {
    return figures.flatMap((item, index) => flattenFigures(item, `${prefix}[${index}]`));
  }
  return [[prefix, formatLeaf(figures)]];
}
