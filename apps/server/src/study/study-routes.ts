import { currentBoxOf, describeSessionSelection, indexProgressByPairId, markCardsStudied, type SessionSelection } from "@atelier/leitner";
import { Hono, type Context } from "hono";
import type { Clock } from "../clock.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { createFixedWindowRateLimiter } from "../rate-limit/fixed-window-rate-limiter.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { getClientAddress } from "../http/client-address.ts";
import { HttpError, RequestValidationError } from "../http/http-errors.ts";
import { getAuthenticatedUser } from "../identity/index.ts";
import { anonymousLearnerKey, readAsLearner, readLearnerCookie, resolveLearner, startForGuessedUser, userLearnerKey, type Learner, type LearnerCookies } from "./learner.ts";
import {
  assertRoomForAnotherPrivateDeck,
  privateDeckAllowanceJson,
  sharedDeckExportMessage,
  signInToExportMessage,
  type EntitlementsOfUser,
} from "./deck-entitlements.ts";
import { registerGroupStatsRoutes } from "./group-stats-routes.ts";
import { mergeRequestLearnerIntoAccount } from "./merge-progress.ts";
import { registerPairEditRoutes } from "./pair-edit-routes.ts";
import { createStudyCallLimiter, pairNotFoundMessage, rateAsLearner, tooManyStudyCalls, type StudyCallLimiter } from "./rating-answer.ts";
import { progressLockKey } from "./rating-store.ts";
import { readWhileChecked } from "./read-while-checked.ts";
import { countOrSelectLargeSession, selectLargeSession } from "./large-session-reads.ts";
import { selectSessionCardsInDatabase } from "./session-cards-store.ts";
import { formatCardsAsCsv, formatCardsForAnki, safeFileName } from "./study-export.ts";
import {
  countPrivateGroups,
  deleteGroup,
  deleteGroupProgress,
  findGroup,
  findPair,
  groupLockKey,
  insertGroupWithPairs,
  listGroupProgress,
  listPairs,
  listProgressOfPairs,
  listVisibleGroups,
  pairIdsInGroup,
  updateGroup,
  userStillExists,
  writeProgress,
  type SubtitleGroupRow,
} from "./study-store.ts";
import { cleanName, maximumGroupNameLength, readSubtitleUpload } from "./subtitle-upload.ts";
import { jsonBody, markStudiedBodySchema, markStudiedExample, queryOf, ratingBodySchema, ratingExample, renameBodySchema, renameExample, sessionQuerySchema } from "./study-validation.ts";

export const groupNotFoundMessage = "This subtitle group does not exist.";
export const ownerOnlyMessage = "Only the owner of this group can do that.";
export const signInToUploadMessage = "Please sign in to upload subtitles.";
export { anonymousLimitMessage, pairNotFoundMessage, studyApiRateLimit } from "./rating-answer.ts";
/** Uploads per user: each costs two parses and an alignment. */
export const uploadRateLimit = { maximumRequests: 10, windowMilliseconds: 10 * 60_000 };
/** A session of more cards than this is a large one, counted by `STUDY_LARGE_SESSION_RATE_LIMIT` (decision 0075). */
export const largeSessionCardCount = 1_000;

/** The 429 of a client over the large sessions' limit: what to do instead, and when. */
export function tooManyLargeSessionsMessage(limit: { maximumRequests: number; windowMilliseconds: number }, retryAfterSeconds: number): string {
  const minutes = limit.windowMilliseconds / 60_000;
  const window = minutes === 1 ? "a minute" : Number.isInteger(minutes) ? `${minutes} minutes` : `${limit.windowMilliseconds / 1_000} seconds`;
  const wait = retryAfterSeconds === 1 ? "a second" : `${retryAfterSeconds} seconds`;
  const sessions = limit.maximumRequests === 1 ? "1 session" : `${limit.maximumRequests} sessions`;
  return `At most ${sessions} of more than ${largeSessionCardCount.toLocaleString("en-US")} cards can start in ${window}. Please wait ${wait}, or choose fewer cards.`;
}

