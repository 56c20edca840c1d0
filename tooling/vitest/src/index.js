// Plain JavaScript: vitest loads its configuration through Node before any TypeScript loader exists.
import { defineConfig } from "vitest/config";

/**
 * The shared test settings: tests sit beside the code as `*.test.ts(x)`.
 *
 * @example
 * export default createVitestConfig({ environment: "happy-dom" });
 */
export function createVitestConfig(options = {}) {
  return defineConfig({
    test: {
      environment: options.environment ?? "node",
      // A page origin, so relative URLs (fetch("/messages/contact/")) resolve as they do in the browser.
      environmentOptions: { happyDOM: { url: "http://localhost:3000/" } },
      include: options.include ?? ["src/**/*.test.{ts,tsx}"],
      setupFiles: options.setupFiles ?? [],
      testTimeout: options.testTimeout ?? 10_000,
      hookTimeout: options.hookTimeout ?? 30_000,
      passWithNoTests: false,
      fileParallelism: options.fileParallelism ?? true,
    },
  });
}
