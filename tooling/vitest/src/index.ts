import { defineConfig, type ViteUserConfig } from "vitest/config";

export type TestEnvironmentName = "node" | "happy-dom";

/**
 * The shared test settings: tests sit beside the code as `*.test.ts(x)`.
 *
 * @example
 * export default createVitestConfig({ environment: "happy-dom" });
 */
export function createVitestConfig(options: { environment?: TestEnvironmentName; setupFiles?: string[]; testTimeout?: number; include?: string[] } = {}): ViteUserConfig {
  return defineConfig({
    test: {
      environment: options.environment ?? "node",
      include: options.include ?? ["src/**/*.test.{ts,tsx}"],
      setupFiles: options.setupFiles ?? [],
      testTimeout: options.testTimeout ?? 10_000,
      passWithNoTests: false,
      reporters: ["default"],
    },
  });
}
