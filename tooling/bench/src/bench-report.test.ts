import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchResult } from "./bench-result.ts";
import { buildBenchReport, flattenFigures, formatNumber, renderBenchReportMarkdown } from "./bench-report.ts";
import type { MachineDescription } from "./describe-machine.ts";

const fixtureDirectory = path.join(import.meta.dirname, "test-fixtures");
const fixtures: BenchResult[] = readdirSync(fixtureDirectory)
  .filter((fileName) => fileName.endsWith(".json"))
  .map((fileName) => JSON.parse(readFileSync(path.join(fixtureDirectory, fileName), "utf8")) as BenchResult);
const machine: MachineDescription = {
  cpuModel: "Test CPU @ 2.0GHz",
  cores: 2,
  memoryBytes: 8 * 1024 ** 3,
  nodeVersion: "v20.20.0",
  platform: "Linux 6.1 x64",
  gitCommit: "0123456789abcdef0123456789abcdef01234567",
  gitWorkingTree: "modified",
  loadAverage: [1.5, 1.2, 0.9],
};
const generatedAt = "2026-05-04T10:30:00.000Z";

describe("given the results of every bench", () => {
  const report = buildBenchReport({ results: fixtures, machine, generatedAt });
  const markdown = renderBenchReportMarkdown(report, { chartFileName: "scaling.svg" });

  it("should merge every bench's figures with the machine", () => {
    expect(Object.keys(report.benches).sort()).toEqual(["fresh-clone", "identity", "server-fuzz", "site", "study", "subtitles"]);
    expect(report.benches.study?.figures).toEqual(fixtures.find((result) => result.name === "study")?.figures);
    expect(report.machine).toEqual(machine);
    expect(report.missingBenches).toEqual([]);
  });

  it("should put the throughput ratios, the largest subtitle sizes and the fresh clone among the key figures", () => {
    const values = Object.fromEntries(report.keyFigures.map((row) => [row.figure, row.value]));
    expect(values["GET session (signed in) ÷ bare node:http"]).toBe("0.60× (rounds 0.55–0.63×) (6,121 vs 10,200 req/s; goal ≥ 0.5 (met); load 1.25)");
    expect(values["POST rate (SQLite) ÷ bare node:http"]).toBe("0.20× (2,100 vs 10,500 req/s; goal ≥ 0.3 (not met))");
    expect(values["POST rate (PostgreSQL) ÷ bare node:http"]).toBe("0.15× (1,500 vs 10,000 req/s; goal ≥ 0.15 (met))");
    expect(values["GET stats, p50 SQLite / PostgreSQL"]).toBe("12.5 ms / 20 ms");
    expect(values["Parse 20,000 cues: warm time, peak RSS Δ"]).toBe("205 ms, 50 MB");
    expect(values["Align 20,000 cues: warm time, peak RSS Δ"]).toBe("1,570 ms, 74.5 MB (goal ≤ 600 ms warm, not met)");
    expect(values["Lighthouse performance, 2 pages"]).toBe("88 (/paintings) to 93 (/)");
    expect(values["Lighthouse accessibility / SEO / best practices, lowest"]).toBe("100 / 100 / 96");
    expect(values["transfer on first load"]).toBe("311 KB (/) to 612 KB (/paintings)");
    expect(values["clone + install + build and start → first page (total)"]).toBe("0.8 s + 21.4 s + 95.2 s (117 s)");
    expect(values["requests/s ÷ django-allauth, same calls"]).toBe(
      "GET config ×12, GET auth/session (signed in) ×52.9, POST auth/login, one after another ×4.35 (goal ≥ 10 each, not met; allauth served by gunicorn; load 0.4)",
    );
  });

  it("should render the comparison with django-allauth call by call beside issue 16's goal", () => {
    expect(markdown).toContain("## Against django-allauth on the same calls");
    expect(markdown).toContain("| GET auth/session (signed in) | 48,362 | 907 | ×52.9 (rounds ×50.9–55.6) | ≥ ×10 (met) |");
    expect(markdown).toContain("| POST auth/login, one after another | 106 | 24.4 | ×4.35 (rounds ×4.1–4.6) | ≥ ×10 (not met) |");
  });

  it("should render each throughput ratio beside issue 16's goal, the server's CPU per answer and the machine's load", () => {
    expect(markdown).toContain("| endpoint | engine | requests/s | bare node:http requests/s | ratio | goal (issue 16) | server CPU per answer | bare CPU per answer | load average |");
    expect(markdown).toContain("| GET /_allauth/browser/v1/auth/session (signed in) | SQLite | 6,121 | 10,200 | 0.60× (rounds 0.55–0.63×) | ≥ 0.5 (met) | 24.6 µs | 12.2 µs | 1.25 |");
    expect(markdown).toContain("| POST /api/subtitle-pairs/:id/rate/ | SQLite | 2,100 | 10,500 | 0.20× | ≥ 0.3 (not met) | — | — | — |");
  });

  it("should render a table row per public page", () => {
    expect(markdown).not.toMatch(/\n\n\n/);
    expect(markdown).toContain("| `/` | 90 KB | 10 KB | 200 KB | 311 KB | 14 | 93 | 100 | 100 | 96 | 2,412 ms | 0.001 | 40 ms |");
  });

  it("should render the study queries side by side for both engines", () => {
    expect(markdown).toContain("| query | SQLite p50 | SQLite p95 | PostgreSQL p50 | PostgreSQL p95 |");
    expect(markdown).toContain("| GET pairs (study, every card) | 61.2 ms | 70.4 ms | 80.1 ms | 95 ms |");
  });

  it("should render each study call's p95 as a multiple of GET /site-config's, measured in turn", () => {
    expect(markdown).toContain("| call | SQLite p95 | SQLite ÷ config | PostgreSQL p95 | PostgreSQL ÷ config |");
    expect(markdown).toContain("| GET stats | 90.3 ms | ×60.2 | 122 ms | ×76 |");
    expect(markdown).toContain("| GET /site-config (the baseline) | 1.5 ms | ×1 | 1.6 ms | ×1 |");
    expect(markdown).toContain("| Study queries | p95 ÷ GET /site-config's p95, interleaved (SQLite) | GET stats ×60.2, POST rate ×4.47 (goal ≤ ×5 each, not met) |");
  });

  it("should link the chart and list the scaling curves", () => {
    expect(markdown).toContain("![Subtitle parse and alignment scaling](scaling.svg)");
    expect(markdown).toContain("| 20,000 | 2,100 ms | 1,570 ms | 5.72 MB | 74.5 MB |");
    expect(markdown).toContain("A real film (the en–et OPUS fixtures, 1,392 × 1,496 cues): alignment 107 ms warm, 194 ms cold, peak RSS Δ 9.1 MB, 1,225 pairs.");
  });

  it("should show a bench it has no table for as figure and value rows", () => {
    expect(markdown).toContain("## server-fuzz");
    expect(markdown).toContain("| byRoute.POST /messages/contact/.requestsPerSecond | 951 |");
    expect(markdown).toContain("| latencyMilliseconds | 1.5, 2, 9 |");
  });

  it("should carry every bench's notes and the machine line", () => {
    expect(markdown).toContain("- site: Lighthouse mobile with simulated throttling.");
    expect(markdown).toContain("Test CPU @ 2.0GHz, 2 cores, 8 GiB memory");
    expect(markdown).toContain("with uncommitted changes in the work tree");
    expect(markdown).not.toContain("## Missing");
  });
});

