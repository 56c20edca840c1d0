import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchResult } from "./bench-result.ts";
import { buildSubtitleScalingChart, formatTickValue, logDomainOf, logTicksOf, renderScalingChartSvg } from "./scaling-chart.ts";

const subtitles = JSON.parse(readFileSync(path.join(import.meta.dirname, "test-fixtures/subtitles.json"), "utf8")) as BenchResult;

describe("given the subtitle bench's figures", () => {
  const chart = buildSubtitleScalingChart(subtitles.figures);

  it("should draw time and memory against the cue count", () => {
    expect(chart?.panels.map((panel) => panel.title)).toEqual(["Time (warm)", "Memory"]);
    expect(chart?.panels[0]?.series).toEqual([
      { label: "parse", points: [[250, 2.5], [1000, 9.8], [5000, 50], [20000, 205]] },
      { label: "alignment", points: [[250, 15], [1000, 60], [5000, 380], [20000, 1570]] },
    ]);
    expect(chart?.panels[1]?.series[0]?.points[3]).toEqual([20000, 50]);
  });

  it("should render a standalone SVG with one line per series and a point per size", () => {
    const svg = renderScalingChartSvg(chart!);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="760" height="308"')).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<path /g)).toHaveLength(6);
    // 4 sizes × 6 series, less the negative heap delta that a log axis cannot show.
    expect(svg.match(/<circle /g)).toHaveLength(23);
    expect(svg).toContain(">20k</text>");
    expect(svg).toContain("alignment, peak RSS Δ");
  });
});

describe("given figures without scaling series", () => {
  it("should draw nothing", () => {
    expect(buildSubtitleScalingChart({ fixtures: {} })).toBeNull();
  });
});

describe("renderScalingChartSvg", () => {
  it("should escape labels", () => {
    const svg = renderScalingChartSvg({ title: "A <b> & c", xLabel: "x", panels: [{ title: "t", yLabel: "y", series: [{ label: "s<1>", points: [[1, 1], [10, 10]] }] }] });
    expect(svg).toContain("A &lt;b&gt; &amp; c");
    expect(svg).toContain("s&lt;1&gt;");
    expect(svg).not.toContain("<b>");
  });

  it("should place larger values higher and further right", () => {
    const svg = renderScalingChartSvg({ title: "t", xLabel: "x", panels: [{ title: "t", yLabel: "y", series: [{ label: "s", points: [[1, 1], [100, 100]] }] }] });
    const [first, second] = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((match) => [Number(match[1]), Number(match[2])]);
    expect(second![0]).toBeGreaterThan(first![0]!);
    expect(second![1]).toBeLessThan(first![1]!);
  });
});

describe("log axes", () => {
  it("should pad the domain and widen a single value", () => {
    expect(logDomainOf([100, 1000])).toEqual([80, 1250]);
    expect(logDomainOf([10])).toEqual([4, 25]);
    expect(logDomainOf([0, -1])).toEqual([1, 10]);
  });

  it("should tick at 1, 2 and 5 within a short range and at powers of ten within a long one", () => {
    expect(logTicksOf([80, 1250])).toEqual([100, 200, 500, 1000]);
    expect(logTicksOf([0.01, 100_000])).toEqual([0.01, 0.1, 1, 10, 100, 1000, 10000, 100000]);
  });

  it("should write short tick labels", () => {
    expect([250, 1000, 20000, 0.5, 2_500_000].map(formatTickValue)).toEqual(["250", "1k", "20k", "0.5", "2.5M"]);
  });
});
