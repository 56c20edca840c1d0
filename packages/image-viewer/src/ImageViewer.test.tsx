import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ImageViewer, type ImageViewerImage } from "./ImageViewer.tsx";

const images: ImageViewerImage[] = [
  { id: "1", src: "/one.jpg", alt: "Full view", width: 1600, height: 1000 },
  { id: "2", src: "/two.jpg", alt: "Detail", width: 1000, height: 1600 },
  { id: "3", src: "/three.jpg", alt: "Signature", width: 1200, height: 1200 },
];

function renderViewer(currentIndex = 0, imageList: ImageViewerImage[] = images) {
  const onClose = vi.fn();
  const onNavigateToIndex = vi.fn();
  const result = render(
    <ImageViewer title="Janus Unmasked" description={imageList[currentIndex]?.alt ?? ""} images={imageList} currentIndex={currentIndex} onClose={onClose} onNavigateToIndex={onNavigateToIndex} />,
  );
  return { ...result, onClose, onNavigateToIndex };
}

afterEach(cleanup);

describe("given a painting with three images", () => {
  it("should show the title, the description and 'n of total'", () => {
    renderViewer(1);
    expect(screen.getByRole("heading", { name: "Janus Unmasked" })).toBeTruthy();
    expect(screen.getByText("2 of 3")).toBeTruthy();
  });

  it("should wrap around with the arrow keys", () => {
    const { onNavigateToIndex } = renderViewer(0);
    fireEvent.keyDown(document, { key: "ArrowLeft" });
    expect(onNavigateToIndex).toHaveBeenLastCalledWith(2);
    fireEvent.keyDown(document, { key: "ArrowRight" });
    expect(onNavigateToIndex).toHaveBeenLastCalledWith(1);
  });

  it("should close on Escape", () => {
    const { onClose } = renderViewer(0);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("should show a spinner until the image has loaded, then fade it in", () => {
    renderViewer(0);
    expect(screen.getByRole("status")).toBeTruthy();
    const image = screen.getByAltText("Full view");
    expect(image.getAttribute("data-state")).toBe("loading");
    act(() => {
      fireEvent.load(image);
    });
    expect(image.getAttribute("data-state")).toBe("loaded");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("should toggle between fit and 100 % with the space bar", () => {
    renderViewer(0);
    const image = screen.getByAltText("Full view");
    const fittedScale = Number(image.getAttribute("data-scale"));
    expect(fittedScale).toBeLessThan(1);
    fireEvent.keyDown(document.body, { key: " " });
    expect(Number(image.getAttribute("data-scale"))).toBe(1);
    fireEvent.keyDown(document.body, { key: " " });
    expect(Number(image.getAttribute("data-scale"))).toBeLessThan(1);
  });

  it("should lay a fitted image out at its fitted size, and the image at 100 % at its natural size", () => {
    // happy-dom's window: 1024 × 768, with the bar's 80 px; min(1024 × 0.9 / 1600, 688 × 0.9 / 1000) = 0.576.
    renderViewer(0);
    const image = screen.getByAltText("Full view");
    expect(image.style.width).toBe("921.6px");
    expect(image.style.height).toBe("576px");
    expect(image.style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");
    fireEvent.keyDown(document.body, { key: " " });
    // 100 %: the natural box, untransformed, pixel for pixel.
    expect(image.style.width).toBe("1600px");
    expect(image.style.height).toBe("1000px");
    expect(image.style.transform).toBe("translate(-50%, -50%) translate(0px, 0px) scale(1)");
  });

  it("should prerender the image at its size fitted to the window it assumes, 1024 × 768", () => {
    const markup = renderToStaticMarkup(
      <ImageViewer title="Janus Unmasked" description="Full view" images={images} currentIndex={0} onClose={() => {}} onNavigateToIndex={() => {}} />,
    );
    expect(markup).toContain("width:921.6px;height:576px;transform:translate(-50%, -50%) translate(0px, 0px) scale(1)");
  });
});

describe("given a painting with a single image", () => {
  it("should show no bottom bar", () => {
    renderViewer(0, images.slice(0, 1));
    expect(screen.queryByText(/of 1/)).toBeNull();
    expect(screen.queryByRole("navigation")).toBeNull();
  });
});
