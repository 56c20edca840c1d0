import { element, type SiteShellEnvironment } from "./dom.ts";

/** A click-to-load frame (the studio's map on /contact), from the gate's `data-frame-*` attributes. */
function createFrame(document: Document, gate: HTMLElement): void {
  const frame = element(document, "iframe", {
    class: gate.dataset.frameClass ?? "",
    title: gate.dataset.frameTitle ?? "",
    src: gate.dataset.frameSrc ?? "",
    width: gate.dataset.width ?? "",
    height: gate.dataset.height ?? "",
    loading: "lazy",
  });
  gate.replaceChildren(frame);
  gate.dataset.state = "loaded";
}

function createFacebookTimeline(document: Document, gate: HTMLElement): void {
  const pageUrl = gate.dataset.pageUrl ?? "";
  const timeline = element(document, "div", {});
  timeline.append(element(document, "div", { id: "fb-root" }));
  const plugin = element(document, "div", {
    class: "fb-page",
    "data-href": pageUrl,
    "data-tabs": "timeline,events",
    "data-width": gate.dataset.width ?? "500",
    "data-height": gate.dataset.height ?? "700",
    "data-small-header": "false",
    "data-hide-cover": "false",
  });
  const quote = element(document, "blockquote", { cite: pageUrl, class: "fb-xfbml-parse-ignore" });
  quote.append(element(document, "a", { href: pageUrl }, "Our page"));
  plugin.append(quote);
  timeline.append(plugin);
  gate.replaceChildren(timeline);
  gate.dataset.state = "loaded";
  const script = element(document, "script", { id: "facebook-jssdk", src: "https://connect.facebook.net/en_US/sdk.js#xfbml=1&version=v19.0", crossorigin: "anonymous" });
  script.setAttribute("async", "");
  document.body.append(script);
}

/**
 * The click-to-load embeds (the events page's social timeline, the studio's map): the placeholder's button creates the
 * third-party content only when asked, as the web app's ThirdPartyEmbedGate does, from what its `staticEmbed` wrote in
 * the gate's data attributes.
 */
export function wireEmbedGates({ document, window }: SiteShellEnvironment): void {
  for (const gate of document.querySelectorAll(".embed-gate[data-embed='frame']")) {
    const button = gate.querySelector("button");
    if (!(gate instanceof window.HTMLElement) || !button) continue;
    button.addEventListener("click", () => createFrame(document, gate));
  }
  for (const gate of document.querySelectorAll(".embed-gate[data-embed='facebook-page']")) {
    const button = gate.querySelector("button");
    if (!(gate instanceof window.HTMLElement) || !button) continue;
    button.addEventListener("click", () => createFacebookTimeline(document, gate));
  }
}
