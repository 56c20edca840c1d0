import { useCallback, useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { Spinner } from "@atelier/ui";
import {
  INITIAL_FIT_MARGIN,
  canPan,
  computeFitScale,
  computeImagePlacement,
  createInitialZoomState,
  distanceBetweenTouches,
  panBy,
  pinchZoom,
  toggleZoom,
  wrapImageIndex,
  type ViewerSize,
  type ViewerZoomState,
} from "./viewer-geometry.ts";
import type { ImageViewerImage } from "./image-viewer-types.ts";

export type { ImageViewerImage, ImageViewerSource } from "./image-viewer-types.ts";

export interface ImageViewerProps {
  title: string;
  description: string;
  images: readonly ImageViewerImage[];
  currentIndex: number;
  onClose: () => void;
  onNavigateToIndex: (index: number) => void;
}

/** A pointer that moved less than this between down and up was a click, not a drag. */
const CLICK_MOVEMENT_TOLERANCE_PIXELS = 4;

function useViewportSize(): ViewerSize {
  const [viewportSize, setViewportSize] = useState<ViewerSize>({ width: 1024, height: 768 });
  useLayoutEffect(() => {
    const measure = () => setViewportSize({ width: window.innerWidth, height: window.innerHeight });
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  return viewportSize;
}

/**
 * The black full-screen viewer of one painting's images: fit or 100 %, drag to pan, pinch to zoom,
 * arrows to move with wrap-around, Escape to close.
 *
 * @example
 * <ImageViewer title="Janus Unmasked" description="Detail" images={images} currentIndex={0} onClose={close} onNavigateToIndex={go} />
 */
export function ImageViewer({ title, description, images, currentIndex, onClose, onNavigateToIndex }: ImageViewerProps) {
  const imageCount = images.length;
  const hasBottomBar = imageCount > 1;
  const image = images[currentIndex];

  const showImageAtStep = useCallback(
    (step: number) => {
      if (imageCount > 1) onNavigateToIndex(wrapImageIndex(currentIndex, step, imageCount));
    },
    [currentIndex, imageCount, onNavigateToIndex],
  );

  // On the document, not the dialog: after a click on the image the focus is on the body.
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        onClose();
      } else if (event.key === "ArrowLeft") {
        event.preventDefault();
        showImageAtStep(-1);
      } else if (event.key === "ArrowRight") {
        event.preventDefault();
        showImageAtStep(1);
      }
    };
    document.addEventListener("keydown", handleKeyDown);
    return () => document.removeEventListener("keydown", handleKeyDown);
  }, [onClose, showImageAtStep]);

  return (
    <div className="atelier-image-viewer" data-has-bar={hasBottomBar ? "true" : "false"} role="dialog" aria-modal="true" aria-label={`${title}: ${description}`}>
      <header className="atelier-image-viewer__header">
        <button type="button" className="atelier-image-viewer__close" onClick={onClose} aria-label="Close viewer" autoFocus>
          <span aria-hidden="true">×</span>
        </button>
        <div className="atelier-image-viewer__caption">
          <h1 className="atelier-image-viewer__title">{title}</h1>
          <p className="atelier-image-viewer__description">{description}</p>
        </div>
      </header>
      {image ? <ViewerStage key={image.id} image={image} hasBottomBar={hasBottomBar} /> : null}
      {hasBottomBar ? (
        <nav className="atelier-image-viewer__bar" aria-label="Images of this painting">
          <button type="button" className="atelier-image-viewer__step" data-step="previous" onClick={() => showImageAtStep(-1)} aria-label="Previous image">
            <span aria-hidden="true">‹</span>
          </button>
          <span className="atelier-image-viewer__position" aria-live="polite">
            {currentIndex + 1} of {imageCount}
          </span>
          <button type="button" className="atelier-image-viewer__step" data-step="next" onClick={() => showImageAtStep(1)} aria-label="Next image">
            <span aria-hidden="true">›</span>
          </button>
        </nav>
      ) : null}
    </div>
  );
}

interface ActivePointer {
  clientX: number;
  clientY: number;
}

