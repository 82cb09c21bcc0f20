// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  deleteLibraryDeckAction,
  duplicateDeckAction,
  renameDeckAction,
  startFromTemplateAction,
} from "@/server/actions/decks";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { listDecks } from "@/lib/decks/list-decks";
import { TITLE_MAX_CHARS } from "@/lib/decks/schemas";
import { startFromTemplate } from "@/lib/decks/start-from-template";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// The library's card actions and "Use template", as the app calls them (the actions' wrapper: the API's
// schemas, the caller's organization): the new deck holds the original's newest content as version 1,
// titles are cut to the limit, and only the owner renames or deletes.

let database: Database;
let owner: TestUser;
let colleague: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  const org = `org-${randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
  stranger = await createUser();
});

function ctxOf(u: TestUser): Ctx {
  return { db: database.db, caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null } };
}

async function deckWithContent(who: TestUser, body: Record<string, unknown>, labels: string[]) {
  const deck = await createDeck(who, body);
  expect((await setContent(who, deck.id, { source: deckSource(labels) })).status).toBe(200);
  return deck;
}

async function detail(who: TestUser, id: string) {
  const response = await call("GET", `/decks/${id}`, { key: who.key });
  expect(response.status).toBe(200);
  return response.body as { title: string; versionCount: number; latestVersion: { source: string } };
}

describe("Use template", () => {
  it("takes the typed title (on the cover too), or the template's title cut to fit, and copies the newest content as version 1", async () => {
    const longTitle = "T".repeat(TITLE_MAX_CHARS);
    const template = await deckWithContent(owner, { title: longTitle, kind: "template" }, ["Cover", "Ask"]);
    expect((await call("PATCH", `/decks/${template.id}`, { key: owner.key, body: { visibility: "org" } })).status).toBe(
      200,
    );

    const typed = await startFromTemplateAction.runAs(ctxOf(colleague), { fromDeckId: template.id, title: "Seed" });
    expect(typed).toMatchObject({ ok: true });
    const blank = await startFromTemplateAction.runAs(ctxOf(colleague), { fromDeckId: template.id, title: "  " });
    expect(blank.ok).toBe(true);
    if (!typed.ok || !blank.ok) return;
    expect(typed.value.title).toBe("Seed");
    expect(blank.value.title).toHaveLength(TITLE_MAX_CHARS);
    expect(blank.value.title).toMatch(/^T+ \(copy\)$/);
    // The typed title is what the cover says (issue 37); without one the content is copied as it is.
    const copied = deckSource(["Cover", "Ask"]);
    for (const [id, source] of [
      [typed.value.id, copied.replace("<Title>Cover</Title>", "<Title>Seed</Title>")],
      [blank.value.id, copied],
    ] as const) {
      const deck = await detail(colleague, id);
      expect(deck.versionCount).toBe(1);
      expect(deck.latestVersion.source).toBe(source);
    }
    // Without a title field at all, the same.
    const absent = await startFromTemplate(ctxOf(colleague), { fromDeckId: template.id });
    expect(absent.title).toBe(blank.value.title);
  });

  it("refuses a title over the limit with a readable message", async () => {
    const template = await deckWithContent(owner, { title: "Short", kind: "template" }, ["One"]);
    const result = await startFromTemplateAction.runAs(ctxOf(owner), {
      fromDeckId: template.id,
      title: "x".repeat(TITLE_MAX_CHARS + 1),
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "invalid_request", message: expect.stringMatching(/300/) },
    });
  });
});

describe("the library's card actions", () => {
  it("duplicates a deck the caller can read into their own, newest content as version 1, '(copy)' cut to fit", async () => {
    const original = await deckWithContent(owner, { title: "D".repeat(TITLE_MAX_CHARS) }, ["First"]);
    expect((await setContent(owner, original.id, { source: deckSource(["Newest"]) })).status).toBe(200);
    expect((await call("PATCH", `/decks/${original.id}`, { key: owner.key, body: { visibility: "org" } })).status).toBe(
      200,
    );

    const copy = await duplicateDeckAction.runAs(ctxOf(colleague), { id: original.id });
    expect(copy.ok).toBe(true);
    if (!copy.ok) return;
    expect(copy.value.title).toBe(`${"D".repeat(TITLE_MAX_CHARS - 7)} (copy)`);
    const deck = await detail(colleague, copy.value.id);
    expect(deck.versionCount).toBe(1);
    expect(deck.latestVersion.source).toBe(deckSource(["Newest"]));
    const mine = await listDecks(ctxOf(colleague), { scope: "mine", includeArchived: false });
    expect(mine.items.map((d) => d.id)).toContain(copy.value.id);

    // Another organization's private deck is not found.
    expect(await duplicateDeckAction.runAs(ctxOf(stranger), { id: original.id })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });

  it("renames and deletes for the owner only, within the title limits", async () => {
    const deck = await deckWithContent(owner, { title: "Before" }, ["One"]);
    expect((await call("PATCH", `/decks/${deck.id}`, { key: owner.key, body: { visibility: "org" } })).status).toBe(
      200,
    );
    expect(await renameDeckAction.runAs(ctxOf(owner), { id: deck.id, title: "After" })).toEqual({
      ok: true,
      value: { title: "After" },
    });
    expect(await renameDeckAction.runAs(ctxOf(owner), { id: deck.id, title: "" })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
    expect(await renameDeckAction.runAs(ctxOf(owner), { id: deck.id, title: "x".repeat(301) })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
    expect(await renameDeckAction.runAs(ctxOf(colleague), { id: deck.id, title: "Taken" })).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await deleteLibraryDeckAction.runAs(ctxOf(colleague), { id: deck.id })).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await deleteLibraryDeckAction.runAs(ctxOf(owner), { id: "not-a-uuid" })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
    expect(await deleteLibraryDeckAction.runAs(ctxOf(owner), { id: deck.id })).toEqual({
      ok: true,
      value: { deleted: true },
    });
    expect((await call("GET", `/decks/${deck.id}`, { key: owner.key })).status).toBe(404);
  });

  it("sorts by last update, creation or title", async () => {
    const sorter = await createUser();
    const b = await createDeck(sorter, { title: "banana" });
    const a = await createDeck(sorter, { title: "Apple" });
    expect((await setContent(sorter, b.id, { source: deckSource(["Touched"]) })).status).toBe(200);
    const ids = async (sort: "created" | "updated" | "title") =>
      (await listDecks(ctxOf(sorter), { scope: "mine", includeArchived: false, sort })).items.map((d) => d.id);
    expect(await ids("created")).toEqual([a.id, b.id]);
    expect(await ids("updated")).toEqual([b.id, a.id]);
    expect(await ids("title")).toEqual([a.id, b.id]);
  });
});
