import { pruneExpiredSecurityEvents, securityEventRetentionDays } from "../account/security-events.ts";
import type { Clock } from "../clock.ts";
import { contactMessageRetentionDays, pruneExpiredContactMessages } from "../contact/contact-retention.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { pruneExpiredCodes, pruneExpiredSessions } from "../identity/identity-retention.ts";
import { logger } from "../logging/logger.ts";
import { anonymousProgressRetentionDays, pruneForgottenAnonymousLearners } from "../study/anonymous-retention.ts";

/** Data the running server deletes by itself once the privacy policy's time for it has passed (§5, decision 0084). */
export type RetentionRule = {
  prune: (database: AtelierDatabase, now: Date) => Promise<number>;
  /** What `prune` counts, for the log: "Deleted 3 <what>." */
  what: string;
};

export const retentionRules: readonly RetentionRule[] = [
  { prune: pruneExpiredSecurityEvents, what: `security events older than ${securityEventRetentionDays} days` },
  { prune: pruneExpiredSessions, what: "expired sessions" },
  { prune: pruneExpiredCodes, what: "expired e-mailed codes and links" },
  { prune: pruneExpiredContactMessages, what: `contact messages older than ${contactMessageRetentionDays} days` },
  { prune: pruneForgottenAnonymousLearners, what: `anonymous learners unseen for ${anonymousProgressRetentionDays} days (their progress and hidden pairs)` },
];

/** How often the running server prunes: data of accounts and learners that never come back expires too. */
export const retentionPruneIntervalMilliseconds = 60 * 60 * 1_000;

export type RetentionPruning = {
  /** Settles when the prune under way, if any, has finished. */
  settled: () => Promise<void>;
  /** No prune starts any more; settles when the one under way has finished, so the database can close after it. */
  stop: () => Promise<void>;
};

/**
 * Runs every rule now and then every `intervalMilliseconds` (an hour), with the time from `clock`. The timer does not
 * keep the process alive; a rule that fails is logged and tried again at the next interval, and the others still run.
 *
 * @example
 * const pruning = startRetentionPruning({ database, clock: systemClock });
 * process.on("SIGTERM", () => void pruning.stop().then(() => database.destroy()));
 */
export function startRetentionPruning(options: { database: AtelierDatabase; clock: Clock; intervalMilliseconds?: number; rules?: readonly RetentionRule[] }): RetentionPruning {
  const { database, clock, intervalMilliseconds = retentionPruneIntervalMilliseconds, rules = retentionRules } = options;
  let isStopped = false;
  let underWay: Promise<void> = Promise.resolve();
  const prune = () => {
    // One prune at a time: on a slow database the next one waits instead of piling up beside it.
    underWay = underWay.then(async () => {
      for (const rule of rules) {
        if (isStopped) return;
        try {
          const count = await rule.prune(database, clock());
          if (count > 0) logger.info(`Deleted ${count} ${rule.what}.`);
        } catch (error) {
          logger.error({ err: error }, `Deleting ${rule.what} failed; the next attempt is at the next interval.`);
        }
      }
    });
  };
  prune();
  const timer = setInterval(prune, intervalMilliseconds);
  timer.unref();
  return {
    settled: () => underWay,
    stop: () => {
      isStopped = true;
      clearInterval(timer);
      return underWay;
    },
  };
}
