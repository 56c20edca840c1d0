import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ImageViewer } from "./ImageViewer.tsx";
import type { ImageViewerImage } from "./image-viewer-types.ts";
import { mountImageViewer, type MountedImageViewer } from "./mount-image-viewer.ts";
import { MAXIMUM_ZOOM_SCALE, MINIMUM_ZOOM_SCALE } from "./viewer-geometry.ts";

const images: ImageViewerImage[] = [
  { id: "1", src: "/one.jpg", alt: "Full view", width: 1600, height: 1000, sources: [{ type: "image/avif", srcSet: "/one.avif" }] },
  { id: "2", src: "/two.jpg", alt: "Detail", width: 1000, height: 1600, sources: [{ type: "image/avif", srcSet: "/two.avif" }] },
  { id: "3", src: "/three.jpg", alt: "Signature", width: 1200, height: 1200 },
];

let mounted: MountedImageViewer | undefined;

/** The markup the React component renders on the server: the DOM core must bring exactly that to life. */
function mountPrerendered(currentIndex = 0, imageList: ImageViewerImage[] = images) {
  document.body.innerHTML = renderToStaticMarkup(
    <ImageViewer title="Janus Unmasked" description={imageList[currentIndex]?.alt ?? ""} images={imageList} currentIndex={currentIndex} onClose={() => {}} onNavigateToIndex={() => {}} />,
  );
  const root = document.querySelector<HTMLElement>(".atelier-image-viewer");
  if (!root) throw new Error("The component rendered no viewer.");
  const onClose = vi.fn();
  const onCurrentIndexChange = vi.fn();
  mounted = mountImageViewer(root, { title: "Janus Unmasked", images: imageList, currentIndex, onClose, onCurrentIndexChange });
  return { root, viewer: mounted, onClose, onCurrentIndexChange };
}

function viewerImage(): HTMLImageElement {
  const image = document.querySelector<HTMLImageElement>(".atelier-image-viewer__image");
  if (!image) throw new Error("No viewer image.");
  return image;
}

function stage(): HTMLElement {
  const found = document.querySelector<HTMLElement>(".atelier-image-viewer__stage");
  if (!found) throw new Error("No stage.");
  return found;
}

function scaleShown(): number {
  return Number(viewerImage().getAttribute("data-scale"));
}

/** The size the visitor sees: the layout box times the transform's scale. */
function sizeShown(): { width: number; height: number } {
  const style = viewerImage().style;
  const transformScale = Number(/scale\(([^)]+)\)/.exec(style.transform)?.[1]);
  return { width: Number.parseFloat(style.width) * transformScale, height: Number.parseFloat(style.height) * transformScale };
}

function pointer(type: string, pointerId: number, clientX: number, clientY: number) {
  stage().dispatchEvent(new PointerEvent(type, { pointerId, clientX, clientY, bubbles: true }));
}

function press(key: string, target: EventTarget = document.body) {
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
}

beforeEach(() => {
  // happy-dom's window is 1024 × 768, the size the component assumes before it measures.
  Object.assign(window, { innerWidth: 1280, innerHeight: 800 });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = "";
});

