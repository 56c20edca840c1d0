// The subtitle worker: reads one file, or aligns two parsed tracks, per message, off the server's event loop. Started
// by subtitle-worker-pool.ts; compiled into apps/server/dist as subtitle-worker.js (see `subtitleWorkerEntrySourcePath`).
import { parentPort } from "node:worker_threads";
import { alignSubtitleTracks, type SubtitleAlignmentOptions } from "./align-subtitle-tracks.ts";
import { parseSubtitleXml } from "./parse-subtitle-xml.ts";
import type { ParsedSubtitleTrack, SubtitleParseLimits } from "./subtitle-types.ts";

export type SubtitleWorkerRequest =
  | { jobId: number; kind: "parse"; input: Uint8Array; limits: Partial<SubtitleParseLimits> }
  | { jobId: number; kind: "align"; english: ParsedSubtitleTrack; swedish: ParsedSubtitleTrack; options: SubtitleAlignmentOptions };

function errorReply(jobId: number, error: unknown) {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
  return { jobId, status: "failed" as const, code, message: error instanceof Error ? error.message : String(error) };
}

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: SubtitleWorkerRequest) => {
    try {
      if (request.kind === "parse") {
        port.postMessage({ jobId: request.jobId, status: "done", result: parseSubtitleXml(request.input, request.limits) });
      } else {
        const { pairs, report } = alignSubtitleTracks(request.english, request.swedish, request.options);
        // The raw links are not needed by callers of the worker and would only cost copying.
        port.postMessage({ jobId: request.jobId, status: "done", result: { pairs, report } });
      }
    } catch (error) {
      port.postMessage(errorReply(request.jobId, error));
    }
  });
  port.postMessage({ status: "ready" });
}
