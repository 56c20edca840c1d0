// The prerendered content pages' whole script, bundled and minified by tsdown into dist/site-shell.js.
import { startSiteShell } from "./site-shell.ts";

void startSiteShell({ document: window.document, window, fetch: (input, init) => window.fetch(input, init) });
