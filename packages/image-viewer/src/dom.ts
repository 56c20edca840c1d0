// The framework-free entry, "@atelier/image-viewer/dom": the same viewer without React, on prerendered markup.
export { mountImageViewer } from "./mount-image-viewer.ts";
export type { MountImageViewerOptions, MountedImageViewer } from "./mount-image-viewer.ts";
export {
  IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID,
  IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY,
  serializeImageViewerPageData,
  startImageViewerPage,
} from "./image-viewer-page.ts";
export type { ImageViewerPageData, ImageViewerPageImage, ImageViewerReturnFocus } from "./image-viewer-page.ts";
export type { ImageViewerImage, ImageViewerSource } from "./image-viewer-types.ts";
