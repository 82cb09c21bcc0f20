import { eq } from "drizzle-orm";
import type { Browser, Frame, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { organizations } from "@/lib/db/schema/organizations";
import { createPreviewUrl } from "@/lib/decks/preview-deck";
import { ogRenderCount, placeholder } from "@/lib/render/og-image";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { closeRenderBrowser } from "@/lib/render/browser";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { dispatch } from "../helpers/app-router";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { expectScreenshot, stableScreenshot } from "../helpers/screenshots";
import { setUpTestDatabase } from "../helpers/database";
import { fiveSlideDeck, throwingDeck, webpageDeck } from "../helpers/sample-decks";
import { bigDeck, bigDeckHeading } from "../helpers/big-deck";

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
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

function ctxOf(user: TestUser): Ctx {
  return { db: database.db, caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null } };
}

async function publishDeck(
  source: string,
  options: { format?: "slides" | "webpage"; visibility?: "public" | "private" } = {},
) {
  const [row] = await database.db
    .insert(decks)
    .values({
      organizationId: author.organizationId,
      ownerId: author.userId,
      title: "Launch review",
      format: options.format ?? "slides",
    })
    .returning();
  const deck = row!;
  await setDeckContent(ctxOf(author), deck.id, { source });
  const res = await call("PATCH", `/decks/${deck.id}`, {
    key: author.key,
    body: { visibility: options.visibility ?? "public" },
  });
  expect(res.status).toBe(200);
  const [published] = await database.db.select().from(decks).where(eq(decks.id, deck.id));
  return { id: deck.id, slug: published!.publicSlug! };
}

async function deckFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector("#dh-frame");
  const frame = await element.contentFrame();
  if (!frame) throw new Error("no deck frame");
  await frame.waitForFunction(() => document.documentElement.dataset.ready === "true", undefined, { timeout: 20_000 });
  return frame;
}