/** The 429 of a client that keeps calling without the learner cookie it was given. */
export function tooManyNewLearnersMessage(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds === 1 ? "a second" : retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return `Your browser did not send back the cookie that keeps your progress, so each of these calls started a new learner. Please allow cookies for this site, or wait ${wait}.`;
}

export type StudyRoutesOptions = {
  database: AtelierDatabase;
  clock: Clock;
  /** Whether cookies get `Secure` (the public origin is https). */
  secureCookies: boolean;
  /** Signs the `learner_id` cookies (the server's `SECRET_KEY`, decision 0085). */
  learnerCookieSigningKey: string;
  /** What the user's plan allows (billing's subscription status); private decks and shared-deck exports depend on it. */
  entitlementsOfUser: EntitlementsOfUser;
  /** Unsafe study calls per learner per window (`STUDY_RATE_LIMIT`); 600 a minute unless given. */
  rateLimit?: { maximumRequests: number; windowMilliseconds: number };
  /** Shared with the node front's rating (`createRatingFrontRoute`); one of the routes' own otherwise. */
  studyCallLimiter?: StudyCallLimiter;
  /** Sessions of more than `largeSessionCardCount` cards per client address per window (`STUDY_LARGE_SESSION_RATE_LIMIT`); 10 a minute unless given. */
  largeSessionRateLimit?: { maximumRequests: number; windowMilliseconds: number };
  /**
   * Unsafe study calls made without a learner cookie (each would start a new anonymous learner) per client address per
   * window (`STUDY_NEW_LEARNER_RATE_LIMIT`, decision 0082); 60 in 10 minutes unless given.
   */
  newLearnerRateLimit?: { maximumRequests: number; windowMilliseconds: number };
  /** Whether the client's address is read from `X-Forwarded-For` (`TRUST_PROXY`). */
  trustProxy?: boolean;
};

function groupJson(group: SubtitleGroupRow, userId: string | null) {
  return {
    id: group.id,
    name: group.name,
    created_at: group.created_at,
    is_public: group.is_public === 1,
    owner_id: group.owner_id,
    is_owner: userId !== null && group.owner_id === userId,
    pair_count: Number(group.pair_count),
  };
}

/** Whether any record or hidden pair is kept under `learnerKey`. */
async function keepsRecords(database: AtelierDatabase, learnerKey: string): Promise<boolean> {
  const record = await database.selectFrom("study_progress").select("pair_id").where("learner_key", "=", learnerKey).limit(1).executeTakeFirst();
  if (record !== undefined) return true;
  return (await database.selectFrom("study_hidden_pair").select("pair_id").where("learner_key", "=", learnerKey).limit(1).executeTakeFirst()) !== undefined;
}

function userIdOf(learner: Learner): string | null {
  return learner.kind === "signed-in" ? learner.userId : null;
}

/** A group the learner may see: public, or their own. Anything else is answered as if it did not exist. */
async function loadVisibleGroup(database: AtelierDatabase, groupId: string, learner: Learner): Promise<SubtitleGroupRow> {
  const group = await findGroup(database, groupId);
  if (!group || (group.is_public !== 1 && group.owner_id !== userIdOf(learner))) {
    throw new HttpError(404, groupNotFoundMessage);
  }
  return group;
}

function requireOwner(group: SubtitleGroupRow, learner: Learner): void {
  if (group.owner_id !== userIdOf(learner)) {
    throw new HttpError(403, ownerOnlyMessage);
  }
}

async function loadVisiblePair(database: AtelierDatabase, pairId: string, learner: Learner): Promise<{ pair: { id: string; group_id: string }; group: SubtitleGroupRow }> {
  const pair = await findPair(database, pairId);
  const group = pair ? await findGroup(database, pair.group_id) : undefined;
  if (!pair || !group || (group.is_public !== 1 && group.owner_id !== userIdOf(learner))) {
    throw new HttpError(404, pairNotFoundMessage);
  }
  return { pair, group };
}

