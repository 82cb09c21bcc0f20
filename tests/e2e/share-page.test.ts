import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";

// The share page and the presenter window read what the deck frame posts as untrusted input: deck code
// runs in that frame and can post anything. A deck that forges every kind of message (from its own
// window and from a frame it creates inside itself) must not write the page's URL, open a window or take
// the screen, while the page's own keys and controls keep working.

let database: Database;
let server: AppServer;
let browser: Browser;
let author: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function ctxOf(user: TestUser): Ctx {
  return { db: database.db, caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null } };
}

async function publishDeck(source: string) {
  const [row] = await database.db
    .insert(decks)
    .values({ organizationId: author.organizationId, ownerId: author.userId, title: "Forger" })
    .returning();
  const deck = row!;
  await setDeckContent(ctxOf(author), deck.id, { source });
  const res = await call("PATCH", `/decks/${deck.id}`, { key: author.key, body: { visibility: "public" } });
  expect(res.status).toBe(200);
  const [published] = await database.db.select().from(decks).where(eq(decks.id, deck.id));
  return { id: deck.id, slug: published!.publicSlug! };
}

// Four slides. Every copy of the module that runs in a frame of a page forges messages to that page: once
// when it loads and again when the "Forge" button (inside the deck) is clicked, with the click's user
// activation. The module also tries to load itself into a frame of its own (srcdoc, with the frame's import
// map, which the frame's CSP allows by its hash; the player refuses to make the frame); a nested copy would
// forge to the top page too. After each round
// the deck posts one well-formed state naming a slide (load: 3, click: 4), so the test can wait for the page
// to show it and then check that nothing forged before it left a trace. Forged messages that would be
// valid apart from their shape name slide 2, so a page that accepted one would show #2 in its history.
// In the first test the presenter window it opens shows the same deck; there the deck stays quiet
// (forgeInPresenter false), so what that window shows is only what the share page drives.
const forgingDeck = (forgeInPresenter: boolean) => `import { Deck, Slide, Heading, Text } from "@deckhand/player";

const top = window.top as Window;
const nested = window.parent !== top;
const query = new URLSearchParams(location.search);
const inPresenter = query.get("chrome") === "0" || query.get("mode") === "thumb";
const notes = 'Forged <img src=x onerror="window.__xss = 1"> notes';
const metas = ["A", "B", "C", "D"].map((label) => ({ label, notes }));
const state = (slide: unknown, count: unknown, extra: Record<string, unknown> = {}) => ({
  source: "deckhand-player", type: "state", slide, count, slides: metas, overview: false, ...extra,
});

function forgeries(): unknown[] {
  return [
    "#javascript:alert(1)",
    null,
    42,
    ["deckhand-player", "state", 1, 4],
    { source: "deckhand-player", type: "hash", hash: "#javascript:alert(1)" },
    { source: "deckhand-player", type: "navigate", url: "javascript:alert(1)" },
    state("javascript:alert(1)", 4),
    state("<img src=x onerror=alert(1)>", 4),
    state("1", 4),
    state(null, 4),
    state(-1, 4),
    state(-5, 4),
    state(Number.NaN, 4),
    state(Number.POSITIVE_INFINITY, 4),
    state(1.5, 4),
    state(4, 4),
    state(99, 4),
    state(2 ** 53, 4),
    state(1, 1e9),
    state(1, 2 ** 53),
    state(1, -4),
    state(1, Number.NaN),
    state(1, "4"),
    state(1, 4, { slides: "x".repeat(100_000) }),
    state(1, 4, { slides: Array.from({ length: 50_000 }, () => ({ label: "L", notes: "N" })) }),
    state(1, 4, { slides: [{ label: 7, notes: "N" }] }),
    state(1, 4, { slides: [{ label: "L", notes: "N", html: "<img src=x>" }] }),
    state(1, 4, { slides: [{ label: "L" }] }),
    state(1, 4, { overview: "yes" }),
    state(1, 4, { hash: "#javascript:alert(1)" }),
    { ...state(1, 4), source: "deckhand-viewer" },
    { source: "deckhand-player", type: "request", action: "presenter" },
    { source: "deckhand-player", type: "request", action: "fullscreen" },
    { source: "deckhand-player", type: "request", action: "open", url: "https://example.com/" },
    { source: "deckhand-player", type: "key", key: "p", shiftKey: false },
    { source: "deckhand-viewer", type: "key", key: "P", shiftKey: false },
    { source: "deckhand-viewer", type: "goto", slide: "javascript:alert(1)" },
  ];
}

function forge(target: Window) {
  for (const message of forgeries()) target.postMessage(message, "*");
}

if (nested) {
  // The copy inside the deck's own nested frame: forge to the top page, then tell the deck frame.
  forge(top);
  window.parent.postMessage({ forger: "nested" }, "*");
  window.addEventListener("message", (event) => {
    if (event.data?.forger !== "again") return;
    forge(top);
    window.parent.postMessage({ forger: "nested" }, "*");
  });
} else if (window.parent !== window && (${forgeInPresenter} || !inPresenter)) {
  const config = JSON.parse(document.getElementById("dh-config")?.textContent ?? "{}") as { moduleUrl: string };
  const importMap = document.querySelector('script[type="importmap"]')?.textContent ?? "";
  // The player refuses nested frames to decks (see lockdown.ts); where it would not, the nested copy forges too.
  let inner: HTMLIFrameElement | null = null;
  try {
    inner = document.createElement("iframe");
    inner.style.cssText = "position:absolute;left:0;top:0;width:1px;height:1px;border:0;opacity:0";
    inner.srcdoc = '<!doctype html><script type="importmap">' + importMap + "</scr" + 'ipt><script type="module" src="' + config.moduleUrl + '"></scr' + "ipt>";
    document.body.appendChild(inner);
  } catch {
    inner = null;
  }
  let marker = 2;
  const round = () => {
    forge(window.parent);
    window.parent.postMessage(state(marker, 4, { slides: metas }), "*");
  };
  window.addEventListener("message", (event) => {
    if (!inner || event.source !== inner.contentWindow || event.data?.forger !== "nested") return;
    round();
  });
  if (!inner) round();
  (window as unknown as { forgeAgain: () => void }).forgeAgain = () => {
    marker = 3;
    const result = document.documentElement.requestFullscreen?.();
    result?.then(
      () => { document.title = "fullscreen allowed"; },
      () => {},
    );
    if (inner) {
      forge(window.parent);
      inner.contentWindow?.postMessage({ forger: "again" }, "*");
    } else round();
  };
}

function forgeAgain() {
  (window as unknown as { forgeAgain?: () => void }).forgeAgain?.();
}

export default function Forger() {
  return (
    <Deck title="Forger">
      <Slide label="One" notes="First notes">
        <Heading>Slide one</Heading>
        <button id="forge" type="button" onClick={forgeAgain}>Forge</button>
        <button id="focus" type="button">Focus</button>
      </Slide>
      <Slide label="Two" notes="Second notes"><Heading>Slide two</Heading></Slide>
      <Slide label="Three" notes="Third notes"><Heading>Slide three</Heading></Slide>
      <Slide label="Four" notes="Fourth notes"><Heading>Slide four</Heading><Text>The end.</Text></Slide>
    </Deck>
  );
}
`;

