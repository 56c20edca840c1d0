import { createVitestConfig } from "@atelier/vitest-config";

// happy-dom gives relative URLs ("/api/…") the page's origin, as a browser does.
export default createVitestConfig({ environment: "happy-dom" });
