import type { ViteUserConfig } from "vitest/config";

export type TestEnvironmentName = "node" | "happy-dom";

export interface SharedVitestOptions {
  environment?: TestEnvironmentName;
  setupFiles?: string[];
  include?: string[];
  testTimeout?: number;
  hookTimeout?: number;
  fileParallelism?: boolean;
}

/** The shared test settings: tests sit beside the code as `*.test.ts(x)`. */
export declare function createVitestConfig(options?: SharedVitestOptions): ViteUserConfig;
