import { readFileSync } from "node:fs";
import path from "node:path";
import type { Agent } from "undici";
import { StudyClient } from "./study-client.ts";

const fixtureDirectory = path.resolve(import.meta.dirname, "../fixtures");
/** 200 English sentences and their Swedish translations, timed alike (the Swedish 0.4 s later). */
export const englishFixture = readFileSync(path.join(fixtureDirectory, "weekdays.en.xml"));
export const swedishFixture = readFileSync(path.join(fixtureDirectory, "weekdays.sv.xml"));

export type SeededGroup = { groupId: string; pairCount: number };

/**
 * Signs a teacher up and uploads the fixture pair as one public subtitle group through the real API, as the upload
 * page does (multipart: swedish, english, is_public).
 */
export async function seedPublicGroup(server: { url: string; origin: string }, agent: Agent): Promise<SeededGroup> {
  const teacher = new StudyClient(server, agent);
  await teacher.fetchCsrfToken();
  const signup = await teacher.send("POST", "/_allauth/browser/v1/auth/signup", { email: `teacher-${Date.now()}@example.com`, password: "correct horse battery staple" });
  if (signup.status !== 200) throw new Error(`The teacher's signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);

  // The server reads each file in a worker with a 2-second limit, which its first start may miss on a busy machine.
  for (let attempt = 1; ; attempt += 1) {
    const form = new FormData();
    form.append("swedish", new File([swedishFixture], "Weekdays.sv.xml", { type: "text/xml" }));
    form.append("english", new File([englishFixture], "Weekdays.en.xml", { type: "text/xml" }));
    form.append("is_public", "true");
    form.append("name", "Weekdays");
    const response = await fetch(`${server.url}/api/upload-subtitles/`, {
      method: "POST",
      headers: { cookie: teacher.cookieHeader, origin: server.origin, "x-csrftoken": teacher.cookies.get("csrftoken") ?? "" },
      body: form,
    });
    const body = (await response.json()) as { group?: { id: string }; pair_count?: number; error?: string };
    if (response.status === 201 && body.group) return { groupId: body.group.id, pairCount: body.pair_count ?? 0 };
    const tooSlow = response.status === 400 && (body.error ?? "").includes("took too long");
    if (!tooSlow || attempt === 3) throw new Error(`The upload answered ${response.status}: ${JSON.stringify(body)}`);
  }
}
