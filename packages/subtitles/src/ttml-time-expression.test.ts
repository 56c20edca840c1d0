import { describe, expect, it } from "vitest";
import { parseTtmlTimeExpression, readTtmlTimingParameters } from "./ttml-time-expression.ts";

describe("given the W3C TimeExpressions001 parameters (24 fps × 1000/1001, tick rate 60)", () => {
  const parameters = readTtmlTimingParameters({ frameRate: "24", frameRateMultiplier: "1000 1001", tickRate: "60" });

  it.each([
    ["1.2s", 1200],
    ["1.2m", 72_000],
    ["1.2h", 4_320_000],
    ["24f", 1001],
    ["120t", 2000],
    ["1500ms", 1500],
    ["01:02:03", 3_723_000],
    ["01:02:03.235", 3_723_235],
    ["01:02:03.2350", 3_723_235],
    ["100:00:00.1", 360_000_100],
  ])("should read %s as %d ms", (expression, milliseconds) => {
    expect(parseTtmlTimeExpression(expression, parameters)).toBeCloseTo(milliseconds, 3);
  });

  it("should read frames in clock time at the effective frame rate", () => {
    expect(parseTtmlTimeExpression("01:02:03:20", parameters)).toBeCloseTo(3_723_834.1667, 2);
  });

  it("should return undefined for something that is not a time", () => {
    expect(parseTtmlTimeExpression("soon", parameters)).toBeUndefined();
    expect(parseTtmlTimeExpression("00:99:00", parameters)).toBeUndefined();
  });
});

describe("given an SMPTE time base", () => {
  it("should count frames at the nominal rate and divide by the effective rate", () => {
    const parameters = readTtmlTimingParameters({ timeBase: "smpte", frameRate: "25" });
    expect(parameters.frameRateMultiplier).toBe(1);
    expect(parameters.timeBase).toBe("smpte");
    expect(parseTtmlTimeExpression("00:00:01:16", parameters)).toBeCloseTo(1640, 6);
  });

  it("should drop two frame numbers a minute, except every tenth, in dropNTSC", () => {
    const parameters = readTtmlTimingParameters({ timeBase: "smpte", frameRate: "30", frameRateMultiplier: "1000 1001", dropMode: "dropNTSC" });
    expect(parseTtmlTimeExpression("00:10:00:00", parameters)).toBeCloseTo(600_000, -1);
  });

  it("should read sub-frames as a fraction of a frame", () => {
    const withRate = readTtmlTimingParameters({ frameRate: "25", subFrameRate: "4" });
    expect(parseTtmlTimeExpression("00:00:00:01.2", withRate)).toBeCloseTo(60, 6);
    const withoutRate = readTtmlTimingParameters({ frameRate: "25" });
    expect(parseTtmlTimeExpression("00:00:00:01.50", withoutRate)).toBeCloseTo(60, 6);
  });
});

describe("given hostile or broken parameters", () => {
  it("should fall back to the defaults", () => {
    const parameters = readTtmlTimingParameters({ frameRate: "-5", tickRate: "1e12", frameRateMultiplier: "0 0" });
    expect(parameters).toMatchObject({ frameRate: 30, frameRateMultiplier: 1 });
    expect(parameters.tickRate).toBe(30);
  });
});