describe("given a site bench that ran Lighthouse several times a page", () => {
  const site: BenchResult = {
    name: "site",
    measuredAt: "2026-05-04T10:00:00.000Z",
    figures: {
      pages: {
        "/": { lighthouseRuns: 3, performance: 0.99, performanceRuns: [1, 0.99, 0.96], largestContentfulPaintMs: 1196, largestContentfulPaintMsRuns: [1196, 1151, 1502], totalBlockingTimeMs: 40 },
        "/about": { lighthouseRuns: 3, performance: 1, performanceRuns: [1, 1, 1], largestContentfulPaintMs: 768, largestContentfulPaintMsRuns: [768, 770, 802], totalBlockingTimeMs: 0 },
      },
    },
    notes: [],
  };
  const report = buildBenchReport({ results: [site], machine, generatedAt });

  it("should give the median with the range of the runs for performance and LCP", () => {
    const markdown = renderBenchReportMarkdown(report);
    expect(markdown).toContain("| `/` | — | — | — | — | — | 99 (96–100) | — | — | — | 1,196 ms (1,151 ms–1,502 ms) | — | 40 ms |");
  });

  it("should name the number of runs in the key figures, with the slowest page's median LCP", () => {
    const values = Object.fromEntries(report.keyFigures.map((row) => [row.figure, row.value]));
    expect(values["Lighthouse performance, 2 pages, median of 3 runs"]).toBe("99 (/) to 100 (/about)");
    expect(values["Lighthouse LCP, median of 3 runs"]).toBe("768 ms (/about) to 1,196 ms (/)");
  });
});

