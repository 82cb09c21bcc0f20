import { AsyncLocalStorage } from "node:async_hooks";
import type { Browser, CDPSession, HTTPRequest, Page, Protocol } from "puppeteer-core";
import { config } from "@/lib/core/config";
import { chromiumArgs, launchableChromiumPath, sandboxMode } from "./chromium";
import { logger } from "@/lib/core/log";
import { type IsolatedWorld, openIsolatedWorld } from "./isolated-world";
import { BLANK_PATH, renderOrigin } from "./player-files";

// One Chromium per process, launched on first use, reused across jobs and restarted after a number of
// jobs (long-lived processes accumulate memory; renderers are closed after fewer). Jobs run in renderers: a
// renderer is a browser context of one organization, whose pages share one renderer process (--process-per-site; a blank page of the render
// origin keeps the process alive between jobs). It runs one job at a time, each in a new page (a new
// document: no globals, timers, history or window.name carried over), and is kept for that organization's
// next jobs, so a job does not pay for starting a process; it is never handed to another organization.
// Nothing of a job outlives its page: deck documents are sandboxed (an opaque origin, so no cookies,
// storage, caches or service workers at all) and have no network: every request is answered from memory
// by the job's own `serve` function (never stored in the HTTP cache) or aborted, but for the player's own
// files, which come from the render origin's loopback server and are kept in the renderer's cache
// (player-files.ts), and the page may navigate once. Pages of jobs that take no pictures draw no frames of
// their own (newPage). A job that fails (a deck that loops or crashes its renderer) ends its renderer with it. The one
// exception to a new page per job is the deck check's (`keep`): a deck's page is kept for that deck's next
// check, which draws its new version in place; any other job given the renderer closes it first.
// Memory is bounded by the number of jobs at once (renderContextLimit): a job past it waits for one to
// end before it opens its page; idle renderers are at most EXPORT_CONCURRENCY and closed after IDLE_MS.
// Exports never hold the two places kept for the deck check and previews, which go before any waiting export.

/**
 * The browser is restarted after this many jobs, once none is running; a renderer is closed after
 * RENDERER_JOBS of its own. (A browser that restarted every 50 jobs, as when each job had a process of its
 * own, would start every renderer afresh between the 50th job and the next moment no job runs, which under
 * a steady load of exports is a long time.)
 */
const RESTART_AFTER_JOBS = 1_000;
const RENDERER_JOBS = 100;
/** A page's JavaScript heap: a deck that allocates without bound crashes its renderer early. */
const RENDERER_HEAP_MB = 1024;
/** How long closing a job's page or a renderer may take before the whole browser is restarted instead. */
const CLOSE_TIMEOUT_MS = 5_000;
/**
 * How long an idle renderer may take to answer before a job is given it: a deck whose script started
 * looping after its job ended would otherwise hold up the next job in the same process.
 */
const PING_MS = 2_000;
/** An idle renderer is closed after this long without a job. */
const IDLE_MS = 60_000;

/**
 * What the deck did, not what the infrastructure did: it did not draw in time (a loop, a never-settling
 * promise, too much work) or it crashed its renderer. Retrying would end the same way.
 */
export class DeckFaultError extends Error {}

type BrowserContext = Awaited<ReturnType<Browser["createBrowserContext"]>>;
/**
 * A browser context kept for one organization's jobs (`organization` null until its first job), one job at
 * a time; `keeper` is the blank page that keeps its renderer process alive between jobs.
 */
type Renderer = {
  context: BrowserContext;
  keeper: Page;
  /** A job's page kept for the next job asking for it by the same key (the deck check of one deck). */
  kept?: KeptPage;
  /** A new page made ahead, while the renderer waits, for its next job (no job has used it). */
  next?: Promise<Page | null>;
  /** The keeper's DevTools session: the render origin's storage is cleared through it after each job. */
  session: CDPSession;
  organization: string | null;
  jobs: number;
  idleTimer?: NodeJS.Timeout;
};
type KeptPage = { key: string; page: Page; job: { serve: Serve } };
/**
 * `idle`: renderers waiting for their organization's next job, the most recently used last; `spare`: one
 * made ahead for an organization that has none (see takeRenderer).
 */
