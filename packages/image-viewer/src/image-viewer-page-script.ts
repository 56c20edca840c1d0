// The viewer page's whole script, bundled and minified by tsdown into dist/image-viewer-page.js.
import { startImageViewerPage } from "./image-viewer-page.ts";

startImageViewerPage({ document, window });