describe("given a site bench that measured the control page bare and with the site's headers", () => {
  const site: BenchResult = {
    name: "site",
    measuredAt: "2026-05-04T10:00:00.000Z",
    figures: {
      pages: { "/about": { lighthouseRuns: 3, performance: 0.89, performanceRuns: [0.85, 0.93, 0.89], totalBlockingTimeMs: 460, benchmarkIndex: 1644.5 } },
      controlPages: {
        bare: { headers: "", lighthouseRuns: 3, performance: 1, performanceRuns: [1, 1, 1], largestContentfulPaintMs: 663, largestContentfulPaintMsRuns: [642, 663, 677], totalBlockingTimeMs: 21, benchmarkIndex: 1579.5 },
        siteHeaders: { headers: "cross-origin-opener-policy", lighthouseRuns: 3, performance: 0.92, performanceRuns: [0.9, 0.92, 0.93], largestContentfulPaintMs: 1100, largestContentfulPaintMsRuns: [1050, 1100, 1210], totalBlockingTimeMs: 318.5, benchmarkIndex: 1255 },
      },
    },
    notes: [],
  };
  const report = buildBenchReport({ results: [site], machine, generatedAt });

  it("should give both controls among the key figures, so a page's score can be read against the machine's", () => {
    const values = Object.fromEntries(report.keyFigures.map((row) => [row.figure, row.value]));
    expect(values["Lighthouse of a control page (text, no script) on this machine: bare / with the site's headers"]).toBe("100 (TBT 21 ms, LCP 663 ms) / 92 (TBT 319 ms, LCP 1,100 ms)");
  });

  it("should tabulate the controls under the pages, with the headers sent and the machine's benchmark index", () => {
    const markdown = renderBenchReportMarkdown(report);
    expect(markdown).toContain("| control page | headers | performance | LCP | TBT |");
    expect(markdown).toContain("| bare | Content-Type only | 100 (100–100) | 663 ms (642 ms–677 ms) | 21 ms |");
    expect(markdown).toContain("| with the site's document headers | cross-origin-opener-policy | 92 (90–93) | 1,100 ms (1,050 ms–1,210 ms) | 319 ms |");
    expect(markdown).toContain("Lighthouse's benchmark index of this machine over the runs: 1,255 to 1,645 (medians per page).");
  });

  it("should leave the control out of a site result without it", () => {
    const withoutControl = buildBenchReport({ results: [{ ...site, figures: { pages: site.figures.pages ?? {} } }], machine, generatedAt });
    expect(withoutControl.keyFigures.map((row) => row.figure)).not.toContain("Lighthouse of a control page (text, no script) on this machine: bare / with the site's headers");
    expect(renderBenchReportMarkdown(withoutControl)).not.toContain("control page");
  });
});

