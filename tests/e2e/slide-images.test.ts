import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDeckhandClient } from "@/lib/client";
import { closeRenderBrowser } from "@/lib/render/browser";
import { getFileStore } from "@/lib/storage/storage";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// GET /decks/{id}/slides/{n}/image (issue 38, item 1) over real HTTP: a slide drawn by the export's
// renderer, as PNG or WebP at the width asked for, kept per version, width and format with its render hash
// as ETag; the access rules of every read; a deck that never finishes drawing stopped at the deadline; the
// same image as MCP image content through the official SDK client, and through the typed client.

let server: AppServer;
let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;
let deckId: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  const org = `org-${crypto.randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
  outsider = await createUser();
  deckId = (await createDeck(owner, { title: "Pictured" })).id;
  expect((await setContent(owner, deckId, { source: deckSource(["First", "Second", "Third"]) })).status).toBe(200);
  expect((await call("PATCH", `/decks/${deckId}`, { key: owner.key, body: { visibility: "org" } })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await closeRenderBrowser();
  delete process.env.APP_URL;
  await server?.close();
});

afterEach(() => {
  process.env.RATE_LIMIT_SLOW_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
  delete process.env.EXPORT_READY_TIMEOUT_MS;
});

async function image(user: TestUser | null, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.origin}/api/v1${path}`, {
    headers: { ...(user ? { authorization: `Bearer ${user.key}` } : {}), ...headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    body: type.includes("json") ? JSON.parse(String(bytes)) : null,
  };
}

