import { DEFAULT_SETUP, describeSessionSelection, isAnonymousLimitReached } from "@atelier/leitner";
import type { Context, Hono } from "hono";
import * as v from "valibot";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { readGroupStatistics, readPreviewPage, type PreviewRequest } from "./group-stats-store.ts";
import { readWhileChecked } from "./read-while-checked.ts";
import type { Learner } from "./learner.ts";
import { countSessionCardsInDatabase } from "./session-cards-store.ts";
import { countMemorizedCards, type SubtitleGroupRow } from "./study-store.ts";
import { queryOf, queryValue, sessionQuerySchema, wholeNumberQuery } from "./study-validation.ts";

/** The most pairs one preview page may hold (the setup offers 5, 10, 20 and 50). */
export const maximumPreviewPageSize = 100;

const pageSizeQuery = v.pipe(
  queryValue,
  v.check(
    (value) => value === undefined || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= maximumPreviewPageSize),
    `page_size must be a whole number from 1 to ${maximumPreviewPageSize}.`,
  ),
  v.transform((value) => (value === undefined ? undefined : Number(value))),
);

/** The stats query: the size of the preview's first page, which the answer's `pairs` holds (decision 0039). */
export const statsQuerySchema = v.pipe(
  v.object({ page_size: pageSizeQuery }),
  v.transform((query) => ({ pageSize: query.page_size ?? DEFAULT_SETUP.previewPageSize })),
);

/** The preview query: which page, how many pairs a page holds, and whether only the doubtful pairs are listed. */
export const previewQuerySchema = v.pipe(
  v.object({
    page: wholeNumberQuery("page"),
    page_size: pageSizeQuery,
    only_doubtful: v.pipe(
      queryValue,
      v.check((value) => value === undefined || ["0", "1", "false", "true"].includes(value), "only_doubtful must be 1 or 0."),
    ),
  }),
  v.transform((query): PreviewRequest => ({
    page: query.page ?? 1,
    pageSize: query.page_size ?? DEFAULT_SETUP.previewPageSize,
    onlyDoubtful: query.only_doubtful === "1" || query.only_doubtful === "true",
  })),
);

export type GroupStatsRoutesOptions = {
  database: AtelierDatabase;
  clock: Clock;
  /** Resolves the learner and reads for them, the read started on a guess while the session is read (`readAsLearner`). */
  readAsLearner: <Value>(c: Context, read: (learner: Learner) => Promise<Value>) => Promise<[Learner, Value]>;
  /** The group if this learner may see it; otherwise throws the study API's 404. */
  loadVisibleGroup: (groupId: string, learner: Learner) => Promise<SubtitleGroupRow>;
  /** Whether this learner may export the group (own decks, or a plan that includes shared ones). */
  mayExport: (group: SubtitleGroupRow, learner: Learner) => Promise<boolean>;
};

/**
 * The group's stats (spec §3, §7), the setup's preview pages and the count of cards a From–To window offers, each
 * counted in SQL without loading the group (issue 16, decision 0039).
 *
 * @example
 * registerGroupStatsRoutes(app, { database, clock, readAsLearner, loadVisibleGroup, mayExport });
 */
export function registerGroupStatsRoutes(app: Hono, { database, clock, readAsLearner, loadVisibleGroup, mayExport }: GroupStatsRoutesOptions): void {
  app.get("/subtitle-groups/:id/stats/", queryOf(statsQuerySchema), async (c) => {
    const groupId = c.req.param("id");
    const { pageSize } = c.req.valid("query");
    const now = clock();
    // The statistics are read while the group is checked, and both while the session is (two round trips less on
    // PostgreSQL); a group the learner may not see answers 404 and its reading is dropped.
    const [learner, [group, [reading, memorizedEverywhere], canExport]] = await readAsLearner(c, async (learner) => {
      const [group, readings] = await readWhileChecked(loadVisibleGroup(groupId, learner), () =>
        Promise.all([
          readGroupStatistics(database, learner.key, groupId, now, pageSize),
          learner.kind === "anonymous" ? countMemorizedCards(database, learner.key) : Promise.resolve(0),
        ]),
      );
      return [group, readings, await mayExport(group, learner)] as const;
    });
    const { pairs, ...pairsPage } = reading.firstPage;
    return c.json({
      id: group.id,
      name: group.name,
      is_public: group.is_public === 1,
      // Whose group it is stays private: the screen only needs to know whether it is the visitor's own.
      is_owner: learner.kind === "signed-in" && group.owner_id === learner.userId,
      can_export: canExport,
      ...reading.statistics,
      anonymous_limit_reached: learner.kind === "anonymous" && isAnonymousLimitReached(memorizedEverywhere),
      // Additive: started cards falling due on each of the next 7 (UTC) days, today's including the overdue ones.
      due_forecast: reading.dueForecast,
      // The spec's pairs: the preview's first page (decision 0039), each pair with its number in the film; further pages
      // come from the preview call.
      pairs,
      // Additive: which page `pairs` is, its size, and how many pairs the learner studies.
      pairs_page: pairsPage,
      // Additive: the doubtful pairs among them, for the preview's filter.
      doubtful_count: reading.doubtfulCount,
      // Additive: the pairs this learner hid, left out of the stats and sessions, to show them again.
      hidden_pairs: reading.hiddenPairs,
    });
  });

  app.get("/subtitle-groups/:id/preview/", queryOf(previewQuerySchema), async (c) => {
    const [, page] = await readAsLearner(c, async (learner) => readPreviewPage(database, learner.key, await loadVisibleGroup(c.req.param("id"), learner), c.req.valid("query")));
    return c.json(page);
  });

  app.get("/subtitle-groups/:id/available-cards/", queryOf(sessionQuerySchema), async (c) => {
    const selection = describeSessionSelection(c.req.valid("query"), clock());
    // The pairs call's query: how many cards that call would answer, without them.
    const [, available] = await readAsLearner(c, async (learner) => countSessionCardsInDatabase(database, learner.key, (await loadVisibleGroup(c.req.param("id"), learner)).id, selection));
    return c.json({ available });
  });
}
