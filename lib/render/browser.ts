import { AsyncLocalStorage } from "node:async_hooks";
import type { Browser, HTTPRequest, Page } from "puppeteer-core";
import { config } from "@/lib/core/config";
import { chromiumArgs, launchableChromiumPath, sandboxMode } from "./chromium";
import { logger } from "@/lib/core/log";

// One Chromium per process, launched on first use, reused across jobs and restarted after a number of
// jobs (long-lived renderers accumulate memory). Each job gets a fresh incognito context (its own renderer
// process, so a deck that loops forever holds up only its own job) with no network at all: every request
// is answered from memory by the job's own `serve` function or aborted, and the page may navigate once.
// A context is never reused for another job, not even of the same deck: a deck's storage (localStorage,
// IndexedDB, caches of the render origin) dies with its context, so no deck can see another's data.
// Memory is bounded by the number of contexts open at once (renderContextLimit): a job past it waits for
// a context to close before it opens its own. Exports never hold the two contexts kept for the deck check
// and previews, which are handed a free context before any waiting export.

const RESTART_AFTER_JOBS = 50;
/** A page's JavaScript heap: a deck that allocates without bound crashes its renderer early. */
const RENDERER_HEAP_MB = 1024;
/** How long closing a job's context may take before the whole browser is restarted instead. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * What the deck did, not what the infrastructure did: it did not draw in time (a loop, a never-settling
 * promise, too much work) or it crashed its renderer. Retrying would end the same way.
 */
export class DeckFaultError extends Error {}

type BrowserContext = Awaited<ReturnType<Browser["createBrowserContext"]>>;
type Fresh = { context: BrowserContext; page: Page };
/** `spare`: a context and page made ahead for the next job, which no job has used (see takeFresh). */
type BrowserHolder = { browser: Promise<Browser>; jobs: number; active: number; spare?: Promise<Fresh | null> };
const holder = globalThis as typeof globalThis & { __deckhandBrowser?: BrowserHolder };

/** How long a sandboxed launch may take before this machine is taken not to support the sandbox. */
const SANDBOX_PROBE_MS = 15_000;

async function launch(): Promise<Browser> {
  const mode = sandboxMode();
  if (mode !== "try") return launchWith(mode === "on");
  try {
    return await launchWith(true, SANDBOX_PROBE_MS);
  } catch (error) {
    logger("renderer").warn(
      "Chromium's sandbox cannot start on this machine; rendering without it (set CHROMIUM_SANDBOX=0 to skip this try)",
      { error },
    );
    return launchWith(false);
  }
}

