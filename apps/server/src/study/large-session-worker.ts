// The large-session worker (decision 0077): reads a session of more than `largeSessionCardCount` cards, and counts one,
// on its own connection to the server's database, and writes the answer's JSON, so that neither the read (hundreds of
// milliseconds over a 20,000-pair film on SQLite, whose driver is synchronous) nor the 9 MB of JSON holds the thread
// that answers everyone else. Started by large-session-reads.ts; compiled to large-session-worker.js beside the server.
import { parentPort } from "node:worker_threads";
import type { DatabaseLocation } from "../database/database-location.ts";
import { openDatabaseForReading } from "../database/open-database.ts";
import type { LargeSessionJob, LargeSessionWorkerReply } from "./large-session-reads.ts";
import { countSessionCardsInDatabase, selectSessionCardsInDatabase } from "./session-cards-store.ts";

if (parentPort === null) throw new Error("large-session-worker.ts runs as a worker thread (see large-session-reads.ts).");
const port = parentPort;

/** The databases this worker has opened, by the id the server gave each; opened at their first job. */
const openedDatabases = new Map<number, ReturnType<typeof openDatabaseForReading>>();

function databaseFor(databaseId: number, location: DatabaseLocation) {
  let opened = openedDatabases.get(databaseId);
  if (opened === undefined) {
    opened = openDatabaseForReading(location);
    openedDatabases.set(databaseId, opened);
  }
  return opened.database;
}

function ownsItsMemory(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
}

async function run(job: LargeSessionJob): Promise<LargeSessionWorkerReply> {
  switch (job.kind) {
    case "close": {
      const opened = openedDatabases.get(job.databaseId);
      openedDatabases.delete(job.databaseId);
      await opened?.close();
      return { jobId: job.jobId, status: "closed" };
    }
    case "count-or-select":
    case "select": {
      const database = databaseFor(job.databaseId, job.location);
      if (job.kind === "count-or-select") {
        const count = await countSessionCardsInDatabase(database, job.learnerKey, job.groupId, job.selection);
        if (count > job.selectAtMost) return { jobId: job.jobId, status: "counted", count };
      }
      const pairs = await selectSessionCardsInDatabase(database, job.learnerKey, job.groupId, job.selection);
      // Buffer.from, not TextEncoder: 5–10 times faster on 9 MB of text (TextEncoder took 35–55 ms here).
      return { jobId: job.jobId, status: "selected", json: Buffer.from(JSON.stringify({ pairs }), "utf8") };
    }
    default:
      return job satisfies never;
  }
}

port.on("message", (job: LargeSessionJob) => {
  run(job).then(
    // Handed over, not copied, when the bytes own their memory; a short answer's may lie in Buffer's shared pool, which must stay.
    (reply) => port.postMessage(reply, reply.status === "selected" && ownsItsMemory(reply.json) ? [reply.json.buffer as ArrayBuffer] : []),
    (error: unknown) => {
      const code = typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : undefined;
      port.postMessage({ jobId: job.jobId, status: "failed", message: error instanceof Error ? error.message : String(error), ...(code !== undefined && { code }) } satisfies LargeSessionWorkerReply);
    },
  );
});