type BrowserHolder = {
  browser: Promise<Browser>;
  jobs: number;
  active: number;
  idle: Renderer[];
  spare?: Promise<Renderer | null>;
};
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
      // The pages of one browser context (one renderer) share one renderer process, kept between jobs.
      "--process-per-site",
      // Pages that draw no frames of their own are given them on demand (HeadlessExperimental.beginFrame).
      "--run-all-compositor-stages-before-draw",
      // A frame asked for is drawn with its images: without this, the first frame that needs an image (a
      // picture of a box the page never drew) could be drawn without it while it is decoded for the next.
      "--disable-checker-imaging",
      // The render origin is a loopback server (player-files.ts), which Local Network Access would refuse to
      // the deck's sandboxed documents; a page's requests all go through its job's interception anyway, which
      // lets through the player's files alone (answer).
      "--disable-features=LocalNetworkAccessChecks",
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
    forgetIdle(current);
    void current.browser.then((browser) => browser.close()).catch(() => {});
    current = undefined;
  }
  if (!current) {
    const launched: BrowserHolder = { browser: launch(), jobs: 0, active: 0, idle: [] };
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
  /** The organization whose deck is drawn: its renderers only. */
  organization: string;
  /**
   * The job's page may be kept for the renderer's next job with the same key, which is handed it instead of
   * a new page (the deck check keeps a deck's page and draws its next version in it). Never for exports.
   */
  keep?: string;
  serve: Serve;
  viewport: { width: number; height: number; deviceScaleFactor?: number };
  timeoutMs: number;
};

