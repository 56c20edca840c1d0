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

export interface MountImageViewerOptions {
  /** The painting's title, shown in the header and named in the dialog's label. */
  title: string;
  images: readonly ImageViewerImage[];
  /** The image the markup shows. */
  currentIndex: number;
  /** Escape or the close button. */
  onClose: () => void;
  /** After an arrow key or the bar's buttons showed another image: the page may change its address and title. */
  onCurrentIndexChange?: (index: number) => void;
}

export interface MountedImageViewer {
  /** Shows the image at `index` (wrapped around), fitted, as the arrow keys do. */
  showImageAtIndex: (index: number) => void;
  getCurrentIndex: () => number;
  getZoomState: () => ViewerZoomState;
  /** Removes every listener the viewer added; the markup stays. */
  unmount: () => void;
}

/** A pointer that moved less than this between down and up was a click, not a drag (as in ImageViewer.tsx). */
const CLICK_MOVEMENT_TOLERANCE_PIXELS = 4;

interface ActivePointer {
  clientX: number;
  clientY: number;
}

function requireElement<ElementType extends Element>(root: HTMLElement, selector: string): ElementType {
  const found = root.querySelector<ElementType>(selector);
  if (!found) {
    throw new Error(`mountImageViewer found no ${selector} in its root: mount it on the markup that <ImageViewer> renders (for example prerendered).`);
  }
  return found;
}

function createPicture(document: Document, image: ImageViewerImage): { picture: HTMLPictureElement; imageElement: HTMLImageElement } {
  const picture = document.createElement("picture");
  for (const source of image.sources ?? []) {
    const sourceElement = document.createElement("source");
    sourceElement.type = source.type;
    sourceElement.srcset = source.srcSet;
    picture.append(sourceElement);
  }
  const imageElement = document.createElement("img");
  imageElement.className = "atelier-image-viewer__image";
  imageElement.alt = image.alt;
  imageElement.width = image.width;
  imageElement.height = image.height;
  imageElement.draggable = false;
  imageElement.dataset.state = "loading";
  // Last, once the sources are in place, so the browser chooses among them only once.
  imageElement.src = image.src;
  picture.append(imageElement);
  return { picture, imageElement };
}

/**
 * Brings the markup that `<ImageViewer>` rendered (on a page prerendered without React) to life, with the same
 * behaviour as the component: fit or 100 % on click or space, drag and one-finger pan when zoomed, two-finger pinch,
 * arrows with wrap-around, Escape and the close button, and the 'n of total' bar.
 *
 * @example
 * const viewer = mountImageViewer(document.querySelector(".atelier-image-viewer")!, { title, images, currentIndex: 0, onClose: () => location.assign("/janus-unmasked") });
 */
