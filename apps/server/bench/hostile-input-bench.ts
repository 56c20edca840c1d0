// Sends the largest hostile body of each family to the real server (its own process) and measures what it costs:
// status, time to the answer, bytes the client got to send, the server's resident memory and the latency of GET
// /site-config meanwhile; then, on the compiled server, the latency of GET /site-config while the largest accepted pair
// of subtitle files is aligned twice at once (largest-upload-latency.ts). Writes bench-results/hostile-input.json. Run
// with `npx tsx bench/hostile-input-bench.ts` in apps/server, after `pnpm build` (turbo's bench task builds first).
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { writeBenchResult, type BenchFigure } from "@atelier/bench";
import { startAtelierServer, type RunningAtelierServer } from "../src/testing/spawn-atelier-server.ts";
import { latencyPercentiles, measureLatencyDuringLargestAlignment } from "./largest-upload-latency.ts";

const megabyte = 1024 * 1024;
const csrfToken = "abcdefghijklmnopqrstuvwxyz012345";
const giveUpAfterMilliseconds = 120_000;
/** Issue 12, part 4: "two 19,000-cue files (1 MB each)". */
const largestPairCues = Number(process.env.BENCH_LARGEST_PAIR_CUES ?? 19_000);
const largestPairRounds = Number(process.env.BENCH_LARGEST_PAIR_ROUNDS ?? 3);

type HostileBody = {
  key: string;
  label: string;
  path: string;
  totalBytes: number;
  framing: "content-length" | "chunked";
  headers: (origin: string) => Record<string, string>;
};

const signInWithoutCsrfHeader = (origin: string) => ({ Origin: origin, Cookie: `csrftoken=${csrfToken}`, "Content-Type": "multipart/form-data; boundary=hostile" });
const webhookHeaders = () => ({ "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=hostile" });
const contactHeaders = (origin: string) => ({ Origin: origin, Cookie: `csrftoken=${csrfToken}`, "X-CSRFToken": csrfToken, "Content-Type": "application/json" });

const hostileBodies: HostileBody[] = [
  { key: "loginContentLength", label: "400 MB multipart sign-in, csrftoken cookie, no X-CSRFToken (Content-Length)", path: "/_allauth/browser/v1/auth/login", totalBytes: 400 * megabyte, framing: "content-length", headers: signInWithoutCsrfHeader },
  { key: "loginChunked", label: "400 MB multipart sign-in, csrftoken cookie, no X-CSRFToken (chunked)", path: "/_allauth/browser/v1/auth/login", totalBytes: 400 * megabyte, framing: "chunked", headers: signInWithoutCsrfHeader },
  { key: "webhookContentLength", label: "600 MB Stripe webhook (Content-Length)", path: "/stripe/webhook", totalBytes: 600 * megabyte, framing: "content-length", headers: webhookHeaders },
  { key: "webhookChunked", label: "600 MB Stripe webhook (chunked)", path: "/stripe/webhook", totalBytes: 600 * megabyte, framing: "chunked", headers: webhookHeaders },
  { key: "contactContentLength", label: "10 MB contact message (Content-Length)", path: "/messages/contact/", totalBytes: 10 * megabyte, framing: "content-length", headers: contactHeaders },
];

function readStatusKilobytes(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((candidate) => candidate.startsWith(`${field}:`));
    return line === undefined ? null : Number(line.replace(/\D+/g, ""));
  } catch {
    return null;
  }
}

