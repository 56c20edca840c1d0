/** Pinch zoom stays within these bounds (spec §9: zoom bounds 0.1 to 5). */
export const MINIMUM_ZOOM_SCALE = 0.1;
export const MAXIMUM_ZOOM_SCALE = 5;
/** The share of the free area an image fills when it first fits, and after toggling back to fit. */
export const INITIAL_FIT_MARGIN = 0.9;
export const TOGGLED_FIT_MARGIN = 0.95;
/** Pixels kept free for the 'n of total' bar when a painting has several images. */
export const BOTTOM_BAR_RESERVED_PIXELS = 80;
/** Fitting never enlarges an image beyond its actual size. */
export const MAXIMUM_FIT_SCALE = 1;

export interface ViewerSize {
  width: number;
  height: number;
}

export interface ViewerZoomState {
  mode: "fit" | "actual" | "free";
  /** Scale of the image relative to its natural size. */
  scale: number;
  /** Fit margin in force the next time the image is fitted. */
  fitMargin: number;
  offsetX: number;
  offsetY: number;
}

/**
 * The scale at which the whole image fits the viewport, leaving the margin and the bottom bar free.
 *
 * @example
 * computeFitScale({ width: 2000, height: 1000 }, { width: 1000, height: 800 }, { fitMargin: 0.9, hasBottomBar: false }); // 0.45
 */
export function computeFitScale(
  imageSize: ViewerSize,
  viewportSize: ViewerSize,
  options: { fitMargin: number; hasBottomBar: boolean },
): number {
  if (imageSize.width <= 0 || imageSize.height <= 0) return MAXIMUM_FIT_SCALE;
  const availableHeight = Math.max(0, viewportSize.height - (options.hasBottomBar ? BOTTOM_BAR_RESERVED_PIXELS : 0));
  const widthScale = (viewportSize.width * options.fitMargin) / imageSize.width;
  const heightScale = (availableHeight * options.fitMargin) / imageSize.height;
  return Math.min(MAXIMUM_FIT_SCALE, widthScale, heightScale);
}

export function clampZoomScale(scale: number): number {
  if (!Number.isFinite(scale)) return 1;
  return Math.min(MAXIMUM_ZOOM_SCALE, Math.max(MINIMUM_ZOOM_SCALE, scale));
}

/** The state of a freshly shown image: fitted with the initial margin, centred. */
export function createInitialZoomState(fitScale: number): ViewerZoomState {
  return { mode: "fit", scale: fitScale, fitMargin: INITIAL_FIT_MARGIN, offsetX: 0, offsetY: 0 };
}

/**
 * A click or the space bar: fit → 100 %; anything else → fit, now with the toggled margin.
 * `computeFitScaleForMargin` gives the fit scale for a margin, so the caller keeps the layout facts.
 */
export function toggleZoom(state: ViewerZoomState, computeFitScaleForMargin: (fitMargin: number) => number): ViewerZoomState {
  if (state.mode === "fit") {
    return { mode: "actual", scale: 1, fitMargin: TOGGLED_FIT_MARGIN, offsetX: 0, offsetY: 0 };
  }
  return { mode: "fit", scale: computeFitScaleForMargin(TOGGLED_FIT_MARGIN), fitMargin: TOGGLED_FIT_MARGIN, offsetX: 0, offsetY: 0 };
}

/** Panning is allowed only when the image is shown larger than it would be fitted. */
export function canPan(state: ViewerZoomState, fitScale: number): boolean {
  return state.scale > fitScale + 1e-9;
}

/** Keeps the image from being dragged entirely out of view: its edge may reach the viewport centre, no further. */
export function clampPanOffset(
  offset: { offsetX: number; offsetY: number },
  imageSize: ViewerSize,
  viewportSize: ViewerSize,
  scale: number,
): { offsetX: number; offsetY: number } {
  const limitX = Math.max(0, (imageSize.width * scale - viewportSize.width) / 2);
  const limitY = Math.max(0, (imageSize.height * scale - viewportSize.height) / 2);
  return {
    offsetX: Math.min(limitX, Math.max(-limitX, offset.offsetX)),
    offsetY: Math.min(limitY, Math.max(-limitY, offset.offsetY)),
  };
}

export function panBy(
  state: ViewerZoomState,
  delta: { deltaX: number; deltaY: number },
  imageSize: ViewerSize,
  viewportSize: ViewerSize,
): ViewerZoomState {
  const clamped = clampPanOffset(
    { offsetX: state.offsetX + delta.deltaX, offsetY: state.offsetY + delta.deltaY },
    imageSize,
    viewportSize,
    state.scale,
  );
  return { ...state, ...clamped };
}

export function distanceBetweenTouches(first: { clientX: number; clientY: number }, second: { clientX: number; clientY: number }): number {
  return Math.hypot(second.clientX - first.clientX, second.clientY - first.clientY);
}

/** Two-finger pinch: the scale follows the change of distance between the fingers, within 0.1 to 5. */
export function pinchZoom(state: ViewerZoomState, pinchStart: { scale: number; distance: number }, currentDistance: number): ViewerZoomState {
  if (pinchStart.distance <= 0) return state;
  const scale = clampZoomScale(pinchStart.scale * (currentDistance / pinchStart.distance));
  return { ...state, mode: "free", scale };
}

/** Keeps floating-point noise (921.6000000000001px) out of the markup; a thousandth of a pixel is never seen. */
function roundToThousandth(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export interface ViewerImagePlacement {
  /** The image's layout box in CSS pixels. */
  width: number;
  height: number;
  /** Centres the box, moves it by the pan offset and scales it to the state's scale. */
  transform: string;
}

/**
 * How the image is drawn for a zoom state. A fitted image is laid out at the size it is shown at, with no scale left
 * for the transform: tools that read the layout box and ignore transforms (Lighthouse's image-size-responsive, which
 * compares it with the natural size) see the fitted size. At 100 % and when pinched, the box is the natural size and
 * the transform scales it: a fitted box scaled up to 100 % by a transform is resampled, visibly softer
 * than the image drawn pixel for pixel. What the visitor sees is the natural size times `state.scale` either way.
 *
 * @example
 * computeImagePlacement({ width: 1600, height: 1000 }, createInitialZoomState(0.5));
 * // { width: 800, height: 500, transform: "translate(-50%, -50%) translate(0px, 0px) scale(1)" }
 */
export function computeImagePlacement(imageSize: ViewerSize, state: ViewerZoomState): ViewerImagePlacement {
  const layoutScale = state.mode === "fit" ? state.scale : 1;
  const transformScale = state.mode === "fit" ? 1 : state.scale;
  return {
    width: roundToThousandth(imageSize.width * layoutScale),
    height: roundToThousandth(imageSize.height * layoutScale),
    transform: `translate(-50%, -50%) translate(${state.offsetX}px, ${state.offsetY}px) scale(${transformScale})`,
  };
}

/** Previous and next wrap around at both ends. */
export function wrapImageIndex(currentIndex: number, step: number, imageCount: number): number {
  if (imageCount <= 0) return 0;
  return (((currentIndex + step) % imageCount) + imageCount) % imageCount;
}