export function mountImageViewer(root: HTMLElement, options: MountImageViewerOptions): MountedImageViewer {
  const { title, images, onClose, onCurrentIndexChange } = options;
  const document = root.ownerDocument;
  const window = document.defaultView;
  if (!window) throw new Error("mountImageViewer needs a root inside a document shown in a window.");
  if (!images[options.currentIndex]) {
    throw new Error(`mountImageViewer was given currentIndex ${options.currentIndex} for ${images.length} images: the page's data does not match its markup.`);
  }

  const hasBottomBar = images.length > 1;
  const closeButton = requireElement<HTMLButtonElement>(root, ".atelier-image-viewer__close");
  const descriptionElement = requireElement<HTMLElement>(root, ".atelier-image-viewer__description");
  const stage = requireElement<HTMLElement>(root, ".atelier-image-viewer__stage");
  let pictureElement = requireElement<HTMLPictureElement>(stage, "picture");
  let imageElement = requireElement<HTMLImageElement>(stage, ".atelier-image-viewer__image");
  // The spinner is taken out once an image has loaded and put back for the next one.
  const spinnerElement = stage.querySelector<HTMLElement>(".atelier-image-viewer__spinner");
  const positionElement = root.querySelector<HTMLElement>(".atelier-image-viewer__position");
  const previousButton = root.querySelector<HTMLButtonElement>('.atelier-image-viewer__step[data-step="previous"]');
  const nextButton = root.querySelector<HTMLButtonElement>('.atelier-image-viewer__step[data-step="next"]');

  let currentIndex = options.currentIndex;
  let viewportSize: ViewerSize = { width: window.innerWidth, height: window.innerHeight };
  const currentImage = () => images[currentIndex] as ImageViewerImage;
  const fitScaleForMargin = (fitMargin: number) =>
    computeFitScale({ width: currentImage().width, height: currentImage().height }, viewportSize, { fitMargin, hasBottomBar });

  let zoomState = createInitialZoomState(fitScaleForMargin(INITIAL_FIT_MARGIN));
  const activePointers = new Map<number, ActivePointer>();
  let gesture: { movedPixels: number; pinchStart: { scale: number; distance: number } | null } = { movedPixels: 0, pinchStart: null };

  // The image's size too: a fitted image is laid out at its fitted size (computeImagePlacement).
  const renderZoom = () => {
    const placement = computeImagePlacement({ width: currentImage().width, height: currentImage().height }, zoomState);
    stage.dataset.zoom = zoomState.mode;
    stage.dataset.pannable = canPan(zoomState, fitScaleForMargin(zoomState.fitMargin)) ? "true" : "false";
    imageElement.dataset.scale = zoomState.scale.toFixed(4);
    imageElement.style.width = `${placement.width}px`;
    imageElement.style.height = `${placement.height}px`;
    imageElement.style.transform = placement.transform;
  };

  const setZoomState = (next: ViewerZoomState) => {
    zoomState = next;
    renderZoom();
  };

  const watchLoading = (watched: HTMLImageElement) => {
    const markLoaded = () => {
      if (watched !== imageElement) return;
      watched.dataset.state = "loaded";
      spinnerElement?.remove();
    };
    watched.addEventListener("load", markLoaded);
    // The prerendered image may have loaded before this script ran.
    if (watched.complete && watched.naturalWidth > 0) markLoaded();
  };

  const showImageAtIndex = (index: number) => {
    const nextIndex = wrapImageIndex(index, 0, images.length);
    if (nextIndex === currentIndex) return;
    currentIndex = nextIndex;
    const image = currentImage();
    const created = createPicture(document, image);
    pictureElement.replaceWith(created.picture);
    pictureElement = created.picture;
    imageElement = created.imageElement;
    if (spinnerElement && !spinnerElement.isConnected) stage.prepend(spinnerElement);
    descriptionElement.textContent = image.alt;
    root.setAttribute("aria-label", `${title}: ${image.alt}`);
    if (positionElement) positionElement.textContent = `${currentIndex + 1} of ${images.length}`;
    // A new image starts fitted and centred, as the component's stage keyed by image id does.
    activePointers.clear();
    gesture = { movedPixels: 0, pinchStart: null };
    setZoomState(createInitialZoomState(fitScaleForMargin(INITIAL_FIT_MARGIN)));
    watchLoading(imageElement);
    onCurrentIndexChange?.(currentIndex);
  };

  const showImageAtStep = (step: number) => {
    if (hasBottomBar) showImageAtIndex(wrapImageIndex(currentIndex, step, images.length));
  };

  const toggle = () => setZoomState(toggleZoom(zoomState, fitScaleForMargin));

  // On the document, not the dialog: after a click on the image the focus is on the body.
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
    } else if (event.key === " ") {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "INPUT")) return;
      event.preventDefault();
      toggle();
    }
  };

  // A fitted image follows the window; a zoomed one keeps its scale.
  const handleResize = () => {
    viewportSize = { width: window.innerWidth, height: window.innerHeight };
    if (zoomState.mode === "fit") setZoomState({ ...zoomState, scale: fitScaleForMargin(zoomState.fitMargin) });
    else renderZoom();
  };

  const handlePointerDown = (event: PointerEvent) => {
    stage.setPointerCapture?.(event.pointerId);
    activePointers.set(event.pointerId, { clientX: event.clientX, clientY: event.clientY });
    if (activePointers.size === 1) gesture = { movedPixels: 0, pinchStart: null };
    if (activePointers.size === 2) {
      const [first, second] = [...activePointers.values()] as [ActivePointer, ActivePointer];
      gesture.pinchStart = { scale: zoomState.scale, distance: distanceBetweenTouches(first, second) };
      gesture.movedPixels = Number.POSITIVE_INFINITY;
    }
  };

  const handlePointerMove = (event: PointerEvent) => {
    const previous = activePointers.get(event.pointerId);
    if (!previous) return;
    const current = { clientX: event.clientX, clientY: event.clientY };
    activePointers.set(event.pointerId, current);
    if (activePointers.size >= 2 && gesture.pinchStart) {
      const [first, second] = [...activePointers.values()] as [ActivePointer, ActivePointer];
      setZoomState(pinchZoom(zoomState, gesture.pinchStart, distanceBetweenTouches(first, second)));
      return;
    }
    const deltaX = current.clientX - previous.clientX;
    const deltaY = current.clientY - previous.clientY;
    gesture.movedPixels += Math.abs(deltaX) + Math.abs(deltaY);
    if (canPan(zoomState, fitScaleForMargin(zoomState.fitMargin))) {
      setZoomState(panBy(zoomState, { deltaX, deltaY }, { width: currentImage().width, height: currentImage().height }, viewportSize));
    }
  };

  const handlePointerUp = (event: PointerEvent) => {
    const wasTracked = activePointers.delete(event.pointerId);
    if (!wasTracked) return;
    if (activePointers.size === 0) {
      const wasClick = gesture.movedPixels < CLICK_MOVEMENT_TOLERANCE_PIXELS;
      gesture = { movedPixels: 0, pinchStart: null };
      if (wasClick) toggle();
    }
  };

  const handleClose = () => onClose();
  const handlePrevious = () => showImageAtStep(-1);
  const handleNext = () => showImageAtStep(1);

  document.addEventListener("keydown", handleKeyDown);
  window.addEventListener("resize", handleResize);
  stage.addEventListener("pointerdown", handlePointerDown);
  stage.addEventListener("pointermove", handlePointerMove);
  stage.addEventListener("pointerup", handlePointerUp);
  stage.addEventListener("pointercancel", handlePointerUp);
  closeButton.addEventListener("click", handleClose);
  previousButton?.addEventListener("click", handlePrevious);
  nextButton?.addEventListener("click", handleNext);
  renderZoom();
  watchLoading(imageElement);

  return {
    showImageAtIndex,
    getCurrentIndex: () => currentIndex,
    getZoomState: () => zoomState,
    unmount: () => {
      document.removeEventListener("keydown", handleKeyDown);
      window.removeEventListener("resize", handleResize);
      stage.removeEventListener("pointerdown", handlePointerDown);
      stage.removeEventListener("pointermove", handlePointerMove);
      stage.removeEventListener("pointerup", handlePointerUp);
      stage.removeEventListener("pointercancel", handlePointerUp);
      closeButton.removeEventListener("click", handleClose);
      previousButton?.removeEventListener("click", handlePrevious);
      nextButton?.removeEventListener("click", handleNext);
    },
  };
}
