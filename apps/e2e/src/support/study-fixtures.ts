import { AxeBuilder } from "@axe-core/playwright";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { waitForHydration } from "./accounts.ts";

const fixturesDirectory = path.resolve(import.meta.dirname, "../../../../../shared/fixtures/subtitles");
export const englishFixture = path.join(fixturesDirectory, "opensubs2018-209475.en.54828.xml");
export const secondLanguageFixture = path.join(fixturesDirectory, "opensubs2018-209475.et.3123721.xml");
export const haveFixtures = existsSync(englishFixture) && existsSync(secondLanguageFixture);
if (!haveFixtures) console.warn(`Skipping the study browser tests: ${fixturesDirectory} (../shared/fixtures/subtitles) is missing.`);

/** Uploads the en–et film as "A 2001 comedy" through the form, checks the page with axe, and returns the group's id. */
export async function uploadSubtitleFixturePair(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/upload-subtitles`);
  await waitForHydration(page);
  const main = page.locator("main");
  await main.getByRole("button", { name: "Upload subtitles" }).click();
  await main.getByLabel("Group name").fill("A 2001 comedy");
  await main.getByLabel("Swedish subtitles (XML)").setInputFiles(secondLanguageFixture);
  await main.getByLabel("English subtitles (XML)").setInputFiles(englishFixture);
  await main.getByRole("button", { name: "Upload", exact: true }).click();
  // The alignment report (or the upload's error, which then fails the test with its text), then the new group.
  const outcome = main.getByRole("heading", { name: /^[\d,]+ sentence pairs?; / }).or(main.locator(".upload-form [role=alert]"));
  await outcome.first().waitFor({ timeout: 60_000 });
  const uploadError = main.locator(".upload-form [role=alert]");
  if (await uploadError.count()) throw new Error(`The upload failed: ${await uploadError.first().textContent()}`);
  const studyLink = main.getByRole("link", { name: "Study A 2001 comedy" }).first();
  await studyLink.waitFor();
  await expectNoAccessibilityViolations(page);
  const href = await studyLink.getAttribute("href");
  const groupId = /\/study\/([^/]+)\/config/.exec(href ?? "")?.[1];
  if (!groupId) throw new Error(`No study link for the uploaded group (${href}).`);
  return decodeURIComponent(groupId);
}

export async function expectNoAccessibilityViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}
