import { type Browser, type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import fs from "node:fs";
import { expect } from "vitest";
import { chromiumExecutablePath, testChromiumArgs } from "@/lib/render/chromium";
import { stableScreenshot } from "./screenshots";

// A real Chromium for end-to-end tests (the binary of @sparticuz/chromium, or CHROMIUM_PATH).
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutablePath(), args: [...testChromiumArgs] });
}

// Opens a deck frame document (/d/{slug}/embed, /preview/{token}/frame) the way it is served: inside a
// sandboxed iframe that fills the viewport (opened as a page of its own, it redirects to the share page).
// The host page is made up on the app's origin by the browser itself, so the frame's frame-ancestors hold.
export async function openDeckFrame(page: Page, url: string): Promise<Frame> {
  const host = new URL("/__deck-frame-host", url).toString();
  await page.route(host, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;width:100vw;height:100vh;border:0}</style><iframe id="deck" sandbox="allow-scripts" src="${url.replace(/"/g, "&quot;")}"></iframe>`,
    }),
  );
  await page.goto(host);
  const frame = await (await page.waitForSelector("#deck")).contentFrame();
  if (!frame) throw new Error("no deck frame");
  await frame.waitForFunction(() => document.documentElement.dataset.ready === "true");
  return frame;
}

// Whether the page would make the browser ask before it is left (reloaded, closed): it cancels
// `beforeunload`. Checked by dispatching the event rather than by waiting for Chromium's prompt, which
// Chromium skips when the page is slow to answer (on a busy CI machine a test then waited for a dialog
// that never came).
export function asksBeforeUnload(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

// Every request the browser starts for a context's pages and frames, until it has finished or failed: once
// none is left in flight, anything that got out has arrived where it went.
export function requestsInFlight(context: BrowserContext): Set<unknown> {
  const inFlight = new Set<unknown>();
  context.on("request", (request) => inFlight.add(request));
  context.on("requestfinished", (request) => inFlight.delete(request));
  context.on("requestfailed", (request) => inFlight.delete(request));
  return inFlight;
}

// One slide of a public deck's embed, drawn on a 1280x720 page, its screenshot written to `shot`.
export async function openSlide(browser: Browser, origin: string, slug: string, slide: number, shot: string) {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  const frame = await openDeckFrame(page, `${origin}/d/${slug}/embed?chrome=0&slide=${slide}`);
  await expect
    .poll(() => frame.locator(`.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${slide}"]`).count())
    .toBe(1);
  fs.writeFileSync(shot, await stableScreenshot(page));
  return { page, frame };
}
