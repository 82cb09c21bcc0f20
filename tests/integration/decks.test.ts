import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { brands } from "@/lib/db/schema/brands";
import { decks } from "@/lib/db/schema/decks";
import type { Database } from "@/lib/db/client";
import { LocalFileStore } from "@/lib/storage/storage";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

let database: Database;
let owner: TestUser; // owns the decks below
let colleague: TestUser; // same organization
let outsider: TestUser; // another organization

beforeAll(async () => {
  database = await setUpTestDatabase();
  const org = `org-${randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
  outsider = await createUser();
});

async function insertBrand(user: TestUser, data: unknown = { tokensCss: ":root { --color-primary: #e4002b; }" }) {
  const [brand] = await database.db
    .insert(brands)
    .values({ organizationId: user.organizationId, name: "Acme", sourceUrl: "https://acme.test", data })
    .returning();
  return brand!;
}

describe("POST /decks", () => {
  it("creates an empty private slides deck with the spec's defaults", async () => {
    const res = await call("POST", "/decks", { key: owner.key });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      title: "Untitled deck",
      brandId: null,
      kind: "deck",
      description: "",
      archived: false,
      startedFromDeckId: null,
      format: "slides",
      visibility: "private",
      publicSlug: null,
      publicUrl: null,
      organizationId: owner.organizationId,
      ownerId: owner.userId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("creates a template directly, with a title and description", async () => {
    const res = await call("POST", "/decks", {
      key: owner.key,
      body: { title: "Quarterly review", description: "Start here for QBRs", kind: "template", format: "slides" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: "Quarterly review", description: "Start here for QBRs", kind: "template" });
  });

  it.each([
    ["an empty title", { title: "" }, /title/],
    ["a blank title", { title: "   " }, /title/],
    ["a 301-character title", { title: "x".repeat(301) }, /title/],
    ["format webpage", { format: "webpage" }, /webpage/],
    ["an unknown kind", { kind: "slideshow" }, /kind/],
    ["an unknown field", { colour: "red" }, /unknown field "colour"/],
    ["a brandId that is not a UUID", { brandId: "acme" }, /brandId/],
    ["a fromDeckId that is not a UUID", { fromDeckId: 42 }, /fromDeckId/],
    ["a non-string description", { description: 7 }, /description/],
    ["an array body", [], /body/],
  ])("refuses %s with 422", async (_, body, message) => {
    const res = await call("POST", "/decks", { key: owner.key, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(message);
  });

  it("accepts a 300-character title", async () => {
    expect((await call("POST", "/decks", { key: owner.key, body: { title: "x".repeat(300) } })).status).toBe(201);
  });

  it("refuses malformed JSON with 422", async () => {
    const res = await call("POST", "/decks", {
      key: owner.key,
      rawBody: "{title:",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/not valid JSON/);
  });

  it("styles the deck with a brand of the organization, and 404s for any other", async () => {
    const brand = await insertBrand(owner);
    const deck = await createDeck(owner, { brandId: brand.id });
    expect(deck.brandId).toBe(brand.id);
    const version = await setContent(owner, deck.id);
    expect(version.status).toBe(200);
    const detail = await call("GET", `/decks/${deck.id}`, { key: owner.key });
    expect(detail.body.latestVersion.tokensCss).toContain("#e4002b");

    const foreign = await insertBrand(outsider);
    const res = await call("POST", "/decks", { key: owner.key, body: { brandId: foreign.id } });
    expect(res.status).toBe(404);
    expect((await call("POST", "/decks", { key: owner.key, body: { brandId: randomUUID() } })).status).toBe(404);
  });

  it("starts from another deck: takes its brand and theme tokens, not its content", async () => {
    const brand = await insertBrand(owner, {});
    const template = await createDeck(owner, { kind: "template", brandId: brand.id });
    const tokens = ":root {\n  --color-primary: #123456;\n}";
    expect((await setContent(owner, template.id, { tokensCss: tokens })).status).toBe(200);

    const res = await call("POST", "/decks", { key: colleague.key, body: { fromDeckId: template.id } });
    expect(res.status).toBe(403); // the template is still private to its owner
    await call("PATCH", `/decks/${template.id}`, { key: owner.key, body: { visibility: "org" } });

    const started = await call("POST", "/decks", { key: colleague.key, body: { fromDeckId: template.id } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ startedFromDeckId: template.id, brandId: brand.id, kind: "deck" });
    const detail = await call("GET", `/decks/${started.body.id}`, { key: colleague.key });
    expect(detail.body.latestVersion).toBeNull();
    await setContent(colleague, started.body.id);
    const after = await call("GET", `/decks/${started.body.id}`, { key: colleague.key });
    expect(after.body.latestVersion.tokensCss).toBe(tokens);

    const otherBrand = await insertBrand(colleague, {});
    const rebranded = await createDeck(colleague, { fromDeckId: template.id, brandId: otherBrand.id });
    expect(rebranded.brandId).toBe(otherBrand.id);
  });

  it("refuses a webpage deck as a starting point with 422, and an unknown one with 404", async () => {
    const [webpage] = await database.db
      .insert(decks)
      .values({ organizationId: owner.organizationId, ownerId: owner.userId, title: "Landing", format: "webpage" })
      .returning();
    const res = await call("POST", "/decks", { key: owner.key, body: { fromDeckId: webpage!.id } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/webpage/);
    expect((await call("POST", "/decks", { key: owner.key, body: { fromDeckId: randomUUID() } })).status).toBe(404);
  });

  it("starts from another organization's public deck with its newest version's tokens only", async () => {
    const theirs = await createDeck(outsider, { kind: "template" });
    const older = ":root {\n  --color-primary: #111111;\n}";
    const newest = ":root {\n  --color-primary: #222222;\n}";
    await setContent(outsider, theirs.id, { tokensCss: older, prompt: "their private note" });
    await setContent(outsider, theirs.id, { tokensCss: newest });
    await call("PATCH", `/decks/${theirs.id}`, { key: outsider.key, body: { visibility: "public" } });

    const started = await call("POST", "/decks", { key: owner.key, body: { fromDeckId: theirs.id } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ startedFromDeckId: theirs.id, brandId: null });
    expect(JSON.stringify(started.body)).not.toContain("their private note");
    await setContent(owner, started.body.id);
    const mine = await call("GET", `/decks/${started.body.id}`, { key: owner.key });
    expect(mine.body.latestVersion.tokensCss).toBe(newest);
    // The template is read as the viewer shows it; its history is not.
    expect((await call("GET", `/decks/${theirs.id}`, { key: owner.key })).body.latestVersion.version).toBe(2);
    expect((await call("GET", `/decks/${theirs.id}/versions`, { key: owner.key })).status).toBe(404);
    expect((await call("GET", `/decks/${theirs.id}/versions/1`, { key: owner.key })).status).toBe(404);
  });

  it("does not lend another organization's brand through a public starting deck", async () => {
    const brand = await insertBrand(outsider, {});
    const theirs = await createDeck(outsider, { brandId: brand.id });
    await call("PATCH", `/decks/${theirs.id}`, { key: outsider.key, body: { visibility: "public" } });
    const mine = await createDeck(owner, { fromDeckId: theirs.id });
    expect(mine).toMatchObject({ startedFromDeckId: theirs.id, brandId: null });
  });
});

describe("GET /decks", () => {
  it("lists my decks newest first, filters by kind, hides archived by default", async () => {
    const me = await createUser();
    const first = await createDeck(me, { title: "first" });
    const second = await createDeck(me, { title: "second", kind: "template" });
    const third = await createDeck(me, { title: "third" });
    await call("PATCH", `/decks/${first.id}`, { key: me.key, body: { archived: true } });

    const all = await call("GET", "/decks", { key: me.key });
    expect(all.status).toBe(200);
    expect(all.body.map((d: { id: string }) => d.id)).toEqual([third.id, second.id]);

    const withArchived = await call("GET", "/decks?includeArchived=true", { key: me.key });
    expect(withArchived.body.map((d: { id: string }) => d.id)).toEqual([third.id, second.id, first.id]);

    const templates = await call("GET", "/decks?kind=template", { key: me.key });
    expect(templates.body.map((d: { id: string }) => d.id)).toEqual([second.id]);
    const ordinary = await call("GET", "/decks?kind=deck&includeArchived=false", { key: me.key });
    expect(ordinary.body.map((d: { id: string }) => d.id)).toEqual([third.id]);
  });

  it("scope=org lists what the caller may read in the organization, never another organization's", async () => {
    const org = `org-${randomUUID()}`;
    const a = await createUser({ org });
    const b = await createUser({ org });
    const privateDeck = await createDeck(a, { title: "private" });
    const orgDeck = await createDeck(a, { title: "org" });
    const publicDeck = await createDeck(a, { title: "public" });
    await call("PATCH", `/decks/${orgDeck.id}`, { key: a.key, body: { visibility: "org" } });
    await call("PATCH", `/decks/${publicDeck.id}`, { key: a.key, body: { visibility: "public" } });
    const own = await createDeck(b, { title: "b's own" });
    await createDeck(outsider, { title: "elsewhere" });

    const mine = await call("GET", "/decks?scope=mine", { key: b.key });
    expect(mine.body.map((d: { id: string }) => d.id)).toEqual([own.id]);
    const orgList = await call("GET", "/decks?scope=org", { key: b.key });
    expect(orgList.body.map((d: { id: string }) => d.id)).toEqual([own.id, publicDeck.id, orgDeck.id]);
    const ownerView = await call("GET", "/decks?scope=org", { key: a.key });
    expect(ownerView.body.map((d: { id: string }) => d.id)).toEqual([publicDeck.id, orgDeck.id, privateDeck.id]);
  });

  it.each(["scope=everyone", "kind=slides", "includeArchived=yes", "unknown=1", "scope=org&scope=mine"])(
    "refuses ?%s with 422",
    async (query) => {
      const res = await call("GET", `/decks?${query}`, { key: owner.key });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("invalid_request");
    },
  );
});

describe("GET, PATCH and DELETE /decks/{id}", () => {
  it("returns the deck with a null latestVersion until content is written", async () => {
    const deck = await createDeck(owner);
    const res = await call("GET", `/decks/${deck.id}`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...deck, latestVersion: null, versionCount: 0 });
  });

  it("updates title, kind, description and archived, moving updatedAt", async () => {
    const deck = await createDeck(owner);
    await new Promise((r) => setTimeout(r, 5));
    const res = await call("PATCH", `/decks/${deck.id}`, {
      key: owner.key,
      body: { title: "Renamed", kind: "template", description: "For launches", archived: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Renamed", kind: "template", description: "For launches", archived: true });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(deck.updatedAt as string));
    const back = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { kind: "deck", archived: false } });
    expect(back.body).toMatchObject({ kind: "deck", archived: false });
  });

  it("mints a slug on first publish and keeps it across unpublish and republish", async () => {
    const deck = await createDeck(owner);
    const published = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "public" } });
    expect(published.status).toBe(200);
    const slug = published.body.publicSlug as string;
    expect(slug).toMatch(/^[0-9a-z]{14}$/);
    expect(published.body.publicUrl).toBe(`${process.env.VIEWER_BASE_URL ?? "http://localhost:3000"}/d/${slug}`);

    const unpublished = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "org" } });
    expect(unpublished.body).toMatchObject({ visibility: "org", publicSlug: slug, publicUrl: null });
    const privateAgain = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "private" } });
    expect(privateAgain.body.publicUrl).toBeNull();
    const republished = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "public" } });
    expect(republished.body).toMatchObject({ visibility: "public", publicSlug: slug });
    expect(republished.body.publicUrl).toMatch(new RegExp(`/d/${slug}$`));
  });

  it("accepts an empty patch without changing anything", async () => {
    const deck = await createDeck(owner);
    const res = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(deck);
  });

  it.each([
    ["an empty title", { title: "" }],
    ["a 301-character title", { title: "y".repeat(301) }],
    ["an unknown visibility", { visibility: "secret" }],
    ["a string for archived", { archived: "yes" }],
    ["a null title", { title: null }],
    ["format, which cannot change", { format: "webpage" }],
    ["an unknown field", { ownerId: randomUUID() }],
  ])("refuses %s with 422", async (_, body) => {
    const deck = await createDeck(owner);
    const res = await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("deletes a deck with its versions", async () => {
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    const res = await call("DELETE", `/decks/${deck.id}`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await call("GET", `/decks/${deck.id}`, { key: owner.key })).status).toBe(404);
    expect((await call("GET", `/decks/${deck.id}/versions`, { key: owner.key })).status).toBe(404);
    expect((await call("DELETE", `/decks/${deck.id}`, { key: owner.key })).status).toBe(404);
  });

  it("deletes a deck whose files cannot be deleted, and logs each file left behind with the request", async () => {
    const deck = await createDeck(owner);
    const refused = vi.spyOn(LocalFileStore.prototype, "deletePrefix").mockRejectedValue(new Error("blob store down"));
    const logged: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((line: unknown) => logged.push(String(line)) > 0);
    try {
      const res = await call("DELETE", `/decks/${deck.id}`, { key: owner.key });
      expect(res.body).toEqual({ deleted: true });
      expect(refused).toHaveBeenCalledTimes(2);
      const lines = logged.filter((line) => line.includes("could not be deleted"));
      expect(lines).toEqual([expect.stringContaining(`og/${deck.id}/`), expect.stringContaining(`slides/${deck.id}/`)]);
      for (const line of lines) {
        expect(line).toContain("blob store down");
        expect(line).toContain(res.headers.get("x-request-id")!);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });

  it.each(["not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g"])("refuses the id %s with 422", async (id) => {
    const res = await call("GET", `/decks/${id}`, { key: owner.key });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/id/);
  });

  it("answers 404 for a well-formed id that names nothing", async () => {
    const res = await call("GET", `/decks/${randomUUID()}`, { key: owner.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("who may read and change a deck", () => {
  const writes = (id: string): [string, string, unknown][] => [
    ["PATCH", `/decks/${id}`, { title: "taken over" }],
    ["DELETE", `/decks/${id}`, undefined],
    ["PUT", `/decks/${id}/content`, { source: deckSource() }],
    ["POST", `/decks/${id}/versions/1/revert`, undefined],
  ];
  const reads = (id: string): string[] => [`/decks/${id}`, `/decks/${id}/versions`, `/decks/${id}/versions/1`];

  it("private: a colleague gets 403, another organization 404", async () => {
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    for (const path of reads(deck.id)) {
      expect((await call("GET", path, { key: colleague.key })).status).toBe(403);
      expect((await call("GET", path, { key: outsider.key })).status).toBe(404);
    }
    for (const [method, path, body] of writes(deck.id)) {
      expect((await call(method, path, { key: colleague.key, body })).status).toBe(403);
      expect((await call(method, path, { key: outsider.key, body })).status).toBe(404);
    }
  });

  it("org: colleagues read but only the owner writes; other organizations see nothing", async () => {
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "org" } });
    for (const path of reads(deck.id)) {
      expect((await call("GET", path, { key: colleague.key })).status).toBe(200);
      expect((await call("GET", path, { key: outsider.key })).status).toBe(404);
    }
    for (const [method, path, body] of writes(deck.id)) {
      const res = await call(method, path, { key: colleague.key, body });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect((await call(method, path, { key: outsider.key, body })).status).toBe(404);
    }
  });

  it("public: any authenticated caller reads the deck, its history stays in the organization; writes are still the owner's", async () => {
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "public" } });
    expect((await call("GET", `/decks/${deck.id}`, { key: outsider.key })).status).toBe(200);
    for (const path of reads(deck.id)) {
      expect((await call("GET", path, { key: colleague.key })).status).toBe(200);
    }
    // The version list and the versions are the owning organization's, even for a public deck.
    for (const path of reads(deck.id).filter((p) => p.includes("/versions"))) {
      const res = await call("GET", path, { key: outsider.key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    for (const [method, path, body] of writes(deck.id)) {
      const res = await call(method, path, { key: outsider.key, body });
      expect(res.status).toBe(path.includes("/versions/") ? 404 : 403);
    }
    const detail = await call("GET", `/decks/${deck.id}`, { key: owner.key });
    expect(detail.body).toMatchObject({ title: "Test deck", versionCount: 1 });
  });
});