async function newPage(viewport = { width: 1280, height: 720 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

describe("the public viewer", () => {
  it("shows the first slide, moves with the arrow keys, mirrors the slide in the hash, and has an overview", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const page = await newPage();
    const response = await page.goto(`${server.origin}/d/${slug}`);
    expect(response!.status()).toBe(200);
    const frame = await deckFrame(page);
    await expect.poll(() => frame.locator(".dh-stage-slide:not([hidden])").innerText()).toContain("Launch review");

    await page.keyboard.press("ArrowRight");
    await expect
      .poll(() => frame.locator(".dh-stage-slide:not([hidden])").innerText())
      .toContain("Three bets carried the quarter");
    await expect.poll(() => new URL(page.url()).hash).toBe("#2");

    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => new URL(page.url()).hash).toBe("#1");

    await page.keyboard.press("o");
    await expect.poll(() => frame.locator(".dh-overview-thumb").count()).toBe(5);
    await frame.locator(".dh-overview-thumb").nth(3).click();
    await expect.poll(() => new URL(page.url()).hash).toBe("#4");
    await expect.poll(() => frame.locator(".dh-overview").count()).toBe(0);

    await page.keyboard.press("End");
    await expect.poll(() => new URL(page.url()).hash).toBe("#5");
    await page.keyboard.press("Home");
    await expect.poll(() => new URL(page.url()).hash).toBe("#1");
    await page.context().close();
  });

  it("opens at the slide the hash names, and a click on the right half advances", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const page = await newPage();
    await page.goto(`${server.origin}/d/${slug}#3`);
    const frame = await deckFrame(page);
    await expect
      .poll(() => frame.locator(".dh-stage-slide:not([hidden])").innerText())
      .toContain("Revenue grew every month");
    await page.mouse.click(1000, 300);
    await expect.poll(() => new URL(page.url()).hash).toBe("#4");
    await page.mouse.click(100, 300);
    await expect.poll(() => new URL(page.url()).hash).toBe("#3");
    await page.context().close();
  });

  // Issue 39: the stage draws the slides near the one shown only, and the overview its tiles near the view.
  it("shows a 400-slide deck: slide 1, the last on demand, the overview and the presenter", async () => {
    const { slug } = await publishDeck(bigDeck(400));
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(`${server.origin}/d/${slug}`);
    const frame = await deckFrame(page);
    const shown = frame.locator(".dh-stage-slide:not([hidden])");
    await expect.poll(() => shown.innerText()).toContain(bigDeckHeading(1));
    expect(await frame.locator(".dh-stage-slide").count()).toBeLessThan(10);

    await page.keyboard.press("End");
    await expect.poll(() => new URL(page.url()).hash).toBe("#400");
    await expect.poll(() => shown.innerText()).toContain(bigDeckHeading(400));

    // The overview lists all 400; the tiles in view are drawn, those far from it are not (yet).
    await page.keyboard.press("o");
    const tiles = frame.locator(".dh-overview-thumb");
    await expect.poll(() => tiles.count()).toBe(400);
    await expect
      .poll(() => frame.locator('.dh-overview-thumb[aria-current="true"] .dh-heading-text').textContent())
      .toBe(bigDeckHeading(400));
    expect(await tiles.nth(1).locator(".dh-slide").count()).toBe(0);
    await tiles.nth(1).click();
    await expect.poll(() => new URL(page.url()).hash).toBe("#2");
    await expect.poll(() => shown.innerText()).toContain(bigDeckHeading(2));

    // The presenter opened at slide 399: its notes and the next slide's label.
    const presenter = await context.newPage();
    await presenter.goto(`${server.origin}/d/${slug}/presenter#399`);
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("399 / 400");
    await expect.poll(() => presenter.textContent("#dh-notes")).toContain("Talk about section 399");
    await expect.poll(() => presenter.textContent("#dh-next-label")).toContain("Revenue 400");
    await context.close();
  }, 120_000);

  it("has a title, a description and Open Graph tags; runs the deck in a sandboxed frame", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const page = await newPage();
    const response = await page.goto(`${server.origin}/d/${slug}`);
    await expect.poll(() => page.title()).toBe("Launch review");
    await expect.poll(() => page.locator('meta[property="og:title"]').getAttribute("content")).toBe("Launch review");
    await expect
      .poll(() => page.locator('meta[property="og:image"]').getAttribute("content"))
      .toMatch(new RegExp(`/d/${slug}/og\\.png\\?v=1$`));
    await expect
      .poll(() => page.locator('meta[name="twitter:card"]').getAttribute("content"))
      .toBe("summary_large_image");
    await expect.poll(() => page.locator("#dh-frame").getAttribute("sandbox")).toBe("allow-scripts");
    // Who shares the deck is said by the page itself, outside the frame the deck draws in.
    const [organization] = await database.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, author.organizationId));
    await expect
      .poll(() => page.locator("footer").innerText())
      .toContain(`Shared by ${organization!.name} with Deckhand`);
    expect(response!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

    const frameResponse = await fetch(`${server.origin}/d/${slug}/frame`);
    const csp = frameResponse.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toMatch(/frame-ancestors 'self'/);
    // Behind a proxy (or under `next start`, whose req.url says localhost) the Host header names the origin.
    const proxied = await dispatch(
      new Request(`http://localhost:3000/d/${slug}/frame`, {
        headers: { host: "decks.example.test", "x-forwarded-proto": "https" },
      }),
    );
    expect(proxied.headers.get("content-security-policy")).toContain("script-src https://decks.example.test/player/");
    expect(await proxied.text()).toContain('"moduleUrl":"https://decks.example.test/d/');
    const embed = await fetch(`${server.origin}/d/${slug}/embed`);
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors *");
    await page.context().close();
  });

  it("serves frame documents only as frames: opened as a page, /frame and /embed lead to the share page", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const page = await newPage();
    for (const part of ["frame", "embed"]) {
      await page.goto(`${server.origin}/d/${slug}/${part}?chrome=0&slide=3`);
      // The deck's code never ran as the top document: the tab shows the share page, framing the deck.
      expect(page.url()).toBe(`${server.origin}/d/${slug}#3`);
      const frame = await deckFrame(page);
      await expect
        .poll(() => frame.locator(".dh-stage-slide:not([hidden])").innerText())
        .toContain("Revenue grew every month");
    }
    // Framed (by the share page, or by any site for /embed) and fetched, they are served.
    const framed = await fetch(`${server.origin}/d/${slug}/embed`, { headers: { "sec-fetch-dest": "iframe" } });
    expect(framed.status).toBe(200);
    expect(framed.headers.get("content-security-policy")).toContain("sandbox allow-scripts");
    await page.context().close();
  });

  it("serves the first slide as the Open Graph image, rendered once per version", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const first = await fetch(`${server.origin}/d/${slug}/og.png`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await first.arrayBuffer());
    const png = PNG.sync.read(bytes);
    expect([png.width, png.height]).toEqual([1200, 675]);
    // Not a blank canvas: the title's dark text on the light background gives many distinct colours.
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4 * 97) colours.add(png.data.readUInt32BE(i));
    expect(colours.size).toBeGreaterThan(20);
    const again = Buffer.from(await (await fetch(`${server.origin}/d/${slug}/og.png`)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it("renders a deck that cannot be drawn once, whatever the query, and answers a placeholder", async () => {
    const looping = fiveSlideDeck.replace(
      /export default function (\w+)\(\) \{/,
      (line) => `${line}\n  while (Date.now() > 0) {\n    // never yields\n  }`,
    );
    expect(looping).not.toBe(fiveSlideDeck);
    const { slug } = await publishDeck(looping);
    const before = ogRenderCount();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fetch(`${server.origin}/d/${slug}/og.png?i=${i}`)),
    );
    const expected = await placeholder();
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await answer.arrayBuffer()).equals(expected)).toBe(true);
    }
    expect(ogRenderCount() - before).toBe(1);
    // Kept: the next request renders nothing.
    const again = await fetch(`${server.origin}/d/${slug}/og.png?i=99&v=7`);
    expect(Buffer.from(await again.arrayBuffer()).equals(expected)).toBe(true);
    expect(ogRenderCount() - before).toBe(1);
  }, 60_000);

  it("scrolls a webpage deck through its beats", async () => {
    const { slug } = await publishDeck(webpageDeck, { format: "webpage" });
    const page = await newPage();
    await page.goto(`${server.origin}/d/${slug}`);
    const frame = await deckFrame(page);
    await expect.poll(() => frame.locator(".dh-beat").count()).toBe(4);
    const inView = () =>
      frame.evaluate(() =>
        [...document.querySelectorAll(".dh-beat")]
          .filter((beat) => {
            const box = beat.getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
          })
          .map((beat) => beat.getAttribute("aria-label")),
      );
    await expect.poll(inView).toEqual(["Hero"]);
    await frame.locator(".dh-beat").first().hover();
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
    await expect.poll(inView).toContain("Last");
    await page.context().close();
  });

  it("answers 404 for an unknown slug and for a deck that is no longer public", async () => {
    const { id, slug } = await publishDeck(fiveSlideDeck);
    expect((await fetch(`${server.origin}/d/${slug}`)).status).toBe(200);
    await call("PATCH", `/decks/${id}`, { key: author.key, body: { visibility: "private" } });
    for (const part of ["", "/frame", "/embed", "/presenter", "/module/1"]) {
      expect((await fetch(`${server.origin}/d/${slug}${part}`)).status).toBe(404);
    }
    const page = await newPage();
    const response = await page.goto(`${server.origin}/d/nosuchdeck123`);
    expect(response!.status()).toBe(404);
    await expect.poll(() => page.locator("h1").textContent()).toContain("isn't available");
    await page.context().close();
  });

  it("shows a readable error panel for a slide whose code throws, and for a module that throws", async () => {
    const { slug } = await publishDeck(throwingDeck);
    const page = await newPage();
    await page.goto(`${server.origin}/d/${slug}#2`);
    const frame = await deckFrame(page);
    const panel = frame.locator(".dh-stage-slide:not([hidden]) .dh-error");
    await expect.poll(() => panel.innerText()).toContain("chart data is missing");
    await expect.poll(() => panel.innerText()).toMatch(/Slide 2 · Broken/);

    const { slug: topLevel } = await publishDeck(
      `import { Deck, Slide } from "@deckhand/player";\nconst data: number[] = JSON.parse("nope");\nexport default () => <Deck><Slide label="A">{data.length}</Slide></Deck>;\n`,
    );
    await page.goto(`${server.origin}/d/${topLevel}`);
    const broken = await deckFrame(page);
    await expect.poll(() => broken.locator(".dh-error").innerText()).toMatch(/could not be loaded[\s\S]*JSON/);
    await page.context().close();
  });

  it("keeps a presenter window in step with the share page", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const viewer = await context.newPage();
    await viewer.goto(`${server.origin}/d/${slug}`);
    await deckFrame(viewer);
    const presenter = await context.newPage();
    await presenter.goto(`${server.origin}/d/${slug}/presenter`);
    await expect.poll(() => presenter.textContent("#dh-notes")).toContain("Welcome everyone");
    await expect.poll(() => presenter.textContent("#dh-next-label")).toContain("Two columns");

    await viewer.bringToFront();
    await viewer.keyboard.press("ArrowRight");
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("2 / 5");
    await expect.poll(() => presenter.textContent("#dh-notes")).toContain("Walk through the plan");

    await presenter.bringToFront();
    await presenter.click("#dh-next-button");
    await expect.poll(() => new URL(viewer.url()).hash).toBe("#3");
    await expect.poll(() => presenter.locator("#dh-timer").textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
    await context.close();
  });

  // Issue 33: on a busy machine the presenter's first "goto" (its start slide) reached the share page after
  // the share page had moved on, and took it back. The share page here receives channel messages late,
  // when the test lets them through, as a loaded machine may deliver them.
  it("does not step back for a presenter's message that arrives after the share page moved on", async () => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const viewer = await context.newPage();
    await viewer.addInitScript(() => {
      const held: Array<() => void> = [];
      const hold = window as unknown as { __heldMessages: typeof held; __releaseMessages: () => void };
      hold.__heldMessages = held;
      hold.__releaseMessages = () => held.splice(0).forEach((deliver) => deliver());
      const Native = window.BroadcastChannel;
      window.BroadcastChannel = class extends Native {
        override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: unknown) {
          if (type !== "message") return super.addEventListener(type, listener, options as AddEventListenerOptions);
          const late = (event: Event) =>
            held.push(() => (typeof listener === "function" ? listener(event) : listener.handleEvent(event)));
          super.addEventListener(type, late, options as AddEventListenerOptions);
        }
      };
    });
    await viewer.goto(`${server.origin}/d/${slug}`);
    await deckFrame(viewer);
    const presenter = await context.newPage();
    await presenter.goto(`${server.origin}/d/${slug}/presenter`);
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("1 / 5");
    // The presenter's opening message waits in the share page while the share page moves to slide 2.
    await expect
      .poll(() => viewer.evaluate(() => (window as unknown as { __heldMessages: unknown[] }).__heldMessages.length))
      .toBeGreaterThan(0);
    await viewer.bringToFront();
    await viewer.keyboard.press("ArrowRight");
    await expect.poll(() => new URL(viewer.url()).hash).toBe("#2");
    await viewer.evaluate(() => (window as unknown as { __releaseMessages: () => void }).__releaseMessages());
    // Both stay on slide 2, with the messages the move sent delivered too.
    await expect.poll(() => presenter.textContent("#dh-count")).toBe("2 / 5");
    await viewer.evaluate(() => (window as unknown as { __releaseMessages: () => void }).__releaseMessages());
    expect(new URL(viewer.url()).hash).toBe("#2");
    expect(await presenter.textContent("#dh-count")).toBe("2 / 5");
    await context.close();
  });

  it("loads shipped fonts offline and reports a family it does not ship", async () => {
    const [row] = await database.db
      .insert(decks)
      .values({ organizationId: author.organizationId, ownerId: author.userId, title: "Fonts" })
      .returning();
    await setDeckContent(ctxOf(author), row!.id, {
      source: fiveSlideDeck,
      tokensCss: `:root { --font-heading: "Brand Display", Georgia, serif; --font-body: "Space Grotesk", sans-serif; }`,
    });
    const { url } = await createPreviewUrl(ctxOf(author), row!.id, 1);
    const page = await newPage();
    const frame = await openDeckFrame(page, url.replace(/^https?:\/\/[^/]+/, server.origin));
    const status = await frame.evaluate(() => window.__deckhand);
    expect(status?.missingFonts).toEqual(["Brand Display"]);
    const loaded = await frame.evaluate(() =>
      [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family),
    );
    expect(loaded.map((family) => family.replace(/"/g, ""))).toContain("Space Grotesk");
    await page.context().close();
  });

  it("renders a private version through a signed preview URL, and refuses a forged one", async () => {
    const { id } = await publishDeck(fiveSlideDeck, { visibility: "private" });
    const { url, token } = await createPreviewUrl(ctxOf(author), id, 1);
    const page = await newPage();
    const local = url.replace(/^https?:\/\/[^/]+/, server.origin);
    expect((await fetch(local)).headers.get("content-security-policy")).toContain("sandbox allow-scripts");
    const frame = await openDeckFrame(page, local);
    await expect.poll(() => frame.locator(".dh-stage-slide:not([hidden])").innerText()).toContain("Launch review");
    // Opened as a page of its own, the frame sends the browser to the present-mode page around it.
    const opened = await page.goto(local);
    expect(new URL(page.url()).pathname).toBe(`/preview/${token}/view`);
    expect(opened!.status()).toBe(200);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await fetch(`${server.origin}/preview/${forged}/frame`)).status).toBe(404);
    await page.context().close();
  });
});

describe("what the deck looks like", () => {
  it.each([
    [1, "title-slide"],
    [2, "two-column-slide"],
    [3, "chart-slide"],
  ])("slide %i matches %s.png", async (slide, name) => {
    const { slug } = await publishDeck(fiveSlideDeck);
    const page = await newPage({ width: 960, height: 540 });
    await openDeckFrame(page, `${server.origin}/d/${slug}/embed?chrome=0&slide=${slide}`);
    const png = await stableScreenshot(page);
    await page.context().close();
    expectScreenshot(png, name);
  });
});
