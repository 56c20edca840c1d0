import { createVitestConfig } from "@atelier/vitest-config";

export default createVitestConfig({ environment: "node", include: ["src/**/*.test.ts", "scripts/**/*.test.ts"] });
