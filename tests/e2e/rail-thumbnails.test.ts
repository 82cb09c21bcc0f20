import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { headingsDeck, webpageDeck } from "../helpers/sample-decks";
import { bigDeck, bigDeckHeading } from "../helpers/big-deck";
import { serverAndBrowser } from "../helpers/editor-suite";
import { openCodePanel } from "../helpers/code-panel";

// The slide rail's thumbnails in a real Chromium against `next start`: a webpage's rail draws each beat alone
// in its frame, a 20-slide deck's rail draws each of its 20 pictures as it comes into view without adding
// entries to the tab's history, and the editor opens a 400-slide deck (issue 39: the rail mounts the rows
// near its visible part only, and the keyboard reaches the last slide).
// What they cost (time to draw, main-thread time against the editor without them, requests, an edit's way to
// its picture) is measured by `npm run bench -- thumbnails` (tests/bench/thumbnails.ts).

const { server, browser } = serverAndBrowser();

const SLIDES = 20;

describe("the rail's thumbnails of a webpage", () => {
  it("draw each beat alone, at the top of a desktop-wide frame", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Beats"));
    const api = await apiOf(page, server.origin, "beats");
    // Webpages are made in the app (the API makes slide decks only).
    await page.goto(`${server.origin}/decks`);
    await page.locator("#new-deck-title").fill("Beats");
    await page.locator("#new-deck-format").selectOption("webpage");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[^/]+$/);
    const id = page.url().split("/").at(-1)!;
    unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source: webpageDeck } }));
    await page.goto(`${server.origin}/decks/${id}`);
    await expect
      .poll(() => page.locator('[data-testid="rail-thumbnail"][data-state="ready"]').count(), { timeout: 60_000 })
      .toBe(4);
    const beats = ["Hero", "First", "Second", "Last"];
    for (const [index, label] of beats.entries()) {
      const frame = page.frameLocator(`[data-testid="rail-thumbnail"][data-slide="${index + 1}"] iframe[data-front]`);
      await expect.poll(() => frame.locator("section.dh-beat").count()).toBe(1);
      expect(await frame.locator("section.dh-beat").getAttribute("aria-label")).toBe(label);
    }
    await context.close();
  }, 240_000);
});

describe("the rail's thumbnails on a 20-slide deck", () => {
  it("draws each of the 20 as it comes into view, and adds no entry to the tab's history beyond the editor's Back guard", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Rails"));
    const api = await apiOf(page, server.origin, "rail");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Rail" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: headingsDeck(SLIDES) },
      }),
    );
    await page.goto(`${server.origin}/decks/${created.id}`);
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });

    // Down the rail half a screen at a time once the pictures in view are drawn, as a person looking for a
    // slide would, until every picture was seen drawn (the rail keeps only those near its visible part).
    const scroller = page.locator('[data-testid="rail-thumbnail"]').first().locator("../..");
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const { ready, waiting } = await scroller.evaluate((element) => {
            const view = element.getBoundingClientRect();
            const ready: string[] = [];
            let waiting = 0;
            for (const picture of element.querySelectorAll<HTMLElement>('[data-testid="rail-thumbnail"]')) {
              const box = picture.getBoundingClientRect();
              if (picture.dataset.state === "ready") ready.push(picture.dataset.slide ?? "");
              else if (box.bottom > view.top && box.top < view.bottom) waiting++;
            }
            return { ready, waiting };
          });
          for (const slide of ready) seen.add(slide);
          if (seen.size < SLIDES && waiting === 0)
            await scroller.evaluate((element) => element.scrollBy(0, element.clientHeight / 2));
          return seen.size;
        },
        { timeout: 120_000, interval: 25 },
      )
      .toBe(SLIDES);
    await scroller.evaluate((element) => element.scrollTo(0, 0));

    // The frames add no entry to the tab's history (a Back would otherwise step a frame back, not the page);
    // typing pushes the editor's own Back guard, one entry. An edit of slide 3's heading in the code, three
    // times: each one redraws that slide's picture.
    await openCodePanel(page);
    const code = page.locator('[data-testid="editor-tsx"] .cm-content');
    const historyBefore = await page.evaluate(() => history.length);
    for (let n = 1; n <= 3; n++) {
      const line = code.locator(".cm-line", { hasText: `<Heading>Heading number 3` }).first();
      await line.click();
      await page.keyboard.press("End");
      for (let step = 0; step < "</Heading>".length; step++) await page.keyboard.press("ArrowLeft");
      await page.keyboard.insertText("!");
      await expect
        .poll(
          () =>
            page
              .frameLocator('[data-testid="rail-thumbnail"][data-slide="3"] iframe[data-front]')
              .locator(".dh-heading-text")
              .textContent(),
          { timeout: 30_000, interval: 20 },
        )
        .toBe(`Heading number 3${"!".repeat(n)}`);
    }
    expect((await page.evaluate(() => history.length)) - historyBefore).toBeLessThanOrEqual(1);
    await context.close();
  }, 300_000);
});

describe("the rail on a 400-slide deck", () => {
  it("opens the editor; End on the rail reaches slide 400, its picture and the preview show it", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Long"));
    const api = await apiOf(page, server.origin, "long");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Long" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: bigDeck(400) },
      }),
    );
    await page.goto(`${server.origin}/decks/${created.id}`);
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });
    const rail = page.getByRole("navigation", { name: "Outline" });
    const picture = (n: number) => page.locator(`[data-testid="rail-thumbnail"][data-slide="${n}"]`);
    const heading = (n: number) =>
      page
        .frameLocator(`[data-testid="rail-thumbnail"][data-slide="${n}"] iframe[data-front]`)
        .locator(".dh-heading-text");
    const previewHeading = page
      .frameLocator('iframe[title="Preview"]')
      .locator(".dh-stage-slide:not([hidden]) .dh-heading-text");

    // Only the rows near the visible part are in the list, each saying its place among the 400.
    const rows = rail.locator('[data-testid="rail-slide"]');
    expect(await rows.count()).toBeLessThan(60);
    expect(await rows.first().getAttribute("aria-setsize")).toBe("400");
    await expect.poll(() => heading(1).textContent(), { timeout: 60_000 }).toBe(bigDeckHeading(1));
    expect(await picture(400).count()).toBe(0);

    // End: the last row is mounted, scrolled into view and focused; its picture is made, the preview shows it.
    await rail.getByRole("button", { name: /^1 Section 1\b/ }).focus();
    await page.keyboard.press("End");
    const last = rail.getByRole("button", { name: /^400 Revenue 400\b/ });
    await expect.poll(() => last.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await last.getAttribute("aria-current")).toBe("true");
    expect(await rows.last().getAttribute("aria-posinset")).toBe("400");
    await expect.poll(() => heading(400).textContent(), { timeout: 60_000 }).toBe(bigDeckHeading(400));
    await expect.poll(() => previewHeading.textContent(), { timeout: 30_000 }).toBe(bigDeckHeading(400));
    await page.keyboard.press("Home");
    await expect
      .poll(() =>
        rail.getByRole("button", { name: /^1 Section 1\b/ }).evaluate((element) => element === document.activeElement),
      )
      .toBe(true);
    await expect.poll(() => previewHeading.textContent(), { timeout: 30_000 }).toBe(bigDeckHeading(1));
    await context.close();
  }, 300_000);
});
