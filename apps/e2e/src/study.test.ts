import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { englishFixture, expectNoAccessibilityViolations, haveFixtures, secondLanguageFixture, uploadSubtitleFixturePair } from "./support/study-fixtures.ts";
import { logInWithPassword, signUpAndVerify, signUpInTheLoginModalAndConfirm, strongPassword, uniqueEmail, waitForHydration } from "./support/accounts.ts";

let publicGroupId = "";

const testbed = useBrowserTestbed({ enabled: haveFixtures });
const uploadFixturePair = (page: Page) => uploadSubtitleFixturePair(page, testbed.server.origin);


async function statsOf(page: Page, groupId: string): Promise<{ memorized: number; in_progress: number; not_started: number }> {
  return page.evaluate(async (id) => (await fetch(`/api/subtitle-groups/${encodeURIComponent(id)}/stats/`, { credentials: "same-origin" })).json(), groupId);
}

describe.skipIf(!haveFixtures)("given a signed-in learner with two subtitle files", () => {
  it("should upload them, see the report, study, rate, switch to test, mark as studied and reset", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("learner"));
      publicGroupId = await uploadFixturePair(page);
      await page.locator("main").getByRole("link", { name: "Study A 2001 comedy" }).first().click();
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/config`));
      const main = page.locator("main");
      await main.getByText("Setup", { exact: true }).waitFor();
      await main.getByText("Total Cards").waitFor();
      await expectNoAccessibilityViolations(page);

      await main.getByRole("button", { name: "Study", exact: true }).click();
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/session`));
      await main.getByText("1 / 5").waitFor();
      await expectNoAccessibilityViolations(page);
      await main.getByRole("button", { name: "I got it Right" }).click();
      await main.getByText("2 / 5").waitFor();
      // The click sends the rating; the statistics are read once it is answered, not in a race with it.
      const secondRating = page.waitForResponse((response) => response.url().includes("/rate/") && response.request().method() === "POST");
      await main.getByRole("button", { name: "I will try Again" }).click();
      expect((await secondRating).status()).toBe(200);
      const afterRatings = await statsOf(page, publicGroupId);
      expect(afterRatings.in_progress).toBe(2);

      // A reload restores the session where it was, from the tab's storage, without asking for its cards again; the
      // cards are stored once, the position at each step, without them.
      const counterBefore = (await main.getByText(/^\d \/ 5$/).textContent()) ?? "";
      const cardRequests: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/pairs")) cardRequests.push(request.url());
      });
      await page.reload();
      await main.getByText(counterBefore, { exact: true }).waitFor();
      await main.getByRole("button", { name: "I got it Right" }).waitFor();
      expect(cardRequests).toEqual([]);
      const [savedPosition, savedCards] = await page.evaluate(() => [sessionStorage.getItem("flashcard") ?? "", sessionStorage.getItem("flashcard-cards") ?? ""]);
      expect(JSON.parse(savedCards).cards).toHaveLength(5);
      expect(savedPosition).not.toContain("english");

      await main.getByRole("button", { name: "Switch to Test Mode" }).click();
      await main.getByRole("button", { name: "Switch to Test Mode" }).waitFor({ state: "detached" });
      await main.getByRole("button", { name: "I got it Right" }).waitFor();
      expect(await main.getByRole("button", { name: "Next" }).count()).toBe(0);
      await main.getByRole("link", { name: "Back to Config" }).click();
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/config`));

      await main.getByRole("button", { name: "Study", exact: true }).click();
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/session`));
      await main.getByRole("button", { name: "Mark as Studied" }).click();
      await main.getByRole("button", { name: "Test These Cards" }).click();
      await main.getByRole("button", { name: "Switch to Test Mode" }).waitFor({ state: "detached" });
      await main.getByRole("button", { name: "I got it Right" }).waitFor();
      await main.getByRole("link", { name: "Back to Config" }).click();
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/config`));

      await main.getByRole("button", { name: "Reset Progress" }).click();
      await page.getByRole("alertdialog").getByRole("button").last().click();
      await page.waitForFunction(async (id) => {
        const stats = await (await fetch(`/api/subtitle-groups/${encodeURIComponent(id)}/stats/`)).json();
        return stats.not_started === stats.total;
      }, publicGroupId);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given a learner without a plan, their private deck and someone else's shared deck", () => {
  it("should name the deck from the file, tell the result in words, lock a second private deck, and lock exporting a shared deck", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    const main = page.locator("main");
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("private-deck"));
      await page.goto(`${testbed.server.origin}/upload-subtitles`);
      await waitForHydration(page);
      await main.getByRole("button", { name: "Upload subtitles" }).click();
      await main.getByLabel("Swedish subtitles (XML)").setInputFiles(secondLanguageFixture);
      await main.getByLabel("English subtitles (XML)").setInputFiles(englishFixture);
      expect(await main.getByLabel("Group name").inputValue()).toBe("opensubs2018-209475 et 3123721");
      await main.getByLabel("Make these cards private").check();
      await main.getByRole("button", { name: "Upload", exact: true }).click();
      const headline = main.getByRole("heading", { name: /^[\d,]+ sentence pairs; the (Swedish file was [\d.]+ s (later|earlier) and has been matched|two files were already in step)\.$/ });
      await headline.waitFor({ timeout: 60_000 });
      expect(await main.locator("details.upload-report__figures").getAttribute("open")).toBeNull();
      // The list reloads with the plan's allowance: the one private deck a user without a plan keeps is taken.
      await main.getByText("Private decks: 1 of 1 (without a plan).").waitFor();
      expect(await main.getByLabel("Make these cards private").isDisabled()).toBe(true);
      await main.getByText(/Without a plan you can keep 1 private deck, and you have 1\. These cards will be public\./).waitFor();
      await expectNoAccessibilityViolations(page);

      await main.getByRole("link", { name: "Study opensubs2018-209475 et 3123721" }).first().click();
      await main.getByText("Total Cards").waitFor();
      expect(await main.getByRole("link", { name: "Export for Anki" }).count()).toBe(1);

      await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/config`);
      await waitForHydration(page);
      await main.getByText("Exporting a deck someone shared is part of Plus and Studio.").waitFor();
      expect(await main.getByRole("link", { name: "Export for Anki" }).count()).toBe(0);
      expect(await main.getByRole("link", { name: "Plus and Studio" }).getAttribute("href")).toBe("/pricing");
      await expectNoAccessibilityViolations(page);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given the owner of a deck and another learner", () => {
  it("should let the owner fix pairs from the keyboard and the learner hide one for themselves", async () => {
    const ownerContext = await testbed.browser.newContext();
    const learnerContext = await testbed.browser.newContext();
    try {
      const owner = await ownerContext.newPage();
      await signUpAndVerify(owner, testbed.server.origin, uniqueEmail("deck-owner"));
      const groupId = await uploadFixturePair(owner);
      await owner.goto(`${testbed.server.origin}/study/${encodeURIComponent(groupId)}/config`);
      await waitForHydration(owner);
      const main = owner.locator("main");
      const before = await statsOf(owner, groupId);

      // Keyboard only: focus the row's button, Enter opens the editor, Escape closes it, Enter again and type.
      await main.getByRole("button", { name: "Fix pair 1", exact: true }).focus();
      await owner.keyboard.press("Enter");
      const editor = main.getByRole("form", { name: "Fix pair 1", exact: true });
      await editor.getByLabel("English").waitFor();
      await owner.keyboard.press("Escape");
      await editor.waitFor({ state: "detached" });
      await main.getByRole("button", { name: "Fix pair 1", exact: true }).focus();
      await owner.keyboard.press("Enter");
      await editor.getByLabel("English").fill("From now on, he takes care of you.");
      await editor.getByRole("button", { name: "Save" }).press("Enter");
      await main.getByRole("cell", { name: "From now on, he takes care of you." }).waitFor();

      await main.getByRole("button", { name: "Fix pair 1", exact: true }).click();
      await editor.getByRole("button", { name: "Merge with next" }).click();
      await owner.waitForFunction(async ([id, total]) => (await (await fetch(`/api/subtitle-groups/${encodeURIComponent(id)}/stats/`)).json()).total === total - 1, [groupId, (before as { total?: number }).total ?? 0] as const);
      await expectNoAccessibilityViolations(owner);

      const learner = await learnerContext.newPage();
      await learner.goto(`${testbed.server.origin}/study/${encodeURIComponent(groupId)}/config`);
      await waitForHydration(learner);
      await learner.locator("main").getByRole("button", { name: "Hide pair 1", exact: true }).click();
      await learner.locator("main").getByText("Hidden pairs (1)").waitFor();
      expect((await statsOf(learner, groupId)).not_started).toBe((await statsOf(owner, groupId)).not_started - 1);
    } finally {
      await ownerContext.close();
      await learnerContext.close();
    }
  });
});

