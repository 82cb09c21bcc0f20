import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { launchBrowser } from "../helpers/browser";
import { webpageDeck } from "../helpers/sample-decks";
import { type NextServer, startNextServer } from "../helpers/next-server";

// What the slide rail's thumbnails cost on a 20-slide deck, in a real Chromium against `next start`: the
// time from opening the editor until its preview shows the deck, until the pictures in view are drawn and until all 20 are (the rail
// scrolled down), the editor page's main-thread time over the same span (CDP's TaskDuration, which
// counts the sandboxed frames too when they share the page's process) against the same page with the
// thumbnail frames refused, the editor's long tasks, how many requests the frames make (and how many the
// HTTP cache answers), and an edit's way to its slide's picture. Numbers are logged; the assertions
// only say that every picture arrives.

let server: NextServer;
let browser: Browser;

beforeAll(async () => {
  server = await startNextServer();
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const SLIDES = 20;

function deck(count: number): string {
  const slides = Array.from(
    { length: count },
    (_, index) =>
      `      <Slide label="Part ${index + 1}">\n        <Heading>Heading number ${index + 1}</Heading>\n        <Bullets items={["First point of ${index + 1}", "Second point"]} />\n      </Slide>`,
  ).join("\n");
  return `import { Deck, Slide, Heading, Bullets } from "@deckhand/player";\n\nexport default function Long() {\n  return (\n    <Deck>\n${slides}\n    </Deck>\n  );\n}\n`;
}

type Run = {
  previewMs: number;
  visibleMs: number | null;
  allMs: number | null;
  taskMs: number;
  scriptMs: number;
  longTasks: number;
  longTaskMs: number;
  frameRequests: number;
  moduleRequests: number;
  fromCache: number;
};

async function taskSeconds(cdp: CDPSession): Promise<{ task: number; script: number }> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return { task: value("TaskDuration"), script: value("ScriptDuration") };
}

// Rail pictures ready, and how many lie in the rail's visible part.
function readyCounts(page: Page): Promise<{ ready: number; visible: number; visibleReady: number }> {
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="rail-thumbnail"]')?.parentElement?.parentElement;
    const view = scroller?.getBoundingClientRect();
    let ready = 0;
    let visible = 0;
    let visibleReady = 0;
    for (const element of document.querySelectorAll('[data-testid="rail-thumbnail"]')) {
      const box = element.getBoundingClientRect();
      const isReady = element.getAttribute("data-state") === "ready";
      if (isReady) ready++;
      if (view && box.bottom > view.top && box.top < view.bottom && box.height > 0) {
        visible++;
        if (isReady) visibleReady++;
      }
    }
    return { ready, visible, visibleReady };
  });
}

async function openAndTime(page: Page, deckId: string, thumbnails: boolean): Promise<Run> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("Network.enable");
  let frameRequests = 0;
  let moduleRequests = 0;
  let fromCache = 0;
  cdp.on("Network.requestWillBeSent", (event: { request: { url: string } }) => {
    const url = event.request.url;
    if (/\/frame\?mode=thumb/.test(url)) frameRequests++;
    if (/\/module\//.test(url)) moduleRequests++;
  });
  cdp.on("Network.requestServedFromCache", () => void fromCache++);
  if (!thumbnails) await page.route(/\/frame\?mode=thumb/, (route) => route.abort());

  const start = await taskSeconds(cdp);
  await page.goto(`${server.origin}/decks/${deckId}`, { waitUntil: "commit" });
  const opened = Date.now();
  await page.evaluate(() => {
    const seen = { count: 0, ms: 0 };
    (window as unknown as { longTasks: typeof seen }).longTasks = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        seen.count++;
        seen.ms += entry.duration;
      }
    }).observe({ type: "longtask", buffered: true });
  });
  await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });

  await page.frameLocator('iframe[title="Preview"]').locator(".dh-heading-text").first().waitFor({ timeout: 60_000 });
  const previewMs = Date.now() - opened;
  let visibleMs: number | null = null;
  let allMs: number | null = null;
  if (thumbnails) {
    await expect
      .poll(
        async () => {
          const counts = await readyCounts(page);
          return counts.visible > 0 && counts.visibleReady === counts.visible;
        },
        { timeout: 60_000, interval: 25 },
      )
      .toBe(true);
    visibleMs = Date.now() - opened;
    // Down the rail a screen at a time, as a person looking for a slide would.
    const scroller = page.locator('[data-testid="rail-thumbnail"]').first().locator("../..");
    for (;;) {
      const { ready } = await readyCounts(page);
      if (ready === SLIDES) break;
      if (Date.now() - opened > 120_000) throw new Error(`only ${ready} of ${SLIDES} pictures were drawn`);
      await scroller.evaluate((element) => element.scrollBy(0, element.clientHeight / 2));
      await page.waitForTimeout(25);
    }
    allMs = Date.now() - opened;
  } else {
    // The same page and deck, without pictures: the same time after the status line was ready.
    await page.waitForTimeout(1500);
  }
  await page.waitForTimeout(500);
  const end = await taskSeconds(cdp);
  const long = await page.evaluate(() => (window as unknown as { longTasks: { count: number; ms: number } }).longTasks);
  await cdp.detach();
  return {
    previewMs,
    visibleMs,
    allMs,
    taskMs: Math.round((end.task - start.task) * 1000),
    scriptMs: Math.round((end.script - start.script) * 1000),
    longTasks: long.count,
    longTaskMs: Math.round(long.ms),
    frameRequests,
    moduleRequests,
    fromCache,
  };
}

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
    await page.getByRole("button", { name: "New deck" }).click();
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
  it("draws all 20 and times them, against the same editor without them", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Rails"));
    const api = await apiOf(page, server.origin, "rail");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Rail bench" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: deck(SLIDES) },
      }),
    );

    const runs: { with: Run[]; without: Run[] } = { with: [], without: [] };
    for (let round = 0; round < 3; round++) {
      for (const thumbnails of [false, true]) {
        const tab = await context.newPage();
        const run = await openAndTime(tab, created.id, thumbnails);
        (thumbnails ? runs.with : runs.without).push(run);
        await tab.close();
      }
    }
    for (const run of runs.with) expect(run.allMs).not.toBeNull();

    // An edit of slide 3's heading in the code: keystroke → that slide's picture redrawn.
    const code = page.locator('[data-testid="editor-tsx"] .cm-content');
    await page.goto(`${server.origin}/decks/${created.id}`);
    await expect
      .poll(() => page.locator('[data-testid="rail-thumbnail"][data-slide="3"]').getAttribute("data-state"), {
        timeout: 60_000,
      })
      .toBe("ready");
    // The frames add no entry to the tab's history (a Back would otherwise step a frame back, not the page);
    // typing pushes the editor's own Back guard, one entry.
    const historyBefore = await page.evaluate(() => history.length);
    const edits: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const line = code.locator(".cm-line", { hasText: `<Heading>Heading number 3` }).first();
      await line.click();
      await page.keyboard.press("End");
      for (let step = 0; step < "</Heading>".length; step++) await page.keyboard.press("ArrowLeft");
      const started = Date.now();
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
      edits.push(Date.now() - started);
    }
    expect((await page.evaluate(() => history.length)) - historyBefore).toBeLessThanOrEqual(1);
    console.log(
      `rail thumbnails, ${SLIDES} slides: ${JSON.stringify(runs)}; code keystroke → its slide's picture (ms, incl. the 400 ms typing pause): ${JSON.stringify(edits)}`,
    );
    await context.close();
  }, 600_000);
});