describe("given a site bench where every page scored alike", () => {
  it("should say so once rather than name a lowest and a highest page", () => {
    const pages = { "/": { performance: 1 }, "/about": { performance: 0.998 } };
    const report = buildBenchReport({ results: [{ name: "site", measuredAt: generatedAt, figures: { pages }, notes: [] }], machine, generatedAt });
    const values = Object.fromEntries(report.keyFigures.map((row) => [row.figure, row.value]));
    expect(values["Lighthouse performance, 2 pages"]).toBe("100 on every page");
  });
});

describe("given only some results", () => {
  it("should name the benches that wrote nothing and the files it could not read", () => {
    const report = buildBenchReport({ results: fixtures.filter((result) => result.name === "identity"), machine, generatedAt, problems: ["broken.json is not JSON."] });
    expect(report.missingBenches).toEqual(["site", "study", "subtitles", "fresh-clone"]);
    const markdown = renderBenchReportMarkdown(report);
    expect(markdown).toContain("- No result from the fresh-clone bench.");
    expect(markdown).toContain("- broken.json is not JSON.");
    expect(markdown).not.toContain("scaling.svg");
  });

  it("should point out a result older than a day", () => {
    const report = buildBenchReport({ results: fixtures.filter((result) => result.name === "identity"), machine, generatedAt: "2026-05-06T10:00:00.000Z" });
    expect(report.problems).toEqual(["The identity result was measured 2026-05-04T10:05:00.000Z, more than a day before this report; run its bench again to compare like with like."]);
  });

  it("should show a dash for a figure a bench did not write", () => {
    const report = buildBenchReport({ results: [{ name: "identity", measuredAt: generatedAt, figures: { session: { requestsPerSecond: 5000 } }, notes: [] }], machine, generatedAt });
    expect(report.keyFigures).toEqual([{ area: "Throughput", figure: "GET session (signed in) ÷ bare node:http", value: "— (5,000 vs — req/s; goal ≥ 0.5)" }]);
  });
});

describe("given an identity result without an allauth to compare with", () => {
  const reason = "not measured: ALLAUTH_COMPARISON_URL was not set (a django-allauth headless server's …/_allauth/browser/v1 on this machine)";
  const identity: BenchResult = { name: "identity", measuredAt: generatedAt, figures: { allauthComparison: { measured: false, reason } }, notes: [] };
  const report = buildBenchReport({ results: [identity], machine, generatedAt });

  it("should say why among the key figures and in its section, rather than show dashes", () => {
    expect(report.keyFigures).toContainEqual({ area: "Throughput", figure: "requests/s ÷ django-allauth, same calls", value: reason });
    expect(renderBenchReportMarkdown(report)).toContain(`## Against django-allauth on the same calls\n\nThe identity bench's comparison: ${reason}.`);
  });
});

