import type { BenchFigure, BenchResult } from "./bench-result.ts";
import type { MachineDescription } from "./describe-machine.ts";
import { engineLabelOf, engineLabels, figureAt, flatNumberOf, flattenFigures, formatKilobytes, formatMegabytes, formatNumber, missing, numberAt, objectAt, renderTable, trimTrailingBlankLines, type Table } from "./bench-report-format.ts";

/** The report's sections about running the server: hostile input, start-up, the anonymous race, several processes. */

export function hostileBodiesOf(hostileInput: BenchResult | undefined): Array<[string, BenchFigure]> {
  return Object.entries(objectAt(hostileInput?.figures, "bodies"));
}

/** The hostile-input bench's `alignment`: two uploads at once of the largest accepted subtitle pair, on the compiled server. */
export function largestAlignmentOf(hostileInput: BenchResult | undefined): { [key: string]: BenchFigure } | undefined {
  const alignment = objectAt(hostileInput?.figures, "alignment");
  return Object.keys(alignment).length === 0 ? undefined : alignment;
}

/** One row of the table: a hostile body, or the largest alignment, whose figures bear the same names. */
function renderHostileRow(key: string, figures: BenchFigure): string[] {
  const label = figureAt(figures, "label");
  const statuses = figureAt(figures, "statuses");
  const siteConfigRequests = numberAt(figures, "siteConfigRequestsMeanwhile");
  return [
    typeof label === "string" ? label : key,
    Array.isArray(statuses) ? statuses.map((status) => (typeof status === "number" ? formatNumber(status) : String(status))).join(", ") : formatNumber(numberAt(figures, "status")),
    formatNumber(numberAt(figures, "millisecondsToAnswer"), " ms"),
    `${formatMegabytes(numberAt(figures, "bytesSent"))} of ${formatMegabytes(numberAt(figures, "bytesOffered"))}`,
    `${formatNumber(numberAt(figures, "serverResidentGrowthMegabytes"), " MB")} (${formatNumber(numberAt(figures, "serverResidentPeakGrowthMegabytes"), " MB")})`,
    `${formatNumber(numberAt(figures, "siteConfigMedianMilliseconds"), " ms")} / ${formatNumber(numberAt(figures, "siteConfigP99Milliseconds"), " ms")} / ${formatNumber(numberAt(figures, "siteConfigMaximumMilliseconds"), " ms")}${siteConfigRequests === undefined ? "" : ` (${formatNumber(siteConfigRequests)} requests)`}`,
  ];
}

function renderHostileBodies(hostileInput: BenchResult): Table {
  const alignment = largestAlignmentOf(hostileInput);
  return {
    columns: ["body", "status", "answer after", "sent before the answer", "server RSS Δ (peak Δ)", "GET /site-config meanwhile: median / p99 / max"],
    rows: [...hostileBodiesOf(hostileInput).map(([key, body]) => renderHostileRow(key, body)), ...(alignment === undefined ? [] : [renderHostileRow("alignment", alignment)])],
  };
}

/** Issue 12, part 4: another request's p99 while the largest accepted pair is aligned, against its 100 ms. */
function describeLargestAlignment(alignment: { [key: string]: BenchFigure }): string {
  const p99 = numberAt(alignment, "siteConfigP99Milliseconds");
  const verdict = p99 === undefined ? "" : p99 < 100 ? " (issue 12's target: under 100 ms, met)" : " (issue 12's target: under 100 ms, not met)";
  return (
    `While the largest accepted pair was aligned (last row: the compiled server, its slowest upload answered after the time shown), GET /site-config sent every ${formatNumber(numberAt(alignment, "siteConfigIntervalMilliseconds"), " ms")} answered in p99 ${formatNumber(p99, " ms")}${verdict}, ` +
    `against p50 ${formatNumber(numberAt(alignment, "siteConfigIdleMedianMilliseconds"), " ms")} / p99 ${formatNumber(numberAt(alignment, "siteConfigIdleP99Milliseconds"), " ms")} / max ${formatNumber(numberAt(alignment, "siteConfigIdleMaximumMilliseconds"), " ms")} idle just before.`
  );
}

function renderAnonymousRace(anonymousRace: BenchResult): Table {
  const rows = Object.entries(anonymousRace.figures)
    .filter(([engine]) => engine in engineLabels)
    .map(([engine, memorized]) => [engineLabelOf(engine), typeof memorized === "number" ? formatNumber(memorized) : flattenFigures(memorized).map(([figure, value]) => `${figure} ${value}`).join(", ")]);
  return { columns: ["engine", "memorized cards after the race"], rows };
}

const serverStartupLabels: Record<string, string> = { compiled: "compiled (dist/main.js)", source: "from source (tsx)" };

function renderServerStartup(serverStartup: BenchResult): Table {
  const rows = ["compiled", "source"]
    .filter((kind) => figureAt(serverStartup.figures, kind) !== undefined)
    .map((kind) => [
      serverStartupLabels[kind] ?? kind,
      formatNumber(numberAt(serverStartup.figures, `${kind}.readyMillisecondsMedian`), " ms"),
      formatNumber(numberAt(serverStartup.figures, `${kind}.residentAtReadyMegabytesMedian`), " MB"),
      formatNumber(numberAt(serverStartup.figures, `${kind}.residentAfterRequestsMegabytesMedian`), " MB"),
    ]);
  return { columns: ["server", "ready (median)", "RSS at ready (median)", "RSS after requests (median)"], rows };
}

/** A figure written under a literal dotted key (`throughput.1.requestsPerSecond`), as apps/resilience writes them. */