async function launchWith(sandbox: boolean, timeout?: number): Promise<Browser> {
  const puppeteer = await import("puppeteer-core");
  return puppeteer.launch({
    executablePath: await launchableChromiumPath(),
    ...(timeout ? { timeout } : {}),
    args: [
      ...chromiumArgs,
      ...(sandbox ? [] : ["--no-sandbox"]),
      // Request interception sees HTTP only: WebRTC (STUN/TURN) would still reach the network, so UDP is
      // limited to the proxy and the proxy is a closed loopback port.
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--proxy-server=127.0.0.1:9",
      `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
    ],
    headless: true,
    defaultViewport: null,
    // The server's own shutdown closes the browser once the exports in flight are done
    // (instrumentation-node.ts); Puppeteer's handlers would close it (or exit) at once on the signal. Its
    // handler on exit stays: the browser's process group is killed with the server whatever happens.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

function currentBrowser(): BrowserHolder {
  let current = holder.__deckhandBrowser;
  if (current && current.jobs >= RESTART_AFTER_JOBS && current.active === 0) {
    void current.browser.then((browser) => browser.close()).catch(() => {});
    current = undefined;
  }
  if (!current) {
    const launched: BrowserHolder = { browser: launch(), jobs: 0, active: 0 };
    const forget = () => {
      if (holder.__deckhandBrowser === launched) holder.__deckhandBrowser = undefined;
    };
    launched.browser.then((browser) => browser.on("disconnected", forget), forget);
    holder.__deckhandBrowser = current = launched;
  }
  return current;
}

/** Contexts kept for renders that are not exports: the deck check (at most two per process) and previews. */
const OTHER_RENDERS = 2;

/**
 * Contexts (renderer processes) open at once: the exports the instance renders at once, and two more for
 * the deck check and preview images, which exports never take (see fits).
 */
export function renderContextLimit(): number {
  return config.exportConcurrency + OTHER_RENDERS;
}

// Renders run inside asExportRender are exports: at most config.exportConcurrency of them hold a context,
// whoever started them (the local runner's lane, Inngest), so the other renders always have their two.
const exportRenders = new AsyncLocalStorage<boolean>();

/** Runs `work` with the renders it starts counted as exports (lib/exports/render-export.ts). */
export function asExportRender<T>(work: () => Promise<T>): Promise<T> {
  return exportRenders.run(true, work);
}

type Waiter = { exporting: boolean; open: () => void };
type Slots = { open: number; exports: number; peak: number; waiting: Waiter[] };
const slotHolder = globalThis as typeof globalThis & { __deckhandRenderSlots?: Slots };
const slots = (slotHolder.__deckhandRenderSlots ??= { open: 0, exports: 0, peak: 0, waiting: [] });

function fits(exporting: boolean): boolean {
  const limit = renderContextLimit();
  return slots.open < limit && (!exporting || slots.exports < limit - OTHER_RENDERS);
}

function take(exporting: boolean): void {
  slots.open += 1;
  if (exporting) slots.exports += 1;
  slots.peak = Math.max(slots.peak, slots.open);
}

// A job waits its turn: opened at once when a context is free for it, else when one closes (grantSlots).
function openSlot(exporting: boolean): Promise<void> {
  const opened = new Promise<void>((open) => slots.waiting.push({ exporting, open }));
  grantSlots();
  return opened;
}

// Hands free contexts to the waiting: the deck check and previews first, then exports, each in order (the
// limit is read each time, so a lower EXPORT_CONCURRENCY holds new exports back until enough have closed).
function grantSlots(): void {
  for (;;) {
    const next =
      slots.waiting.find((waiter) => !waiter.exporting && fits(false)) ??
      slots.waiting.find((waiter) => waiter.exporting && fits(true));
    if (!next) return;
    slots.waiting.splice(slots.waiting.indexOf(next), 1);
    take(next.exporting);
    next.open();
  }
}

function closeSlot(exporting: boolean): void {
  slots.open -= 1;
  if (exporting) slots.exports -= 1;
  grantSlots();
}

/** Contexts open now and the most open at once since the last reset (tests, the benchmark's readers). */
export function renderContextStats(reset = false): { open: number; exports: number; peak: number; waiting: number } {
  const stats = { open: slots.open, exports: slots.exports, peak: slots.peak, waiting: slots.waiting.length };
  if (reset) slots.peak = slots.open;
  return stats;
}

/** What the page may load: a Response for URLs the job serves, null for everything else (aborted). */
type Serve = (url: URL) => Response | null | Promise<Response | null>;

export type RenderJobOptions = {
  serve: Serve;
  viewport: { width: number; height: number; deviceScaleFactor?: number };
  timeoutMs: number;
};

async function answer(request: HTTPRequest, serve: Serve, page: Page, navigations: { count: number }): Promise<void> {
  const url = request.url();
  // The job's own page load is the only navigation of the top frame: a deck that reloads itself or
  // navigates away (location, <meta http-equiv="refresh">) is answered "204 No Content", which leaves the
  // page where it is (an aborted navigation would replace it with an error page).
  if (request.isNavigationRequest() && request.frame() === page.mainFrame() && navigations.count++ > 0) {
    return request.respond({ status: 204, body: "" });
  }
  if (url.startsWith("data:")) return request.continue();
  let response: Response | null;
  try {
    response = await serve(new URL(url));
  } catch {
    response = null;
  }
  if (!response) return request.abort("blockedbyclient");
  return request.respond({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  });
}

// Runs `job` with a page in a fresh, isolated context; the context is closed whatever happens. A job past
// `timeoutMs`, or whose renderer crashes, ends with a DeckFaultError.
export async function withRenderPage<T>(options: RenderJobOptions, job: (page: Page) => Promise<T>): Promise<T> {
  const exporting = exportRenders.getStore() === true;
  await openSlot(exporting);
  try {
    return await renderInContext(options, job);
  } finally {
    closeSlot(exporting);
  }
}

async function freshPage(browser: Browser): Promise<Fresh> {
  const context = await browser.createBrowserContext();
  try {
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

// A new context for a job. Chromium takes tens of milliseconds to start a context's renderer, so one is
// made ahead, while a job runs, for the next job: it is as fresh as one made on demand (no job has used
// it), so isolation is that of a context per job. One spare per browser at most; a spare that is gone by
// the time it is wanted (its renderer died) is replaced by a new one.
async function takeFresh(current: BrowserHolder, browser: Browser): Promise<Fresh> {
  const spare = current.spare;
  current.spare = undefined;
  if (holder.__deckhandBrowser === current && current.jobs < RESTART_AFTER_JOBS) {
    current.spare = freshPage(browser).catch(() => null);
  }
  const ready = spare ? await spare : null;
  if (ready && !ready.page.isClosed() && browser.connected) return ready;
  if (ready) void ready.context.close().catch(() => {});
  return freshPage(browser);
}

async function renderInContext<T>(options: RenderJobOptions, job: (page: Page) => Promise<T>): Promise<T> {
  const current = currentBrowser();
  current.jobs += 1;
  current.active += 1;
  let context: BrowserContext | undefined;
  try {
    const browser = await current.browser;
    const fresh = await takeFresh(current, browser);
    context = fresh.context;
    const page = fresh.page;
    page.setDefaultTimeout(options.timeoutMs);
    await page.setViewport({ deviceScaleFactor: 1, ...options.viewport });
    await page.setRequestInterception(true);
    const navigations = { count: 0 };
    page.on("request", (request) => void answer(request, options.serve, page, navigations).catch(() => {}));
    const crashed = new Promise<never>((_, reject) =>
      page.once("error", () =>
        reject(new DeckFaultError("The deck crashed the renderer (it may use too much memory).")),
      ),
    );
    crashed.catch(() => {}); // a crash after the job has ended is nobody's concern
    return await Promise.race([withDeadline(job(page), options.timeoutMs, "finish rendering"), crashed]);
  } finally {
    current.active -= 1;
    await closeContext(context, current);
  }
}

/** `work`, or a DeckFaultError once `ms` have passed: "The deck did not <what> within N s…". */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DeckFaultError(
            `The deck did not ${what} within ${Math.round(ms / 1000)} s: a slide may loop forever or do too much work.`,
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

// A page whose script never yields still closes with its context (Chromium ends the renderer process); if
// even that does not answer, the whole browser goes and the next job launches a fresh one.
async function closeContext(context: BrowserContext | undefined, current: BrowserHolder): Promise<void> {
  if (!context) return;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    context.close().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (closed) return;
  if (holder.__deckhandBrowser === current) holder.__deckhandBrowser = undefined;
  await current.browser.then((browser) => browser.close()).catch(() => {});
}

export type PlayerReport = { count: number; missingFonts: string[]; errors: string[]; notes: string[] };

// Waits until the player says the deck is drawn and its fonts are loaded.
export async function waitForPlayer(page: Page): Promise<PlayerReport> {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  return page.evaluate(() => {
    const status = window.__deckhand;
    return {
      count: status?.count ?? 0,
      missingFonts: status?.missingFonts ?? [],
      errors: status?.errors ?? [],
      notes: (status?.slides ?? []).map((slide) => slide?.notes ?? ""),
    };
  });
}

export async function closeRenderBrowser(): Promise<void> {
  const current = holder.__deckhandBrowser;
  holder.__deckhandBrowser = undefined;
  if (current) await (await current.browser).close().catch(() => {});
}
