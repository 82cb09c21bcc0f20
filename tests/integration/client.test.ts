import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDeckhandClient, type DeckCheck, type DeckhandClient, DeckhandError, unwrap } from "@/lib/client";
import { allowances } from "@/lib/db/schema/usage";
import type { Database } from "@/lib/db/client";
import { createUser, windowWithRoom, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// The typed client (lib/client) against the app on a loopback HTTP server: a whole authoring round trip,
// typed errors, retries after Retry-After, and an export polled to completion and downloaded.

let database: Database;
let server: AppServer;
let user: TestUser;
let client: DeckhandClient;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  // Links the app hands out (download redirects, file URLs) point at this server.
  process.env.APP_URL = server.origin;
  user = await createUser();
  client = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: user.key });
});

afterAll(async () => {
  delete process.env.APP_URL;
  await server.close();
});

afterEach(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
});

describe("the typed client", () => {
  it("writes, reads and reverts a deck, then exports it to PDF and downloads the file", async () => {
    const { api } = client;
    const instructions = unwrap(await api.GET("/instructions"));
    expect(instructions.instructions).toContain("@deckhand/player");

    const deck = unwrap(await api.POST("/decks", { body: { title: "Client deck" } }));
    expect(deck.format).toBe("slides");
    const id = deck.id;
    const v1 = unwrap(
      await api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source: deckSource(["One"]) } }),
    );
    expect(v1.version).toBe(1);
    unwrap(await api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source: deckSource(["Two"]) } }));
    const reverted = unwrap(
      await api.POST("/decks/{id}/versions/{version}/revert", { params: { path: { id, version: 1 } } }),
    );
    expect(reverted.version).toBe(3);
    const detail = unwrap(await api.GET("/decks/{id}", { params: { path: { id } } }));
    expect(detail.latestVersion?.outline).toEqual(["One"]);
    const history = unwrap(await api.GET("/decks/{id}/versions", { params: { path: { id } } }));
    expect(history.map((v) => v.version)).toEqual([3, 2, 1]);
    const listed = unwrap(await api.GET("/decks", { params: { query: { scope: "mine" } } }));
    expect(listed.map((d) => d.id)).toContain(id);

    // The deck check of an earlier version, typed: version 1 (one slide, "One") has nothing to fix.
    const checked: DeckCheck = unwrap(
      await api.GET("/decks/{id}/check", { params: { path: { id }, query: { version: 1 } } }),
    );
    expect(checked).toMatchObject({ version: 1, slides: 1, errors: 0 });
    expect(checked.findings.every((finding) => finding.severity !== "error")).toBe(true);

    const done = await client.exportDeck(id, { format: "pdf" });
    expect(done.status).toBe("completed");
    expect(done.downloadUrl).toBe(`${server.origin}/api/v1/exports/${done.id}/download`);
    const file = await client.downloadExport(done.id);
    expect(file.contentType).toBe("application/pdf");
    expect(new TextDecoder().decode(file.bytes.slice(0, 5))).toBe("%PDF-");
    const handout = await client.exportDeck(id, { format: "pdf", layout: "notes" });
    expect(handout).toMatchObject({ status: "completed", layout: "notes" });
  }, 120_000);

  it("throws DeckhandError with the API's code, status and featureId", async () => {
    const { api } = client;
    const missing = await api.GET("/decks/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expect(() => unwrap(missing)).toThrow(DeckhandError);
    expect(() => unwrap(missing)).toThrow(expect.objectContaining({ status: 404, code: "not_found" }));

    const other = await createUser();
    await database.db
      .insert(allowances)
      .values({ organizationId: other.organizationId, featureId: "version_edits", monthlyLimit: 0 });
    const otherClient = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: other.key });
    const deck = unwrap(await otherClient.api.POST("/decks", { body: {} }));
    const refused = await otherClient.api.PUT("/decks/{id}/content", {
      params: { path: { id: deck.id } },
      body: { source: deckSource() },
    });
    expect(() => unwrap(refused)).toThrow(
      expect.objectContaining({ status: 402, code: "allowance_exhausted", featureId: "version_edits" }),
    );
  });

  it("lists every deck with listAllDecks, a page at a time through the Link headers", async () => {
    const owner = await createUser();
    const deckhand = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: owner.key });
    for (let i = 0; i < 7; i++) unwrap(await deckhand.api.POST("/decks", { body: { title: `Deck ${i}` } }));
    unwrap(await deckhand.api.POST("/decks", { body: { title: "A template", kind: "template" } }));
    const requested: string[] = [];
    deckhand.api.use({ onRequest: ({ request }) => void requested.push(new URL(request.url).search) });

    const whole = unwrap(await deckhand.api.GET("/decks"));
    const listed: string[] = [];
    for await (const deck of deckhand.listAllDecks({ limit: 3 })) listed.push(deck.id);
    expect(listed).toEqual(whole.map((deck) => deck.id));
    // Three pages: the first, then each next one by its cursor.
    expect(requested.slice(1)).toEqual([
      "?limit=3",
      expect.stringMatching(/^\?limit=3&cursor=[\w-]+$/),
      expect.stringMatching(/^\?limit=3&cursor=[\w-]+$/),
    ]);

    const templates: string[] = [];
    for await (const deck of deckhand.listAllDecks({ kind: "template" })) templates.push(deck.title);
    expect(templates).toEqual(["A template"]);
    // A page of the default size (100) lists them all.
    expect(requested.at(-1)).toBe("?limit=100&kind=template");
  });

  it("waits out a 429's Retry-After and retries, so the caller sees the success", async () => {
    // One request per 6-second window: the second request of a window is refused, whatever the machine's speed.
    process.env.RATE_LIMIT_PER_MINUTE = "1";
    process.env.RATE_LIMIT_WINDOW_SECONDS = "6";
    const fresh = await createUser();
    const seen: number[] = [];
    const watched = createDeckhandClient({
      baseUrl: `${server.origin}/api/v1`,
      apiKey: fresh.key,
      etagCacheSize: 0, // every answer a 200, not a 304 of the list it keeps
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push(response.status);
        return response;
      },
    });
    await windowWithRoom(6, 4);
    for (let i = 0; i < 2; i++) unwrap(await watched.api.GET("/decks"));
    expect(seen).toContain(429);
    expect(seen.at(-1)).toBe(200);
    expect(seen.filter((s) => s === 200)).toHaveLength(2);

    // Without retries the 429 reaches the caller, with its code.
    const impatient = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: fresh.key, maxRetries: 0 });
    await windowWithRoom(6, 4);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await impatient.api.GET("/decks")).response.status);
    expect(statuses).toContain(429);
  }, 60_000);

  it("answers a 304 with the body it keeps, and a caller's own tag it does not hold as not_modified (issue 38)", async () => {
    const statuses: number[] = [];
    const watched = createDeckhandClient({
      baseUrl: `${server.origin}/api/v1`,
      apiKey: user.key,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    const deck = unwrap(await watched.api.POST("/decks", { body: { title: "Kept" } }));
    const path = { params: { path: { id: deck.id } } };
    const first = unwrap(await watched.api.GET("/decks/{id}", path));
    const again = await watched.api.GET("/decks/{id}", path);
    expect(statuses).toEqual([201, 200, 304]);
    expect(unwrap(again)).toEqual(first);
    const etag = again.response.headers.get("etag")!;
    expect(etag).toMatch(/^"/);

    // A tag sent by the caller that this client does not hold: a typed not-modified result.
    const bare = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: user.key, etagCacheSize: 0 });
    const conditional = await bare.api.GET("/decks/{id}", {
      params: { path: { id: deck.id }, header: { "If-None-Match": etag } },
    });
    expect(conditional.response.status).toBe(304);
    expect(() => unwrap(conditional)).toThrow(expect.objectContaining({ status: 304, code: "not_modified" }));

    // A change is a new body, not the kept one.
    unwrap(await watched.api.PATCH("/decks/{id}", { ...path, body: { title: "Changed" } }));
    expect(unwrap(await watched.api.GET("/decks/{id}", path)).title).toBe("Changed");
    expect(statuses.at(-1)).toBe(200);
  });

  it("maps a refused connection to DeckhandError code network, after its retries", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    let attempts = 0;
    const unreachable = createDeckhandClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      apiKey: user.key,
      maxRetries: 1,
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    });
    const read = unreachable.api.GET("/decks");
    await expect(read).rejects.toBeInstanceOf(DeckhandError);
    await expect(read).rejects.toMatchObject({
      status: 0,
      code: "network",
      message: expect.stringContaining(`127.0.0.1:${port}`),
    });
    expect(attempts).toBe(2);
    // A POST is not retried, and fails the same way.
    await expect(unreachable.api.POST("/decks", { body: {} })).rejects.toMatchObject({ code: "network" });
    expect(attempts).toBe(3);
  });
});