describe("given the 200-learner load of both engines", () => {
  const loadOf = (postgresqlP99: number, postgresqlErrors: number): BenchResult => ({
    name: "resilience-load",
    measuredAt: generatedAt,
    figures: {
      "sqlite.learners": 200,
      "sqlite.seconds": 60,
      "sqlite.errors": 0,
      "sqlite.requestsPerSecond": 6108,
      "sqlite.p99Milliseconds": 67.4,
      "sqlite.steadyP99Milliseconds": 66.9,
      "postgresql.learners": 200,
      "postgresql.seconds": 60,
      "postgresql.errors": postgresqlErrors,
      "postgresql.requestsPerSecond": 3340,
      "postgresql.p99Milliseconds": postgresqlP99,
      "postgresql.steadyP99Milliseconds": 113,
    },
    notes: [],
  });
  const keyFigureOf = (load: BenchResult) => buildBenchReport({ results: [load], machine, generatedAt }).keyFigures.find((row) => row.area === "Load");

  it("should give both engines' p99, errors and throughput among the key figures beside issue 16's goal", () => {
    expect(keyFigureOf(loadOf(117, 0))).toEqual({
      area: "Load",
      figure: "200 learners × 60 s, p99 SQLite / PostgreSQL",
      value: "SQLite 67.4 ms (steady 66.9 ms), 0 errors, 6,108 req/s; PostgreSQL 117 ms (steady 113 ms), 0 errors, 3,340 req/s (goal ≤ 100 / ≤ 150 ms and no error, met)",
    });
  });

  it("should say not met when one engine's p99 is over its goal or a request failed", () => {
    expect(keyFigureOf(loadOf(151, 0))?.value).toMatch(/, not met\)$/);
    expect(keyFigureOf(loadOf(117, 1))?.value).toContain("PostgreSQL 117 ms (steady 113 ms), 1 error, 3,340 req/s (goal ≤ 100 / ≤ 150 ms and no error, not met)");
  });

  it("should give the SQLite run alone when PostgreSQL did not run", () => {
    const sqliteOnly: BenchResult = { ...loadOf(117, 0), figures: Object.fromEntries(Object.entries(loadOf(117, 0).figures).filter(([name]) => name.startsWith("sqlite."))) };
    expect(keyFigureOf(sqliteOnly)).toEqual({
      area: "Load",
      figure: "200 learners × 60 s, p99 SQLite",
      value: "SQLite 67.4 ms (steady 66.9 ms), 0 errors, 6,108 req/s (goal ≤ 100 ms and no error, met)",
    });
  });
});

describe("formatNumber", () => {
  it("should keep two decimals below 10, one below 100 and none above", () => {
    expect([formatNumber(1.234), formatNumber(12.34), formatNumber(1234.5), formatNumber(undefined)]).toEqual(["1.23", "12.3", "1,235", "—"]);
  });
});

describe("flattenFigures", () => {
  it("should name nested figures by their path and index arrays of objects", () => {
    expect(flattenFigures({ a: { b: 1 }, list: [{ c: 2 }], series: [1, 2] })).toEqual([
      ["a.b", "1"],
      ["list[0].c", "2"],
      ["series", "1, 2"],
    ]);
  });
});

