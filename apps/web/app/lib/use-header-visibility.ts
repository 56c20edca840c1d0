import { useEffect, useState } from "react";

export type HeaderVisibility = "visible" | "hidden";

/** Scrolling less than this in one direction does not move the header: it keeps trackpad jitter from flickering it. */
export const HEADER_SCROLL_TOLERANCE_PIXELS = 8;
/** Near the top of the page the header always shows. */
export const HEADER_ALWAYS_VISIBLE_ABOVE_PIXELS = 64;

/**
 * The next visibility from a scroll movement: down hides, up shows (spec 2.1; thresholds are ours).
 */
export function nextHeaderVisibility(current: HeaderVisibility, previousScrollY: number, scrollY: number): HeaderVisibility {
  if (scrollY <= HEADER_ALWAYS_VISIBLE_ABOVE_PIXELS) return "visible";
  const movement = scrollY - previousScrollY;
  if (movement > HEADER_SCROLL_TOLERANCE_PIXELS) return "hidden";
  if (movement < -HEADER_SCROLL_TOLERANCE_PIXELS) return "visible";
  return current;
}

export function useHeaderVisibility(isPinnedVisible: boolean): HeaderVisibility {
  const [visibility, setVisibility] = useState<HeaderVisibility>("visible");
  useEffect(() => {
    let anchorScrollY = window.scrollY;
    let frameRequested = false;
    const handleScroll = () => {
      if (frameRequested) return;
      frameRequested = true;
      requestAnimationFrame(() => {
        frameRequested = false;
        const scrollY = window.scrollY;
        setVisibility((current) => {
          const next = nextHeaderVisibility(current, anchorScrollY, scrollY);
          if (next !== current || Math.abs(scrollY - anchorScrollY) > HEADER_SCROLL_TOLERANCE_PIXELS) anchorScrollY = scrollY;
          return next;
        });
      });
    };
    window.addEventListener("scroll", handleScroll, { passive: true });
    return () => window.removeEventListener("scroll", handleScroll);
  }, []);
  return isPinnedVisible ? "visible" : visibility;
}
