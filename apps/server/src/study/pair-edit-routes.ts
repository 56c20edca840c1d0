import type { Context, Hono } from "hono";
import type { Transaction } from "kysely";
import type { Clock } from "../clock.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { DatabaseSchema } from "../database/schema.ts";
import { HttpError, RequestValidationError } from "../http/http-errors.ts";
import type { Learner } from "./learner.ts";
import {
  findEditablePair,
  hidePairForLearner,
  mergePairWithNext,
  readPairSide,
  readSplitPoint,
  showPairForLearner,
  splitPair,
  updatePairSides,
  type EditablePair,
} from "./pair-edits.ts";
import { jsonBody, pairSidesBodySchema, pairSidesExample, splitBodySchema, splitExample } from "./study-validation.ts";
import { deletePair, groupLockKey, type SubtitleGroupRow } from "./study-store.ts";

export type PairEditRouteDependencies = {
  database: AtelierDatabase;
  clock: Clock;
  learnerOf: (c: Context) => Promise<Learner>;
  /** The pair and its group when the learner may see them (404 otherwise). */
  loadVisiblePair: (pairId: string, learner: Learner) => Promise<{ pair: { id: string; group_id: string }; group: SubtitleGroupRow }>;
  /** 403 unless the learner owns the group. */
  requireOwner: (group: SubtitleGroupRow, learner: Learner) => void;
  pairNotFoundMessage: string;
};

function pairJson(pair: EditablePair) {
  return { id: pair.id, english: pair.english, swedish: pair.swedish, confidence: pair.confidence };
}

/**
 * The owner fixes the pairs of a group (edit a side, merge with the next pair, split at a sentence boundary, delete),
 * and any learner hides a pair from their own study. Each change is one transaction under the group's lock, so two
 * edits of one group never interleave (a merge and a split of its neighbour would otherwise lose a pair; a delete of
 * the pair a merge was absorbing answered 204 for a pair whose text the merge kept).
 */
export function registerPairEditRoutes(app: Hono, dependencies: PairEditRouteDependencies): void {
  const { database, clock, learnerOf, loadVisiblePair, requireOwner, pairNotFoundMessage } = dependencies;

  const editAsOwner = async <Result>(c: Context, edit: (transaction: Transaction<DatabaseSchema>, pair: EditablePair) => Promise<Result>) => {
    const learner = await learnerOf(c);
    const { pair, group } = await loadVisiblePair(c.req.param("id") ?? "", learner);
    requireOwner(group, learner);
    return inTransactionRetryingConflicts(database, async (transaction) => {
      await lockForTheRestOfTransaction(transaction, groupLockKey(group.id));
      const current = await findEditablePair(transaction, pair.id);
      if (!current) throw new HttpError(404, pairNotFoundMessage);
      return edit(transaction, current);
    });
  };

  app.patch("/subtitle-pairs/:id/", jsonBody(pairSidesBodySchema, pairSidesExample), async (c) => {
    const body = c.req.valid("json");
    const sides = { english: readPairSide(body.english, "english"), swedish: readPairSide(body.swedish, "swedish") };
    if (sides.english === undefined && sides.swedish === undefined) throw new RequestValidationError("Please send the English side, the Swedish side or both.");
    const pair = await editAsOwner(c, (transaction, current) => updatePairSides(transaction, current, sides));
    return c.json({ pair: pairJson(pair) });
  });

  app.delete("/subtitle-pairs/:id/", async (c) => {
    await editAsOwner(c, (transaction, current) => deletePair(transaction, current));
    return c.body(null, 204);
  });

  app.post("/subtitle-pairs/:id/merge-next/", async (c) => {
    const pair = await editAsOwner(c, (transaction, current) => mergePairWithNext(transaction, current));
    return c.json({ pair: pairJson(pair) });
  });

  app.post("/subtitle-pairs/:id/split/", jsonBody(splitBodySchema, splitExample), async (c) => {
    const body = c.req.valid("json");
    const pairs = await editAsOwner(c, (transaction, current) => splitPair(transaction, current, readSplitPoint(body, current)));
    return c.json({ pairs: pairs.map(pairJson) });
  });

  app.post("/subtitle-pairs/:id/hide/", async (c) => {
    const learner = await learnerOf(c);
    const { pair } = await loadVisiblePair(c.req.param("id") ?? "", learner);
    // Under the group's lock, as the owner's edits: a merge removes the hidden rows of the pair it absorbs before the
    // pair itself, and a hide between the two deadlocked with it on PostgreSQL.
    const hidden = await inTransactionRetryingConflicts(database, async (transaction) => {
      await lockForTheRestOfTransaction(transaction, groupLockKey(pair.group_id));
      return hidePairForLearner(transaction, learner.key, pair, clock().toISOString());
    });
    if (!hidden) throw new HttpError(404, pairNotFoundMessage);
    return c.json({ hidden: true });
  });

  app.delete("/subtitle-pairs/:id/hide/", async (c) => {
    const learner = await learnerOf(c);
    const { pair } = await loadVisiblePair(c.req.param("id") ?? "", learner);
    await database.transaction().execute((transaction) => showPairForLearner(transaction, learner.key, pair.id));
    return c.json({ hidden: false });
  });
}
