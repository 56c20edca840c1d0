import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";

const testbed = useBrowserTestbed();

async function openPage(path: string, options: { width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await testbed.browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  const page = await context.newPage();
  await page.goto(`${testbed.server.origin}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return { context, page };
}

describe("given a visitor browsing the shop", () => {
  it("should go from the landing page to the catalogue, a painting and its full-screen viewer", async () => {
    const { context, page } = await openPage("/");
    try {
      expect(await page.locator("article.featured-painting").count()).toBe(4);
      expect(await page.getByText("SOLD!").count()).toBe(1);
      const purchaseLinks = page.getByRole("link", { name: "I want this!" });
      expect(await purchaseLinks.count()).toBe(3);
      expect(await purchaseLinks.first().getAttribute("href")).toMatch(/^https:\/\//);
      for (const size of ["150x100", "100x150", "80x116"]) expect(await page.getByText(size).count()).toBeGreaterThan(0);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Paintings" }).click();
      await page.waitForURL(`${testbed.server.origin}/paintings`);
      await page.getByRole("heading", { level: 1, name: "Paintings" }).waitFor();
      expect(await page.locator(".painting-grid > li").count()).toBe(8);
      expect(await page.locator(".painting-grid").getByText("SOLD", { exact: true }).count()).toBe(1);
      expect(await page.locator(".painting-grid").getByText(/CHF/).count()).toBe(7);

      await page.getByRole("link", { name: /Janus Unmasked/ }).click();
      await page.waitForURL(`${testbed.server.origin}/janus-unmasked`);
      await page.getByRole("heading", { level: 1, name: "Janus Unmasked" }).waitFor();
      expect(await page.getByRole("link", { name: "Purchase" }).count()).toBe(1);
      expect(await page.getByText("Returns must be requested within 3 days of delivery", { exact: false }).count()).toBe(1);

      await page.locator(".painting-detail__main-image").click();
      await page.waitForURL(`${testbed.server.origin}/janus-unmasked/image/1`);
      await page.locator(".atelier-image-viewer").waitFor();
      expect(await page.locator(".site-header").count()).toBe(0);
      expect(await page.locator(".site-footer").count()).toBe(0);
      const image = page.locator(".atelier-image-viewer__image");
      await page.waitForSelector('.atelier-image-viewer__image[data-state="loaded"]');
      const total = Number((await page.locator(".atelier-image-viewer__position").textContent())?.split(" of ")[1]);
      expect(total).toBeGreaterThan(1);
      expect(await page.locator(".atelier-image-viewer__position").textContent()).toBe(`1 of ${total}`);

      // Click toggles fit and 100 %.
      const fittedScale = Number(await image.getAttribute("data-scale"));
      expect(fittedScale).toBeLessThan(1);
      await page.locator(".atelier-image-viewer__stage").click({ position: { x: 640, y: 360 } });
      expect(Number(await image.getAttribute("data-scale"))).toBe(1);
      // Dragging pans when zoomed.
      const before = await image.evaluate((element) => getComputedStyle(element).transform);
      await page.mouse.move(640, 360);
      await page.mouse.down();
      await page.mouse.move(540, 300, { steps: 5 });
      await page.mouse.up();
      expect(await image.evaluate((element) => getComputedStyle(element).transform)).not.toBe(before);
      expect(Number(await image.getAttribute("data-scale"))).toBe(1);
      await page.keyboard.press("Space");
      expect(Number(await image.getAttribute("data-scale"))).toBeLessThan(1);

      // Arrow keys wrap around at both ends.
      await page.keyboard.press("ArrowLeft");
      await page.waitForURL(`${testbed.server.origin}/janus-unmasked/image/${total}`);
      // The address changes a moment before the viewer renders the image it names: wait for the text, do not race it.
      await page.locator(".atelier-image-viewer__position", { hasText: `${total} of ${total}` }).waitFor({ timeout: 5_000 });
      await page.keyboard.press("ArrowRight");
      await page.waitForURL(`${testbed.server.origin}/janus-unmasked/image/1`);

      await page.keyboard.press("Escape");
      await page.waitForURL(`${testbed.server.origin}/janus-unmasked`);
      await page.locator(".site-header").waitFor();
    } finally {
      await context.close();
    }
  });

  it("should send the first painting of each page as wide as it is drawn on a phone or a wide screen, and no wider than the next file up", async () => {
    const screens = [
      { width: 390, height: 844, deviceScaleFactor: 3 },
      { width: 412, height: 823, deviceScaleFactor: 1.75 },
      { width: 1366, height: 768, deviceScaleFactor: 1 },
    ];
    for (const path of ["/", "/paintings", "/janus-unmasked"]) {
      for (const screen of screens) {
        const context = await testbed.browser.newContext({ viewport: { width: screen.width, height: screen.height }, deviceScaleFactor: screen.deviceScaleFactor });
        try {
          const page = await context.newPage();
          await page.goto(`${testbed.server.origin}${path}`, { waitUntil: "load" });
          const picture = await page.locator("main picture").first().evaluate((element) => {
            const image = element.querySelector("img")!;
            const avifSrcSet = element.querySelector('source[type="image/avif"]')!.getAttribute("srcset")!;
            return { drawnWidth: image.getBoundingClientRect().width, currentSrc: image.currentSrc, candidateWidths: [...avifSrcSet.matchAll(/ (\d+)w/gu)].map((match) => Number(match[1])) };
          });
          const neededWidth = picture.drawnWidth * screen.deviceScaleFactor;
          const expectedWidth = picture.candidateWidths.find((width) => width >= neededWidth) ?? Math.max(...picture.candidateWidths);
          const sentWidth = Number(/-(\d+)-[0-9a-f]{8}\.avif$/u.exec(picture.currentSrc)?.[1]);
          expect({ path, screen: `${screen.width}@${screen.deviceScaleFactor}`, sentWidth }).toEqual({ path, screen: `${screen.width}@${screen.deviceScaleFactor}`, sentWidth: expectedWidth });
        } finally {
          await context.close();
        }
      }
    }
  });

  it("should show a single image without the bottom bar, and 'Image not found' for an unknown image", async () => {
    const { context, page } = await openPage("/the-brothers-of-ursa-major/image/1");
    try {
      expect(await page.locator(".atelier-image-viewer__bar").count()).toBe(0);
      await page.getByRole("button", { name: "Close viewer" }).click();
      await page.waitForURL(`${testbed.server.origin}/the-brothers-of-ursa-major`);
      await page.getByRole("heading", { level: 1, name: "The Brothers of Ursa Major" }).waitFor();
      // Focus is back on the link that opens the image, not at the top of the page.
      await page.waitForFunction(() => document.activeElement?.getAttribute("href") === "/the-brothers-of-ursa-major/image/1");

      const response = await page.goto(`${testbed.server.origin}/the-brothers-of-ursa-major/image/42`);
      expect(response?.status()).toBe(404);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      expect(await page.getByRole("heading", { name: "Image not found" }).count()).toBe(1);
      await page.getByRole("link", { name: "Go Home" }).click();
      await page.waitForURL(`${testbed.server.origin}/`);
    } finally {
      await context.close();
    }
  });

  it.each(["/no-such-painting/image/1", "/no-such-painting/image/__not-found"])(
    "should show 'Image not found' and 'Go Home' for %s, a painting that does not exist, without a hydration error",
    async (path) => {
      const { context, page } = await openPage("/");
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      try {
        const response = await page.goto(`${testbed.server.origin}${path}`);
        expect(response?.status()).toBe(404);
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
        await page.getByRole("heading", { name: "Image not found" }).waitFor();
        expect(await page.locator(".image-not-found").count()).toBe(1);
        expect(pageErrors).toEqual([]);
        await page.getByRole("link", { name: "Go Home" }).click();
        await page.waitForURL(`${testbed.server.origin}/`);
      } finally {
        await context.close();
      }
    },
  );

  it("should show the site's not-found page, with its header, for a path deeper than the viewer's", async () => {
    const { context, page } = await openPage("/");
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      const response = await page.goto(`${testbed.server.origin}/the-brothers-of-ursa-major/image/1/more`);
      expect(response?.status()).toBe(404);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      expect(await page.locator(".site-header").count()).toBe(1);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("should answer an unknown path with status 404 and the not-found page", async () => {
    const { context, page } = await openPage("/");
    try {
      const response = await page.goto(`${testbed.server.origin}/no-such-painting`);
      expect(response?.status()).toBe(404);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("should answer 404 under the app's client-only sections where no screen lives, and 200 where one does", async () => {
    for (const unknownPath of ["/study", "/study/7", "/account/no-such-screen", "/settings/profile", "/billing"]) {
      expect((await fetch(`${testbed.server.origin}${unknownPath}`)).status, unknownPath).toBe(404);
    }
    for (const screenPath of ["/study/7/config", "/account/login", "/pricing"]) {
      expect((await fetch(`${testbed.server.origin}${screenPath}`)).status, screenPath).toBe(200);
    }
  });
});

describe("given the shared frame", () => {
  it("should keep the chosen theme across a reload", async () => {
    const { context, page } = await openPage("/about");
    try {
      expect(await page.evaluate(() => document.documentElement.dataset.theme ?? "light")).toBe("light");
      await page.getByRole("button", { name: /dark theme/i }).click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await page.reload();
      // Applied by the inline head script, before any module runs.
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      expect(await page.getByRole("button", { name: /light theme/i }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("should hide the header when scrolling down and show it when scrolling up", async () => {
    const { context, page } = await openPage("/privacy-policy", { height: 600 });
    try {
      const header = page.locator(".site-header");
      expect(await header.getAttribute("data-state")).toBe("visible");
      await page.mouse.move(400, 300);
      await page.mouse.wheel(0, 800);
      await page.waitForFunction(() => document.querySelector(".site-header")?.getAttribute("data-state") === "hidden");
      await page.mouse.wheel(0, -300);
      await page.waitForFunction(() => document.querySelector(".site-header")?.getAttribute("data-state") === "visible");
    } finally {
      await context.close();
    }
  });

  it("should offer a mobile menu that mirrors the header at 375 px", async () => {
    const { context, page } = await openPage("/", { width: 375, height: 740 });
    try {
      expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
      const menuButton = page.getByRole("button", { name: "Open menu" });
      await menuButton.click();
      const mobileMenu = page.getByRole("navigation", { name: "Mobile" });
      expect(await mobileMenu.isVisible()).toBe(true);
      for (const label of ["Paintings", "Bio", "Events", "Expositions", "Contact"]) {
        expect(await mobileMenu.getByRole("link", { name: label, exact: true }).count()).toBe(1);
      }
      // A prerendered content page: 'Log in' is a link into the app's login page, back here afterwards.
      expect(await mobileMenu.getByRole("link", { name: "Log in", exact: true }).getAttribute("href")).toBe("/account/login?next=%2F");
      await mobileMenu.getByRole("link", { name: "Expositions" }).click();
      await page.waitForURL(`${testbed.server.origin}/expositions`);
      await page.getByRole("heading", { level: 1, name: "Expositions" }).waitFor();
      await mobileMenu.waitFor({ state: "hidden" });
    } finally {
      await context.close();
    }
  });
});

describe("given a crawler that runs no JavaScript", () => {
  it("should find each public page's content, title, social preview tags and JSON-LD in the served HTML", async () => {
    for (const [path, heading] of [
      ["/", "featured-painting"],
      ["/paintings", "The Price Of Light"],
      ["/footprints-in-the-sand", "Footprints in the Sand"],
      ["/expositions", "Donetsk"],
      ["/privacy-policy", "April 7, 2025"],
    ] as const) {
      const response = await fetch(`${testbed.server.origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("no-cache");
      const html = await response.text();
      expect(html).toContain(heading);
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      for (const tag of ['name="description"', 'property="og:title"', 'property="og:description"', 'property="og:image"', 'name="twitter:card"']) {
        expect(html, `${path} lacks ${tag}`).toContain(tag);
      }
    }
    const catalogueHtml = await (await fetch(`${testbed.server.origin}/paintings`)).text();
    expect(catalogueHtml).toContain('"@type":"ItemList"');
    expect(catalogueHtml).toContain("https://schema.org/OutOfStock");
    const paintingHtml = await (await fetch(`${testbed.server.origin}/the-face-i-dont-show`)).text();
    expect(paintingHtml).toContain('"priceCurrency":"CHF"');
    // Absolute URLs name the origin the site runs on (PUBLIC_ORIGIN), not one fixed when it was built.
    expect(paintingHtml).toContain(`<meta property="og:url" content="${testbed.server.origin}/the-face-i-dont-show"/>`);
    expect(paintingHtml).toContain(`"url":"${testbed.server.origin}/the-face-i-dont-show"`);
    expect(paintingHtml).not.toContain("localhost:3000");
    expect(paintingHtml).not.toContain(".invalid");
  });
});

describe("given the footer on a phone", () => {
  it("should keep each link on one line, moving a link that does not fit to the next line whole", async () => {
    for (const path of ["/", "/upload-subtitles"]) {
      const context = await testbed.browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        const page = await context.newPage();
        await page.goto(`${testbed.server.origin}${path}`, { waitUntil: "load" });
        const links = await page.locator(".site-footer__links a").evaluateAll((anchors) =>
          anchors.map((anchor) => ({ text: anchor.textContent, lines: anchor.getClientRects().length, height: anchor.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(anchor).lineHeight) })),
        );
        expect(links.length).toBeGreaterThan(2);
        for (const link of links) expect({ path, text: link.text, oneLine: link.lines === 1 && link.height < 2 * link.lineHeight }).toEqual({ path, text: link.text, oneLine: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      } finally {
        await context.close();
      }
    }
  });
});