describe("given the hostile-input result and what the subtitles, anonymous-race and server-startup benches add", () => {
  const hostileInput: BenchResult = {
    name: "hostile-input",
    measuredAt: generatedAt,
    figures: {
      bodies: {
        loginChunked: {
          label: "400 MB multipart sign-in (chunked)",
          bytesOffered: 400 * 1_048_576,
          bytesSent: 4 * 1_048_576,
          status: 413,
          millisecondsToAnswer: 11.6,
          serverResidentGrowthMegabytes: 0.2,
          serverResidentPeakGrowthMegabytes: 0.3,
          siteConfigRequestsMeanwhile: 2,
          siteConfigMedianMilliseconds: 7.5,
          siteConfigP99Milliseconds: 10.2,
          siteConfigMaximumMilliseconds: 10.2,
        },
        webhookContentLength: { label: "600 MB Stripe webhook (Content-Length)", bytesOffered: 600 * 1_048_576, bytesSent: 3.5 * 1_048_576, status: 413, millisecondsToAnswer: 42.7, serverResidentGrowthMegabytes: 2.3 },
      },
    },
    notes: ["The server in its own process."],
  };
  const subtitles: BenchResult = { name: "subtitles", measuredAt: generatedAt, figures: { hostileInput: { uploadTooLarge: { status: 413, millisecondsToAnswer: 20 } } }, notes: [] };
  const anonymousRace: BenchResult = { name: "anonymous-race", measuredAt: generatedAt, figures: { sqlite: 20, postgresql: 20 }, notes: [] };
  const serverStartup: BenchResult = {
    name: "server-startup",
    measuredAt: generatedAt,
    figures: {
      compiled: { readyMillisecondsMedian: 410, residentAtReadyMegabytesMedian: 95.5, residentAfterRequestsMegabytesMedian: 120 },
      source: { readyMillisecondsMedian: 1900, residentAtReadyMegabytesMedian: 180, residentAfterRequestsMegabytesMedian: 210 },
    },
    notes: [],
  };

  it("should show a Hostile input table with a row per body, and not the same figures again as generic rows", () => {
    const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [hostileInput], machine, generatedAt }));
    expect(markdown).toContain("## Hostile input");
    expect(markdown).toContain("| body | status | answer after | sent before the answer | server RSS Δ (peak Δ) | GET /site-config meanwhile: median / p99 / max |");
    expect(markdown).toContain("| 400 MB multipart sign-in (chunked) | 413 | 11.6 ms | 4 MB of 400 MB | 0.2 MB (0.3 MB) | 7.5 ms / 10.2 ms / 10.2 ms (2 requests) |");
    expect(markdown).toContain("| 600 MB Stripe webhook (Content-Length) | 413 | 42.7 ms | 3.5 MB of 600 MB | 2.3 MB (—) | — / — / — |");
    expect(markdown).not.toContain("## hostile-input");
  });

  const withLargestAlignment: BenchResult = {
    ...hostileInput,
    figures: {
      ...hostileInput.figures,
      alignment: {
        label: "2 uploads at once of the largest accepted pair (19,000 cues, 1.2 MB per file), 3 times",
        statuses: [201],
        bytesOffered: 2.5 * 1_048_576,
        bytesSent: 2.5 * 1_048_576,
        millisecondsToAnswer: 6_002,
        serverResidentGrowthMegabytes: 12.5,
        serverResidentPeakGrowthMegabytes: 80,
        siteConfigIntervalMilliseconds: 10,
        siteConfigRequestsMeanwhile: 1_519,
        siteConfigMedianMilliseconds: 3.5,
        siteConfigP99Milliseconds: 630.4,
        siteConfigMaximumMilliseconds: 684.6,
        siteConfigIdleMedianMilliseconds: 2.1,
        siteConfigIdleP99Milliseconds: 7,
        siteConfigIdleMaximumMilliseconds: 9.9,
      },
    },
  };

  it("should add the largest alignment as the table's last row, with another request's p99 against issue 12's 100 ms", () => {
    const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [withLargestAlignment], machine, generatedAt }));
    expect(markdown).toContain("| 2 uploads at once of the largest accepted pair (19,000 cues, 1.2 MB per file), 3 times | 201 | 6,002 ms | 2.5 MB of 2.5 MB | 12.5 MB (80 MB) | 3.5 ms / 630 ms / 685 ms (1,519 requests) |");
    expect(markdown).toContain("GET /site-config sent every 10 ms answered in p99 630 ms (issue 12's target: under 100 ms, not met), against p50 2.1 ms / p99 7 ms / max 9.9 ms idle just before.");
    const report = buildBenchReport({ results: [withLargestAlignment], machine, generatedAt });
    expect(report.keyFigures).toContainEqual({ area: "Hostile input", figure: "GET /site-config while the largest accepted pair is aligned twice at once: p50 / p99 / max", value: "3.5 ms / 630 ms / 685 ms" });
  });

  it("should say the target is met when another request's p99 stays under 100 ms", () => {
    const fast: BenchResult = { ...withLargestAlignment, figures: { ...withLargestAlignment.figures, alignment: { ...(withLargestAlignment.figures as { alignment: object }).alignment, siteConfigP99Milliseconds: 42 } } };
    expect(renderBenchReportMarkdown(buildBenchReport({ results: [fast], machine, generatedAt }))).toContain("answered in p99 42 ms (issue 12's target: under 100 ms, met)");
  });

  it("should name the statuses, the slowest answer and the largest memory growth among the key figures", () => {
    const report = buildBenchReport({ results: [hostileInput], machine, generatedAt });
    expect(report.keyFigures).toContainEqual({ area: "Hostile input", figure: "2 oversized bodies: statuses, slowest answer, largest server RSS Δ", value: "413; 42.7 ms; 2.3 MB" });
  });

  it("should add the subtitle upload's, the anonymous race's and the start-up's figures to the section when they are present", () => {
    const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [subtitles, anonymousRace, serverStartup], machine, generatedAt }));
    expect(markdown).toContain("## Hostile input");
    expect(markdown).toContain("| uploadTooLarge.status | 413 |");
    expect(markdown).toContain("| SQLite | 20 |");
    expect(markdown).toContain("| PostgreSQL | 20 |");
    expect(markdown).toContain("| compiled (dist/main.js) | 410 ms | 95.5 MB | 120 MB |");
    expect(markdown).toContain("| from source (tsx) | 1,900 ms | 180 MB | 210 MB |");
  });

  it("should list the hostile subtitle documents with the error each was refused with and its time", () => {
    const withDocuments: BenchResult = {
      ...subtitles,
      figures: { hostileDocuments: { "100,000 nested elements": { bytes: 600_038, refusal: "too-deep", coldMilliseconds: 3.14, warmMilliseconds: 0.52 }, "billion laughs": { bytes: 812, refusal: "entity-declaration", coldMilliseconds: 0.4, warmMilliseconds: 0.05 } } },
    };
    const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [withDocuments], machine, generatedAt }));
    expect(markdown).toContain("## Hostile input");
    expect(markdown).toContain("| document | size | refused as | cold | warm (best of 10) |");
    expect(markdown).toContain("| 100,000 nested elements | 586 KB | too-deep | 3.14 ms | 0.52 ms |");
    expect(markdown).toContain("| billion laughs | 0.79 KB | entity-declaration | 0.4 ms | 0.05 ms |");
  });

  it("should leave the section out when none of these results is there", () => {
    expect(renderBenchReportMarkdown(buildBenchReport({ results: fixtures, machine, generatedAt }))).not.toContain("## Hostile input");
  });
});

