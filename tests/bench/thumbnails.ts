import type { CDPSession, Page } from "playwright-core";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { launchBrowser } from "../helpers/browser";
import { type BenchServer, percentile } from "./server";
import { headingsDeck } from "../helpers/sample-decks";
import { openCodePanel } from "../helpers/code-panel";

// What the slide rail's thumbnails cost on a 20-slide deck, in a real Chromium against `next start`: the
// time from opening the editor until its preview shows the deck, until the pictures in view are drawn and
// until all 20 are (the rail scrolled down), the editor page's main-thread time over the same span (CDP's
// TaskDuration, which counts the sandboxed frames too when they share the page's process) against the same
// page with the thumbnail frames refused, the editor's long tasks, how many requests the frames make (and
// how many the HTTP cache answers), and an edit's way to its slide's picture. Each open is a fresh tab in
// one browser context (so the HTTP cache is warm after the first), alternating without and with thumbnails.

/** The deck's length: 20, or BENCH_THUMBNAIL_SLIDES (issue 39: a 200-slide deck's rail). */
const SLIDES = Number(process.env.BENCH_THUMBNAIL_SLIDES ?? 20);
const ROUNDS = Number(process.env.BENCH_THUMBNAIL_ROUNDS ?? 3);
const EDITS = 3;

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

// Rail pictures ready (by slide number), and how many lie in the rail's visible part.
function readyCounts(page: Page): Promise<{ ready: number[]; visible: number; visibleReady: number }> {
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="rail-thumbnail"]')?.parentElement?.parentElement;
    const view = scroller?.getBoundingClientRect();
    const ready: number[] = [];
    let visible = 0;
    let visibleReady = 0;
    for (const element of document.querySelectorAll('[data-testid="rail-thumbnail"]')) {
      const box = element.getBoundingClientRect();
      const isReady = element.getAttribute("data-state") === "ready";
      if (isReady) ready.push(Number(element.getAttribute("data-slide")));
      if (view && box.bottom > view.top && box.top < view.bottom && box.height > 0) {
        visible++;
        if (isReady) visibleReady++;
      }
    }
    return { ready, visible, visibleReady };
  });
}

// Polls a condition (a throw counts as not yet) every `interval` ms until it holds, for at most `timeout` ms.
async function until(
  page: Page,
  what: string,
  condition: () => Promise<boolean>,
  { timeout, interval }: { timeout: number; interval: number },
): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeout} ms`);
    await page.waitForTimeout(interval);
  }
}

async function openAndTime(page: Page, origin: string, deckId: string, thumbnails: boolean): Promise<Run> {
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
  await page.goto(`${origin}/decks/${deckId}`, { waitUntil: "commit" });
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
    await until(
      page,
      "the pictures in view",
      async () => {
        const counts = await readyCounts(page);
        return counts.visible > 0 && counts.visibleReady === counts.visible;
      },
      { timeout: 60_000, interval: 25 },
    );
    visibleMs = Date.now() - opened;
    // Down the rail half a screen at a time once the pictures in view are drawn, as a person looking for a
    // slide would; a virtualised rail keeps only the pictures near the visible part, so a slide counts once
    // its picture was seen drawn.
    const scroller = page.locator('[data-testid="rail-thumbnail"]').first().locator("../..");
    const seen = new Set<number>();
    for (;;) {
      const counts = await readyCounts(page);
      for (const slide of counts.ready) seen.add(slide);
      if (seen.size === SLIDES) break;
      if (Date.now() - opened > 300_000) throw new Error(`only ${seen.size} of ${SLIDES} pictures were drawn`);
      if (counts.visibleReady === counts.visible)
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

// "median (p95; each run)" of one measure, or — when the runs have none.
function cell(values: (number | null)[], unit: string): string {
  const samples = values.filter((value): value is number => value !== null);
  if (samples.length === 0) return "—";
  const each = samples.map((sample) => Math.round(sample)).join(", ");
  return `${Math.round(percentile(samples, 50))}${unit} (p95 ${Math.round(percentile(samples, 95))}${unit}; ${each})`;
}

export async function benchThumbnails(server: BenchServer): Promise<string> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Rails"));
    const api = await apiOf(page, server.origin, "rail");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Rail bench" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: headingsDeck(SLIDES) },
      }),
    );

    const runs: { with: Run[]; without: Run[] } = { with: [], without: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const thumbnails of [false, true]) {
        const tab = await context.newPage();
        const run = await openAndTime(tab, server.origin, created.id, thumbnails);
        (thumbnails ? runs.with : runs.without).push(run);
        await tab.close();
      }
    }

    // An edit of slide 3's heading in the code: keystroke → that slide's picture redrawn.
    const code = page.locator('[data-testid="editor-tsx"] .cm-content');
    await page.goto(`${server.origin}/decks/${created.id}`);
    await until(
      page,
      "slide 3's picture",
      async () =>
        (await page.locator('[data-testid="rail-thumbnail"][data-slide="3"]').getAttribute("data-state")) === "ready",
      { timeout: 60_000, interval: 100 },
    );
    await openCodePanel(page);
    const edits: number[] = [];
    for (let n = 1; n <= EDITS; n++) {
      const line = code.locator(".cm-line", { hasText: `<Heading>Heading number 3` }).first();
      await line.click();
      await page.keyboard.press("End");
      for (let step = 0; step < "</Heading>".length; step++) await page.keyboard.press("ArrowLeft");
      const started = Date.now();
      await page.keyboard.insertText("!");
      await until(
        page,
        `edit ${n} on slide 3's picture`,
        async () =>
          (await page
            .frameLocator('[data-testid="rail-thumbnail"][data-slide="3"] iframe[data-front]')
            .locator(".dh-heading-text")
            .textContent()) === `Heading number 3${"!".repeat(n)}`,
        { timeout: 30_000, interval: 20 },
      );
      edits.push(Date.now() - started);
    }
    await context.close();

    const line = (label: string, measure: (run: Run) => number | null, unit = " ms") =>
      `| ${label} | ${cell(runs.without.map(measure), unit)} | ${cell(runs.with.map(measure), unit)} |`;
    return [
      `${SLIDES} slides, 1440×900; ${ROUNDS} opens each, alternating without and with thumbnails, a fresh tab each in one context (warm HTTP cache after the first); median (p95; each run)`,
      "",
      "| measure | without thumbnails (frames refused) | with thumbnails |",
      "|---|---|---|",
      line("open → preview drawn", (run) => run.previewMs),
      line("open → thumbnails in view drawn", (run) => run.visibleMs),
      line(
        `open → all ${SLIDES} seen drawn (rail scrolled down half a screen once those in view are drawn)`,
        (run) => run.allMs,
      ),
      line(
        "main-thread task time (CDP TaskDuration, open → 0.5 s after all drawn; without: 2 s after the preview)",
        (run) => run.taskMs,
      ),
      line("main-thread script time (CDP ScriptDuration, same span)", (run) => run.scriptMs),
      line("long tasks (count)", (run) => run.longTasks, ""),
      line("long tasks (total)", (run) => run.longTaskMs),
      line("thumbnail frame requests", (run) => run.frameRequests, ""),
      line("module requests", (run) => run.moduleRequests, ""),
      line("requests served from the HTTP cache", (run) => run.fromCache, ""),
      `| keystroke in the code → slide 3's picture redrawn (incl. the 400 ms typing pause), ${EDITS} edits | — | ${cell(edits, " ms")} |`,
    ].join("\n");
  } finally {
    await browser.close();
  }
}