async function answer(
  request: HTTPRequest,
  serve: Serve,
  page: Page,
  navigations: { count: number },
  origin: string,
): Promise<void> {
  const url = request.url();
  // The job's own page load is the only navigation of the top frame: a deck that reloads itself or
  // navigates away (location, <meta http-equiv="refresh">) is answered "204 No Content", which leaves the
  // page where it is (an aborted navigation would replace it with an error page).
  if (request.isNavigationRequest() && request.frame() === page.mainFrame() && navigations.count++ > 0) {
    return request.respond({ status: 204, body: "" });
  }
  if (url.startsWith("data:")) return request.continue();
  // The player's own files, from the render origin's server (and then from the renderer's HTTP cache).
  if (url.startsWith(`${origin}/player/`) && !request.isNavigationRequest()) return request.continue();
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

/** What a job learns of its page: whether it was kept from a job with the same key; `keep` may be unset. */
type RenderSession = { reused: boolean; keep: boolean };
type RenderJob<T> = (page: Page, session: RenderSession) => Promise<T>;

// Runs `job` with a new page in a renderer of its organization (or the page kept for its key); the page is
// closed whatever happens, unless kept. A job past `timeoutMs`, or whose renderer crashes, ends with a
// DeckFaultError and closes its renderer. The result is returned as soon as it is there; the page is closed
// and the renderer put back afterwards, and only then is the job's place given to the next.
export async function withRenderPage<T>(options: RenderJobOptions, job: RenderJob<T>): Promise<T> {
  const exporting = exportRenders.getStore() === true;
  await openSlot(exporting);
  let cleanup: Promise<void> = Promise.resolve();
  try {
    const done = await renderInContext(options, job);
    cleanup = done.cleanup;
    return done.result;
  } finally {
    void cleanup.finally(() => closeSlot(exporting));
  }
}

// A renderer: a new context and its keeper, a blank page of the render origin that the context's job pages
// join in its process.
async function newRenderer(browser: Browser): Promise<Renderer> {
  const context = await browser.createBrowserContext();
  try {
    const keeper = await newPage(browser, context);
    const session = await keeper.createCDPSession();
    return {
      context,
      keeper,
      session,
      organization: null,
      jobs: 0,
      next: newPage(browser, context).catch(() => null),
    };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

function usable(renderer: Renderer, browser: Browser): boolean {
  return browser.connected && !renderer.keeper.isClosed();
}

// The organization's idle renderer when it has one; else one that no job has used, made ahead while jobs
// run (Chromium takes tens of milliseconds to start a renderer process), or made now. A renderer is never
// handed to another organization.
async function takeRenderer(
  current: BrowserHolder,
  browser: Browser,
  organization: string,
  keep?: string,
): Promise<Renderer> {
  for (;;) {
    const mine = current.idle.filter((renderer) => renderer.organization === organization);
    // The one keeping this job's page, else one keeping none, else a new one while there is room for more
    // idle renderers, else the one whose kept page was used the longest ago.
    const renderer =
      (keep ? mine.findLast((candidate) => candidate.kept?.key === keep) : undefined) ??
      mine.findLast((candidate) => !candidate.kept) ??
      (current.idle.length >= config.exportConcurrency ? mine[0] : undefined);
    if (!renderer) break;
    current.idle.splice(current.idle.indexOf(renderer), 1);
    clearTimeout(renderer.idleTimer);
    let answered = false;
    if (usable(renderer, browser)) {
      await settlesWithin(
        renderer.keeper.evaluate("0").then(() => (answered = true)),
        PING_MS,
      );
    }
    if (answered) return renderer;
    void closeRenderer(current, renderer);
  }
  const spare = current.spare;
  current.spare = undefined;
  if (holder.__deckhandBrowser === current && current.jobs < RESTART_AFTER_JOBS) {
    current.spare = newRenderer(browser).catch(() => null);
  }
  let renderer = spare ? await spare : null;
  if (renderer && !usable(renderer, browser)) {
    void renderer.context.close().catch(() => {});
    renderer = null;
  }
  renderer ??= await newRenderer(browser);
  renderer.organization = organization;
  return renderer;
}

// A renderer whose job ended well waits for its organization's next job; the least recently used go first
// past EXPORT_CONCURRENCY idle ones, and any after IDLE_MS.
function keepIdle(current: BrowserHolder, renderer: Renderer): void {
  if (holder.__deckhandBrowser !== current || current.jobs >= RESTART_AFTER_JOBS || renderer.jobs >= RENDERER_JOBS) {
    return void closeRenderer(current, renderer);
  }
  current.idle.push(renderer);
  renderer.idleTimer = setTimeout(() => {
    const index = current.idle.indexOf(renderer);
    if (index === -1) return;
    current.idle.splice(index, 1);
    void closeRenderer(current, renderer);
  }, IDLE_MS);
  renderer.idleTimer.unref();
  while (current.idle.length > config.exportConcurrency) void closeRenderer(current, current.idle.shift()!);
}

/**
 * The renderers waiting for a job (at most as many as the exports an instance renders at once), with the key
 * of the page each keeps.
 */
export function idleRenderers(): { organization: string | null; jobs: number; keeping: string | null }[] {
  const current = holder.__deckhandBrowser;
  return (current?.idle ?? []).map(({ organization, jobs, kept }) => ({
    organization,
    jobs,
    keeping: kept?.key ?? null,
  }));
}

function forgetIdle(current: BrowserHolder): void {
  for (const renderer of current.idle) clearTimeout(renderer.idleTimer);
  current.idle = [];
}

async function renderInContext<T>(
  options: RenderJobOptions,
  job: RenderJob<T>,
): Promise<{ result: T; cleanup: Promise<void> }> {
  const current = currentBrowser();
  current.jobs += 1;
  current.active += 1;
  let renderer: Renderer | undefined;
  let page: Page | undefined;
  const session: RenderSession = { reused: false, keep: options.keep !== undefined };
  let served: { serve: Serve } = { serve: options.serve };
  let result: T;
  try {
    const browser = await current.browser;
    renderer = await takeRenderer(current, browser, options.organization, options.keep);
    renderer.jobs += 1;
    const kept = renderer.kept;
    renderer.kept = undefined;
    if (kept && kept.key === options.keep && !kept.page.isClosed()) {
      ({ page, job: served } = kept);
      served.serve = options.serve;
      session.reused = true;
    } else {
      if (kept) await settlesWithin(kept.page.close(), CLOSE_TIMEOUT_MS);
      page = await newJobPage(browser, renderer, options, served);
    }
    result = await runJob(page, options, () => job(page!, session));
  } catch (error) {
    current.active -= 1;
    await endJob(current, renderer, page, false);
    throw error;
  }
  const kept = session.keep && options.keep !== undefined ? { key: options.keep, page, job: served } : page;
  const cleanup = endJob(current, renderer, kept, true).finally(() => (current.active -= 1));
  return { result, cleanup };
}

// The job, within its deadline; a DeckFaultError when the page's renderer crashes meanwhile.
async function runJob<T>(page: Page, options: RenderJobOptions, job: () => Promise<T>): Promise<T> {
  let onError = () => {};
  const crashed = new Promise<never>((_, reject) => {
    onError = () => reject(new DeckFaultError("The deck crashed the renderer (it may use too much memory)."));
    page.once("error", onError);
  });
  crashed.catch(() => {}); // a crash after the job has ended is nobody's concern
  try {
    return await Promise.race([withDeadline(job(), options.timeoutMs, "finish rendering"), crashed]);
  } finally {
    page.off("error", onError);
  }
}

// A new page for a job, in the renderer's process, with every request answered by the job's `serve`
// (`served`, which a later job handed the page kept for it replaces) and one navigation of the top frame.
async function newJobPage(
  browser: Browser,
  renderer: Renderer,
  options: RenderJobOptions,
  served: { serve: Serve },
): Promise<Page> {
  const ahead = renderer.next ? await renderer.next : null;
  renderer.next = undefined;
  const page = ahead && !ahead.isClosed() ? ahead : await newPage(browser, renderer.context);
  page.setDefaultTimeout(options.timeoutMs);
  await page.setViewport({ deviceScaleFactor: 1, ...options.viewport });
  await page.setRequestInterception(true);
  // Puppeteer turns the cache off with interception; only the player's files can be cached (see answer).
  await page.setCacheEnabled(true);
  const navigations = { count: 0 };
  const origin = await renderOrigin();
  page.on("request", (request) => void answer(request, served.serve, page, navigations, origin).catch(() => {}));
  return page;
}

// Every page draws no frames of its own (Chromium's begin-frame control): its document is laid out, run and
// printed as any other, but nothing is rasterised or composited unless asked. On a page drawing frames as a
// tab does, the compositor rasterised every slide in reach again after each change while the deck was
// fitted: about a third of a PDF export's CPU, for pixels a PDF never uses. While the deck draws it is given
// main frames (withFrames), so requestAnimationFrame and ResizeObserver run; a picture is a frame drawn of
// the part wanted alone (pictureOf).
type Frames = { session: CDPSession; frame: Promise<unknown> };

// Pages made ahead and kept pages are handed to jobs run by any copy of this module (Next bundles it into
// several chunks: API routes, server actions, the job runner), so what is known of pages is process-wide, as
// the browser is (`holder`): a page's frames, the browser's DevTools session, and the count that names pages.
type Pages = { frames: WeakMap<Page, Frames>; sessions: WeakMap<Browser, Promise<CDPSession>>; made: number };
const pagesHolder = globalThis as typeof globalThis & { __deckhandPages?: Pages };
const pages = (pagesHolder.__deckhandPages ??= { frames: new WeakMap(), sessions: new WeakMap(), made: 0 });

// Asks for one frame, after the one asked for before it (Chromium refuses a frame while another is pending:
// a picture taken just as the deck was drawn would meet the last frame given while it drew).
function beginFrame(
  page: Frames,
  params: Protocol.HeadlessExperimental.BeginFrameRequest,
): Promise<Protocol.HeadlessExperimental.BeginFrameResponse> {
  const frame = page.frame.catch(() => {}).then(() => page.session.send("HeadlessExperimental.beginFrame", params));
  page.frame = frame;
  return frame;
}

async function newPage(browser: Browser, context: BrowserContext): Promise<Page> {
  let session = pages.sessions.get(browser);
  if (!session) pages.sessions.set(browser, (session = browser.target().createCDPSession()));
  // Opened at the render origin's blank page, in the renderer's process (the keeper is such a page): a page
  // opened at about:blank starts a process of its own, which its job's navigation to the render origin leaves.
  const url = `${await renderOrigin()}${BLANK_PATH}#${++pages.made}`;
  const [target] = await Promise.all([
    browser.waitForTarget((candidate) => candidate.url() === url, { timeout: CLOSE_TIMEOUT_MS }),
    session.then((browserSession) =>
      browserSession.send("Target.createTarget", {
        url,
        browserContextId: context.id,
        enableBeginFrameControl: true,
      }),
    ),
  ]);
  const page = await target.page();
  if (!page) throw new Error("Chromium made no page for a render job");
  pages.frames.set(page, { session: await page.createCDPSession(), frame: Promise.resolve() });
  return page;
}

/**
 * How often a page is given a frame while its deck draws: often enough that the deck's animation frames and
 * resize observers run, rarely enough that a big deck does not pay for a frame of its whole document every
 * 16 ms as a tab would (that made a 400-slide PDF about a sixth slower).
 */
const FRAME_MS = 100;

/**
 * Runs `work` while the page is given a main frame every FRAME_MS. Meanwhile the visible area is one pixel
 * (Emulation's viewport, which the page does not see): a frame still runs animation frames, resize observers,
 * style and layout, but paints and rasterises next to nothing. A frame of the whole viewport, rasterised again
 * after every change while the deck was fitted, had been about an eighth of a PDF export's CPU.
 */
export async function withFrames<T>(page: Page, work: Promise<T>): Promise<T> {
  work.catch(() => {}); // its failure is answered below, whatever happens first
  const state = pages.frames.get(page);
  if (!state) throw new Error("withFrames gives frames to render pages only");
  await setVisibleArea(page, state, { x: 0, y: 0, width: 1, height: 1, scale: 1 }).catch(() => {}); // closed: `work` says why
  let drawing = true;
  void (async () => {
    while (drawing && !page.isClosed()) {
      await beginFrame(state, { noDisplayUpdates: true });
      await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
    }
  })().catch(() => {}); // the page closed meanwhile
  try {
    return await work;
  } finally {
    drawing = false;
    await setVisibleArea(page, state).catch(() => {}); // closed meanwhile
  }
}

// Emulation's visible area of the page, which the page does not see: a box of the document at a scale, or
// (none given) the whole viewport again. Sent with the page's own metrics, as Puppeteer set them
// (page.setViewport), which it leaves as they are.
function setVisibleArea(page: Page, state: Frames, area?: Protocol.Page.Viewport) {
  const viewport = page.viewport();
  if (!viewport) throw new Error("Render pages have a viewport set");
  return state.session.send("Emulation.setDeviceMetricsOverride", {
    width: viewport.width,
    height: viewport.height,
    deviceScaleFactor: viewport.deviceScaleFactor ?? 1,
    mobile: false,
    screenOrientation: { angle: 0, type: "portraitPrimary" },
    ...(area ? { viewport: area } : {}),
  });
}

/**
 * A picture of part of a render page (a box in document coordinates, at `scale` device pixels per CSS pixel,
 * on the page's background or a transparent one): the part is scrolled into the viewport and a frame is
 * drawn of it alone (the visible area set to the box through Emulation's viewport, which the page does not
 * see), so Chromium encodes only the box.
 */
export async function pictureOf(
  page: Page,
  box: { x: number; y: number; width: number; height: number },
  {
    scale = 1,
    transparent = false,
    format = "png",
    quality,
    optimizeForSpeed = true,
    world,
  }: {
    scale?: number;
    transparent?: boolean;
    format?: "png" | "webp";
    quality?: number;
    /** Encoded fast rather than small (for a picture that is not kept as it is). */
    optimizeForSpeed?: boolean;
    /** The caller's isolated world of the page, when it has one open (else one is opened for the picture). */
    world?: IsolatedWorld;
  } = {},
): Promise<Buffer> {
  const state = pages.frames.get(page);
  if (!state) throw new Error("pictureOf takes pictures of render pages only");
  const own = world ? null : await openIsolatedWorld(page, "deckhand-picture");
  const scripts = (world ?? own)!;
  try {
    // The images in the box are decoded just before its frame (HTMLImageElement.decode: ready to be drawn in
    // the next frame): the page drew nothing while its deck drew, so the frame would otherwise be the first
    // to need them, and could be drawn before their decoding ends, without them.
    await scripts.evaluate(`(() => {
      window.scrollTo(${box.x}, ${box.y});
      const inBox = (rect) => rect.right + scrollX > ${box.x} && rect.left + scrollX < ${box.x + box.width}
        && rect.bottom + scrollY > ${box.y} && rect.top + scrollY < ${box.y + box.height};
      const images = [...document.images].filter((image) => inBox(image.getBoundingClientRect()));
      return Promise.all(images.map((image) => image.decode().catch(() => {}))).then(() => true);
    })()`);
    if (transparent) {
      await state.session.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
    }
    await setVisibleArea(page, state, { ...box, scale });
    // The first frame after the visible area changed may come before it is drawn: it is asked again.
    let screenshotData: string | undefined;
    for (let tries = 0; !screenshotData && tries < 5; tries++) {
      ({ screenshotData } = await beginFrame(state, { screenshot: { format, quality, optimizeForSpeed } }));
    }
    if (!screenshotData) throw new Error("Chromium drew no frame to take a picture of");
    return Buffer.from(screenshotData, "base64");
  } finally {
    await setVisibleArea(page, state).catch(() => {});
    if (transparent) await state.session.send("Emulation.setDefaultBackgroundColorOverride", {}).catch(() => {});
    await scripts.evaluate("window.scrollTo(0, 0)").catch(() => {});
    await own?.close();
  }
}

// The job's page is closed (or kept, `KeptPage`) and whatever the render origin stored is cleared (deck
// documents are sandboxed and cannot store anything; this holds should that change); the renderer is kept
// when the job ended well and both were done in time, else closed (a deck that loops or crashed may have
// left its process unwell).
async function endJob(
  current: BrowserHolder,
  renderer: Renderer | undefined,
  page: Page | KeptPage | undefined,
  ended: boolean,
) {
  if (!renderer) return;
  const origin = await renderOrigin();
  const clear = () => renderer.session.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
  const kept = page && "key" in page ? page : undefined;
  let cleared = false;
  // A failed job's page is not closed on its own: its renderer is closed with all its pages below.
  if (ended) {
    const closing = kept ? Promise.resolve() : ((page as Page | undefined)?.close() ?? Promise.resolve());
    await settlesWithin(
      closing.then(clear).then(() => (cleared = true)),
      CLOSE_TIMEOUT_MS,
    );
  }
  if (cleared && usable(renderer, await current.browser)) {
    renderer.kept = kept;
    renderer.next ??= newPage(await current.browser, renderer.context).catch(() => null);
    keepIdle(current, renderer);
  } else await closeRenderer(current, renderer);
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

/** Whether `closing` settled (either way) within `ms`. */
async function settlesWithin(closing: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    closing.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return closed;
}

// A page whose script never yields still closes with its context (Chromium ends the renderer process); if
// even that does not answer, the whole browser goes and the next job launches a fresh one.
async function closeRenderer(current: BrowserHolder, renderer: Renderer): Promise<void> {
  clearTimeout(renderer.idleTimer);
  if (await settlesWithin(renderer.context.close(), CLOSE_TIMEOUT_MS)) return;
  if (holder.__deckhandBrowser === current) holder.__deckhandBrowser = undefined;
  forgetIdle(current);
  await current.browser.then((browser) => browser.close()).catch(() => {});
}

export type PlayerReport = { count: number; missingFonts: string[]; errors: string[]; notes: string[] };

// Waits until the player says the deck is drawn and its fonts are loaded.
export async function waitForPlayer(page: Page): Promise<PlayerReport> {
  // Checked at each change to the document: a page that draws no frames of its own runs no animation frames.
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true", { polling: "mutation" });
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
  if (current) forgetIdle(current);
  if (current) await (await current.browser).close().catch(() => {});
}
