import type { Browser, HTTPRequest, Page } from "puppeteer-core";
import { chromiumArgs, chromiumExecutablePath } from "./chromium";

// One Chromium per process, launched on first use, reused across jobs and restarted after a number of
// jobs (long-lived renderers accumulate memory). Each job gets a fresh incognito context with no network
// at all: every request is answered from memory by the job's own `serve` function or aborted.

const RESTART_AFTER_JOBS = 50;

type BrowserHolder = { browser: Promise<Browser>; jobs: number; active: number };
const holder = globalThis as typeof globalThis & { __deckhandBrowser?: BrowserHolder };

async function launch(): Promise<Browser> {
  const puppeteer = await import("puppeteer-core");
  return puppeteer.launch({
    executablePath: await chromiumExecutablePath(),
    args: [
      ...chromiumArgs,
      // Request interception sees HTTP only: WebRTC (STUN/TURN) would still reach the network, so UDP is
      // limited to the proxy and the proxy is a closed loopback port.
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--proxy-server=127.0.0.1:9",
    ],
    headless: true,
    defaultViewport: null,
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

/** What the page may load: a Response for URLs the job serves, null for everything else (aborted). */
export type Serve = (url: URL) => Response | null | Promise<Response | null>;

export type RenderJobOptions = {
  serve: Serve;
  viewport: { width: number; height: number; deviceScaleFactor?: number };
  timeoutMs: number;
};

async function answer(request: HTTPRequest, serve: Serve): Promise<void> {
  const url = request.url();
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

// Runs `job` with a page in a fresh, isolated context; the context is closed whatever happens.
export async function withRenderPage<T>(options: RenderJobOptions, job: (page: Page) => Promise<T>): Promise<T> {
  const current = currentBrowser();
  current.jobs += 1;
  current.active += 1;
  let timer: NodeJS.Timeout | undefined;
  let context: Awaited<ReturnType<Browser["createBrowserContext"]>> | undefined;
  try {
    const browser = await current.browser;
    context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs);
    await page.setViewport({ deviceScaleFactor: 1, ...options.viewport });
    await page.setRequestInterception(true);
    page.on("request", (request) => void answer(request, options.serve).catch(() => {}));
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Rendering took longer than ${Math.round(options.timeoutMs / 1000)} s`)),
        options.timeoutMs,
      );
    });
    return await Promise.race([job(page), timeout]);
  } finally {
    clearTimeout(timer);
    current.active -= 1;
    await context?.close().catch(() => {});
  }
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
