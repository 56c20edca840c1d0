import path from "node:path";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { findChromiumExecutable } from "./src/testing/find-chromium.ts";

/** Every story runs as a test in Debian's Chromium: it renders, its play function passes, and axe finds nothing. */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        plugins: [storybookTest({ configDir: path.join(import.meta.dirname, ".storybook") })],
        test: {
          name: "storybook",
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: findChromiumExecutable() } }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