/** Presses Tab (or Shift+Tab) until the focused element has this accessible label or text; fails after 200 presses. */
async function tabTo(page: Page, name: string, key: "Tab" | "Shift+Tab" = "Tab"): Promise<void> {
  for (let press = 0; press < 200; press += 1) {
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return "";
      return element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "";
    });
    if (focused === name) return;
    await page.keyboard.press(key);
  }
  throw new Error(`"${name}" was not reached with ${key}.`);
}

async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? "");
}

describe.skipIf(!haveFixtures)("given the owner of a deck who uses only the keyboard", () => {
  it("should split a pair in two and delete one with undo in the setup preview, the focus following each step", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("keyboard-owner"));
      const groupId = await uploadFixturePair(page);
      await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(groupId)}/config`);
      await waitForHydration(page);
      const main = page.locator("main");
      const totalBefore = (await statsOf(page, groupId) as { total?: number }).total ?? 0;

      // Two sentences on each side, typed into the editor.
      await tabTo(page, "Fix pair 2");
      await page.keyboard.press("Enter");
      const editor = main.getByRole("form", { name: "Fix pair 2", exact: true });
      await editor.getByLabel("English", { exact: true }).waitFor();
      expect(await focusedName(page)).not.toBe("");
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("The ferry leaves at noon. Do not be late.");
      await page.keyboard.press("Tab");
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("Färjan går vid tolv. Kom inte för sent.");
      await tabTo(page, "Save");
      await page.keyboard.press("Enter");
      await main.getByRole("cell", { name: "The ferry leaves at noon. Do not be late." }).waitFor();
      expect(await focusedName(page)).toBe("Fix pair 2");

      // Split after the first sentence of each side: pair 2 becomes two pairs.
      await page.keyboard.press("Enter");
      await editor.getByLabel("English", { exact: true }).waitFor();
      await tabTo(page, "Split");
      await page.keyboard.press("Enter");
      await main.getByRole("cell", { name: "Do not be late.", exact: true }).waitFor();
      await main.getByRole("cell", { name: "Kom inte för sent.", exact: true }).waitFor();
      expect((await statsOf(page, groupId) as { total?: number }).total).toBe(totalBefore + 1);

      // Delete pair 3 from its editor; Undo takes the focus and brings it back before the server hears of it.
      await tabTo(page, "Fix pair 3");
      await page.keyboard.press("Enter");
      await main.getByRole("form", { name: "Fix pair 3", exact: true }).getByLabel("English", { exact: true }).waitFor();
      await tabTo(page, "Delete");
      await page.keyboard.press("Enter");
      await main.getByText("Pair 3 deleted.").waitFor();
      expect(await focusedName(page)).toBe("Undo deleting pair 3");
      await page.keyboard.press("Enter");
      await main.getByRole("cell", { name: "Do not be late.", exact: true }).waitFor();
      expect(await focusedName(page)).toBe("Fix pair 3");
      await page.waitForTimeout(6_500);
      expect((await statsOf(page, groupId) as { total?: number }).total).toBe(totalBefore + 1);
      await expectNoAccessibilityViolations(page);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given a learner who studies 10 new cards, then tests them", () => {
  async function studyTenNewCards(page: Page): Promise<string[]> {
    const main = page.locator("main");
    await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/config`);
    await waitForHydration(page);
    await main.getByLabel("New", { exact: true }).check();
    await main.getByLabel("Number of cards").selectOption("10");
    await main.getByRole("button", { name: "Study", exact: true }).click();
    await page.waitForURL(/\/session$/);
    await main.getByText("1 / 10").waitFor();
    const studied: string[] = [];
    for (let index = 1; index <= 10; index += 1) {
      await main.getByText(`${index} / 10`).waitFor();
      studied.push((await main.locator(".flashcard__text").textContent()) ?? "");
      if (index < 10) await main.getByRole("button", { name: "Next" }).click();
    }
    return studied;
  }

  async function firstTestedCard(page: Page): Promise<string> {
    const main = page.locator("main");
    await main.getByText("Test mode").waitFor();
    await main.getByText("1 / 10").waitFor();
    return (await main.locator(".flashcard__text").textContent()) ?? "";
  }

  it("should test the cards just studied with 'Switch to Test Mode' and with 'Test These Cards', each marking only those 10 as studied", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("test-mode"));
      if (!publicGroupId) publicGroupId = await uploadFixturePair(page);
      const main = page.locator("main");
      const total = (await statsOf(page, publicGroupId)).not_started;

      const firstTen = await studyTenNewCards(page);
      await main.getByRole("button", { name: "Switch to Test Mode" }).click();
      expect(firstTen).toContain(await firstTestedCard(page));
      await page.waitForFunction(([id, expected]) => fetch(`/api/subtitle-groups/${encodeURIComponent(id as string)}/stats/`).then((response) => response.json()).then((stats) => stats.not_started === expected), [publicGroupId, total - 10] as const);

      const secondTen = await studyTenNewCards(page);
      expect(secondTen.filter((text) => firstTen.includes(text))).toEqual([]);
      await main.getByRole("button", { name: "Mark as Studied" }).click();
      await main.getByText("Test yourself on the same cards now", { exact: false }).waitFor();
      await main.getByRole("button", { name: "Test These Cards" }).click();
      expect(secondTen).toContain(await firstTestedCard(page));
      expect((await statsOf(page, publicGroupId)).not_started).toBe(total - 20);
    } finally {
      await context.close();
    }
  });
});