/** One, two and three processes behind nginx, the kill and the drain (resilience-scale-out), and the backups. */
export function renderScaleOutSection(results: Map<string, BenchResult>, machine: MachineDescription): string[] | null {
  const scaleOut = results.get("resilience-scale-out");
  const backup = results.get("server-backup");
  const faults = results.get("resilience-faults");
  if (scaleOut === undefined && backup === undefined) return null;
  const body: string[] = [];
  if (scaleOut !== undefined) {
    const rows = [1, 2, 3]
      .filter((count) => flatNumberOf(scaleOut, `throughput.${count}.requestsPerSecond`) !== undefined)
      .map((count) => [
        `${count}`,
        formatNumber(flatNumberOf(scaleOut, `throughput.${count}.requestsPerSecond`)),
        formatNumber(flatNumberOf(scaleOut, `throughput.${count}.p50Milliseconds`), " ms"),
        formatNumber(flatNumberOf(scaleOut, `throughput.${count}.p99Milliseconds`), " ms"),
        formatNumber(flatNumberOf(scaleOut, `throughput.${count}.errors`)),
      ]);
    body.push(...renderTable({ columns: ["processes", "requests/s", "p50", "p99", "errors"], rows }), "");
    body.push(
      `What limits it here: the machine's ${machine.cores} cores are shared by the load generator (200 learners), nginx, PostgreSQL and the processes, so a second or third process finds no idle core; the figures show the processes share the work without errors, not the capacity of a larger host (decision 0028).`,
      "",
    );
    const failedAtKill = flatNumberOf(scaleOut, "killAndDrain.failedRequestsAtKill");
    if (failedAtKill !== undefined) {
      body.push(
        `Kill and drain (three processes, 200 learners): SIGKILL failed ${formatNumber(failedAtKill)} requests, all in flight on the killed process; it was back in ${formatNumber(flatNumberOf(scaleOut, "killAndDrain.restartMilliseconds"), " ms")}. SIGTERM drained another in ${formatNumber(flatNumberOf(scaleOut, "killAndDrain.drainMilliseconds"), " ms")} with ${formatNumber(flatNumberOf(scaleOut, "killAndDrain.failedRequestsAfterDrainSignal"))} failures. ${formatNumber(flatNumberOf(scaleOut, "killAndDrain.acknowledgedCardsFound"))} acknowledged learner cards found, ${formatNumber(flatNumberOf(scaleOut, "killAndDrain.acknowledgedCardsLost"))} lost.`,
        "",
      );
    }
  }
  if (backup !== undefined) {
    body.push(
      `Backup (server-backup): ${formatNumber(numberAt(backup.figures, "pairs"))} pairs, ${formatNumber(numberAt(backup.figures, "databaseMegabytes"), " MB")}, copied and checked in ${formatNumber(numberAt(backup.figures, "backupMilliseconds"), " ms")}.` +
        (flatNumberOf(faults, "backup.commandMilliseconds") === undefined ? "" : ` Under 200 learners, \`pnpm backup\` took ${formatNumber(flatNumberOf(faults, "backup.commandMilliseconds"), " ms")} (pnpm's and Node's start included) and lost ${formatNumber(flatNumberOf(faults, "backup.cardsLost"))} learner cards.`),
      "",
    );
  }
  return trimTrailingBlankLines(body);
}

/** The hostile-input bench's bodies, and what the subtitles, anonymous-race and server-startup benches add to it. */
export function renderHostileInputSection(results: Map<string, BenchResult>): string[] | null {
  const hostileInput = results.get("hostile-input");
  const uploadFigures = figureAt(results.get("subtitles")?.figures, "hostileInput");
  const hostileDocuments = Object.entries(objectAt(results.get("subtitles")?.figures, "hostileDocuments"));
  const anonymousRace = results.get("anonymous-race");
  const serverStartup = results.get("server-startup");
  if (hostileInput === undefined && uploadFigures === undefined && hostileDocuments.length === 0 && anonymousRace === undefined && serverStartup === undefined) return null;
  const body: string[] = [];
  if (hostileInput !== undefined) {
    body.push(
      ...renderTable(renderHostileBodies(hostileInput)),
      "",
      "The largest body of each family, sent to the real server as fast as the socket takes it; the client stops writing at the answer. RSS Δ is the server's resident memory after minus before.",
      "",
    );
    const alignment = largestAlignmentOf(hostileInput);
    if (alignment !== undefined) body.push(describeLargestAlignment(alignment), "");
  }
  if (uploadFigures !== undefined) {
    body.push("Subtitle upload (the subtitles bench's `hostileInput`):", "", ...renderTable({ columns: ["figure", "value"], rows: flattenFigures(uploadFigures) }), "");
  }
  if (hostileDocuments.length > 0) {
    body.push(
      "Hostile subtitle documents, parsed to their refusal (the subtitles bench's `hostileDocuments`):",
      "",
      ...renderTable({
        columns: ["document", "size", "refused as", "cold", "warm (best of 10)"],
        rows: hostileDocuments.map(([name, figures]) => [
          name,
          formatKilobytes(numberAt(figures, "bytes")),
          String(figureAt(figures, "refusal") ?? missing),
          formatNumber(numberAt(figures, "coldMilliseconds"), " ms"),
          formatNumber(numberAt(figures, "warmMilliseconds"), " ms"),
        ]),
      }),
      "",
    );
  }
  if (anonymousRace !== undefined) body.push("An anonymous learner's limit under racing ratings (anonymous-race):", "", ...renderTable(renderAnonymousRace(anonymousRace)), "");
  if (serverStartup !== undefined) body.push("Server start-up (server-startup):", "", ...renderTable(renderServerStartup(serverStartup)), "");
  return trimTrailingBlankLines(body);
}
