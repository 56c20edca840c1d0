import { describe, expect, it } from "vitest";
import {
  BOTTOM_BAR_RESERVED_PIXELS,
  INITIAL_FIT_MARGIN,
  TOGGLED_FIT_MARGIN,
  canPan,
  clampPanOffset,
  computeFitScale,
  computeImagePlacement,
  createInitialZoomState,
  pinchZoom,
  toggleZoom,
  wrapImageIndex,
} from "./viewer-geometry.ts";

describe("computeFitScale", () => {
  it("should fill 90 % of the limiting side at first", () => {
    expect(computeFitScale({ width: 2000, height: 1000 }, { width: 1000, height: 800 }, { fitMargin: INITIAL_FIT_MARGIN, hasBottomBar: false })).toBeCloseTo(0.45);
  });

  it("should keep 80 px free for the bottom bar when there are several images", () => {
    const scale = computeFitScale({ width: 1000, height: 2000 }, { width: 1600, height: 880 }, { fitMargin: TOGGLED_FIT_MARGIN, hasBottomBar: true });
    expect(scale).toBeCloseTo(((880 - BOTTOM_BAR_RESERVED_PIXELS) * 0.95) / 2000);
  });

  it("should never enlarge a small image beyond its actual size", () => {
    expect(computeFitScale({ width: 300, height: 200 }, { width: 1920, height: 1080 }, { fitMargin: 0.95, hasBottomBar: false })).toBe(1);
  });
});

describe("toggleZoom", () => {
  it("should go from fit to 100 % and back to fit with the 95 % margin", () => {
    const fitScaleForMargin = (margin: number) => margin / 2;
    const initial = createInitialZoomState(fitScaleForMargin(INITIAL_FIT_MARGIN));
    const actual = toggleZoom(initial, fitScaleForMargin);
    expect(actual).toMatchObject({ mode: "actual", scale: 1 });
    const fitted = toggleZoom(actual, fitScaleForMargin);
    expect(fitted).toMatchObject({ mode: "fit", scale: 0.475, fitMargin: TOGGLED_FIT_MARGIN, offsetX: 0, offsetY: 0 });
  });

  it("should return to fit from a pinched zoom", () => {
    const pinched = pinchZoom(createInitialZoomState(0.5), { scale: 0.5, distance: 100 }, 300);
    expect(toggleZoom(pinched, () => 0.4)).toMatchObject({ mode: "fit", scale: 0.4 });
  });
});

describe("pinchZoom", () => {
  it("should follow the fingers within 0.1 and 5", () => {
    const state = createInitialZoomState(0.5);
    expect(pinchZoom(state, { scale: 0.5, distance: 100 }, 200).scale).toBeCloseTo(1);
    expect(pinchZoom(state, { scale: 0.5, distance: 100 }, 10_000).scale).toBe(5);
    expect(pinchZoom(state, { scale: 0.5, distance: 100 }, 1).scale).toBe(0.1);
  });
});

describe("panning", () => {
  it("should be allowed only when zoomed beyond fit", () => {
    expect(canPan(createInitialZoomState(0.5), 0.5)).toBe(false);
    expect(canPan({ ...createInitialZoomState(0.5), scale: 1, mode: "actual" }, 0.5)).toBe(true);
  });

  it("should stop when the image edge reaches the viewport edge", () => {
    expect(clampPanOffset({ offsetX: 5000, offsetY: -5000 }, { width: 1600, height: 1000 }, { width: 800, height: 600 }, 1)).toEqual({ offsetX: 400, offsetY: -200 });
  });
});

describe("wrapImageIndex", () => {
  it("should wrap around at both ends", () => {
    expect(wrapImageIndex(0, -1, 3)).toBe(2);
    expect(wrapImageIndex(2, 1, 3)).toBe(0);
    expect(wrapImageIndex(1, 1, 3)).toBe(2);
  });
});

describe("computeImagePlacement", () => {
  const imageSize = { width: 1600, height: 1000 };

  it("should lay a fitted image out at its fitted size, with no scale left for the transform", () => {
    expect(computeImagePlacement(imageSize, createInitialZoomState(0.5))).toEqual({
      width: 800,
      height: 500,
      transform: "translate(-50%, -50%) translate(0px, 0px) scale(1)",
    });
  });

  it("should keep floating-point noise out of the box", () => {
    // 1600 × 0.576 is 921.6000000000001 in floating point.
    expect(computeImagePlacement(imageSize, createInitialZoomState((1024 * 0.9) / 1600)).width).toBe(921.6);
  });

  it("should lay the image out at its natural size at 100 % and when pinched, and scale it with the transform", () => {
    const actual = { mode: "actual" as const, scale: 1, fitMargin: TOGGLED_FIT_MARGIN, offsetX: -30, offsetY: 12 };
    expect(computeImagePlacement(imageSize, actual)).toEqual({
      width: 1600,
      height: 1000,
      transform: "translate(-50%, -50%) translate(-30px, 12px) scale(1)",
    });
    expect(computeImagePlacement(imageSize, { ...actual, mode: "free", scale: 2.5 })).toEqual({
      width: 1600,
      height: 1000,
      transform: "translate(-50%, -50%) translate(-30px, 12px) scale(2.5)",
    });
  });
});
