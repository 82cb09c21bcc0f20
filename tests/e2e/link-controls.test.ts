import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { viewerEventsUrl } from "../helpers/viewer-page";

// The public link's controls in a real Chromium and over plain HTTP: a password link asks for the password
// and refuses the frame, the module, the logo, the Open Graph image and the analytics beacon without the
// unlock; the right password shows the deck; an expired link is gone; revoking mints a new slug.

let server: AppServer;
let browser: Browser;
let author: TestUser;
let deckId: string;
let slug: string;

const source = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Secret() {
  return (
    <Deck>
      <Slide label="One"><Heading>Quarterly numbers</Heading></Slide>
      <Slide label="Two"><Heading>Two</Heading></Slide>
    </Deck>
  );
}`;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  deckId = (await call("POST", "/decks", { key: author.key, body: { title: "Board pack" } })).body.id;
  expect((await call("PUT", `/decks/${deckId}/content`, { key: author.key, body: { source } })).status).toBe(200);
  const published = await call("PATCH", `/decks/${deckId}`, { key: author.key, body: { visibility: "public" } });
  slug = String(published.body.publicUrl).split("/d/")[1]!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, { headers, redirect: "manual" });

describe("link controls", () => {
  it("a password link refuses the frame and the module without the unlock, and shows the deck with it", async () => {
    // The beacon's events URL as the open link's page handed it out, before the password.
    const eventsUrl = await viewerEventsUrl(`${server.origin}/d/${slug}`);
    const set = await call("PATCH", `/decks/${deckId}/link`, { key: author.key, body: { password: "open sesame" } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ passwordProtected: true, expiresAt: null });
    expect(JSON.stringify(set.body)).not.toContain("argon2");
    const stranger = await createUser();
    // Another organization reads a public deck by id only while its link is open (lib/decks/access.ts): with
    // a password the deck is hidden from it, so a change is the 404 of a deck it may not read, not a 403.
    expect((await call("PATCH", `/decks/${deckId}/link`, { key: stranger.key, body: { password: null } })).status).toBe(
      404,
    );

    expect((await get(`/d/${slug}/frame`, { "sec-fetch-dest": "iframe" })).status).toBe(403);
    expect((await get(`/d/${slug}/embed`, { "sec-fetch-dest": "iframe" })).status).toBe(403);
    const module = await get(`/d/${slug}/module/1`);
    expect(module.status).toBe(403);
    expect(await module.text()).not.toContain("Quarterly");
    expect((await get(`/d/${slug}/module/1?unlock=1999999999.${"A".repeat(43)}`)).status).toBe(403);
    expect((await get(`/d/${slug}/og.png`)).status).toBe(404);
    const page = await get(`/d/${slug}`);
    const html = await page.text();
    expect(html).toContain('name="password"');
    expect(html).not.toContain("Board pack");
    expect(html).not.toContain("og:image");
    const beacon = await fetch(eventsUrl, {
      method: "POST",
      headers: { origin: server.origin, "user-agent": "Mozilla/5.0 Chrome/147" },
      body: JSON.stringify({ view: crypto.randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] }),
    });
    expect(beacon.status).toBe(404);

    const context = await browser.newContext();
    const viewer = await context.newPage();
    await viewer.goto(`${server.origin}/d/${slug}`);
    expect(await viewer.locator("iframe").count()).toBe(0);
    await viewer.fill('input[name="password"]', "wrong guess");
    await viewer.click('button[type="submit"]');
    await expect.poll(() => viewer.locator('[role="alert"]').count()).toBe(1);
    await viewer.fill('input[name="password"]', "open sesame");
    await viewer.click('button[type="submit"]');
    const frame = await (await viewer.waitForSelector("#dh-frame")).contentFrame();
    await frame!.waitForFunction(() => document.documentElement.dataset.ready === "true", undefined, {
      timeout: 20_000,
    });
    expect(await frame!.locator(".dh-slide").first().textContent()).toContain("Quarterly numbers");
    // The unlock is in the frame's URL (the sandboxed frame sends no cookie), bound to this link.
    const unlock = new URL(frame!.url()).searchParams.get("unlock");
    expect(unlock).toMatch(/^\d+\.[\w-]{43}$/);
    expect((await get(`/d/${slug}/module/1?unlock=${unlock}`)).status).toBe(200);
    await context.close();

    // Removing the password opens the link again.
    await call("PATCH", `/decks/${deckId}/link`, { key: author.key, body: { password: null } });
    expect((await get(`/d/${slug}/module/1`)).status).toBe(200);
  });

  it("an expired link is gone; revoking mints a new slug and the old one stops working", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await call("PATCH", `/decks/${deckId}/link`, { key: author.key, body: { expiresAt: past } })).status).toBe(
      200,
    );
    expect((await get(`/d/${slug}`)).status).toBe(404);
    expect((await get(`/d/${slug}/module/1`)).status).toBe(404);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const extended = await call("PATCH", `/decks/${deckId}/link`, { key: author.key, body: { expiresAt: future } });
    expect(extended.body.expiresAt).toBe(future);
    expect((await get(`/d/${slug}`)).status).toBe(200);

    const revoked = await call("POST", `/decks/${deckId}/link/revoke`, { key: author.key });
    expect(revoked.status).toBe(200);
    const fresh = String(revoked.body.publicUrl).split("/d/")[1]!;
    expect(fresh).not.toBe(slug);
    expect((await get(`/d/${slug}`)).status).toBe(404);
    expect((await get(`/d/${fresh}`)).status).toBe(200);
    expect((await call("GET", `/decks/${deckId}`, { key: author.key })).body.publicUrl).toBe(revoked.body.publicUrl);
  });
});
