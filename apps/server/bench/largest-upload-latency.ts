// Issue 12, part 4, measured over sockets: while the largest accepted pair of subtitle files is aligned (two learners
// uploading one each at once), another client sends GET /site-config every 10 ms and times each answer. Used by
// hostile-input-bench.ts.
import { Worker } from "node:worker_threads";
import { createSeededRandom, type BenchFigure } from "@atelier/bench";
import type { RunningAtelierServer } from "../src/testing/spawn-atelier-server.ts";

const probeIntervalMilliseconds = 10;

function ttmlClock(milliseconds: number): string {
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor(milliseconds / 60_000) % 60;
  const seconds = (milliseconds % 60_000) / 1000;
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}:${seconds.toFixed(3).padStart(6, "0")}`;
}

function ttmlDocument(language: string, cues: { start: number; end: number; text: string }[]): string {
  const paragraphs = cues.map((cue) => `<p begin="${ttmlClock(cue.start)}" end="${ttmlClock(cue.end)}">${cue.text}</p>`);
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="${language}"><body><div>`, ...paragraphs, `</div></body></tt>`, ""].join("\n");
}

/**
 * Two TTML files of one film with `cueCount` English cues: the Swedish one from another release (23.976 against 25
 * frames per second, 15 s later, jittered by ±150 ms), 3 % of its lines missing and 5 % split in two, as two real
 * subtitle files of one film differ.
 */
export function createLargestAcceptedPair(cueCount: number): { english: string; swedish: string } {
  const random = createSeededRandom(cueCount);
  const english: { start: number; end: number; text: string }[] = [];
  const swedish: { start: number; end: number; text: string }[] = [];
  const toSwedishClock = (milliseconds: number) => Math.max(0, Math.round(((milliseconds + (random() - 0.5) * 300) * 23.976) / 25 + 15_000));
  let time = 60_000;
  for (let index = 0; index < cueCount; index += 1) {
    const duration = Math.round(900 + random() * 4_000);
    english.push({ start: time, end: time + duration, text: `Line ${index} of the film.` });
    const roll = random();
    if (roll < 0.03) {
      // No Swedish counterpart.
    } else if (roll < 0.08) {
      const middle = time + duration / 2;
      swedish.push({ start: toSwedishClock(time), end: toSwedishClock(middle - 40), text: `Rad ${index}a i filmen,` });
      swedish.push({ start: toSwedishClock(middle + 40), end: toSwedishClock(time + duration), text: `rad ${index}b.` });
    } else {
      swedish.push({ start: toSwedishClock(time), end: toSwedishClock(time + duration), text: `Rad ${index} i filmen.` });
    }
    time += duration + Math.round(100 + random() * random() * 6_000);
  }
  swedish.sort((left, right) => left.start - right.start);
  return { english: ttmlDocument("en", english), swedish: ttmlDocument("sv", swedish) };
}

function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ""] = cookie.split(";");
    const separator = pair.indexOf("=");
    jar.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
  }
}

