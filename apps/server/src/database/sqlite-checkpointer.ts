import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";
import { logger } from "../logging/logger.ts";

/** How often the checkpointer copies the log's new pages into the database file. */
export const checkpointIntervalMilliseconds = 200;

/** SQLite's own default, which the connection goes back to when the checkpointer is gone. */
const defaultAutomaticCheckpointPages = 1000;

/**
 * The server's connection still checkpoints when the log reaches this many pages (16 MiB): under steady writes the
 * worker's checkpoints never catch up with the last commit, and only a checkpoint run by the writer between two of its
 * commits lets the next commit start the log again from its beginning (without it the log grew to 400 MB in 15 s of
 * ratings). The worker has copied most pages by then, so it is short.
 */
const writerCheckpointPages = 4000;

/**
 * The worker's code, plain JavaScript so that it runs the same from source and from the compiled server: its own
 * connection to the file runs a PASSIVE checkpoint every interval (PASSIVE never waits for a lock and never blocks the
 * server's writes), and stops on "stop". With `synchronous = NORMAL`, a checkpoint is where SQLite syncs the log and
 * the file, which is why it runs here.
 */
const checkpointerCode = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);
const connection = new Database(workerData.filePath, { fileMustExist: true });
connection.pragma("synchronous = NORMAL");
const timer = setInterval(() => {
  try {
    connection.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message ? error.message : error) });
  }
}, workerData.intervalMilliseconds);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  connection.close();
  parentPort.postMessage({ stopped: true });
});
parentPort.postMessage({ ready: true });
`;

export type SqliteCheckpointer = {
  /** Stops the worker and closes its connection (before the server's own closes, which then checkpoints the rest). */
  stop(): Promise<void>;
};

/**
 * Moves most of the checkpointing of a SQLite database in WAL mode off the event loop (decision 0042): by default the
 * server's connection checkpoints after any commit that leaves a thousand pages in the log, copying them and syncing the
 * disk on the thread that answers requests. A worker thread with a connection of its own copies them every
 * `intervalMilliseconds` instead; the server's connection checkpoints only at 4,000 pages, what the worker left. When
 * the worker cannot start or stops by itself, the connection goes back to SQLite's default.
 *
 * @example
 * const checkpointer = startSqliteCheckpointer(connection, "/var/lib/atelier/atelier.sqlite");
 * await checkpointer.stop();
 */
export function startSqliteCheckpointer(connection: SqliteDatabase.Database, filePath: string, intervalMilliseconds = checkpointIntervalMilliseconds): SqliteCheckpointer {
  const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");
  let stopping = false;
  const checkpointOnItsOwn = (reason: string) => {
    if (!connection.open) return;
    connection.pragma(`wal_autocheckpoint = ${defaultAutomaticCheckpointPages}`);
    if (!stopping) logger.warn(`SQLite's checkpoints are back on the server's connection: ${reason}`);
  };
  connection.pragma(`wal_autocheckpoint = ${writerCheckpointPages}`);
  const worker = new Worker(checkpointerCode, { eval: true, workerData: { driverPath, filePath, intervalMilliseconds } });
  worker.unref();
  const stopped = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.on("message", (message: { failed?: string }) => {
    if (message.failed !== undefined) logger.warn(`A SQLite checkpoint failed: ${message.failed}`);
  });
  worker.on("error", (error) => checkpointOnItsOwn(`the checkpointer failed (${error.message}).`));
  worker.once("exit", (code) => {
    if (!stopping) checkpointOnItsOwn(`the checkpointer exited with code ${code}.`);
  });
  return {
    async stop() {
      if (stopping) return stopped;
      stopping = true;
      worker.postMessage("stop");
      worker.on("message", (message: { stopped?: boolean }) => {
        if (message.stopped === true) void worker.terminate();
      });
      // A worker that does not answer (it is in the middle of a long checkpoint) is ended after a while.
      const forced = setTimeout(() => void worker.terminate(), 5_000);
      forced.unref();
      await stopped;
      clearTimeout(forced);
    },
  };
}
