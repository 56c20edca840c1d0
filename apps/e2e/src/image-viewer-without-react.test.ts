import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { pathsRequestedOpening, waitForHydration } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

function scaleShown(page: Page): Promise<number> {
  return page.locator(".atelier-image-viewer__image").getAttribute("data-scale").then(Number);
}

describe("given the full-screen viewer, prerendered without React (issue 16, decision 0037)", () => {
  it("should load only the viewer's own script, on the viewer and on 'Image not found'", async () => {
    await testbed.withPage(async (page) => {
      for (const path of ["/janus-unmasked/image/1", "/the-brothers-of-ursa-major/image/1", "/janus-unmasked/image/42", "/no-such-painting/image/1"]) {
        const scripts = await pathsRequestedOpening(page, `${testbed.server.origin}${path}`, "script");
        expect(scripts, path).toEqual([expect.stringMatching(/^\/assets\/image-viewer-page-[\w-]+\.js$/)]);
      }
    });
  });

  it("should show the next image with the bar's button in place of the address and the title, and close to its link on the painting page", async () => {
    await testbed.withPage(
      async (page) => {
        await page.goto(`${testbed.server.origin}/janus-unmasked`);
        await waitForHydration(page);
        await page.locator(".painting-detail__main-image").click();
        await page.waitForURL(`${testbed.server.origin}/janus-unmasked/image/1`);
        await waitForHydration(page);
        const historyLength = await page.evaluate(() => history.length);

        await page.getByRole("button", { name: "Next image" }).click();
        await page.waitForURL(`${testbed.server.origin}/janus-unmasked/image/2`);
        await page.locator(".atelier-image-viewer__position", { hasText: "2 of 2" }).waitFor();
        expect(await page.title()).toBe("Janus Unmasked, detail – Janus Unmasked | Atelier Clarens");
        expect(await page.locator(".atelier-image-viewer__description").textContent()).toBe("Janus Unmasked, detail");
        await page.waitForSelector('.atelier-image-viewer__image[data-state="loaded"]');
        expect(await page.evaluate(() => history.length)).toBe(historyLength);

        await page.keyboard.press("Escape");
        await page.waitForURL(`${testbed.server.origin}/janus-unmasked`);
        await page.waitForFunction(() => document.activeElement?.getAttribute("href") === "/janus-unmasked/image/2");
      },
      { viewport: { width: 1280, height: 800 } },
    );
  });

  it("should zoom with two fingers and pan with one when zoomed", async () => {
    await testbed.withPage(
      async (page) => {
        await page.goto(`${testbed.server.origin}/janus-unmasked/image/1`);
        await waitForHydration(page);
        await page.waitForSelector('.atelier-image-viewer__image[data-state="loaded"]');
        const fittedScale = await scaleShown(page);
        const touch = await page.context().newCDPSession(page);
        const fingers = (points: [number, number][]) => points.map(([x, y], id) => ({ x, y, id }));
        await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers([[150, 300], [240, 300]]) });
        for (const right of [280, 320, 360]) {
          await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers([[150, 300], [right, 300]]) });
        }
        await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
        // The fingers moved from 90 px to 210 px apart.
        expect(await scaleShown(page)).toBeCloseTo(fittedScale * (210 / 90), 3);
        expect(await page.locator(".atelier-image-viewer__stage").getAttribute("data-zoom")).toBe("free");

        const transformBefore = await page.locator(".atelier-image-viewer__image").evaluate((element) => element.style.transform);
        await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers([[200, 300]]) });
        await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers([[230, 320]]) });
        await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers([[260, 340]]) });
        await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
        expect(await page.locator(".atelier-image-viewer__image").evaluate((element) => element.style.transform)).not.toBe(transformBefore);
        expect(await scaleShown(page)).toBeCloseTo(fittedScale * (210 / 90), 3);
      },
      { viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true },
    );
  });
});
