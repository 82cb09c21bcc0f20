import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumExecutablePath, testChromiumArgs } from "@/lib/render/chromium";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";

// Analytics end to end in a real Chromium: the share page reports the slides its frame shows, the API
// answers the view, the time on each slide and where the view stopped. Time on a slide is driven by
// Playwright's clock (runFor advances the page's timers and performance.now by that much, on top of the
// real time that passes), so the test waits for conditions only, never for a fixed time.
//
// Viewers are whole browsers launched with a desktop Chrome's user agent: headless Chromium says
// "HeadlessChrome", which the server counts as a bot, and a context's user-agent override does not reach
// the beacon Chromium sends after the page is gone (pagehide). The hash is of address and user agent, so two
// browsers with different user agents on one machine are two viewers, like two people behind one NAT
// with different browsers.

let server: AppServer;
const browsers: Browser[] = [];
let author: TestUser;
let deckId: string;
let slug: string;

const userAgent = (version: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`;

const source = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Talk() {
  return (
    <Deck>
      ${["One", "Two", "Three", "Four", "Five"].map((label) => `<Slide label="${label}"><Heading>${label}</Heading></Slide>`).join("\n      ")}
    </Deck>
  );
}`;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  author = await createUser();
  const created = await call("POST", "/decks", { key: author.key, body: { title: "Read by many" } });
  deckId = created.body.id;
  expect((await call("PUT", `/decks/${deckId}/content`, { key: author.key, body: { source } })).status).toBe(200);
  const published = await call("PATCH", `/decks/${deckId}`, { key: author.key, body: { visibility: "public" } });
  slug = String(published.body.publicUrl).split("/d/")[1]!;
}, 120_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close().catch(() => {});
  await server?.close();
});

async function viewer(version: number): Promise<BrowserContext> {
  const browser = await chromium.launch({
    executablePath: await chromiumExecutablePath(),
    args: [...testChromiumArgs, `--user-agent=${userAgent(version)}`],
  });
  browsers.push(browser);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.clock.install();
  return context;
}

const analytics = async () => {
  const response = await call("GET", `/decks/${deckId}/analytics`, { key: author.key });
  expect(response.status).toBe(200);
  return response.body;
};

// Opens the share page and waits until the deck is drawn and the page shows slide 1 in its hash.
async function open(context: BrowserContext, referer?: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.origin}/d/${slug}`, referer ? { referer } : {});
  const frame = await (await page.waitForSelector("#dh-frame")).contentFrame();
  await frame!.waitForFunction(() => document.documentElement.dataset.ready === "true", undefined, { timeout: 20_000 });
  await expect.poll(() => new URL(page.url()).hash).toBe("#1");
  return page;
}

async function next(page: Page, slide: number) {
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => new URL(page.url()).hash).toBe(`#${slide}`);
}

// Leaving the page: pagehide sends what is left with navigator.sendBeacon.
async function leave(page: Page) {
  await page.goto("about:blank");
  await page.close();
}