describe("slide images", () => {
  it("draws a slide as PNG at 1280 px by default, and as WebP at the width asked for", async () => {
    const png = await image(owner, `/decks/${deckId}/slides/2/image`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(await sharp(png.bytes).metadata()).toMatchObject({ format: "png", width: 1280, height: 720 });
    expect(Number(png.headers.get("content-length"))).toBe(png.bytes.length);
    expect(png.headers.get("cache-control")).toBe("private, no-cache");

    const webp = await image(owner, `/decks/${deckId}/slides/2/image?width=640&format=webp`);
    expect(webp.status).toBe(200);
    expect(webp.headers.get("content-type")).toBe("image/webp");
    expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: "webp", width: 640, height: 360 });

    const full = await image(owner, `/decks/${deckId}/slides/1/image?width=1920&version=1`);
    expect(await sharp(full.bytes).metadata()).toMatchObject({ width: 1920, height: 1080 });
    expect(full.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    // Slides differ: each picture is its own slide.
    expect(full.headers.get("etag")).not.toBe(png.headers.get("etag"));
  });

  it("keeps each render: the same bytes and ETag again, and 304 to If-None-Match", async () => {
    const first = await image(owner, `/decks/${deckId}/slides/3/image?width=320`);
    const again = await image(colleague, `/decks/${deckId}/slides/3/image?width=320`);
    expect(again.status).toBe(200);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    const stored = await getFileStore().get(`slides/${deckId}/v1/3-320.png`);
    expect(stored?.data.equals(first.bytes)).toBe(true);

    const unchanged = await image(owner, `/decks/${deckId}/slides/3/image?width=320`, {
      "if-none-match": first.headers.get("etag")!,
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.bytes.length).toBe(0);
    expect(unchanged.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("draws the newest version by default and any version asked for", async () => {
    const deck = await createDeck(owner, { title: "Versions" });
    await setContent(owner, deck.id, { source: deckSource(["Before"]) });
    const v1 = await image(owner, `/decks/${deck.id}/slides/1/image?width=320`);
    await setContent(owner, deck.id, { source: deckSource(["After, with a much longer title"]) });
    const v2 = await image(owner, `/decks/${deck.id}/slides/1/image?width=320`);
    expect(v2.headers.get("etag")).not.toBe(v1.headers.get("etag"));
    const again = await image(owner, `/decks/${deck.id}/slides/1/image?width=320&version=1`);
    expect(again.headers.get("etag")).toBe(v1.headers.get("etag"));
    expect((await image(owner, `/decks/${deck.id}/slides/1/image?version=3`)).status).toBe(404);
  });

  it("answers 401, 403, 404 and 422 as every read does", async () => {
    expect((await image(null, `/decks/${deckId}/slides/1/image`)).status).toBe(401);
    // Private: the colleague is refused (403), another organization does not see it (404).
    const secret = await createDeck(owner, { title: "Private" });
    await setContent(owner, secret.id, { source: deckSource(["Hidden"]) });
    expect((await image(colleague, `/decks/${secret.id}/slides/1/image`)).body.error.code).toBe("forbidden");
    expect((await image(outsider, `/decks/${secret.id}/slides/1/image`)).status).toBe(404);
    expect((await image(outsider, `/decks/${deckId}/slides/1/image`)).status).toBe(404);

    const outOfRange = await image(owner, `/decks/${deckId}/slides/4/image`);
    expect(outOfRange.status).toBe(404);
    expect(outOfRange.body.error.message).toMatch(/Slide 4 does not exist: this version has 3 slides/);
    for (const bad of ["slides/0/image", "slides/x/image", "slides/1/image?width=4000", "slides/1/image?format=gif"]) {
      const res = await image(owner, `/decks/${deckId}/${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error.code, bad).toBe("invalid_request");
    }
    const empty = await createDeck(owner, { title: "Empty" });
    expect((await image(owner, `/decks/${empty.id}/slides/1/image`)).body.error.message).toMatch(/before drawing/);

    // A deleted deck is gone, and so are its images.
    const doomed = await createDeck(owner, { title: "Doomed" });
    await setContent(owner, doomed.id, { source: deckSource(["Soon gone"]) });
    expect((await image(owner, `/decks/${doomed.id}/slides/1/image?width=320`)).status).toBe(200);
    expect((await call("DELETE", `/decks/${doomed.id}`, { key: owner.key })).status).toBe(200);
    expect((await image(owner, `/decks/${doomed.id}/slides/1/image?width=320`)).status).toBe(404);
    expect(await getFileStore().get(`slides/${doomed.id}/v1/1-320.png`)).toBeNull();
  });

  it("shows another organization a public deck's newest slides, not while its link is locked", async () => {
    const shared = await createDeck(owner, { title: "Shared" });
    await setContent(owner, shared.id, { source: deckSource(["Old"]) });
    await setContent(owner, shared.id, { source: deckSource(["New"]) });
    const patch = (path: string, body: unknown) => call("PATCH", path, { key: owner.key, body });
    await patch(`/decks/${shared.id}`, { visibility: "public" });
    expect((await image(outsider, `/decks/${shared.id}/slides/1/image?width=320`)).status).toBe(200);
    expect((await image(outsider, `/decks/${shared.id}/slides/1/image?width=320&version=1`)).status).toBe(404);
    expect((await patch(`/decks/${shared.id}/link`, { password: "open sesame 123" })).status).toBe(200);
    expect((await image(outsider, `/decks/${shared.id}/slides/1/image?width=320`)).status).toBe(404);
    expect((await image(colleague, `/decks/${shared.id}/slides/1/image?width=320`)).status).toBe(200);
  });

  it("is rate-limited in the slow class (429)", async () => {
    process.env.RATE_LIMIT_SLOW_PER_MINUTE = "1";
    process.env.RATE_LIMIT_WINDOW_SECONDS = "60";
    const fresh = await createUser();
    const deck = await createDeck(fresh);
    await setContent(fresh, deck.id);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await image(fresh, `/decks/${deck.id}/slides/1/image?width=64`)).status);
    expect(statuses).toEqual([200, 429]);
  });

  it("stops a deck that never finishes drawing at the render deadline, as the deck's fault (422)", async () => {
    process.env.EXPORT_READY_TIMEOUT_MS = "1500";
    const deck = await createDeck(owner, { title: "Spinning" });
    const looping = deckSource(["Spin"]).replace(
      "export default function Presentation() {",
      "export default function Presentation() {\n  while (Date.now() > 0) {\n    // never yields\n  }",
    );
    expect((await setContent(owner, deck.id, { source: looping })).status).toBe(200);
    const res = await image(owner, `/decks/${deck.id}/slides/1/image`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/did not finish drawing within 2 s/);
    // The renderer is free again: a healthy deck draws.
    expect((await image(owner, `/decks/${deckId}/slides/1/image?width=64`)).status).toBe(200);
  }, 60_000);

  it("answers MCP image content through the SDK client, and bytes through the typed client", async () => {
    const client = new Client({ name: "slide-images", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}/api/v1/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${owner.key}` } },
      }),
    );
    const result = (await client.callTool({
      name: "get_slide_image",
      arguments: { id: deckId, n: 2, width: 640 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const picture = result.content.find((c) => c.type === "image")!;
    expect(picture).toMatchObject({ type: "image", mimeType: "image/png" });
    const bytes = Buffer.from((picture as { data: string }).data, "base64");
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "png", width: 640, height: 360 });
    expect(result.structuredContent).toMatchObject({
      version: 1,
      slide: 2,
      slides: 3,
      width: 640,
      height: 360,
      format: "png",
      bytes: bytes.length,
      renderHash: expect.stringMatching(/^[\w-]{32}$/),
    });
    const missing = (await client.callTool({
      name: "get_slide_image",
      arguments: { id: deckId, n: 9 },
    })) as CallToolResult;
    expect(missing).toMatchObject({ isError: true, structuredContent: { error: { code: "not_found", status: 404 } } });
    await client.close();

    const typed = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: owner.key });
    const fromClient = await typed.slideImage(deckId, 2, { width: 640 });
    expect(fromClient.contentType).toBe("image/png");
    expect(Buffer.from(fromClient.bytes).equals(bytes)).toBe(true);
    expect(fromClient.etag).toBe(`"${(result.structuredContent as { renderHash: string }).renderHash}"`);
  });
});
