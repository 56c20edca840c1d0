import type { BenchFigure, BenchFigures } from "./bench-result.ts";

export interface ChartSeries {
  label: string;
  /** [x, y] pairs; points with a value that is not positive cannot sit on a log axis and are left out. */
  points: Array<[number, number]>;
}

export interface ChartPanel {
  title: string;
  yLabel: string;
  series: ChartSeries[];
}

export interface ScalingChart {
  title: string;
  xLabel: string;
  /** Side by side, each with log–log axes. */
  panels: ChartPanel[];
}

const panelWidth = 380;
const panelHeight = 280;
const titleHeight = 28;
const margin = { left: 58, right: 14, top: 62, bottom: 46 };
const seriesColors = ["#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#a16207", "#be185d"];

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A tick label short enough for an axis: 250, 1k, 20k, 0.5. */
export function formatTickValue(value: number): string {
  if (value >= 1_000_000) return `${Number((value / 1_000_000).toPrecision(3))}M`;
  if (value >= 1_000) return `${Number((value / 1_000).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

/** The domain of a log axis around the given positive values, with a little room at both ends. */
export function logDomainOf(values: number[]): [number, number] {
  const positive = values.filter((value) => Number.isFinite(value) && value > 0);
  if (positive.length === 0) return [1, 10];
  let low = Math.min(...positive);
  let high = Math.max(...positive);
  if (low === high) {
    low /= 2;
    high *= 2;
  }
  return [low / 1.25, high * 1.25];
}

/** Ticks at 1, 2 and 5 times the powers of ten inside the domain; only the powers of ten when that makes too many. */
export function logTicksOf([low, high]: [number, number]): number[] {
  const ticks: number[] = [];
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent += 1) {
    for (const multiple of [1, 2, 5]) {
      const tick = Number((multiple * 10 ** exponent).toPrecision(6));
      if (tick >= low && tick <= high) ticks.push(tick);
    }
  }
  return ticks.length > 8 ? ticks.filter((tick) => Number.isInteger(Math.log10(tick))) : ticks;
}

function renderPanel(panel: ChartPanel, xLabel: string, xDomain: [number, number], offsetX: number): string {
  const visibleSeries = panel.series.map((series) => ({
    ...series,
    points: series.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && x > 0 && y > 0),
  }));
  const yDomain = logDomainOf(visibleSeries.flatMap((series) => series.points.map(([, y]) => y)));
  const plotLeft = offsetX + margin.left;
  const plotRight = offsetX + panelWidth - margin.right;
  const plotTop = titleHeight + margin.top;
  const plotBottom = titleHeight + panelHeight - margin.bottom;
  const scaleX = (x: number) => round(plotLeft + ((Math.log10(x) - Math.log10(xDomain[0])) / (Math.log10(xDomain[1]) - Math.log10(xDomain[0]))) * (plotRight - plotLeft));
  const scaleY = (y: number) => round(plotBottom - ((Math.log10(y) - Math.log10(yDomain[0])) / (Math.log10(yDomain[1]) - Math.log10(yDomain[0]))) * (plotBottom - plotTop));

  const parts: string[] = [`<g class="panel">`];
  parts.push(`<text x="${offsetX + panelWidth / 2}" y="${titleHeight + 18}" text-anchor="middle" font-weight="bold">${escapeXml(panel.title)}</text>`);
  visibleSeries.forEach((series, index) => {
    const color = seriesColors[index % seriesColors.length];
    const legendX = offsetX + margin.left + (index % 2) * 160;
    const legendY = titleHeight + 34 + Math.floor(index / 2) * 14;
    parts.push(`<line x1="${legendX}" y1="${legendY - 4}" x2="${legendX + 16}" y2="${legendY - 4}" stroke="${color}" stroke-width="2"/>`);
    parts.push(`<text x="${legendX + 20}" y="${legendY}" font-size="11">${escapeXml(series.label)}</text>`);
  });
  for (const tick of logTicksOf(xDomain)) {
    const x = scaleX(tick);
    parts.push(`<line x1="${x}" y1="${plotTop}" x2="${x}" y2="${plotBottom}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${x}" y="${plotBottom + 16}" text-anchor="middle" font-size="11">${formatTickValue(tick)}</text>`);
  }
  for (const tick of logTicksOf(yDomain)) {
    const y = scaleY(tick);
    parts.push(`<line x1="${plotLeft}" y1="${y}" x2="${plotRight}" y2="${y}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${plotLeft - 6}" y="${y + 4}" text-anchor="end" font-size="11">${formatTickValue(tick)}</text>`);
  }
  parts.push(`<rect x="${plotLeft}" y="${plotTop}" width="${plotRight - plotLeft}" height="${plotBottom - plotTop}" fill="none" stroke="#6b7280"/>`);
  parts.push(`<text x="${(plotLeft + plotRight) / 2}" y="${plotBottom + 36}" text-anchor="middle" font-size="12">${escapeXml(xLabel)}</text>`);
  const yLabelX = offsetX + 16;
  const yLabelY = (plotTop + plotBottom) / 2;
  parts.push(`<text x="${yLabelX}" y="${yLabelY}" text-anchor="middle" font-size="12" transform="rotate(-90 ${yLabelX} ${yLabelY})">${escapeXml(panel.yLabel)}</text>`);
  visibleSeries.forEach((series, index) => {
    const color = seriesColors[index % seriesColors.length];
    const sorted = [...series.points].sort(([left], [right]) => left - right);
    if (sorted.length > 1) {
      const path = sorted.map(([x, y], pointIndex) => `${pointIndex === 0 ? "M" : "L"}${scaleX(x)} ${scaleY(y)}`).join(" ");
      parts.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="2"/>`);
    }
    for (const [x, y] of sorted) {
      parts.push(`<circle cx="${scaleX(x)}" cy="${scaleY(y)}" r="3" fill="${color}"><title>${escapeXml(`${series.label}: ${formatTickValue(x)} → ${Number(y.toPrecision(3))}`)}</title></circle>`);
    }
  });
  parts.push("</g>");
  return parts.join("\n");
}

