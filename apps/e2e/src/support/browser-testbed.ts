import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "./atelier-server.ts";
import { launchChromium } from "./chromium.ts";

export interface BrowserTestbed {
  /** The real server of this test file (available once `beforeAll` has run). */
  readonly server: RunningAtelierServer;
  readonly browser: Browser;
  /** A page in a fresh browser context (its own cookies), closed after `run`. */
  withPage<T>(run: (page: Page) => Promise<T>, contextOptions?: BrowserContextOptions): Promise<T>;
}

/**
 * Starts one real server and one Chromium for the test file that calls it (in `beforeAll`), and stops both after it.
 *
 * @example
 * const testbed = useBrowserTestbed();
 * it("…", () => testbed.withPage(async (page) => { await page.goto(`${testbed.server.origin}/`); }));
 */
export function useBrowserTestbed(options: { environment?: Record<string, string>; enabled?: boolean } = {}): BrowserTestbed {
  let server: RunningAtelierServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (options.enabled === false) return;
    server = await startAtelierServer(options.environment);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`The ${name} is not started: use the testbed inside tests or hooks.`);
    return value;
  };
  return {
    get server() {
      return started(server, "server");
    },
    get browser() {
      return started(browser, "browser");
    },
    async withPage(run, contextOptions) {
      const context = await started(browser, "browser").newContext(contextOptions);
      const page = await context.newPage();
      try {
        return await run(page);
      } finally {
        await context.close();
      }
    },
  };
}
