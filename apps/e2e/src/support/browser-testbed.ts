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
      const pageEvents = recordPageEvents(page);
      try {
        return await run(page);
      } catch (error) {
        throw await withPageDiagnostics(error, page, pageEvents);
      } finally {
        await context.close();
      }
    },
  };
}

const RECORDED_PAGE_EVENTS_LIMIT = 30;

/** What the page said while a test ran: its console's errors and warnings, uncaught errors and failed requests. */
function recordPageEvents(page: Page): string[] {
  const pageEvents: string[] = [];
  const record = (line: string) => {
    pageEvents.push(line);
    if (pageEvents.length > RECORDED_PAGE_EVENTS_LIMIT) pageEvents.shift();
  };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") record(`console.${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => record(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => record(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? "?"})`));
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) record(`navigated: ${frame.url()}`);
  });
  return pageEvents;
}

/**
 * A browser test that fails on a loaded CI machine and passes here leaves only its error in the log: add where the
 * page was, what it said, and what a screen reader would have found on it, so that a rare failure can be understood.
 */
async function withPageDiagnostics(error: unknown, page: Page, pageEvents: readonly string[]): Promise<unknown> {
  if (!(error instanceof Error) || page.isClosed()) return error;
  const ariaSnapshot = await page
    .locator("body")
    .ariaSnapshot({ timeout: 2_000 })
    .catch((snapshotError: unknown) => `(no snapshot: ${String(snapshotError).split("\n")[0]})`);
  error.message += [
    "",
    "",
    `Page at failure: ${page.url()}`,
    `Page events (last ${RECORDED_PAGE_EVENTS_LIMIT}):`,
    ...(pageEvents.length > 0 ? pageEvents.map((line) => `  ${line}`) : ["  (none)"]),
    "Accessibility tree at failure:",
    ariaSnapshot.slice(0, 6_000),
  ].join("\n");
  return error;
}
