export { ImageViewer } from "./ImageViewer.tsx";
export type { ImageViewerImage, ImageViewerProps, ImageViewerSource } from "./ImageViewer.tsx";
export {
  BOTTOM_BAR_RESERVED_PIXELS,
  INITIAL_FIT_MARGIN,
  MAXIMUM_FIT_SCALE,
  MAXIMUM_ZOOM_SCALE,
  MINIMUM_ZOOM_SCALE,
  TOGGLED_FIT_MARGIN,
  canPan,
  clampPanOffset,
  clampZoomScale,
  computeFitScale,
  computeImagePlacement,
  createInitialZoomState,
  distanceBetweenTouches,
  panBy,
  pinchZoom,
  toggleZoom,
  wrapImageIndex,
} from "./viewer-geometry.ts";
export type { ViewerImagePlacement, ViewerSize, ViewerZoomState } from "./viewer-geometry.ts";
