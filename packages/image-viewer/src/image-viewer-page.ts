import { mountImageViewer, type MountedImageViewer } from "./mount-image-viewer.ts";
import type { ImageViewerImage } from "./image-viewer-types.ts";

/** One image of a viewer that is a page of its own: each image has its address and its document title. */
export interface ImageViewerPageImage extends ImageViewerImage {
  href: string;
  documentTitle: string;
}

/** What a prerendered viewer page carries for its script, in a JSON script element. */
export interface ImageViewerPageData {
  title: string;
  images: ImageViewerPageImage[];
  currentIndex: number;
  /** The page that Escape and the close button go to. */
  closeHref: string;
}

export const IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID = "image-viewer-page-data";

/**
 * Where a closing viewer leaves `{ path, href }`: the page at `path` gives the focus back to its link to `href`, the
 * image that was open, as the app's painting page does with its navigation state.
 */
export const IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY = "atelier-image-viewer:return-focus";

export interface ImageViewerReturnFocus {
  path: string;
  href: string;
}

/**
 * The page data as the text of `<script type="application/json">`: a `<` in a title cannot end the element.
 *
 * @example
 * <script type="application/json" id={IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: serializeImageViewerPageData(data) }} />
 */
export function serializeImageViewerPageData(data: ImageViewerPageData): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

function readPageData(document: Document): ImageViewerPageData | null {
  const text = document.getElementById(IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return null;
  const data = JSON.parse(text) as Partial<ImageViewerPageData>;
  if (typeof data.title !== "string" || !Array.isArray(data.images) || typeof data.currentIndex !== "number" || typeof data.closeHref !== "string") {
    throw new Error(`#${IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID} does not hold ImageViewerPageData: the page's renderer must write it with serializeImageViewerPageData.`);
  }
  return data as ImageViewerPageData;
}

function rememberReturnFocus(window: Window, returnFocus: ImageViewerReturnFocus) {
  try {
    window.sessionStorage.setItem(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY, JSON.stringify(returnFocus));
  } catch {
    // Private browsing may refuse storage: the page then opens with the focus at its top.
  }
}

/**
 * Runs a prerendered viewer page: mounts the viewer on its markup with the page's data; another image replaces the
 * address (no new history entry) and the title; closing loads `closeHref`. Marks the document `data-hydrated` once
 * ready (browser tests wait for it, as for the app), also on a page without a viewer ('Image not found').
 */
export function startImageViewerPage({ document, window }: { document: Document; window: Window }): MountedImageViewer | null {
  const data = readPageData(document);
  const root = document.querySelector<HTMLElement>(".atelier-image-viewer");
  let viewer: MountedImageViewer | null = null;
  if (data && root) {
    viewer = mountImageViewer(root, {
      title: data.title,
      images: data.images,
      currentIndex: data.currentIndex,
      onCurrentIndexChange: (index) => {
        const image = data.images[index];
        if (!image) return;
        window.history.replaceState(window.history.state, "", image.href);
        document.title = image.documentTitle;
      },
      onClose: () => {
        const image = data.images[viewer?.getCurrentIndex() ?? data.currentIndex];
        if (image) rememberReturnFocus(window, { path: data.closeHref, href: image.href });
        window.location.assign(data.closeHref);
      },
    });
  }
  document.documentElement.dataset.hydrated = "true";
  return viewer;
}
