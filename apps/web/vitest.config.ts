import { createVitestConfig } from "@atelier/vitest-config";

export default createVitestConfig({ environment: "happy-dom", include: ["app/**/*.test.{ts,tsx}", "build-steps/**/*.test.ts"] });