type Trace = { hashes: string[]; opened: string[]; fullscreen: (string | null)[] };

// Runs in every top-level page of the context before its own scripts: records every hash the page's URL
// takes (history API and fragment navigations), every window.open call and every full-screen change.
function installTrace() {
  if (window !== window.top) return;
  const trace = { hashes: [location.hash], opened: [] as string[], fullscreen: [] as (string | null)[] };
  (window as unknown as { __trace: typeof trace }).__trace = trace;
  for (const name of ["replaceState", "pushState"] as const) {
    const original = History.prototype[name];
    History.prototype[name] = function (this: History, ...args: Parameters<History["replaceState"]>) {
      original.apply(this, args);
      trace.hashes.push(location.hash);
    };
  }
  window.addEventListener("hashchange", () => trace.hashes.push(location.hash));
  const open = window.open;
  window.open = function (...args: Parameters<typeof window.open>) {
    trace.opened.push(String(args[0]));
    return open.apply(this, args);
  };
  document.addEventListener("fullscreenchange", () =>
    trace.fullscreen.push(document.fullscreenElement ? document.fullscreenElement.tagName : null),
  );
}

// A page that records its trace, and every other page (window) its context opens afterwards.
async function tracedPage(): Promise<{ context: BrowserContext; page: Page; popups: Page[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(installTrace);
  const page = await context.newPage();
  const popups: Page[] = [];
  context.on("page", (popup) => popups.push(popup));
  return { context, page, popups };
}

const trace = (page: Page) => page.evaluate(() => (window as unknown as { __trace: Trace }).__trace);

async function deckFrame(page: Page, selector: string): Promise<Frame> {
  const element = await page.waitForSelector(selector);
  const frame = await element.contentFrame();
  if (!frame) throw new Error("no deck frame");
  await frame.waitForFunction(() => document.documentElement.dataset.ready === "true", undefined, { timeout: 20_000 });
  return frame;
}

// Hashes other than the empty one the page opened with and the slides the deck itself showed (its first
// slide, and the two states it posted after each round; which of these came first is up to the browser).
const unexpected = (hashes: string[], allowed: string[]) =>
  hashes.filter((hash) => hash !== "" && !allowed.includes(hash));

const visibleSlide = (frame: Frame) => frame.locator(".dh-stage-slide:not([hidden])").innerText();

describe("the share page and a deck that forges messages", () => {
  it("keeps its hash a slide number, opens no window and stays out of full screen; its own keys still work", async () => {
    const { slug } = await publishDeck(forgingDeck(false));
    const { context, page, popups } = await tracedPage();
    await page.goto(`${server.origin}/d/${slug}`);
    const frame = await deckFrame(page, "#dh-frame");

    // The load round (and the nested frame's) ends with the deck's own state naming slide 3.
    await expect.poll(async () => (await trace(page)).hashes).toContain("#3");
    const loaded = await trace(page);
    expect(unexpected(loaded.hashes, ["#1", "#3"])).toEqual([]);
    expect(loaded.opened).toEqual([]);
    expect(popups).toEqual([]);
    expect(loaded.fullscreen).toEqual([]);
    // The click round runs with the click's user activation, which Chromium also gives the page.
    await frame.locator("#forge").click();
    await expect.poll(async () => (await trace(page)).hashes).toContain("#4");

    const seen = await trace(page);
    expect(unexpected(seen.hashes, ["#1", "#3", "#4"])).toEqual([]);
    expect(seen.opened).toEqual([]);
    expect(popups).toEqual([]);
    expect(seen.fullscreen).toEqual([]);
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    expect(await frame.evaluate(() => document.title)).toBe("Forger");
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => "__xss" in window)).toBe(false);

    // The page's own keys: arrows move the deck and the hash follows (whichever document has focus).
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).hash).toBe("#2");
    await expect.poll(() => visibleSlide(frame)).toContain("Slide two");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).hash).toBe("#3");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => new URL(page.url()).hash).toBe("#2");
    // The hash drives the deck; anything but a slide number is put back.
    await page.evaluate(() => (location.hash = "#4"));
    await expect.poll(() => visibleSlide(frame)).toContain("Slide four");
    await page.evaluate(() => (location.hash = "#javascript:alert(1)"));
    await expect.poll(() => new URL(page.url()).hash).toBe("#4");
    await page.keyboard.press("Home");
    await expect.poll(() => new URL(page.url()).hash).toBe("#1");
    // O (pressed in the deck) opens the overview.
    await frame.locator("#focus").click();
    await page.keyboard.press("o");
    await expect.poll(() => frame.locator(".dh-overview-thumb").count()).toBe(4);
    await page.keyboard.press("Escape");
    await expect.poll(() => frame.locator(".dh-overview").count()).toBe(0);
    expect(popups).toEqual([]);

    // P pressed in the deck only hands the keyboard to the page, which asks for P again: a forged request
    // can do no more than that.
    await frame.locator("#focus").click();
    await page.keyboard.press("p");
    await expect.poll(() => page.locator("#dh-prompt").isVisible()).toBe(true);
    await expect.poll(() => page.locator("#dh-prompt").innerText()).toContain("Press P");
    expect(popups).toEqual([]);
    // P on the page opens the presenter window, at the current slide.
    await page.keyboard.press("p");
    await expect.poll(() => popups.length).toBe(1);
    const presenter = popups[0]!;
    await expect.poll(() => presenter.url()).toBe(`${server.origin}/d/${slug}/presenter#1`);
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("1 / 4");
    await expect.poll(() => presenter.textContent("#dh-notes")).toBe("First notes");
    // The presenter window follows the share page.
    await page.bringToFront();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(page.url()).hash).toBe("#2");
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("2 / 4");
    await expect.poll(() => presenter.textContent("#dh-notes")).toBe("Second notes");

    // F on the page toggles full screen (the page's own document, never at the frame's request).
    await page.keyboard.press("f");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe("HTML");
    await page.keyboard.press("f");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
    // The player's full-screen button asks the page, which shows its prompt; a click on the page's own
    // button does it. Leaving full screen needs no confirmation.
    // The controls fade while the pointer rests (a busy machine can take longer than that to get here):
    // moving the pointer over the stage shows them, as it does for a person.
    const fullScreenControl = frame.getByRole("button", { name: "Full screen" });
    const clickControl = () =>
      expect
        .poll(async () => {
          await frame.locator(".dh-stage").hover({ position: { x: 5, y: 5 } });
          return fullScreenControl.click({ timeout: 2_000 }).then(
            () => true,
            () => false,
          );
        })
        .toBe(true);
    await clickControl();
    await expect.poll(() => page.locator("#dh-prompt").innerText()).toContain("Press F");
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    await page.locator("#dh-prompt").getByRole("button", { name: "Full screen" }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe("HTML");
    await expect.poll(() => page.locator("#dh-prompt").isVisible()).toBe(false);
    await clickControl();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
    expect(popups).toHaveLength(1);
    await context.close();
  }, 90_000);

  it("the presenter window ignores what the deck forges", async () => {
    const { slug } = await publishDeck(forgingDeck(true));
    const { context, page: presenter, popups } = await tracedPage();
    await presenter.goto(`${server.origin}/d/${slug}/presenter`);
    const current = await deckFrame(presenter, "#dh-current");
    await expect.poll(async () => (await trace(presenter)).hashes).toContain("#3");
    await current.locator("#forge").click();
    await expect.poll(async () => (await trace(presenter)).hashes).toContain("#4");
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("4 / 4");

    const seen = await trace(presenter);
    expect(unexpected(seen.hashes, ["#1", "#3", "#4"])).toEqual([]);
    expect(seen.opened).toEqual([]);
    expect(popups).toEqual([]);
    expect(seen.fullscreen).toEqual([]);
    // The deck's notes are shown as text, never as markup.
    expect(await presenter.textContent("#dh-notes")).toContain("<img src=x");
    expect(await presenter.locator("img").count()).toBe(0);
    expect(await presenter.evaluate(() => "__xss" in window)).toBe(false);

    // Its own buttons and keys still drive the deck (which is still on its first slide).
    await presenter.click("#dh-next-button");
    await expect.poll(() => new URL(presenter.url()).hash).toBe("#2");
    await expect.poll(() => presenter.textContent("#dh-notes")).toBe("Second notes");
    await presenter.click("#dh-prev");
    await expect.poll(() => new URL(presenter.url()).hash).toBe("#1");
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("1 / 4");
    await presenter.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(presenter.url()).hash).toBe("#2");
    await context.close();
  }, 60_000);
});