describe("given the scale-out and backup results", () => {
  const scaleOut: BenchResult = {
    name: "resilience-scale-out",
    measuredAt: generatedAt,
    figures: {
      "throughput.1.requestsPerSecond": 450,
      "throughput.1.p50Milliseconds": 445.4,
      "throughput.1.p99Milliseconds": 665.2,
      "throughput.1.errors": 0,
      "throughput.3.requestsPerSecond": 541,
      "throughput.3.p50Milliseconds": 305.2,
      "throughput.3.p99Milliseconds": 1079.3,
      "throughput.3.errors": 0,
      "killAndDrain.failedRequestsAtKill": 15,
      "killAndDrain.restartMilliseconds": 2267,
      "killAndDrain.drainMilliseconds": 1352,
      "killAndDrain.failedRequestsAfterDrainSignal": 0,
      "killAndDrain.acknowledgedCardsFound": 3307,
      "killAndDrain.acknowledgedCardsLost": 0,
    },
    notes: [],
  };
  const backup: BenchResult = { name: "server-backup", measuredAt: generatedAt, figures: { pairs: 20000, databaseMegabytes: 64.9, backupMilliseconds: 247 }, notes: [] };
  const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [scaleOut, backup], machine, generatedAt }));

  it("should put a row per process count, the kill and drain, and the backup in their own section", () => {
    expect(markdown).toContain("## Several processes on one PostgreSQL, kill, drain and backup");
    expect(markdown).toContain("| 3 | 541 | 305 ms | 1,079 ms | 0 |");
    expect(markdown).toContain("the machine's 2 cores are shared");
    expect(markdown).toContain("SIGKILL failed 15 requests, all in flight on the killed process");
    expect(markdown).toContain("20,000 pairs, 64.9 MB, copied and checked in 247 ms.");
    expect(markdown).not.toContain("## resilience-scale-out");
  });
});
