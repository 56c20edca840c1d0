// `pnpm bench`: page weight on first load and Lighthouse mobile scores for the public site, against the real server.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, findChromiumExecutable, launchChromium } from "../support/chromium.ts";
import { startAtelierServer } from "../support/atelier-server.ts";

const BENCHMARKED_PATHS = ["/", "/paintings", "/janus-unmasked"];

interface PageWeight {
  javaScriptGzipBytes: number;
  cssGzipBytes: number;
  imageBytes: number;
  requestCount: number;
}

async function measurePageWeight(origin: string, path: string): Promise<PageWeight> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
    const page = await context.newPage();
    const weight: PageWeight = { javaScriptGzipBytes: 0, cssGzipBytes: 0, imageBytes: 0, requestCount: 0 };
    const pending: Promise<void>[] = [];
    page.on("requestfinished", (request) => {
      pending.push(
        request.sizes().then((sizes) => {
          weight.requestCount += 1;
          const type = request.resourceType();
          if (type === "script") weight.javaScriptGzipBytes += sizes.responseBodySize;
          else if (type === "stylesheet") weight.cssGzipBytes += sizes.responseBodySize;
          else if (type === "image") weight.imageBytes += sizes.responseBodySize;
        }),
      );
    });
    await page.goto(`${origin}${path}`, { waitUntil: "networkidle" });
    await Promise.all(pending);
    return weight;
  } finally {
    await browser.close();
  }
}

async function measureLighthouse(origin: string, path: string) {
  const chrome = await chromeLauncher.launch({
    chromePath: findChromiumExecutable(),
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  try {
    const result = await lighthouse(`${origin}${path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "seo", "best-practices"],
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${path}.`);
    const { categories, audits } = result.lhr;
    return {
      performance: categories.performance?.score ?? null,
      accessibility: categories.accessibility?.score ?? null,
      seo: categories.seo?.score ?? null,
      bestPractices: categories["best-practices"]?.score ?? null,
      cumulativeLayoutShift: audits["cumulative-layout-shift"]?.numericValue ?? null,
      largestContentfulPaintMs: audits["largest-contentful-paint"]?.numericValue ?? null,
    };
  } finally {
    chrome.kill();
  }
}

function formatTable(rows: Record<string, unknown>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const cells = [columns, ...rows.map((row) => columns.map((column) => String(row[column] ?? "")))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  return cells.map((line) => line.map((cell, index) => cell.padEnd(widths[index]!)).join("  ")).join("\n");
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const server = await startAtelierServer({ NODE_ENV: "test" });
  const rows: Record<string, unknown>[] = [];
  try {
    for (const path of BENCHMARKED_PATHS) {
      const weight = await measurePageWeight(server.origin, path);
      const scores = await measureLighthouse(server.origin, path);
      rows.push({
        path,
        "JS (gzip)": kilobytes(weight.javaScriptGzipBytes),
        "CSS (gzip)": kilobytes(weight.cssGzipBytes),
        images: kilobytes(weight.imageBytes),
        requests: weight.requestCount,
        performance: scores.performance,
        accessibility: scores.accessibility,
        seo: scores.seo,
        "best practices": scores.bestPractices,
        CLS: scores.cumulativeLayoutShift === null ? null : Number(scores.cumulativeLayoutShift.toFixed(3)),
        "LCP ms": scores.largestContentfulPaintMs === null ? null : Math.round(scores.largestContentfulPaintMs),
      });
    }
  } finally {
    await server.stop();
  }
  console.info("Public site, first load, Lighthouse mobile (simulated throttling):");
  console.info(formatTable(rows));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