/** Resets the process's peak resident size (VmHWM) to its current size, so that the next peak is this case's. */
function resetPeakResident(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Sends the body as fast as the socket takes it and stops writing when the answer arrives, as curl does. */
function sendHostileBody(server: RunningAtelierServer, body: HostileBody): Promise<{ status: number | null; millisecondsToAnswer: number | null; bytesSent: number; outcome: string }> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const headers = { ...body.headers(server.origin), ...(body.framing === "content-length" ? { "Content-Length": String(body.totalBytes) } : {}) };
    const started = performance.now();
    const request = http.request(`${server.url}${body.path}`, { method: "POST", headers });
    let bytesSent = 0;
    let answered = false;
    let settled = false;
    const settle = (result: { status: number | null; millisecondsToAnswer: number | null; outcome: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      request.destroy();
      resolve({ ...result, bytesSent });
    };
    const giveUp = setTimeout(() => settle({ status: null, millisecondsToAnswer: null, outcome: `no answer within ${giveUpAfterMilliseconds / 1000} s` }), giveUpAfterMilliseconds);
    const writeMore = () => {
      while (!answered && bytesSent < body.totalBytes) {
        bytesSent += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", writeMore);
          return;
        }
      }
      if (!answered) request.end();
    };
    request.on("response", (response) => {
      answered = true;
      const millisecondsToAnswer = performance.now() - started;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part: string) => (text += part));
      response.on("end", () => settle({ status: response.statusCode ?? null, millisecondsToAnswer, outcome: `answered: ${text.slice(0, 160)}` }));
      response.on("error", (error) => settle({ status: response.statusCode ?? null, millisecondsToAnswer, outcome: `answer cut: ${error.message}` }));
    });
    request.on("error", (error) => settle({ status: null, millisecondsToAnswer: null, outcome: `connection failed: ${error.message}` }));
    writeMore();
  });
}

