import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ImageViewer } from "./ImageViewer.tsx";
import {
  IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID,
  IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY,
  serializeImageViewerPageData,
  startImageViewerPage,
  type ImageViewerPageData,
} from "./image-viewer-page.ts";
import type { MountedImageViewer } from "./mount-image-viewer.ts";

const pageData: ImageViewerPageData = {
  title: "Janus </script> Unmasked",
  currentIndex: 0,
  closeHref: "/janus-unmasked",
  images: [
    { id: "1", src: "/one.jpg", alt: "Full view", width: 1600, height: 1000, href: "/janus-unmasked/image/1", documentTitle: "Full view – Janus Unmasked" },
    { id: "2", src: "/two.jpg", alt: "Detail", width: 1000, height: 1600, href: "/janus-unmasked/image/2", documentTitle: "Detail – Janus Unmasked" },
  ],
};

let viewer: MountedImageViewer | null = null;

function renderPage(data: ImageViewerPageData | null) {
  const markup = data
    ? renderToStaticMarkup(
        <>
          <ImageViewer title={data.title} description="Full view" images={data.images} currentIndex={data.currentIndex} onClose={() => {}} onNavigateToIndex={() => {}} />
          <script type="application/json" id={IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: serializeImageViewerPageData(data) }} />
        </>,
      )
    : '<main class="image-not-found"><h1>Image not found</h1><a href="/">Go Home</a></main>';
  document.body.innerHTML = markup;
}

beforeEach(() => {
  document.documentElement.removeAttribute("data-hydrated");
  window.history.replaceState(null, "", "/janus-unmasked/image/1");
  window.sessionStorage.clear();
});

afterEach(() => {
  viewer?.unmount();
  viewer = null;
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

describe("given a prerendered viewer page", () => {
  it("should keep a '</script>' in its data from ending the data element", () => {
    renderPage(pageData);
    expect(document.querySelectorAll("script")).toHaveLength(1);
    expect(JSON.parse(document.getElementById(IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID)?.textContent ?? "")).toEqual(pageData);
  });

  it("should say when it is ready, as the app's hydration does", () => {
    renderPage(pageData);
    viewer = startImageViewerPage({ document, window });
    expect(viewer).not.toBeNull();
    expect(document.documentElement.dataset.hydrated).toBe("true");
  });

  it("should replace the address and the title when another image is shown, without a new history entry", () => {
    renderPage(pageData);
    const historyLength = window.history.length;
    viewer = startImageViewerPage({ document, window });
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    expect(window.location.pathname).toBe("/janus-unmasked/image/2");
    expect(document.title).toBe("Detail – Janus Unmasked");
    expect(window.history.length).toBe(historyLength);
  });

  it("should go to the painting on Escape and leave word to focus the link of the image that was open", () => {
    renderPage(pageData);
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    viewer = startImageViewerPage({ document, window });
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(assign).toHaveBeenCalledWith("/janus-unmasked");
    expect(JSON.parse(window.sessionStorage.getItem(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY) ?? "null")).toEqual({
      path: "/janus-unmasked",
      href: "/janus-unmasked/image/2",
    });
  });
});

describe("given the 'Image not found' page", () => {
  it("should mount nothing and still say it is ready", () => {
    renderPage(null);
    expect(startImageViewerPage({ document, window })).toBeNull();
    expect(document.documentElement.dataset.hydrated).toBe("true");
  });
});

describe("given page data that is not ImageViewerPageData", () => {
  it("should say that the page's renderer must write it with serializeImageViewerPageData", () => {
    document.body.innerHTML = `<script type="application/json" id="${IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID}">{"title":"Janus"}</script>`;
    expect(() => startImageViewerPage({ document, window })).toThrow(/must write it with serializeImageViewerPageData/);
  });
});
