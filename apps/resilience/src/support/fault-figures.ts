import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { benchResultsDirectory, writeBenchResults } from "./bench-results.ts";

const faultNotes = [
  "sigkill.*: SQLite server killed with SIGKILL while the learners study (KILL_AFTER_SECONDS), started again on the same DATA_DIR; every learner card with ratings answered 200 is looked up in study_progress (review count and box).",
  "postgresRestart.*: a private PostgreSQL cluster stopped with pg_ctl -m immediate under load (RESTART_LEARNERS learners), started again after OUTAGE_SECONDS; the server is not restarted. Times in seconds from the stop (first and last 503) and from the start (first success).",
  "backup.*: `pnpm backup` at the repository's root (apps/server's compiled dist/backup.js; pnpm's and Node's start included) run against the SQLite server while LOAD_LEARNERS learners study, restored with `pnpm restore` into a fresh DATA_DIR; every learner card with ratings answered 200 before the backup began is looked up there.",
  "startup.*: the server started with a database it cannot use (nothing at DATABASE_URL's port, a missing database, an unknown host, an unusable DATA_DIR); each must exit non-zero with one sentence naming the setting.",
];

/**
 * Merges figures of one fault test into `resilience-faults.json`: each test file runs in its own worker, so they
 * meet in the file rather than in memory.
 */
export function recordFaultFigures(figures: Record<string, number>): void {
  const filePath = path.join(benchResultsDirectory, "resilience-faults.json");
  let previous: Record<string, number> = {};
  if (existsSync(filePath)) {
    try {
      previous = (JSON.parse(readFileSync(filePath, "utf8")) as { figures?: Record<string, number> }).figures ?? {};
    } catch {
      previous = {};
    }
  }
  writeBenchResults("resilience-faults", { ...previous, ...figures }, faultNotes);
}
