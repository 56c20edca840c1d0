// The prerendered /contact's whole form script, bundled and minified by tsdown into dist/contact-page.js.
import { startContactPage } from "./contact-page.ts";

startContactPage({ window });
