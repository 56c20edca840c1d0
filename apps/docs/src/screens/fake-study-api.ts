import { createSiteHttp } from "@atelier/site-api";
import { createStudyClient, type StudyClient } from "@atelier/site-api";

type Box = 1 | 2 | 3 | 4 | 5;
type FakePair = { id: string; english: string; swedish: string; box: Box; started: boolean; confidence: number };

/** A few lines of a film, in order, as an upload would store them. */
export const filmLines: readonly [string, string][] = [
  ["Wake up, it's half past seven.", "Vakna, klockan är halv åtta."],
  ["Good morning, Anna.", "God morgon, Anna."],
  ["Did you sleep well?", "Sov du gott?"],
  ["Not really. The neighbours had a party.", "Inte direkt. Grannarna hade fest."],
  ["Coffee?", "Kaffe?"],
  ["Yes, please. Strong and black.", "Ja tack. Starkt och svart."],
  ["The train leaves at eight.", "Tåget går klockan åtta."],
  ["Then we have to hurry.", "Då måste vi skynda oss."],
];

export type FakeStudyApiOptions = {
  /** Every card's box (default 1, not started). */
  box?: Box;
  /** The visitor is anonymous and has memorized 5 cards (spec §6). */
  anonymousLimitReached?: boolean;
  canExport?: boolean;
  /** Someone else's shared group: the learner may hide pairs, not fix them (default: the learner's own). */
  isOwner?: boolean;
  /** Pair numbers (1-based) the alignment was unsure of (confidence 0.4). */
  doubtfulPairs?: number[];
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * The study API of spec §7 in memory, behind the real study client: ratings move boxes as the server would
 * (right: one box up, at most 5; wrong: box 1), so a story's session behaves like the site's.
 */
export function createFakeStudyApi(options: FakeStudyApiOptions = {}): StudyClient {
  const pairs: FakePair[] = filmLines.map(([english, swedish], index) => ({
    id: `pair-${index + 1}`,
    english,
    swedish,
    box: options.box ?? 1,
    started: options.box !== undefined,
    confidence: options.doubtfulPairs?.includes(index + 1) ? 0.4 : 0.92,
  }));
  const hidden = new Set<string>();
  const count = (predicate: (pair: FakePair) => boolean) => pairs.filter(predicate).length;
  const isDoubtful = (pair: { confidence: number }) => pair.confidence < 0.5;
  // The pairs the learner studies, numbered in film order, as the preview lists them.
  const studied = () =>
    pairs.filter((pair) => !hidden.has(pair.id)).map(({ id, english, swedish, box, confidence }, index) => ({ id, english, swedish, current_box: box, confidence, number: index + 1 }));
  const previewPage = (page: number, pageSize: number, onlyDoubtful: boolean) => {
    const listed = studied().filter((pair) => !onlyDoubtful || isDoubtful(pair));
    const shownPage = Math.min(page, Math.max(1, Math.ceil(listed.length / pageSize)));
    return { pairs: listed.slice((shownPage - 1) * pageSize, shownPage * pageSize), page: shownPage, page_size: pageSize, total: listed.length };
  };
  const stats = () => {
    const { pairs: firstPage, ...firstPageOf } = previewPage(1, 10, false);
    return {
      id: "film",
      name: "Morning Train",
      is_public: true,
      is_owner: options.isOwner ?? true,
      can_export: options.canExport ?? true,
      total: pairs.length,
      not_started: count((pair) => !pair.started),
      in_progress: count((pair) => pair.started && pair.box < 5),
      memorized: count((pair) => pair.box === 5),
      box_distribution: { box1: count((pair) => pair.started && pair.box === 1), box2: count((pair) => pair.box === 2), box3: count((pair) => pair.box === 3), box4: count((pair) => pair.box === 4) },
      total_reviews: 0,
      accuracy: 0,
      reviewing: count((pair) => pair.started),
      learned: count((pair) => pair.box === 5),
      dueToday: count((pair) => pair.started && pair.box === 1),
      anonymous_limit_reached: options.anonymousLimitReached ?? false,
      due_forecast: [count((pair) => pair.started && pair.box === 1), count((pair) => pair.box === 2), 0, count((pair) => pair.box === 3), 0, 0, 0],
      pairs: firstPage,
      pairs_page: firstPageOf,
      doubtful_count: count((pair) => !hidden.has(pair.id) && isDoubtful(pair)),
      hidden_pairs: pairs.filter((pair) => hidden.has(pair.id)).map(({ id, english, swedish }) => ({ id, english, swedish })),
    };
  };
  const line = (index: number) => {
    const pair = pairs[index];
    return pair ? { english: pair.english, swedish: pair.swedish } : null;
  };

  return createStudyClient(
    createSiteHttp({
      fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname;
      const method = request.method;
      if (method === "GET" && path.endsWith("/stats/")) return json(stats());
      if (method === "GET" && path.endsWith("/preview/")) {
        return json(previewPage(Number(url.searchParams.get("page") ?? 1), Number(url.searchParams.get("page_size") ?? 10), url.searchParams.get("only_doubtful") === "1"));
      }
      if (method === "GET" && path.endsWith("/available-cards/")) {
        const window = studied().slice(Number(url.searchParams.get("startIndex") ?? 1) - 1, Number(url.searchParams.get("endIndex") ?? pairs.length));
        return json({ available: window.filter((pair) => pair.current_box === 5).length });
      }
      if (method === "GET" && path.endsWith("/pairs/")) {
        const cardCount = Number(new URL(request.url).searchParams.get("cardCount") ?? 5);
        const selected = pairs.slice(0, cardCount);
        return json({
          pairs: selected.map((pair) => {
            const index = pairs.indexOf(pair);
            return { id: pair.id, english: pair.english, swedish: pair.swedish, current_box: pair.box, confidence: pair.confidence, context: { before: line(index - 1), after: line(index + 1) } };
          }),
        });
      }
      const rated = /\/subtitle-pairs\/([^/]+)\/rate\/$/.exec(path);
      if (method === "POST" && rated) {
        if (options.anonymousLimitReached) return json({ error: "You have memorized 5 cards. Please sign in to keep studying and keep your progress." }, 403);
        const pair = pairs.find((candidate) => candidate.id === rated[1]);
        if (!pair) return json({ error: "This flashcard pair does not exist." }, 404);
        const { is_correct: isCorrect } = (await request.json()) as { is_correct: boolean };
        pair.box = isCorrect ? (Math.min(5, pair.box + 1) as Box) : 1;
        pair.started = true;
        return json({ pair: { id: pair.id, current_box: pair.box }, memorized: count((candidate) => candidate.box === 5), anonymous_limit_reached: false });
      }
      if (method === "POST" && path.endsWith("/mark-studied/")) {
        const { pairIds } = (await request.json()) as { pairIds: string[] };
        for (const pair of pairs) if (pairIds.includes(pair.id)) pair.started = true;
        return json({ marked: pairIds.length });
      }
      if (method === "POST" && path.endsWith("/reset-stats/")) {
        for (const pair of pairs) Object.assign(pair, { box: 1, started: false });
        return json({ reset: true });
      }
      const edited = /\/subtitle-pairs\/([^/]+)\/(merge-next\/|hide\/)?$/.exec(path);
      const target = edited ? pairs.find((candidate) => candidate.id === edited[1]) : undefined;
      if (edited && target) {
        if (method === "PATCH") {
          Object.assign(target, (await request.json()) as Partial<FakePair>, { confidence: 1 });
          return json({ pair: { id: target.id, english: target.english, swedish: target.swedish, confidence: 1 } });
        }
        if (method === "POST" && edited[2] === "merge-next/") {
          const next = pairs[pairs.indexOf(target) + 1];
          if (!next) return json({ error: "This is the last pair of the group: there is no next pair to merge it with." }, 400);
          Object.assign(target, { english: `${target.english} ${next.english}`, swedish: `${target.swedish} ${next.swedish}` });
          pairs.splice(pairs.indexOf(next), 1);
          return json({ pair: { id: target.id, english: target.english, swedish: target.swedish, confidence: target.confidence } });
        }
        if (edited[2] === "hide/") {
          if (method === "POST") hidden.add(target.id);
          else hidden.delete(target.id);
          return json({ hidden: method === "POST" });
        }
        if (method === "DELETE") {
          pairs.splice(pairs.indexOf(target), 1);
          return new Response(null, { status: 204 });
        }
      }
      return json({ error: `The fake study API has no ${method} ${path}.` }, 404);
      },
    }),
  );
}
