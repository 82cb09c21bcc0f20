import type { Browser, Page } from "puppeteer-core";
import { chromiumArgs, chromiumExecutablePath } from "./chromium";

// One Chromium per process, launched on first use, reused across jobs and restarted after a number of
// jobs (long-lived renderers accumulate memory). Each job gets a fresh incognito context whose only
// reachable origin is the app's own: every other request is aborted.

const RESTART_AFTER_JOBS = 50;

type BrowserHolder = { browser: Promise<Browser>; jobs: number; active: number };
const holder = globalThis as typeof globalThis & { __deckhandBrowser?: BrowserHolder };

async function launch(): Promise<Browser> {
  const puppeteer = await import("puppeteer-core");
  return puppeteer.launch({
    executablePath: await chromiumExecutablePath(),
    args: [...chromiumArgs],
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
    current = { browser: launch(), jobs: 0, active: 0 };
    const launched = current;
    launched.browser.catch(() => {
      if (holder.__deckhandBrowser === launched) holder.__deckhandBrowser = undefined;
    });
    launched.browser.then((browser) =>
      browser.on("disconnected", () => {
        if (holder.__deckhandBrowser === launched) holder.__deckhandBrowser = undefined;
      }),
    );
    holder.__deckhandBrowser = current;
  }
  return current;
}

export type RenderJobOptions = {
  /** The only origin the page may load from. */
  allowedOrigin: string;
  viewport: { width: number; height: number; deviceScaleFactor?: number };
  timeoutMs: number;
};

// Runs `job` with a page in a fresh, isolated context; the context is closed whatever happens.
export async function withRenderPage<T>(options: RenderJobOptions, job: (page: Page) => Promise<T>): Promise<T> {
  const current = currentBrowser();
  current.jobs += 1;
  current.active += 1;
  const browser = await current.browser;
  const context = await browser.createBrowserContext();
  let timer: NodeJS.Timeout | undefined;
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs);
    await page.setViewport({ deviceScaleFactor: 1, ...options.viewport });
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith(`${options.allowedOrigin}/`) || url.startsWith("data:")) void request.continue();
      else void request.abort("blockedbyclient");
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`rendering took longer than ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
    });
    return await Promise.race([job(page), timeout]);
  } finally {
    clearTimeout(timer);
    current.active -= 1;
    await context.close().catch(() => {});
  }
}

// Waits until the player says the deck is drawn and its fonts are loaded.
export async function waitForPlayer(page: Page): Promise<{ count: number; missingFonts: string[]; errors: string[] }> {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  return page.evaluate(() => {
    const status = window.__deckhand;
    return { count: status?.count ?? 0, missingFonts: status?.missingFonts ?? [], errors: status?.errors ?? [] };
  });
}

export async function closeRenderBrowser(): Promise<void> {
  const current = holder.__deckhandBrowser;
  holder.__deckhandBrowser = undefined;
  if (current) await (await current.browser).close().catch(() => {});
}