/**
 * The study API of spec §7 under `/api`: subtitle groups, upload, pairs, ratings, progress and export.
 * Every failure answers `{ error }` (this API's field; the server's `onError` picks it for `/api/`, see `http/error-responses.ts`).
 *
 * @example
 * app.route("/api", createStudyRoutes({ database, clock, secureCookies: false, learnerCookieSigningKey: secretKey, entitlementsOfUser }));
 */
export function createStudyRoutes(options: StudyRoutesOptions): Hono {
  const { database, clock, secureCookies, entitlementsOfUser } = options;
  const app = new Hono();

  // Answers depend on the learner and change with every rating. Set before the answer exists, so that every answer
  // (errors included) is built with it: set afterwards, Hono rebuilds the finished answer as a stream, a third of a
  // rating's cost.
  app.use(async (c, next) => {
    c.header("Cache-Control", "no-store");
    await next();
  });

  const learnerCookies: LearnerCookies = { secure: secureCookies, signingKey: options.learnerCookieSigningKey };
  const learnerOf = (c: Context) => resolveLearner(c, learnerCookies);

  // Against scripts, not people: a learner rating as fast as a hand can stays far below, and so do the load tests.
  const studyCallLimiter = options.studyCallLimiter ?? createStudyCallLimiter({ database, clock, rateLimit: options.rateLimit });
  const uploadLimiter = createFixedWindowRateLimiter({ database, scope: "study-upload", limit: uploadRateLimit, clock });
  const largeSessionRateLimit = options.largeSessionRateLimit ?? { maximumRequests: 10, windowMilliseconds: 60_000 };
  /** The key under which the per-address limits count a request. */
  const clientAddressKey = (c: Context) => `address:${getClientAddress(c, { trustProxy: options.trustProxy ?? false }) ?? "unknown"}`;
  const newLearnerLimiter = createFixedWindowRateLimiter({ database, scope: "study-new-learner", limit: options.newLearnerRateLimit ?? { maximumRequests: 60, windowMilliseconds: 10 * 60_000 }, clock });
  const largeSessionLimiter = createFixedWindowRateLimiter({ database, scope: "study-large-session", limit: largeSessionRateLimit, clock });
  /**
   * Reads a session that may hold more than `largeSessionCardCount` cards in the large-session worker (decision 0077),
   * and counts one that does against its client's address before it is read (decision 0075): its answer (about 470
   * bytes a card, 9 MB for 20,000) costs the worker hundreds of milliseconds. By address, not by learner: an anonymous
   * learner is a cookie that a script can leave out. Answers the pairs call's JSON.
   */
  const readLargeSession = async (c: Context, learnerKey: string, groupId: string, selection: SessionSelection): Promise<Uint8Array> => {
    const clientKey = clientAddressKey(c);
    const refuse = (retryAfterSeconds: number) => new HttpError(429, tooManyLargeSessionsMessage(largeSessionRateLimit, retryAfterSeconds), { headers: { "Retry-After": String(retryAfterSeconds) } });
    // A client over the limit is refused before the count, which reads the whole window of a large film.
    const early = await largeSessionLimiter.wouldRefuse(clientKey);
    if (early.status === "limited") throw refuse(early.retryAfterSeconds);
    const counted = await countOrSelectLargeSession(database, learnerKey, groupId, selection, largeSessionCardCount);
    if (counted.status === "selected") return counted.json;
    const decision = await largeSessionLimiter.registerRequest(clientKey);
    if (decision.status === "limited") throw refuse(decision.retryAfterSeconds);
    return selectLargeSession(database, learnerKey, groupId, selection);
  };
  app.use(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
    // Counted for the session's last user while the session is read (decision 0045: one round trip less on PostgreSQL).
    // When the session has ended since, that user's count took one request made with their former token, once: the
    // guess is forgotten as soon as the session is read.
    const countedFor = startForGuessedUser(c, (userId) => studyCallLimiter.registerRequest(userLearnerKey(userId)));
    const user = await getAuthenticatedUser(c);
    const learnerCookie = readLearnerCookie(c, learnerCookies);
    // An unsigned cookie (issued before signatures) names a learner only if records are kept under it: any other is a
    // made-up id, which would start a learner at every call as a missing cookie would.
    const knownCookie = !user && learnerCookie?.proof === "unsigned" && !(await keepsRecords(database, anonymousLearnerKey(learnerCookie.id))) ? null : learnerCookie;
    const learnerKey = user ? userLearnerKey(user.id) : knownCookie === null ? null : anonymousLearnerKey(knownCookie.id);
    if (learnerKey !== null) {
      const decision = await (countedFor(user?.id ?? null) ?? studyCallLimiter.registerRequest(learnerKey));
      if (decision.status === "limited") {
        throw tooManyStudyCalls(decision);
      }
    } else {
      // A browser has its learner cookie from its first study page; a script that leaves it out would otherwise start
      // a learner, and keep its records, at every call.
      const decision = await newLearnerLimiter.registerRequest(clientAddressKey(c));
      if (decision.status === "limited") {
        throw new HttpError(429, tooManyNewLearnersMessage(decision.retryAfterSeconds), { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
      }
    }
    return next();
  });

  app.get("/subtitle-groups/", async (c) => {
    const learner = await learnerOf(c);
    const userId = userIdOf(learner);
    const groups = await listVisibleGroups(database, userId);
    if (userId === null) return c.json({ groups: groups.map((group) => groupJson(group, null)) });
    const entitlements = await entitlementsOfUser(userId);
    const privateDeckCount = groups.filter((group) => group.owner_id === userId && group.is_public !== 1).length;
    // Additive to spec §7: what the upload form and the privacy switch need to show their lock.
    return c.json({ groups: groups.map((group) => groupJson(group, userId)), allowance: privateDeckAllowanceJson(entitlements, privateDeckCount) });
  });

  app.post("/upload-subtitles/", async (c) => {
    const user = await getAuthenticatedUser(c);
    if (!user) {
      throw new HttpError(401, signInToUploadMessage);
    }
    // Checked before the body is read: a refused upload costs no parse and no alignment.
    const decision = await uploadLimiter.registerRequest(`user:${user.id}`);
    if (decision.status === "limited") {
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      throw new HttpError(429, `You have uploaded ${uploadRateLimit.maximumRequests} pairs of files in the last ${uploadRateLimit.windowMilliseconds / 60_000} minutes. Please wait ${minutes === 1 ? "a minute" : `${minutes} minutes`} before the next upload.`, {
        headers: { "Retry-After": String(decision.retryAfterSeconds) },
      });
    }
    const entitlements = await entitlementsOfUser(user.id);
    const upload = await readSubtitleUpload(c, {
      uploaderKey: `user:${user.id}`,
      // Before the files are parsed and aligned: a private deck over the plan's limit costs no alignment.
      beforeReadingFiles: async ({ isPublic }) => {
        if (!isPublic) assertRoomForAnotherPrivateDeck(entitlements, await countPrivateGroups(database, user.id));
      },
    });
    const group = await insertGroupWithPairs(
      database,
      { id: crypto.randomUUID(), ownerId: user.id, name: upload.name, isPublic: upload.isPublic, report: upload.report, createdAt: clock().toISOString() },
      upload.pairs,
      async (transaction) => {
        // Under the owner's lock, which the account's deletion takes too: an account deleted while its upload was
        // aligned is gone here (its group would have no owner), and two private uploads sent at once must not both
        // take the last place.
        await lockForTheRestOfTransaction(transaction, `private-decks:${user.id}`);
        if (!(await userStillExists(transaction, user.id))) throw new HttpError(401, signInToUploadMessage);
        if (upload.isPublic) return;
        assertRoomForAnotherPrivateDeck(entitlements, await countPrivateGroups(transaction, user.id));
      },
    );
    return c.json({ group: groupJson(group, user.id), report: upload.report, pair_count: upload.pairs.length }, 201);
  });

  app.post("/subtitle-groups/:id/toggle-public/", async (c) => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id"), learner);
    requireOwner(group, learner);
    const ownerId = group.owner_id;
    const entitlements = await entitlementsOfUser(ownerId);
    const isPublic = await database.transaction().execute(async (transaction) => {
      await lockForTheRestOfTransaction(transaction, `private-decks:${ownerId}`);
      const current = await findGroup(transaction, group.id);
      if (!current) throw new HttpError(404, groupNotFoundMessage);
      const flipped = current.is_public === 1 ? 0 : 1;
      if (flipped === 0) assertRoomForAnotherPrivateDeck(entitlements, await countPrivateGroups(transaction, ownerId));
      await updateGroup(transaction, group.id, { is_public: flipped });
      return flipped;
    });
    return c.json({ group: groupJson({ ...group, is_public: isPublic }, userIdOf(learner)) });
  });

  app.post("/subtitle-groups/:id/rename/", jsonBody(renameBodySchema, renameExample), async (c) => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id"), learner);
    requireOwner(group, learner);
    const name = cleanName(c.req.valid("json").name ?? "");
    if (name.length > maximumGroupNameLength) {
      throw new RequestValidationError(`The name can be at most ${maximumGroupNameLength} characters.`);
    }
    if (name === "" || name === group.name) {
      return c.json({ group: groupJson(group, userIdOf(learner)) });
    }
    await updateGroup(database, group.id, { name });
    return c.json({ group: groupJson({ ...group, name }, userIdOf(learner)) });
  });

  app.delete("/subtitle-groups/:id/", async (c) => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id"), learner);
    requireOwner(group, learner);
    if (!(await deleteGroup(database, group.id))) throw new HttpError(404, groupNotFoundMessage);
    return c.body(null, 204);
  });

  registerGroupStatsRoutes(app, {
    database,
    clock,
    readAsLearner: (c, read) => readAsLearner(c, learnerCookies, read),
    loadVisibleGroup: (groupId, learner) => loadVisibleGroup(database, groupId, learner),
    mayExport,
  });

  app.get("/subtitle-groups/:id/pairs/", queryOf(sessionQuerySchema), async (c) => {
    const selection = describeSessionSelection(c.req.valid("query"), clock());
    const groupId = c.req.param("id");
    // Chosen in SQL (decision 0016): a group's size costs an index walk, not a load of every pair and record. Each card
    // carries its confidence (0–1; below 0.5 the screens ask to check it) and, additively, the film's lines just
    // before and after it among the pairs this learner studies (group order is the film's order).
    // The cards are chosen while the group is checked, and both while the session is (two round trips less on
    // PostgreSQL); a group the learner may not see answers 404 and the cards are dropped.
    const [, answer] = await readAsLearner(c, learnerCookies, async (learner) => {
      if (selection.limit === null || selection.limit > largeSessionCardCount) {
        // Counted only once the learner may see the group: a refused session is not held against its client.
        await loadVisibleGroup(database, groupId, learner);
        return { json: await readLargeSession(c, learner.key, groupId, selection) };
      }
      const [, pairs] = await readWhileChecked(loadVisibleGroup(database, groupId, learner), () => selectSessionCardsInDatabase(database, learner.key, groupId, selection));
      return { pairs };
    });
    return "json" in answer ? c.body(answer.json as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/json" }) : c.json({ pairs: answer.pairs });
  });

  app.post("/subtitle-pairs/:id/rate/", jsonBody(ratingBodySchema, ratingExample), async (c) => {
    const learner = await learnerOf(c);
    return c.json(await rateAsLearner(database, learner, c.req.param("id"), c.req.valid("json").is_correct, clock()));
  });

  app.post("/subtitle-groups/:id/mark-studied/", jsonBody(markStudiedBodySchema, markStudiedExample), async (c) => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id"), learner);
    const { pairIds } = c.req.valid("json");
    const uniqueIds = [...new Set(pairIds)];
    const now = clock();
    await inTransactionRetryingConflicts(database, async (transaction) => {
      await lockForTheRestOfTransaction(transaction, progressLockKey(learner.key));
      await lockForTheRestOfTransaction(transaction, groupLockKey(group.id));
      // By key, not by reading the group: a cookie-less script could otherwise hold the writer with a whole film's read
      // for each one-card request.
      if ((await pairIdsInGroup(transaction, group.id, uniqueIds)).size !== uniqueIds.length) {
        if (!(await findGroup(transaction, group.id))) throw new HttpError(404, groupNotFoundMessage);
        throw new RequestValidationError("Some of these cards are not in this group.");
      }
      const existing = await listProgressOfPairs(transaction, learner.key, uniqueIds);
      const marked = new Set(uniqueIds);
      const records = markCardsStudied(existing, uniqueIds, now).filter((record) => marked.has(record.pairId));
      await writeProgress(transaction, learner.key, records.map((record) => ({ ...record, groupId: group.id })), now.toISOString());
    });
    return c.json({ marked: uniqueIds.length });
  });

  app.post("/subtitle-groups/:id/reset-stats/", async (c) => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id"), learner);
    await inTransactionRetryingConflicts(database, async (transaction) => {
      await lockForTheRestOfTransaction(transaction, groupLockKey(group.id));
      await deleteGroupProgress(transaction, learner.key, group.id);
    });
    return c.json({ reset: true });
  });

  app.post("/merge-progress/", async (c) => {
    const user = await getAuthenticatedUser(c);
    if (!user) {
      throw new HttpError(401, "Please sign in to keep your progress.");
    }
    // A sign-in merges already (the identity service's onUserLoggedIn); this call, which the spec's client makes after
    // a modal login, finds nothing left then.
    return c.json({ merged: await mergeRequestLearnerIntoAccount({ database, clock, learnerCookies }, c, user.id) });
  });

  /** One's own decks are one's data and always leave; a deck someone else shared needs a plan that includes it. */
  async function mayExport(group: SubtitleGroupRow, learner: Learner): Promise<boolean> {
    const userId = userIdOf(learner);
    if (userId === null) return false;
    return group.owner_id === userId || (await entitlementsOfUser(userId)).sharedDeckExports;
  }

  registerPairEditRoutes(app, {
    database,
    clock,
    learnerOf,
    loadVisiblePair: (pairId, learner) => loadVisiblePair(database, pairId, learner),
    requireOwner,
    pairNotFoundMessage,
  });

  const exportGroup = async (c: Context, format: "csv" | "tsv") => {
    const learner = await learnerOf(c);
    const group = await loadVisibleGroup(database, c.req.param("id") ?? "", learner);
    if (!(await mayExport(group, learner))) {
      throw learner.kind === "anonymous" ? new HttpError(401, signInToExportMessage) : new HttpError(403, sharedDeckExportMessage);
    }
    const [pairs, progress] = await Promise.all([listPairs(database, group.id), listGroupProgress(database, learner.key, group.id)]);
    const progressByPairId = indexProgressByPairId(progress);
    const cards = pairs.map((pair) => ({ english: pair.english, swedish: pair.swedish, box: currentBoxOf(progressByPairId.get(pair.id)) }));
    const fileName = `${safeFileName(group.name)}.${format === "csv" ? "csv" : "txt"}`;
    // Cleaned again: a name stored before bidi and zero-width characters were stripped must not reach the file name.
    const encodedName = encodeURIComponent(`${cleanName(group.name) || "flashcards"}.${format === "csv" ? "csv" : "txt"}`);
    c.header("Content-Disposition", `attachment; filename="${fileName}"; filename*=UTF-8''${encodedName}`);
    c.header("X-Content-Type-Options", "nosniff");
    if (format === "csv") {
      c.header("Content-Type", "text/csv; charset=utf-8; header=present");
      return c.body(formatCardsAsCsv(cards));
    }
    c.header("Content-Type", "text/tab-separated-values; charset=utf-8");
    return c.body(formatCardsForAnki(cards));
  };
  app.get("/subtitle-groups/:id/export.csv", (c) => exportGroup(c, "csv"));
  app.get("/subtitle-groups/:id/export.tsv", (c) => exportGroup(c, "tsv"));

  return app;
}