describe("analytics of a shared deck", () => {
  it("counts the view, the time on each slide and where it stopped; the same browser again is the same viewer", async () => {
    const context = await viewer(147);
    const page = await open(context, "https://news.example.com/some/post?id=1");
    await page.clock.runFor(4000);
    await next(page, 2);
    await page.clock.runFor(3000);
    await next(page, 3);
    await page.clock.runFor(2000);
    // Live: the view is counted while the page is still open.
    await expect.poll(async () => (await analytics()).totals.views).toBe(1);
    await leave(page);

    await expect.poll(async () => (await analytics()).perSlide[2].seconds).toBeGreaterThanOrEqual(2);
    const result = await analytics();
    expect(result.totals).toMatchObject({ views: 1, uniqueViewers: 1, sharePageViews: 1, embedViews: 0 });
    const [one, two, three, four] = result.perSlide;
    // runFor's time plus the real time of a key press and a state message: 1.5 s of slack for a busy machine.
    for (const [slide, seconds] of [
      [one, 4],
      [two, 3],
      [three, 2],
    ] as const) {
      expect(slide.seconds).toBeGreaterThanOrEqual(seconds);
      expect(slide.seconds).toBeLessThan(seconds + 1.5);
    }
    expect([one.reached, two.reached, three.reached, four.reached]).toEqual([1, 1, 1, 0]);
    // The drop-off: the view stopped at slide 3.
    expect(result.perSlide.map((slide: { exits: number }) => slide.exits)).toEqual([0, 0, 1, 0, 0]);
    expect(result.totals.completionRate).toBe(0);
    expect(result.referrers).toEqual([{ host: "news.example.com", views: 1 }]);
    expect(result.perDay.at(-1)).toMatchObject({ views: 1, uniqueViewers: 1 });

    // The same browser again: a second view, the same viewer.
    await leave(await open(context));
    await expect.poll(async () => (await analytics()).totals.views).toBe(2);
    expect((await analytics()).totals.uniqueViewers).toBe(1);
  }, 120_000);

  it("counts a second browser as a second viewer, and its presenter window as a presenter session", async () => {
    const context = await viewer(146);
    await leave(await open(context));
    await expect.poll(async () => (await analytics()).totals.views).toBe(3);
    expect((await analytics()).totals.uniqueViewers).toBe(2);

    const presenter = await context.newPage();
    await presenter.goto(`${server.origin}/d/${slug}/presenter`);
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("1 / 5");
    await presenter.clock.runFor(2500);
    await expect.poll(async () => (await analytics()).totals.presenterSessions).toBe(1);
    // Not a view: the slides it shows are the share page's.
    expect((await analytics()).totals).toMatchObject({ views: 3, uniqueViewers: 2 });
    await presenter.close();
  }, 60_000);

  it("records nothing for Do-Not-Track, Global Privacy Control or a headless browser", async () => {
    const browser = await launchBrowser();
    browsers.push(browser);
    const refused: BrowserContextOptions[] = [
      { userAgent: userAgent(145), extraHTTPHeaders: { DNT: "1" } },
      { userAgent: userAgent(144), extraHTTPHeaders: { "Sec-GPC": "1" } },
      // Playwright's own user agent, "HeadlessChrome": a bot.
      {},
    ];
    for (const options of refused) {
      const context = await browser.newContext(options);
      await context.clock.install();
      const page = await context.newPage();
      // The script still sends (this browser does not tell scripts about DNT); the server keeps nothing.
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === `/d/${slug}/events`);
      await page.goto(`${server.origin}/d/${slug}`);
      await page.clock.runFor(2500);
      expect((await answered).status()).toBe(204);
      // Closed without unload handlers: no beacon without the context's headers.
      await page.close({ runBeforeUnload: false });
      await context.close();
    }
    expect((await analytics()).totals).toMatchObject({ views: 3, uniqueViewers: 2 });
  }, 60_000);

  it("counts an embed on another site as an embed, with that site as the referrer", async () => {
    const context = await viewer(143);
    const page = await context.newPage();
    // Another site on loopback, served for real (Chromium's local-network checks refuse a page it cannot
    // place on the local network framing a local address): "localhost" is not the app's 127.0.0.1.
    const blogServer = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><title>A blog</title><iframe id="deck" src="${server.origin}/d/${slug}/embedded" width="960" height="540"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => blogServer.listen(0, "127.0.0.1", resolve));
    const blog = `http://localhost:${(blogServer.address() as AddressInfo).port}/a-blog-post`;
    await page.goto(blog);
    const embedded = await (await page.waitForSelector("#deck")).contentFrame();
    const deck = await (await embedded!.waitForSelector("#dh-frame")).contentFrame();
    await deck!.waitForFunction(() => document.documentElement.dataset.ready === "true", undefined, {
      timeout: 20_000,
    });
    await page.clock.runFor(2500);
    await expect.poll(async () => (await analytics()).totals.embedViews).toBe(1);
    const result = await analytics();
    expect(result.totals).toMatchObject({ views: 4, sharePageViews: 3, embedViews: 1, uniqueViewers: 3 });
    expect(result.referrers).toContainEqual({ host: new URL(blog).host, views: 1 });
    await new Promise((resolve) => blogServer.close(resolve));
  }, 60_000);
});