describe("given the prerendered viewer of a painting with three images", () => {
  it("should fit the image to the window it finds, leaving 90 % and the bar's 80 px", () => {
    mountPrerendered(0);
    // min(1280 × 0.9 / 1600, (800 − 80) × 0.9 / 1000) = min(0.72, 0.648)
    expect(scaleShown()).toBe(0.648);
    expect(stage().dataset.zoom).toBe("fit");
    expect(sizeShown()).toEqual({ width: 1036.8, height: 648 });
  });

  it("should lay a fitted image out at its fitted size, following the window, and a zoomed one at its natural size", () => {
    mountPrerendered(0);
    // Tools that read the layout box (Lighthouse's image-size-responsive) see the size a fitted image is shown at.
    expect(viewerImage().style.width).toBe("1036.8px");
    expect(viewerImage().style.height).toBe("648px");
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");

    // 100 % is the natural box, untransformed: pixel for pixel.
    press(" ");
    expect(viewerImage().style.width).toBe("1600px");
    expect(viewerImage().style.height).toBe("1000px");
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");

    Object.assign(window, { innerWidth: 800, innerHeight: 800 });
    window.dispatchEvent(new Event("resize"));
    expect(viewerImage().style.width).toBe("1600px");

    // Fitted again, with 95 %: min(800 × 0.95 / 1600, 720 × 0.95 / 1000) = 0.475.
    press(" ");
    expect(viewerImage().style.width).toBe("760px");
    expect(viewerImage().style.height).toBe("475px");
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");
  });

  it("should scale the natural box with the transform while pinching", () => {
    mountPrerendered(0);
    pointer("pointerdown", 1, 600, 400);
    pointer("pointerdown", 2, 700, 400);
    pointer("pointermove", 2, 800, 400);
    expect(viewerImage().style.width).toBe("1600px");
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1.296)");
    expect(sizeShown()).toEqual({ width: 2073.6, height: 1296 });
  });

  it("should lay the next image out at its own fitted size", () => {
    mountPrerendered(0);
    press("ArrowRight");
    // The portrait detail, 1000 × 1600: min(1280 × 0.9 / 1000, 720 × 0.9 / 1600) = 0.405.
    expect(viewerImage().style.width).toBe("405px");
    expect(viewerImage().style.height).toBe("648px");
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");
  });

  it("should show the spinner until the image has loaded, then fade it in", () => {
    mountPrerendered(0);
    expect(document.querySelector('[role="status"]')).not.toBeNull();
    expect(viewerImage().dataset.state).toBe("loading");
    viewerImage().dispatchEvent(new Event("load"));
    expect(viewerImage().dataset.state).toBe("loaded");
    expect(document.querySelector('[role="status"]')).toBeNull();
  });

  it("should toggle between fit and 100 % with the space bar, and fit again with 95 %", () => {
    mountPrerendered(0);
    press(" ");
    expect(scaleShown()).toBe(1);
    expect(stage().dataset.zoom).toBe("actual");
    press(" ");
    // min(1280 × 0.95 / 1600, 720 × 0.95 / 1000)
    expect(scaleShown()).toBe(0.684);
  });

  it("should leave the space bar to a focused button", () => {
    mountPrerendered(0);
    const closeButton = document.querySelector<HTMLButtonElement>(".atelier-image-viewer__close");
    press(" ", closeButton ?? document.body);
    expect(scaleShown()).toBe(0.648);
  });

  it("should toggle the zoom on a click, and pan on a drag only when zoomed beyond fit", () => {
    mountPrerendered(0);
    pointer("pointerdown", 1, 640, 360);
    pointer("pointermove", 1, 540, 300);
    pointer("pointerup", 1, 540, 300);
    expect(scaleShown()).toBe(0.648);
    expect(viewerImage().style.transform).toContain("translate(0px, 0px)");

    pointer("pointerdown", 1, 640, 360);
    pointer("pointerup", 1, 641, 361);
    expect(scaleShown()).toBe(1);
    expect(stage().dataset.pannable).toBe("true");

    pointer("pointerdown", 1, 640, 360);
    pointer("pointermove", 1, 540, 300);
    pointer("pointerup", 1, 540, 300);
    expect(scaleShown()).toBe(1);
    expect(viewerImage().style.transform).toBe("translate(-50%, -50%) translate(-100px, -60px) scale(1)");
  });

  it("should zoom with two fingers, within 0.1 and 5 times", () => {
    const { viewer } = mountPrerendered(0);
    pointer("pointerdown", 1, 600, 400);
    pointer("pointerdown", 2, 700, 400);
    pointer("pointermove", 2, 800, 400);
    expect(viewer.getZoomState().mode).toBe("free");
    expect(scaleShown()).toBe(1.296);
    pointer("pointermove", 2, 10_000, 400);
    expect(scaleShown()).toBe(MAXIMUM_ZOOM_SCALE);
    pointer("pointermove", 2, 601, 400);
    expect(scaleShown()).toBe(MINIMUM_ZOOM_SCALE);
    pointer("pointerup", 2, 601, 400);
    pointer("pointerup", 1, 600, 400);
    // A pinch is never a click.
    expect(scaleShown()).toBe(MINIMUM_ZOOM_SCALE);
  });

  it("should wrap around with the arrow keys and show the new image, its description and its position", () => {
    const { root, onCurrentIndexChange } = mountPrerendered(0);
    press(" ");
    press("ArrowLeft");
    expect(onCurrentIndexChange).toHaveBeenLastCalledWith(2);
    expect(document.querySelector(".atelier-image-viewer__position")?.textContent).toBe("3 of 3");
    expect(document.querySelector(".atelier-image-viewer__description")?.textContent).toBe("Signature");
    expect(root.getAttribute("aria-label")).toBe("Janus Unmasked: Signature");
    expect(viewerImage().getAttribute("src")).toBe("/three.jpg");
    expect(viewerImage().alt).toBe("Signature");
    // A new image starts fitted, with the spinner until it loads.
    expect(stage().dataset.zoom).toBe("fit");
    expect(viewerImage().dataset.state).toBe("loading");
    expect(document.querySelector('[role="status"]')).not.toBeNull();

    press("ArrowRight");
    press("ArrowRight");
    expect(onCurrentIndexChange).toHaveBeenLastCalledWith(1);
    expect(document.querySelector(".atelier-image-viewer__position")?.textContent).toBe("2 of 3");
    const sources = [...document.querySelectorAll("picture source")].map((source) => source.getAttribute("srcset"));
    expect(sources).toEqual(["/two.avif"]);
    expect(document.querySelectorAll("picture")).toHaveLength(1);
  });

  it("should step with the bar's previous and next buttons", () => {
    const { onCurrentIndexChange } = mountPrerendered(1);
    document.querySelector<HTMLButtonElement>('[aria-label="Next image"]')?.click();
    expect(onCurrentIndexChange).toHaveBeenLastCalledWith(2);
    document.querySelector<HTMLButtonElement>('[aria-label="Previous image"]')?.click();
    document.querySelector<HTMLButtonElement>('[aria-label="Previous image"]')?.click();
    expect(onCurrentIndexChange).toHaveBeenLastCalledWith(0);
    expect(document.querySelector(".atelier-image-viewer__position")?.textContent).toBe("1 of 3");
  });

  it("should ignore the load of an image that is no longer shown", () => {
    mountPrerendered(0);
    const first = viewerImage();
    press("ArrowRight");
    first.dispatchEvent(new Event("load"));
    expect(viewerImage().dataset.state).toBe("loading");
    expect(document.querySelector('[role="status"]')).not.toBeNull();
  });

  it("should close on Escape and with the close button", () => {
    const { onClose } = mountPrerendered(0);
    press("Escape");
    document.querySelector<HTMLButtonElement>(".atelier-image-viewer__close")?.click();
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("should refit a fitted image when the window changes, and keep a zoomed one", () => {
    mountPrerendered(0);
    Object.assign(window, { innerWidth: 800, innerHeight: 800 });
    window.dispatchEvent(new Event("resize"));
    // min(800 × 0.9 / 1600, 720 × 0.9 / 1000)
    expect(scaleShown()).toBe(0.45);
    press(" ");
    window.dispatchEvent(new Event("resize"));
    expect(scaleShown()).toBe(1);
  });

  it("should stop listening once unmounted", () => {
    const { viewer, onClose } = mountPrerendered(0);
    viewer.unmount();
    mounted = undefined;
    press("Escape");
    press(" ");
    expect(onClose).not.toHaveBeenCalled();
    expect(scaleShown()).toBe(0.648);
  });
});

describe("given the prerendered viewer of a painting with a single image", () => {
  it("should fit without keeping the bar's 80 px, and ignore the arrow keys", () => {
    const single = images.slice(0, 1);
    const { onCurrentIndexChange } = mountPrerendered(0, single);
    // min(1280 × 0.9 / 1600, 800 × 0.9 / 1000)
    expect(scaleShown()).toBe(0.72);
    press("ArrowRight");
    expect(onCurrentIndexChange).not.toHaveBeenCalled();
    expect(document.querySelector(".atelier-image-viewer__bar")).toBeNull();
  });
});

describe("given markup that is not the viewer's", () => {
  it("should say which element is missing and where the markup must come from", () => {
    document.body.innerHTML = '<div class="atelier-image-viewer"></div>';
    const root = document.querySelector<HTMLElement>(".atelier-image-viewer") as HTMLElement;
    expect(() => mountImageViewer(root, { title: "Janus Unmasked", images, currentIndex: 0, onClose: () => {} })).toThrow(
      /found no \.atelier-image-viewer__close in its root: mount it on the markup that <ImageViewer> renders/,
    );
  });
});
