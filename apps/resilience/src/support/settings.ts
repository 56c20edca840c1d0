function positiveNumberFrom(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of ${name.endsWith("SECONDS") ? "seconds" : "learners"}, not "${text}".`);
  return value;
}

/**
 * The sizes of the runs, each overridable by an environment variable of the same name (see README.md).
 * The defaults are issue 8's: 200 learners for 60 s per engine.
 */
export const resilienceSettings = {
  /** How long each engine's load run lasts. */
  loadSeconds: positiveNumberFrom("LOAD_SECONDS", 60),
  /** Concurrent learners in the load runs and the SIGKILL run. */
  loadLearners: Math.round(positiveNumberFrom("LOAD_LEARNERS", 200)),
  /** How long the load runs before the server is killed with SIGKILL. */
  killAfterSeconds: positiveNumberFrom("KILL_AFTER_SECONDS", 8),
  /** Concurrent learners while PostgreSQL restarts. */
  restartLearners: Math.round(positiveNumberFrom("RESTART_LEARNERS", 50)),
  /** How long PostgreSQL stays away during the restart run. */
  outageSeconds: positiveNumberFrom("OUTAGE_SECONDS", 3),
  /** How long the three-process run lasts (a SIGKILL at a third, a SIGTERM at two thirds); the bench runs 60. */
  scaleOutSeconds: positiveNumberFrom("SCALE_OUT_SECONDS", 18),
  /** How long each of the one-, two- and three-process throughput runs lasts; the bench runs 60. */
  throughputSeconds: positiveNumberFrom("THROUGHPUT_SECONDS", 8),
};