/**
 * A small hand-written SVG line chart: one or more panels side by side, log–log axes, a legend per panel.
 *
 * @example
 * renderScalingChartSvg({ title: "Subtitles", xLabel: "cues", panels: [{ title: "Time", yLabel: "ms", series: [{ label: "parse", points: [[250, 2], [1000, 8]] }] }] });
 */
export function renderScalingChartSvg(chart: ScalingChart): string {
  const width = Math.max(1, chart.panels.length) * panelWidth;
  const height = titleHeight + panelHeight;
  const xDomain = logDomainOf(chart.panels.flatMap((panel) => panel.series.flatMap((series) => series.points.map(([x]) => x))));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title" font-family="system-ui, sans-serif" fill="#111827">`,
    `<title id="chart-title">${escapeXml(chart.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
    ...chart.panels.map((panel, index) => renderPanel(panel, chart.xLabel, xDomain, index * panelWidth)),
    "</svg>",
    "",
  ].join("\n");
}

function numbersAt(figures: BenchFigures, group: string, key: string): number[] | null {
  const container: BenchFigure | undefined = figures[group];
  if (typeof container !== "object" || container === null || Array.isArray(container)) return null;
  const values = container[key];
  return Array.isArray(values) && values.every((value) => typeof value === "number") ? (values as number[]) : null;
}

function seriesOf(figures: BenchFigures, group: string, key: string, label: string, scale = 1): ChartSeries | null {
  const cues = numbersAt(figures, group, "cues");
  const values = numbersAt(figures, group, key);
  if (cues === null || values === null) return null;
  return { label, points: cues.slice(0, values.length).map((cueCount, index) => [cueCount, (values[index] as number) * scale]) };
}

const bytesToMegabytes = 1 / 1_048_576;

/**
 * The chart of the subtitle bench's scaling curves (parse and alignment time and memory against the cue count), from
 * its figures `parse` and `alignment`, each `{ cues: number[], warmMilliseconds: number[], peakRssDeltaBytes: number[],
 * retainedHeapBytes: number[] }`; null when there is nothing to draw.
 */
export function buildSubtitleScalingChart(figures: BenchFigures): ScalingChart | null {
  const time = [
    seriesOf(figures, "parse", "warmMilliseconds", "parse"),
    seriesOf(figures, "alignment", "warmMilliseconds", "alignment"),
  ].filter((series): series is ChartSeries => series !== null);
  const memory = [
    seriesOf(figures, "parse", "peakRssDeltaBytes", "parse, peak RSS Δ", bytesToMegabytes),
    seriesOf(figures, "alignment", "peakRssDeltaBytes", "alignment, peak RSS Δ", bytesToMegabytes),
    seriesOf(figures, "parse", "retainedHeapBytes", "parse, heap Δ", bytesToMegabytes),
    seriesOf(figures, "alignment", "retainedHeapBytes", "alignment, heap Δ", bytesToMegabytes),
  ].filter((series): series is ChartSeries => series !== null);
  if (time.length === 0 && memory.length === 0) return null;
  const panels: ChartPanel[] = [];
  if (time.length > 0) panels.push({ title: "Time (warm)", yLabel: "milliseconds", series: time });
  if (memory.length > 0) panels.push({ title: "Memory", yLabel: "MB", series: memory });
  return { title: "Subtitles: parse and alignment against the number of cues (log–log)", xLabel: "cues", panels };
}