const cookieHeaderOf = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** A learner signed up through the identity API (e-mail verification off), as a cookie jar. */
export async function signUpLearner(server: RunningAtelierServer, email: string): Promise<Map<string, string>> {
  const jar = new Map<string, string>();
  cookiesOf(await fetch(`${server.url}/_allauth/browser/v1/config`), jar);
  const signup = await fetch(`${server.url}/_allauth/browser/v1/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.origin, Cookie: cookieHeaderOf(jar), "X-CSRFToken": jar.get("csrftoken") ?? "" },
    body: JSON.stringify({ email, password: "correct horse battery staple" }),
  });
  cookiesOf(signup, jar);
  if (signup.status !== 200) throw new Error(`The sign-up of ${email} answered ${signup.status}: ${await signup.text()}`);
  return jar;
}

/** POST /api/upload-subtitles/ as the upload page sends it; resolves with the status, the time and the answer. */
export async function uploadSubtitlePair(server: RunningAtelierServer, jar: Map<string, string>, files: { english: string; swedish: string }, name: string) {
  const form = new FormData();
  form.append("swedish", new File([files.swedish], `${name}.sv.xml`, { type: "text/xml" }));
  form.append("english", new File([files.english], `${name}.en.xml`, { type: "text/xml" }));
  form.append("is_public", "true");
  form.append("name", name);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/upload-subtitles/`, {
    method: "POST",
    headers: { Cookie: cookieHeaderOf(jar), Origin: server.origin, "X-CSRFToken": jar.get("csrftoken") ?? "" },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, milliseconds: performance.now() - started, text };
}

// The prober runs in a worker thread: on the bench's own thread, encoding the uploads' multipart bodies would delay
// its timers and answers, and count as the server's latency.
const probeWorkerSource = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const agent = new http.Agent({ keepAlive: true });
const latencies = [];
const inFlight = new Set();
let failures = 0;
const sendOne = () => {
  const answered = new Promise((resolve) => {
    const sentAt = performance.now();
    const request = http.get(workerData.url, { agent }, (response) => {
      response.resume();
      response.on("end", () => {
        if (response.statusCode === 200) latencies.push(performance.now() - sentAt);
        else failures += 1;
        resolve();
      });
    });
    request.on("error", () => {
      failures += 1;
      resolve();
    });
  });
  inFlight.add(answered);
  answered.then(() => inFlight.delete(answered));
};
const timer = setInterval(sendOne, workerData.intervalMilliseconds);
parentPort.once("message", async () => {
  clearInterval(timer);
  await Promise.all(inFlight);
  agent.destroy();
  parentPort.postMessage({ latencies, failures });
});
`;

/**
 * GET `path` every 10 ms, each on its own schedule whether the previous one has been answered or not (a stalled
 * server is not asked less often), until `stop()`; resolves with every answer's time from its sending.
 */
export function probeLatency(server: RunningAtelierServer, path: string): { stop: () => Promise<{ latencies: number[]; failures: number }> } {
  const worker = new Worker(probeWorkerSource, { eval: true, workerData: { url: `${server.url}${path}`, intervalMilliseconds: probeIntervalMilliseconds } });
  return {
    stop: async () => {
      const result = new Promise<{ latencies: number[]; failures: number }>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      worker.postMessage("stop");
      const answer = await result;
      await worker.terminate();
      return answer;
    },
  };
}

/** p50, p99 and the maximum of `values` in milliseconds, to 0.1 ms (nearest rank). */
export function latencyPercentiles(values: number[]): { p50Milliseconds: number | null; p99Milliseconds: number | null; maximumMilliseconds: number | null } {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (fraction: number) => {
    const value = sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
    return value === undefined ? null : Number(value.toFixed(1));
  };
  return { p50Milliseconds: at(0.5), p99Milliseconds: at(0.99), maximumMilliseconds: at(1) };
}

/**
 * Two learners upload the largest accepted pair at once, `rounds` times, while GET /site-config is timed every 10 ms
 * (and for 2 s before, idle, for comparison). Each learner first uploads a small pair, so that the upload workers
 * have started. Figures use the hostile-input bodies' names where they mean the same.
 */
export async function measureLatencyDuringLargestAlignment(
  server: RunningAtelierServer,
  options: { cueCount: number; rounds: number; residentKilobytes: () => number | null; resetPeakResident: () => boolean; peakResidentKilobytes: () => number | null },
): Promise<{ [key: string]: BenchFigure }> {
  const files = createLargestAcceptedPair(options.cueCount);
  const bytesPerUpload = Buffer.byteLength(files.english) + Buffer.byteLength(files.swedish);
  const learners = [await signUpLearner(server, `aligning-a-${Date.now()}@example.com`), await signUpLearner(server, `aligning-b-${Date.now()}@example.com`)];
  for (const [index, learner] of learners.entries()) {
    const warmUp = await uploadSubtitlePair(server, learner, createLargestAcceptedPair(300), `Warm up ${index}`);
    if (warmUp.status !== 201) throw new Error(`The warm-up upload answered ${warmUp.status}: ${warmUp.text}`);
  }

  const idleProbe = probeLatency(server, "/site-config");
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = await idleProbe.stop();

  const latencies: number[] = [];
  let probeFailures = 0;
  const statuses: number[] = [];
  const uploadMilliseconds: number[] = [];
  let residentBefore: number | null = null;
  let largestPeakGrowthKilobytes: number | null = null;
  for (let round = 0; round < options.rounds; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    residentBefore ??= options.residentKilobytes();
    const peakReset = options.resetPeakResident();
    const probe = probeLatency(server, "/site-config");
    const uploads = await Promise.all(learners.map((learner, index) => uploadSubtitlePair(server, learner, files, `Largest ${round}-${index}`)));
    const probed = await probe.stop();
    const peak = peakReset ? options.peakResidentKilobytes() : null;
    // Both growths from the resident size before the first round: the peak is the largest of the rounds' peaks.
    if (peak !== null && residentBefore !== null) largestPeakGrowthKilobytes = Math.max(largestPeakGrowthKilobytes ?? 0, peak - residentBefore);
    latencies.push(...probed.latencies);
    probeFailures += probed.failures;
    for (const upload of uploads) {
      statuses.push(upload.status);
      uploadMilliseconds.push(upload.milliseconds);
      if (upload.status !== 201) console.warn(`An upload of the largest pair answered ${upload.status}: ${upload.text.slice(0, 300)}`);
    }
    const percentiles = latencyPercentiles(probed.latencies);
    console.info(
      `Round ${round + 1}: uploads ${uploads.map((upload) => `${upload.status} in ${Math.round(upload.milliseconds)} ms`).join(", ")}; GET /site-config × ${probed.latencies.length}: p50 ${percentiles.p50Milliseconds} ms, p99 ${percentiles.p99Milliseconds} ms, max ${percentiles.maximumMilliseconds} ms`,
    );
  }
  const residentAfter = options.residentKilobytes();
  const during = latencyPercentiles(latencies);
  const idlePercentiles = latencyPercentiles(idle.latencies);
  const slowestUpload = Math.max(...uploadMilliseconds);
  return {
    label: `2 uploads at once of the largest accepted pair (${options.cueCount.toLocaleString("en-US")} cues, ${(bytesPerUpload / 2 / 1_048_576).toFixed(1)} MB per file), ${options.rounds} times`,
    path: "/api/upload-subtitles/",
    cuesPerFile: options.cueCount,
    englishFileBytes: Buffer.byteLength(files.english),
    swedishFileBytes: Buffer.byteLength(files.swedish),
    uploadsAtOnce: learners.length,
    rounds: options.rounds,
    statuses: [...new Set(statuses)],
    bytesOffered: bytesPerUpload,
    bytesSent: bytesPerUpload,
    millisecondsToAnswer: Number(slowestUpload.toFixed(1)),
    uploadMillisecondsMedian: Number([...uploadMilliseconds].sort((left, right) => left - right)[Math.floor(uploadMilliseconds.length / 2)]!.toFixed(1)),
    serverResidentGrowthMegabytes: residentAfter === null || residentBefore === null ? null : Number(((residentAfter - residentBefore) / 1024).toFixed(1)),
    serverResidentPeakGrowthMegabytes: largestPeakGrowthKilobytes === null ? null : Number((largestPeakGrowthKilobytes / 1024).toFixed(1)),
    siteConfigIntervalMilliseconds: probeIntervalMilliseconds,
    siteConfigRequestsMeanwhile: latencies.length,
    siteConfigFailuresMeanwhile: probeFailures,
    siteConfigMedianMilliseconds: during.p50Milliseconds,
    siteConfigP99Milliseconds: during.p99Milliseconds,
    siteConfigMaximumMilliseconds: during.maximumMilliseconds,
    siteConfigIdleRequests: idle.latencies.length,
    siteConfigIdleMedianMilliseconds: idlePercentiles.p50Milliseconds,
    siteConfigIdleP99Milliseconds: idlePercentiles.p99Milliseconds,
    siteConfigIdleMaximumMilliseconds: idlePercentiles.maximumMilliseconds,
  };
}
