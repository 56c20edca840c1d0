// Node only: the worker pool that parses and aligns off the event loop (node:worker_threads). The pure core is the
// package's main entry.
export {
  alignSubtitleTracksInWorker,
  closeSubtitleParseWorkers,
  limitRunningSubtitleJobs,
  parseSubtitleXmlInWorker,
  subtitleWorkerEntrySourcePath,
  warmUpSubtitleParseWorker,
} from "./parse-subtitle-xml-in-worker.ts";
export type { SubtitleWorkerAlignOptions, SubtitleWorkerParseOptions } from "./parse-subtitle-xml-in-worker.ts";
