// `pnpm bench`: page weight on first load and Lighthouse mobile scores for every public page, against the real
// server; writes bench-results/site.json. BENCH_PAGES="/,/paintings" limits the pages.
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { writeBenchResult, type BenchFigures } from "@atelier/bench";
import { paintings } from "@atelier/catalogue";
import { CHROMIUM_FLAGS, findChromiumExecutable, launchChromium } from "../support/chromium.ts";
import { startAtelierServer } from "../support/atelier-server.ts";

/** The prerendered public pages (apps/web/app/prerendered-paths.ts), with one painting and one of its viewer pages. */
function listPublicPages(): string[] {
  const painting = paintings[0];
  const paintingPages = painting === undefined ? [] : [`/${painting.id}`, ...painting.images.slice(0, 1).map((image) => `/${painting.id}/image/${image.id}`)];
  return ["/", "/paintings", "/about", "/events", "/expositions", "/contact", "/privacy-policy", "/Licence", ...paintingPages];
}

const BENCHMARKED_PATHS = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(",") : listPublicPages();

/**
 * Lighthouse runs each page this many times: its simulated LCP and TBT still move with the machine's load (one run of
 * /paintings gave 1,029 ms, the next 1,480), and Lighthouse's own guidance is to take the median of several runs.
 */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
if (!Number.isInteger(LIGHTHOUSE_RUNS) || LIGHTHOUSE_RUNS < 1) throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a whole number of runs, 1 or more; it is "${process.env.BENCH_LIGHTHOUSE_RUNS}".`);

interface PageWeight {
  javaScriptGzipBytes: number;
  cssGzipBytes: number;
  imageBytes: number;
  fontBytes: number;
  /** Every response body on the first load, the document included, as transferred (compressed where the server compresses). */
  totalBytes: number;
  requestCount: number;
}

async function measurePageWeight(origin: string, path: string): Promise<PageWeight> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
    const page = await context.newPage();
    const weight: PageWeight = { javaScriptGzipBytes: 0, cssGzipBytes: 0, imageBytes: 0, fontBytes: 0, totalBytes: 0, requestCount: 0 };
    const pending: Promise<void>[] = [];
    page.on("requestfinished", (request) => {
      pending.push(
        request.sizes().then((sizes) => {
          weight.requestCount += 1;
          weight.totalBytes += sizes.responseBodySize;
          const type = request.resourceType();
          if (type === "script") weight.javaScriptGzipBytes += sizes.responseBodySize;
          else if (type === "stylesheet") weight.cssGzipBytes += sizes.responseBodySize;
          else if (type === "image") weight.imageBytes += sizes.responseBodySize;
          else if (type === "font") weight.fontBytes += sizes.responseBodySize;
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

type LighthouseScores = Awaited<ReturnType<typeof measureLighthouse>>;

function medianOf(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A page's scores over `LIGHTHOUSE_RUNS` runs: the median performance, LCP and TBT (with every run's, for their range),
 * and the strictest of the rest (the lowest accessibility, SEO and best practices, the highest CLS).
 */
async function measureLighthouseRuns(origin: string, path: string) {
  const runs: LighthouseScores[] = [];
  for (let run = 0; run < LIGHTHOUSE_RUNS; run += 1) runs.push(await measureLighthouse(origin, path));
  const valuesOf = (key: keyof LighthouseScores) => runs.map((scores) => scores[key]).filter((value): value is number => value !== null);
  const strictest = (key: keyof LighthouseScores, pick: (...values: number[]) => number) => {
    const values = valuesOf(key);
    return values.length === 0 ? null : pick(...values);
  };
  const performanceRuns = valuesOf("performance");
  const largestContentfulPaintMsRuns = valuesOf("largestContentfulPaintMs");
  return {
    lighthouseRuns: runs.length,
    performance: medianOf(performanceRuns),
    performanceRuns,
    accessibility: strictest("accessibility", Math.min),
    seo: strictest("seo", Math.min),
    bestPractices: strictest("bestPractices", Math.min),
    cumulativeLayoutShift: strictest("cumulativeLayoutShift", Math.max),
    largestContentfulPaintMs: medianOf(largestContentfulPaintMsRuns),
    largestContentfulPaintMsRuns,
    totalBlockingTimeMs: medianOf(valuesOf("totalBlockingTimeMs")),
    benchmarkIndex: medianOf(valuesOf("benchmarkIndex")),
  };
}

/**
 * Lighthouse's scores of one page. A run whose trace Lighthouse could not record (NO_NAVSTART and its kin, where
 * Lighthouse itself says to run it again) is run again, up to three times, so one bad trace leaves no page unscored.
 */
async function measureLighthouse(origin: string, path: string) {
  const attempts = 3;
  for (let attempt = 1; ; attempt += 1) {
    const { scores, runtimeError } = await measureLighthouseOnce(origin, path);
    if (runtimeError === undefined || attempt === attempts) return scores;
    console.warn(`Lighthouse on ${path}: run ${attempt} of ${attempts} could not measure the page (${runtimeError.code}); running it again.`);
  }
}

async function measureLighthouseOnce(origin: string, path: string) {
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
    const { categories, audits, runtimeError } = result.lhr;
    // A page Lighthouse could not measure says why, instead of leaving its cells empty.
    const unmeasured = Object.values(audits).filter((audit) => audit.score === null && audit.scoreDisplayMode === "error");
    if (runtimeError) console.warn(`Lighthouse on ${path}: ${runtimeError.code} ${runtimeError.message}`);
    for (const audit of unmeasured.slice(0, 3)) console.warn(`Lighthouse on ${path}: ${audit.id}: ${audit.errorMessage ?? "error"}`);
    const scores = {
      performance: categories.performance?.score ?? null,
      accessibility: categories.accessibility?.score ?? null,
      seo: categories.seo?.score ?? null,
      bestPractices: categories["best-practices"]?.score ?? null,
      cumulativeLayoutShift: audits["cumulative-layout-shift"]?.numericValue ?? null,
      largestContentfulPaintMs: audits["largest-contentful-paint"]?.numericValue ?? null,
      totalBlockingTimeMs: audits["total-blocking-time"]?.numericValue ?? null,
      benchmarkIndex: result.lhr.environment.benchmarkIndex ?? null,
    };
    return { scores, runtimeError };
  } finally {
    chrome.kill();
  }
}

/** A text page without script or image: what Lighthouse gives on this machine for a page that costs next to nothing. */
const CONTROL_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Control page</title><meta name="description" content="A text page that costs next to nothing, to measure the machine."><link rel="icon" href="data:,"></head><body><main><h1>Control page</h1>${"<p>A paragraph of text that the page lays out and paints, and nothing else.</p>".repeat(12)}</main></body></html>`;