describe("given a signed-out visitor who wants to upload", () => {
  it("should open the upload form after logging in from the modal with a password", async () => {
    const email = uniqueEmail("modal-upload");
    const setup = await testbed.browser.newContext();
    await signUpAndVerify(await setup.newPage(), testbed.server.origin, email);
    await setup.close();
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}/upload-subtitles`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button", { name: "Upload subtitles" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Continue with email" }).click();
      await dialog.getByRole("textbox", { name: "Email" }).fill(email);
      await dialog.getByLabel("Password", { exact: true }).fill(strongPassword);
      await dialog.locator("form button[type=submit]").click();
      await page.locator("main").getByLabel("Swedish subtitles (XML)").waitFor();
      expect(new URL(page.url()).pathname).toBe("/upload-subtitles");
    } finally {
      await context.close();
    }
  });

  it("should come back to the open upload form after logging in from the modal with a password and a security key", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      // Chromium's virtual authenticator keeps the key for this page's whole life, across the sign-out below.
      const devtools = await context.newCDPSession(page);
      await devtools.send("WebAuthn.enable");
      await devtools.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      const email = uniqueEmail("modal-second-factor");
      await signUpAndVerify(page, testbed.server.origin, email);
      // A fresh sign-up records no authentication, so adding a factor asks for the password first: log in again.
      await context.clearCookies();
      await logInWithPassword(page, testbed.server.origin, email);
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      await page.goto(`${testbed.server.origin}/account/2fa/webauthn/add`);
      await waitForHydration(page);
      await page.locator("main").getByRole("textbox", { name: "Key name" }).fill("Blue key");
      await page.locator("main form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === "/account/2fa/recovery-codes" || url.pathname === "/account/2fa/webauthn");
      await context.clearCookies();

      await page.goto(`${testbed.server.origin}/upload-subtitles`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button", { name: "Upload subtitles" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Continue with email" }).click();
      await dialog.getByRole("textbox", { name: "Email" }).fill(email);
      await dialog.getByLabel("Password", { exact: true }).fill(strongPassword);
      await dialog.locator("form button[type=submit]").click();
      await page.waitForURL(`${testbed.server.origin}/account/authenticate/webauthn`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button").filter({ hasText: /security key|passkey/i }).first().click();
      await page.waitForURL(`${testbed.server.origin}/upload-subtitles`);
      await page.locator("main").getByLabel("Swedish subtitles (XML)").waitFor();
      // And it stays there: no later redirect takes the visitor on to the dashboard.
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe("/upload-subtitles");
    } finally {
      await context.close();
    }
  });

  it("should come back to the open upload form after signing up from the modal and confirming the address on its page", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}/upload-subtitles`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button", { name: "Upload subtitles" }).click();
      await signUpInTheLoginModalAndConfirm(page, testbed.server.origin, uniqueEmail("modal-signup-upload"));
      await page.waitForURL(`${testbed.server.origin}/upload-subtitles`);
      await page.locator("main").getByLabel("Swedish subtitles (XML)").waitFor();
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given a signed-in learner on a study page", () => {
  it.each(["config", "session"])("should land on /upload-subtitles after signing out from the %s page (spec 2.1)", async (screen) => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail(`sign-out-${screen}`));
      if (!publicGroupId) publicGroupId = await uploadFixturePair(page);
      await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/${screen}`);
      await waitForHydration(page);
      const account = page.locator(".site-header__account");
      await account.getByRole("button").first().click();
      await account.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${testbed.server.origin}/upload-subtitles`);
      // And it stays there: nothing navigates on to the home page afterwards.
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe("/upload-subtitles");
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given a learner on a 320 px phone", () => {
  it("should not scroll sideways on the upload, setup and session screens, and pass axe in the dark theme", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 320, height: 700 } });
    await context.addInitScript(() => window.localStorage.setItem("theme", "dark"));
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("phone-learner"));
      if (!publicGroupId) publicGroupId = await uploadFixturePair(page);
      const overflowing: string[] = [];
      for (const path of ["/upload-subtitles", `/study/${encodeURIComponent(publicGroupId)}/config`, `/study/${encodeURIComponent(publicGroupId)}/session`]) {
        await page.goto(`${testbed.server.origin}${path}`);
        await waitForHydration(page);
        await page.waitForTimeout(800);
        if (path.endsWith("/session")) await page.keyboard.press("Space");
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > 320) overflowing.push(`${path} is ${scrollWidth} px wide`);
        await expectNoAccessibilityViolations(page);
      }
      expect(overflowing).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given a learner studying on a touch screen", () => {
  it("should leave out the keyboard shortcuts, which a desktop still lists", async () => {
    const shortcutsShown: boolean[] = [];
    for (const touch of [false, true]) {
      const context = await testbed.browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: touch, hasTouch: touch });
      const page = await context.newPage();
      try {
        if (!publicGroupId) {
          await signUpAndVerify(page, testbed.server.origin, uniqueEmail("touch-learner"));
          publicGroupId = await uploadFixturePair(page);
        }
        await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/session`);
        await waitForHydration(page);
        await page.getByRole("button", { name: "I got it Right" }).waitFor();
        shortcutsShown.push(await page.getByRole("heading", { name: "Keyboard shortcuts" }).isVisible());
      } finally {
        await context.close();
      }
    }
    expect(shortcutsShown).toEqual([true, false]);
  });
});

describe.skipIf(!haveFixtures)("given a learner who previews a deck on a 390 px phone", () => {
  it("should show each pair as a card: number, box and action on one line, each sentence across the card, the table still a table", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("phone-preview"));
      if (!publicGroupId) publicGroupId = await uploadFixturePair(page);
      await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/config`);
      await waitForHydration(page);
      const table = page.locator("main table.preview-table");
      await table.getByRole("row").nth(1).waitFor();
      const layout = await table.evaluate((element) => {
        const tableWidth = element.getBoundingClientRect().width;
        return [...element.querySelectorAll("tbody tr.preview-table__pair")].map((row) => {
          const cells = [...row.querySelectorAll("td")].map((cell) => cell.getBoundingClientRect());
          const cell = (index: number) => cells[index] ?? new DOMRect();
          const [number, english, swedish, box, action] = [cell(0), cell(1), cell(2), cell(3), cell(4)];
          const stars = row.querySelector(".box-stars")!.getBoundingClientRect();
          const lineHeight = Number.parseFloat(getComputedStyle(row.querySelector(".box-stars")!).lineHeight);
          return {
            sentencesAcrossTheCard: english.width >= tableWidth * 0.95 && swedish.width >= tableWidth * 0.95,
            swedishBelowEnglish: swedish.top >= english.bottom - 1 && english.top >= number.bottom - 1,
            firstLineShared: Math.abs(number.top - box.top) < 8 && Math.abs(box.top - action.top) < 8,
            starsOnOneLine: stars.height < lineHeight * 1.5,
          };
        });
      });
      expect(layout.length).toBeGreaterThan(0);
      expect(layout.filter((row) => !(row.sentencesAcrossTheCard && row.swedishBelowEnglish && row.firstLineShared && row.starsOnOneLine))).toEqual([]);
      // Laid out as cards, it is still read as a table with its column headers.
      expect(await page.getByRole("table").getByRole("columnheader").count()).toBe(5);
      expect(await page.getByRole("table").getByRole("cell", { name: "Box 1 of 5" }).count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!haveFixtures)("given an anonymous learner on a public deck", () => {
  it("should stop at 5 memorized cards with the sign-in dialog, and keep the progress after signing up", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      if (!publicGroupId) {
        const uploaderContext = await testbed.browser.newContext();
        const uploader = await uploaderContext.newPage();
        await signUpAndVerify(uploader, testbed.server.origin, uniqueEmail("uploader"));
        publicGroupId = await uploadFixturePair(uploader);
        await uploaderContext.close();
      }
      await page.goto(`${testbed.server.origin}/study/${encodeURIComponent(publicGroupId)}/config`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("button", { name: "Test", exact: true }).click();
      await page.waitForURL(/\/session$/);
      const dialog = page.getByRole("dialog");
      const rightButton = main.getByRole("button", { name: "I got it Right" });
      await rightButton.waitFor();
      const keepGoing = main.getByRole("button", { name: "Keep going" });
      for (let attempt = 0; attempt < 60; attempt += 1) {
        if (await dialog.isVisible()) break;
        // Every card answered once: the session summary; the learner goes on.
        if (await keepGoing.isVisible()) {
          await keepGoing.click();
          continue;
        }
        // The dialog replaces the rating buttons (it may still be loading when they are gone); a disabled button is a
        // rating still on its way.
        if ((await rightButton.count()) === 0) break;
        if (await rightButton.isEnabled()) await rightButton.click();
        await page.waitForTimeout(120);
      }
      await dialog.getByRole("heading", { name: "Keep Up the Great Work!" }).waitFor();
      expect((await statsOf(page, publicGroupId)).memorized).toBe(5);
      // The server refuses a further rating too, not only the page.
      const refused = await page.evaluate(async (id) => {
        const stats = await (await fetch(`/api/subtitle-groups/${encodeURIComponent(id)}/stats/`)).json();
        const pair = stats.pairs.find((candidate: { current_box: number }) => candidate.current_box < 5);
        const csrf = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="))?.split("=")[1] ?? "";
        const response = await fetch(`/api/subtitle-pairs/${pair.id}/rate/`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify({ is_correct: true }) });
        return response.status;
      }, publicGroupId);
      expect(refused).toBe(403);

      // Closed, the dialog leaves a note beside the blocked buttons, whose button opens it again.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await main.getByText("You have memorized 5 cards: log in or sign up to keep studying.").waitFor();
      // Where the session stopped (a card, or the test's memorized cards), nothing offers a rating that cannot be made.
      expect(await main.getByRole("button", { name: /^Review \d+ cards$/ }).count()).toBe(0);
      if ((await rightButton.count()) > 0) expect(await rightButton.getAttribute("aria-disabled")).toBe("true");
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await main.getByRole("button", { name: "Log in to keep studying" }).click();
      await dialog.getByRole("heading", { name: "Keep Up the Great Work!" }).waitFor();

      await signUpInTheLoginModalAndConfirm(page, testbed.server.origin, uniqueEmail("anonymous-learner"));
      // Back to the deck the prompt was opened on, not the dashboard (issue 13).
      await page.waitForURL(new RegExp(`/study/${publicGroupId}/session$`));
      await page.waitForFunction(async (id) => {
        const stats = await (await fetch(`/api/subtitle-groups/${encodeURIComponent(id)}/stats/`)).json();
        return stats.memorized === 5 && stats.anonymous_limit_reached === false;
      }, publicGroupId);
    } finally {
      await context.close();
    }
  });
});

describe("given a visitor on the setup page of a group that does not exist", () => {
  it("should read the refusal to its end, so the page leaves no connection open", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      const statsRequestFinished = page.waitForEvent("requestfinished", { predicate: (request) => request.url().includes("/api/subtitle-groups/no-such-group/stats/"), timeout: 15_000 });
      // Network idle needs every answer's body read: a refusal left unread kept the page from ever reaching it.
      await page.goto(`${testbed.server.origin}/study/no-such-group/config`, { waitUntil: "networkidle", timeout: 15_000 });
      expect((await (await statsRequestFinished).response())?.status()).toBe(404);
      await page.locator("main").getByText("Setup", { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });
});
