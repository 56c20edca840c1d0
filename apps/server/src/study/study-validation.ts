import type { SessionConfig, StudyRange } from "@atelier/leitner";
import { vValidator } from "@hono/valibot-validator";
import * as v from "valibot";
import { RequestValidationError } from "../http/http-errors.ts";

const jsonMediaType = /^application\/([a-z-.]+\+)?json/i;

/**
 * Validates a JSON body at the edge, before the handler runs: a refusal is one sentence (the first issue's message),
 * answered 400 in the study API's shape by the server's `onError`.
 *
 * @example
 * app.post("/subtitle-pairs/:id/rate/", jsonBody(ratingBodySchema), async (c) => { const { is_correct } = c.req.valid("json"); … });
 */
export function jsonBody<Schema extends v.GenericSchema>(schema: Schema, example: string) {
  return vValidator("json", schema, (result, c) => {
    if (result.success) return;
    if (!jsonMediaType.test(c.req.header("content-type") ?? "")) {
      throw new RequestValidationError(`Please send a JSON body such as ${example}, with the header Content-Type: application/json.`);
    }
    throw new RequestValidationError(result.issues[0]?.message ?? `Please send a JSON body such as ${example}.`);
  });
}

/** Validates the query at the edge, as `jsonBody` does the body. */
export function queryOf<Schema extends v.GenericSchema>(schema: Schema) {
  return vValidator("query", schema, (result) => {
    if (!result.success) throw new RequestValidationError(result.issues[0]?.message ?? "The query could not be read.");
  });
}

/** A JSON object with `example`'s fields; anything else (an array, `null`, text) is refused with the example. */
function objectBody<Entries extends v.ObjectEntries>(entries: Entries, example: string) {
  return v.object(entries, `Please send a JSON body such as ${example}.`);
}

export const ratingExample = '{ "is_correct": true }';
export const ratingBodySchema = objectBody({ is_correct: v.boolean("is_correct must be true or false.") }, ratingExample);

/** The most ids one mark-studied call may name (a session holds at most 250 cards; a whole group is allowed). */
export const maximumMarkStudiedIds = 50_000;
export const markStudiedExample = '{ "pairIds": ["…"] }';
export const markStudiedBodySchema = objectBody(
  { pairIds: v.pipe(v.array(v.string("pairIds must be a list of flashcard pair ids."), "pairIds must be a list of flashcard pair ids."), v.maxLength(maximumMarkStudiedIds, "pairIds must be a list of flashcard pair ids.")) },
  markStudiedExample,
);

export const renameExample = '{ "name": "Season 1, episode 2" }';
/** `name` may be absent or null (no change); the length is checked after cleaning, by the handler. */
export const renameBodySchema = objectBody({ name: v.nullish(v.string("name must be text.")) }, renameExample);

export const pairSidesExample = '{ "english": "Good morning.", "swedish": "God morgon." }';
export const pairSidesBodySchema = objectBody({ english: v.optional(v.unknown()), swedish: v.optional(v.unknown()) }, pairSidesExample);

export const splitExample = '{ "english_sentences": 1, "swedish_sentences": 1 }';
/** The split point's range depends on the pair and is checked by `splitPair`; here only that the body is an object. */
export const splitBodySchema = objectBody({ english_sentences: v.optional(v.unknown()), swedish_sentences: v.optional(v.unknown()) }, splitExample);

const rangeAliases: Record<string, StudyRange> = {
  new: "new",
  "in-progress": "in-progress",
  in_progress: "in-progress",
  inProgress: "in-progress",
  memorized: "memorized",
  all: "all",
  reviewing: "reviewing",
};

/** A query value, or undefined when absent, empty, or the string "undefined" / "null" (spec §7); the first of repeats. */
export const queryValue = v.pipe(
  v.optional(v.union([v.string(), v.array(v.string())])),
  v.transform((value) => {
    const first = (Array.isArray(value) ? value[0] : value)?.trim();
    return first === undefined || first === "" || first === "undefined" || first === "null" ? undefined : first;
  }),
);

export function wholeNumberQuery(name: string) {
  return v.pipe(
    queryValue,
    v.check((value) => value === undefined || (/^\d{1,9}$/.test(value) && Number(value) >= 1), `${name} must be a whole number of 1 or more.`),
    v.transform((value) => (value === undefined ? undefined : Number(value))),
  );
}

/** The session config of the pairs query (spec §2.13, §7); defaults: study, all, every card. */
export const sessionQuerySchema = v.pipe(
  v.object({
    mode: v.pipe(
      queryValue,
      v.check((value) => value === undefined || value === "study" || value === "test", "mode must be study or test."),
    ),
    range: v.pipe(
      queryValue,
      v.check((value) => value === undefined || Object.hasOwn(rangeAliases, value), "range must be new, in-progress, memorized, all or reviewing."),
    ),
    cardCount: wholeNumberQuery("cardCount"),
    startIndex: wholeNumberQuery("startIndex"),
    endIndex: wholeNumberQuery("endIndex"),
  }),
  v.transform((query): SessionConfig => {
    const config: SessionConfig = { mode: query.mode === "test" ? "test" : "study", range: rangeAliases[query.range ?? "all"] ?? "all" };
    if (query.cardCount !== undefined) config.cardCount = query.cardCount;
    if (query.startIndex !== undefined) config.startIndex = query.startIndex;
    if (query.endIndex !== undefined) config.endIndex = query.endIndex;
    return config;
  }),
);