/** The response headers the site sends with a document (its security headers among them), as a control page may send them too. */
async function documentHeadersOf(origin: string, path: string): Promise<Record<string, string>> {
  const response = await fetch(`${origin}${path}`);
  await response.arrayBuffer();
  const perMessage = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "set-cookie", "vary", "x-request-id", "content-type"]);
  return Object.fromEntries([...response.headers].filter(([name]) => !perMessage.has(name)));
}

/**
 * The control page measured as the site's pages are, from a bare node:http server: once with no header but its type,
 * once with the site's own document headers. Lighthouse's figures move with the machine (a fresh renderer process
 * costs more on some machines than on others); these say what this machine gives a page that costs nothing, with and
 * without what the site's headers ask of the browser (Cross-Origin-Opener-Policy: same-origin puts the page in a new
 * browsing context group, so Lighthouse's navigation from about:blank starts a renderer process; decision 0067).
 */
async function measureControlPages(siteHeaders: Record<string, string>): Promise<BenchFigures> {
  let headers: Record<string, string> = {};
  const server = http.createServer((request, response) => {
    // Only the page: Lighthouse's SEO audit reads /robots.txt, which must not be the page.
    if (request.url !== "/") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Not found");
      return;
    }
    response.writeHead(200, { ...headers, "content-type": "text/html; charset=utf-8" });
    response.end(CONTROL_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    const figures: BenchFigures = {};
    for (const [key, sent] of [["bare", {}], ["siteHeaders", siteHeaders]] as const) {
      headers = sent;
      figures[key] = { headers: Object.keys(sent).join(", "), ...(await measureLighthouseRuns(`http://localhost:${port}`, "/")) };
    }
    return figures;
  } finally {
    server.close();
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
  const loadAtStart = os.loadavg()[0]?.toFixed(2);
  const server = await startAtelierServer({ NODE_ENV: "test" });
  const rows: Record<string, unknown>[] = [];
  const pages: BenchFigures = {};
  let controlPages: BenchFigures;
  try {
    controlPages = await measureControlPages(await documentHeadersOf(server.origin, BENCHMARKED_PATHS[0] ?? "/"));
    for (const path of BENCHMARKED_PATHS) {
      const weight = await measurePageWeight(server.origin, path);
      const scores = await measureLighthouseRuns(server.origin, path);
      pages[path] = { ...weight, ...scores };
      rows.push({
        path,
        "JS (gzip)": kilobytes(weight.javaScriptGzipBytes),
        "CSS (gzip)": kilobytes(weight.cssGzipBytes),
        images: kilobytes(weight.imageBytes),
        total: kilobytes(weight.totalBytes),
        requests: weight.requestCount,
        performance: scores.performance,
        accessibility: scores.accessibility,
        seo: scores.seo,
        "best practices": scores.bestPractices,
        CLS: scores.cumulativeLayoutShift === null ? null : Number(scores.cumulativeLayoutShift.toFixed(3)),
        "LCP ms": scores.largestContentfulPaintMs === null ? null : Math.round(scores.largestContentfulPaintMs),
        "LCP ms, each run": scores.largestContentfulPaintMsRuns.map(Math.round).join(" "),
      });
    }
  } finally {
    await server.stop();
  }
  console.info(`Public site, first load, Lighthouse mobile (simulated throttling), median of ${LIGHTHOUSE_RUNS} runs:`);
  console.info(formatTable(rows));
  for (const [key, control] of Object.entries(controlPages)) console.info(`Control page (${key}): ${JSON.stringify(control)}`);
  const written = writeBenchResult({
    name: "site",
    figures: { pages, controlPages },
    notes: [
      `Page weight from Debian's Chromium through playwright-core (412×823 viewport, first load until network idle); Lighthouse ${lighthouseVersion()} mobile with simulated throttling, ${LIGHTHOUSE_RUNS} runs a page: performance, LCP and TBT are their median (the range beside), accessibility, SEO and best practices the lowest run's, CLS the highest; simulated throttling makes scores depend little on the machine's load (load average ${loadAtStart} at the start), but LCP and TBT still do.`,
    ],
  });
  console.info(`Written: ${written}`);
}

function lighthouseVersion(): string {
  return (createRequire(import.meta.url)("lighthouse/package.json") as { version: string }).version;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
