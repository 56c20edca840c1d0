import { createVitestConfig } from "@atelier/vitest-config";

export default createVitestConfig({
  environment: "happy-dom",
  setupFiles: ["./src/test-support/setup-tests.ts"],
});
