import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import type { Database } from "@/lib/db/client";
import { dispatch } from "../helpers/app-router";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";

// tokensCss that postcss reads as one token but a browser as `}` (closing :root) and a rule of its own:
// a browser ends a quoted string at a line break. Red-team finding: accepted with 200, inlined into the
// viewer, and lent on by fromDeckId (create_deck), across organizations for public decks.
const injection = [
  ":root {",
  "  --color-bg: #fff;",
  '  --font-note: "Inter',
  "}",
  "body::after{content:'injected';position:fixed;inset:0;background:red}",
  '";',
  "}",
].join("\n");
// What is left of it once re-serialised from its valid parts.
const salvaged = ":root {\n  --color-bg: #fff;\n}";

let database: Database;
let attacker: TestUser; // publishes decks; another organization than the victim
let victim: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  attacker = await createUser();
  victim = await createUser();
});

// A public template holding `tokens` in its newest version, written straight into the database as a row
// from before the fix would be (the API now refuses such tokens).
async function publicTemplateWithStoredTokens(tokens: string) {
  const deck = await createDeck(attacker, { kind: "template" });
  expect((await setContent(attacker, deck.id)).status).toBe(200);
  const published = await call("PATCH", `/decks/${deck.id}`, { key: attacker.key, body: { visibility: "public" } });
  expect(published.status).toBe(200);
  const [first] = await database.db
    .select()
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, 1)));
  const { id: _id, createdAt: _createdAt, ...copy } = first!;
  await database.db.insert(deckVersions).values({ ...copy, version: 2, tokensCss: tokens });
  await database.db.update(decks).set({ versionCount: 2 }).where(eq(decks.id, deck.id));
  return { id: deck.id, slug: published.body.publicSlug as string };
}

async function storedInitialTokens(deckId: string): Promise<string | null> {
  const [row] = await database.db
    .select({ initialTokensCss: decks.initialTokensCss })
    .from(decks)
    .where(eq(decks.id, deckId));
  return row!.initialTokensCss;
}

async function latestTokens(user: TestUser, deckId: string): Promise<string> {
  const detail = await call("GET", `/decks/${deckId}`, { key: user.key });
  expect(detail.status).toBe(200);
  return detail.body.latestVersion.tokensCss;
}

describe("PUT /decks/{id}/content with injected tokensCss", () => {
  it("answers 422 naming the token and the problem, and saves nothing", async () => {
    const deck = await createDeck(attacker);
    const res = await setContent(attacker, deck.id, { tokensCss: injection });
    expect(res.status).toBe(422);
    // The API's path for tokens that do not compile (lib/source/tokens.ts), as for every other tokensCss refusal.
    expect(res.body.error.code).toBe("compile_failed");
    expect(res.body.error.message).toContain("--font-note");
    expect(res.body.error.message).toContain("line break");
    expect((await call("GET", `/decks/${deck.id}/versions`, { key: attacker.key })).body).toEqual([]);
  });

  it.each([
    ["an escaped line break in a string", ':root {\n  --a: "x\\\n}\nbody{color:red}\n";\n}'],
    ['"}" inside brackets', ":root { --a: [}] body{color:red}; }"],
    ['"{" outside a string', ":root { --a: {color: red}; }"],
    ["a backslash escape", ":root { --a: x\\}; }"],
    [
      "a comment a browser opens inside postcss's string",
      ':root {\n  --a: "x\n/*";\n  --b: "*/ } body{color:red} /*";\n}',
    ],
  ])("refuses %s with 422", async (_, tokensCss) => {
    const deck = await createDeck(attacker);
    const res = await setContent(attacker, deck.id, { tokensCss });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("compile_failed");
    expect(res.body.error.message).toMatch(/^tokensCss: Line \d+:\d+: --[ab]: /);
  });

  it("stores well-formed tokens re-serialised from the parsed model, not as written", async () => {
    const deck = await createDeck(attacker);
    const written = '/* brand */\n:root {\n  --font-body:   "Inter",\n     sans-serif; /* body */\n  --radius: 8px;\n}';
    expect((await setContent(attacker, deck.id, { tokensCss: written })).status).toBe(200);
    expect(await latestTokens(attacker, deck.id)).toBe(
      ':root {\n  --font-body: "Inter", sans-serif;\n  --radius: 8px;\n}',
    );
  });
});

describe("tokens stored before the fix", () => {
  it("are not lent on by create_deck fromDeckId across organizations", async () => {
    const template = await publicTemplateWithStoredTokens(injection);

    const started = await call("POST", "/decks", { key: victim.key, body: { fromDeckId: template.id } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ startedFromDeckId: template.id, brandId: null });
    expect(await storedInitialTokens(started.body.id)).toBe(salvaged);

    // The victim's first version takes the lent tokens: re-serialised, without the injected rule.
    expect((await setContent(victim, started.body.id)).status).toBe(200);
    const tokens = await latestTokens(victim, started.body.id);
    expect(tokens).toBe(salvaged);
    expect(tokens).not.toContain("body::after");
  });

  it("are not lent on from a deck's initial tokens either, and nothing of an all-bad sheet passes", async () => {
    const [deck] = await database.db
      .insert(decks)
      .values({
        organizationId: attacker.organizationId,
        ownerId: attacker.userId,
        title: "Old template",
        kind: "template",
        visibility: "public",
        initialTokensCss: ':root {\n  --font-note: "Inter\n}\nbody::after{content:"x"}\n";\n}',
      })
      .returning();
    const started = await call("POST", "/decks", { key: victim.key, body: { fromDeckId: deck!.id } });
    expect(started.status).toBe(201);
    expect(await storedInitialTokens(started.body.id)).toBeNull(); // the default theme applies
    await setContent(victim, started.body.id);
    expect(await latestTokens(victim, started.body.id)).not.toContain("body::after");
  });

  it("are re-serialised when a new version keeps the deck's tokens", async () => {
    const template = await publicTemplateWithStoredTokens(injection);
    expect((await setContent(attacker, template.id)).status).toBe(200);
    expect(await latestTokens(attacker, template.id)).toBe(salvaged);
  });

  it("are served by the viewer only as re-serialised tokens", async () => {
    const template = await publicTemplateWithStoredTokens(injection);
    const res = await dispatch(new Request(`http://localhost/d/${template.slug}/frame`));
    expect(res.status).toBe(200);
    const html = await res.text();
    const style = /<style id="dh-tokens">([\s\S]*?)<\/style>/.exec(html)?.[1];
    expect(style).toBe(salvaged);
    expect(html).not.toContain("body::after");
  });
});
