import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck } from "../helpers/decks";

// Decks written by the offline generator through the API, drawn by the player in a real Chromium.

let server: AppServer;
let browser: Browser;
let user: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const briefs = [
  "# Quarterly review\n\n## Results\nRevenue grew 42% to $3.1M and we reached 1,200 customers.\n\n## What worked\n- Self-serve onboarding\n- Usage pricing\n- Partner channel\n\n## What's next\n> “Ship small, learn fast.” — Dana Ruiz, Head of Product\n\n## Asks\n- Two engineers\n- A design budget",
  "Pitch our climate startup to investors: the problem (buildings waste 30% of energy), our sensor product, traction with 14 pilots, the team, and the ask of $4M.",
];

describe("generated decks in the player", () => {
  it.each(briefs)("renders every slide of a deck generated from a brief without an error", async (brief) => {
    const deck = await createDeck(user, { title: "Generated" });
    const generated = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief, mode: "create" },
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const detail = await call("GET", `/decks/${deck.id}`, { key: user.key });
    const outline: string[] = detail.body.latestVersion.outline;
    const published = await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } });

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    const frame = await openDeckFrame(page, `${server.origin}/d/${published.body.publicSlug}/embed?chrome=0`);
    const status = await frame.evaluate(() => window.__deckhand);
    expect(status?.errors).toEqual([]);
    expect(status?.count).toBe(outline.length);
    expect(status?.slides.map((slide) => slide.label)).toEqual(outline);
    await expect.poll(() => frame.locator(".dh-error").count()).toBe(0);
    // Every slide draws something: each shown in turn (the stage draws the slides near the one shown).
    const shown = frame.locator(".dh-stage-slide:not([hidden]) .dh-slide").first();
    for (let n = 1; n <= outline.length; n++) {
      if (n > 1) await frame.evaluate(() => window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" })));
      await expect.poll(() => shown.getAttribute("data-slide")).toBe(String(n));
      const text = (await shown.textContent()) ?? "";
      expect(text.trim().length, `slide ${n}`).toBeGreaterThan(0);
    }
    await page.context().close();
  });
});
