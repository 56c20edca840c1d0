import { createVitestConfig } from "@atelier/vitest-config";

export default createVitestConfig({ environment: "happy-dom" });
