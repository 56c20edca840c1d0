import { useState, type ReactNode } from "react";
import { Button } from "@atelier/ui";

export interface ThirdPartyEmbedGateProps {
  /** Who receives the visitor's data once the embed loads, named in the notice. */
  providerName: string;
  buttonLabel: string;
  width: number;
  height: number;
  children: () => ReactNode;
  /** What a prerendered content page's site shell (`@atelier/site-shell`) creates on the click instead of `children` (no React there). */
  staticEmbed?: StaticEmbed;
}

/** A Facebook page's timeline, or a plain frame (the studio's map), described in data attributes for the site shell. */
export type StaticEmbed = { kind: "facebook-page"; pageUrl: string } | { kind: "frame"; src: string; title: string; className: string };

/**
 * Shows a placeholder of the embed's exact size; the third-party content (and the request that sends visitor data to
 * its provider) is only created after the visitor asks for it.
 */
export function ThirdPartyEmbedGate({ providerName, buttonLabel, width, height, children, staticEmbed }: ThirdPartyEmbedGateProps) {
  const [state, setState] = useState<"waiting" | "loaded">("waiting");
  return (
    <div
      className="embed-gate"
      data-state={state}
      data-embed={staticEmbed?.kind}
      data-page-url={staticEmbed?.kind === "facebook-page" ? staticEmbed.pageUrl : undefined}
      data-frame-src={staticEmbed?.kind === "frame" ? staticEmbed.src : undefined}
      data-frame-title={staticEmbed?.kind === "frame" ? staticEmbed.title : undefined}
      data-frame-class={staticEmbed?.kind === "frame" ? staticEmbed.className : undefined}
      data-width={staticEmbed ? width : undefined}
      data-height={staticEmbed ? height : undefined}
      style={{ maxWidth: width, aspectRatio: `${width} / ${height}` }}
    >
      {state === "loaded" ? (
        children()
      ) : (
        <div className="embed-gate__placeholder">
          <p>Loading this content connects to {providerName}, which receives data about your visit.</p>
          <Button variant="secondary" onClick={() => setState("loaded")}>
            {buttonLabel}
          </Button>
        </div>
      )}
    </div>
  );
}