/** GET /site-config one after another until `done` resolves: what other visitors wait meanwhile. */
async function measureSiteConfigMeanwhile(server: RunningAtelierServer, done: Promise<unknown>) {
  let finished = false;
  void done.then(() => (finished = true));
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${server.url}/site-config`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  latencies.sort((left, right) => left - right);
  return {
    requests: latencies.length,
    medianMilliseconds: latencies[Math.floor(latencies.length / 2)] ?? null,
    p99Milliseconds: latencyPercentiles(latencies).p99Milliseconds,
    maximumMilliseconds: latencies.at(-1) ?? null,
  };
}

function round(value: number | null, digits = 1): number | null {
  return value === null ? null : Number(value.toFixed(digits));
}

async function main() {
  // The source by default: dist/ is only as new as the last build. ATELIER_SERVER_FROM_SOURCE=0 measures the build.
  process.env.ATELIER_SERVER_FROM_SOURCE ??= "1";
  const server = await startAtelierServer();
  const figures: { [key: string]: BenchFigure } = {};
  const notes: string[] = [];
  try {
    const residentAtStart = readStatusKilobytes(server.pid, "VmRSS");
    for (const body of hostileBodies) {
      // Let the previous case's connection close and its garbage go before measuring the next.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const residentBefore = readStatusKilobytes(server.pid, "VmRSS");
      const peakReset = resetPeakResident(server.pid);
      const sending = sendHostileBody(server, body);
      const [answer, siteConfig] = await Promise.all([sending, measureSiteConfigMeanwhile(server, sending)]);
      const residentAfter = readStatusKilobytes(server.pid, "VmRSS");
      const peak = peakReset ? readStatusKilobytes(server.pid, "VmHWM") : null;
      const growth = (kilobytes: number | null) => (kilobytes === null || residentBefore === null ? null : round((kilobytes - residentBefore) / 1024));
      figures[body.key] = {
        label: body.label,
        path: body.path,
        framing: body.framing,
        bytesOffered: body.totalBytes,
        bytesSent: answer.bytesSent,
        status: answer.status,
        millisecondsToAnswer: round(answer.millisecondsToAnswer),
        serverResidentBeforeMegabytes: residentBefore === null ? null : round(residentBefore / 1024),
        serverResidentGrowthMegabytes: growth(residentAfter),
        serverResidentPeakGrowthMegabytes: growth(peak),
        siteConfigRequestsMeanwhile: siteConfig.requests,
        siteConfigMedianMilliseconds: round(siteConfig.medianMilliseconds, 2),
        siteConfigP99Milliseconds: siteConfig.p99Milliseconds,
        siteConfigMaximumMilliseconds: round(siteConfig.maximumMilliseconds, 2),
      };
      console.info(
        `${body.label}: ${answer.status ?? "no status"} after ${round(answer.millisecondsToAnswer) ?? "—"} ms, ${(answer.bytesSent / megabyte).toFixed(1)} MB sent, server RSS ${growth(residentAfter) ?? "—"} MB (peak ${growth(peak) ?? "—"} MB), GET /site-config meanwhile ${siteConfig.requests} × median ${round(siteConfig.medianMilliseconds, 2)} ms, max ${round(siteConfig.maximumMilliseconds, 2)} ms; ${answer.outcome}`,
      );
      if (!server.isRunning()) throw new Error(`The server ended during "${body.label}":\n${server.output()}`);
    }
    notes.push(
      `The server in its own process (${process.env.ATELIER_SERVER_FROM_SOURCE === "1" ? "from source through tsx" : "compiled dist/main.js"}), SQLite, started at ${residentAtStart === null ? "?" : round(residentAtStart / 1024)} MB resident; the client writes 64 KiB chunks as fast as the loopback socket takes them and stops at the answer, as curl does.`,
      "Resident growth is VmRSS after minus before; the peak is VmHWM after resetting it through /proc/<pid>/clear_refs. GET /site-config runs one request after another on another connection while each body is sent (its p99 is the nearest rank: with few requests, the maximum).",
      `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(2)} at the end.`,
    );
  } finally {
    await server.stop();
  }

  // Always the compiled server here: issue 12 asks for another request's latency in production, where dist/main.js runs.
  const fromSource = process.env.ATELIER_SERVER_FROM_SOURCE;
  process.env.ATELIER_SERVER_FROM_SOURCE = "0";
  const compiled = await startAtelierServer({ environment: { ACCOUNT_EMAIL_VERIFICATION: "none" } }).finally(() => (process.env.ATELIER_SERVER_FROM_SOURCE = fromSource));
  let alignment: { [key: string]: BenchFigure };
  try {
    alignment = await measureLatencyDuringLargestAlignment(compiled, {
      cueCount: largestPairCues,
      rounds: largestPairRounds,
      residentKilobytes: () => readStatusKilobytes(compiled.pid, "VmRSS"),
      resetPeakResident: () => resetPeakResident(compiled.pid),
      peakResidentKilobytes: () => readStatusKilobytes(compiled.pid, "VmHWM"),
    });
    if (!compiled.isRunning()) throw new Error(`The compiled server ended while aligning:\n${compiled.output()}`);
  } finally {
    await compiled.stop();
  }
  const p99 = alignment.siteConfigP99Milliseconds;
  console.info(
    `${String(alignment.label)}: statuses ${JSON.stringify(alignment.statuses)}, slowest upload ${String(alignment.millisecondsToAnswer)} ms; GET /site-config every 10 ms meanwhile × ${String(alignment.siteConfigRequestsMeanwhile)}: p50 ${String(alignment.siteConfigMedianMilliseconds)} ms, p99 ${String(p99)} ms, max ${String(alignment.siteConfigMaximumMilliseconds)} ms (idle: p50 ${String(alignment.siteConfigIdleMedianMilliseconds)} ms, p99 ${String(alignment.siteConfigIdleP99Milliseconds)} ms); issue 12's target p99 < 100 ms: ${typeof p99 === "number" && p99 < 100 ? "met" : "not met"}.`,
  );
  notes.push(
    `Largest alignment: the compiled dist/main.js (SQLite); two learners each upload the same generated pair (TTML, ${largestPairCues.toLocaleString("en-US")} English cues; the Swedish from another release: 23.976/25 fps, 15 s late, jittered, 3 % missing, 5 % split) at once, ${largestPairRounds} times, after a small warm-up upload each. Another client sends GET /site-config every 10 ms on its own schedule (not waiting for the previous answer) over keep-alive connections and times each from its sending; p50/p99/max are over every answer of all rounds, and the idle figures over 2 s before. Client and server share the machine's cores.`,
  );
  const written = writeBenchResult({ name: "hostile-input", figures: { bodies: figures, alignment }, notes });
  console.info(`Wrote ${written}`);
}

await main();