/** Keyed by image id in the parent, so zoom, pan and the loaded flag reset whenever the image changes. */
function ViewerStage({ image, hasBottomBar }: { image: ImageViewerImage; hasBottomBar: boolean }) {
  const viewportSize = useViewportSize();
  const imageSize: ViewerSize = { width: image.width, height: image.height };
  const fitScaleForMargin = (fitMargin: number) => computeFitScale(imageSize, viewportSize, { fitMargin, hasBottomBar });

  const [zoomState, setZoomState] = useState<ViewerZoomState>(() => createInitialZoomState(fitScaleForMargin(INITIAL_FIT_MARGIN)));
  const [loadState, setLoadState] = useState<"loading" | "loaded">("loading");
  const imageElementRef = useRef<HTMLImageElement>(null);
  const activePointers = useRef(new Map<number, ActivePointer>());
  const gesture = useRef<{ movedPixels: number; pinchStart: { scale: number; distance: number } | null }>({ movedPixels: 0, pinchStart: null });

  // A fitted image follows the window; a zoomed one keeps its scale.
  useEffect(() => {
    setZoomState((state) => (state.mode === "fit" ? { ...state, scale: computeFitScale(imageSize, viewportSize, { fitMargin: state.fitMargin, hasBottomBar }) } : state));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the sizes are new objects each render: their numbers are the dependencies.
  }, [viewportSize.width, viewportSize.height, hasBottomBar]);

  // An image already in the cache may have loaded before React attached onLoad.
  useEffect(() => {
    if (imageElementRef.current?.complete && imageElementRef.current.naturalWidth > 0) setLoadState("loaded");
  }, []);

  const toggle = useCallback(() => {
    setZoomState((state) => toggleZoom(state, (fitMargin) => computeFitScale(imageSize, viewportSize, { fitMargin, hasBottomBar })));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the sizes are new objects each render: their numbers are the dependencies.
  }, [viewportSize.width, viewportSize.height, hasBottomBar, image.width, image.height]);

  useEffect(() => {
    const handleSpace = (event: KeyboardEvent) => {
      if (event.key !== " ") return;
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "INPUT")) return;
      event.preventDefault();
      toggle();
    };
    document.addEventListener("keydown", handleSpace);
    return () => document.removeEventListener("keydown", handleSpace);
  }, [toggle]);

  const handlePointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    activePointers.current.set(event.pointerId, { clientX: event.clientX, clientY: event.clientY });
    if (activePointers.current.size === 1) gesture.current = { movedPixels: 0, pinchStart: null };
    if (activePointers.current.size === 2) {
      const [first, second] = [...activePointers.current.values()] as [ActivePointer, ActivePointer];
      gesture.current.pinchStart = { scale: zoomState.scale, distance: distanceBetweenTouches(first, second) };
      gesture.current.movedPixels = Number.POSITIVE_INFINITY;
    }
  };

  const handlePointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const previous = activePointers.current.get(event.pointerId);
    if (!previous) return;
    const current = { clientX: event.clientX, clientY: event.clientY };
    activePointers.current.set(event.pointerId, current);
    if (activePointers.current.size >= 2 && gesture.current.pinchStart) {
      const [first, second] = [...activePointers.current.values()] as [ActivePointer, ActivePointer];
      const pinchStart = gesture.current.pinchStart;
      setZoomState((state) => pinchZoom(state, pinchStart, distanceBetweenTouches(first, second)));
      return;
    }
    const deltaX = current.clientX - previous.clientX;
    const deltaY = current.clientY - previous.clientY;
    gesture.current.movedPixels += Math.abs(deltaX) + Math.abs(deltaY);
    setZoomState((state) => (canPan(state, fitScaleForMargin(state.fitMargin)) ? panBy(state, { deltaX, deltaY }, imageSize, viewportSize) : state));
  };

  const handlePointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const wasTracked = activePointers.current.delete(event.pointerId);
    if (!wasTracked) return;
    if (activePointers.current.size === 0) {
      const wasClick = gesture.current.movedPixels < CLICK_MOVEMENT_TOLERANCE_PIXELS;
      gesture.current = { movedPixels: 0, pinchStart: null };
      if (wasClick) toggle();
    }
  };

  const zoomedBeyondFit = canPan(zoomState, fitScaleForMargin(zoomState.fitMargin));
  const placement = computeImagePlacement(imageSize, zoomState);

  return (
    <div
      className="atelier-image-viewer__stage"
      data-zoom={zoomState.mode}
      data-pannable={zoomedBeyondFit ? "true" : "false"}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerUp}
      onPointerCancel={handlePointerUp}
    >
      {loadState === "loading" ? (
        <div className="atelier-image-viewer__spinner">
          <Spinner label="Loading image" />
        </div>
      ) : null}
      <picture>
        {image.sources?.map((source) => <source key={source.type} type={source.type} srcSet={source.srcSet} />)}
        <img
          ref={imageElementRef}
          className="atelier-image-viewer__image"
          src={image.src}
          alt={image.alt}
          width={image.width}
          height={image.height}
          draggable={false}
          data-state={loadState}
          data-scale={zoomState.scale.toFixed(4)}
          onLoad={() => setLoadState("loaded")}
          style={{ width: placement.width, height: placement.height, transform: placement.transform }}
        />
      </picture>
    </div>
  );
}
