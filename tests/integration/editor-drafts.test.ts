// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  discardDraftAction,
  duplicateDeckAction,
  mergeWithNewestAction,
  presenceAction,
  previewDraftAction,
  saveVersionAction,
} from "@/server/actions/editor";
import { compareSlidesAction } from "@/server/actions/editor-live";
import { GET as getPreviewModule } from "@/app/preview/[token]/module/[version]/route";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { deckPresence } from "@/lib/db/schema/deck-presence";
import { decks } from "@/lib/db/schema/decks";
import { getUnsavedDraft } from "@/lib/decks/drafts";
import { duplicateDeck } from "@/lib/decks/duplicate-deck";
import { TITLE_MAX_CHARS } from "@/lib/decks/schemas";
import { createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// The editor's no-lost-work actions on a real database: the typed draft kept as the author types (compiling
// or not), restored until saved or discarded; the save conflict's merge; a reader's duplicate; presence
// scoped to the organization.

let database: Database;
const tokensCss = ":root { --dh-color-bg: #fff; }";
const org = `org-${randomUUID()}`;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  owner = await createUser({ org });
  member = await createUser({ org });
  stranger = await createUser();
});

const ctxOf = (u: TestUser): Ctx => ({
  db: database.db,
  caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null },
});

async function deckWith(labels: string[], body: Record<string, unknown> = {}) {
  const deck = await createDeck(owner, { title: "Drafts", ...body });
  expect((await setContent(owner, deck.id, { source: deckSource(labels) })).status).toBe(200);
  return deck.id;
}

describe("the typed draft", () => {
  it("is kept as typed even when it does not compile, restored until a save clears it", async () => {
    const id = await deckWith(["One"]);
    const broken = deckSource(["Typing"]).replace("</Title>", "</Titel>");
    const refused = await previewDraftAction.runAs(ctxOf(owner), {
      id,
      source: broken,
      tokensCss,
      basedOnVersion: 1,
      unsaved: true,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: "compile_failed" } });
    expect(await getUnsavedDraft(ctxOf(owner), id)).toMatchObject({ source: broken, basedOnVersion: 1 });

    const typed = deckSource(["Typed"]);
    const compiled = await previewDraftAction.runAs(ctxOf(owner), {
      id,
      source: typed,
      tokensCss,
      basedOnVersion: 1,
      unsaved: true,
    });
    expect(compiled, JSON.stringify(compiled)).toMatchObject({ ok: true });
    expect(await getUnsavedDraft(ctxOf(owner), id)).toMatchObject({ source: typed });

    // Saved as a version: nothing to restore, the preview stays.
    const saved = await saveVersionAction.runAs(ctxOf(owner), { id, source: typed, tokensCss, basedOnVersion: 1 });
    expect(saved).toEqual({ ok: true, value: { version: 2 } });
    expect(await getUnsavedDraft(ctxOf(owner), id)).toBeNull();
    const [row] = await database.db
      .select()
      .from(deckDrafts)
      .where(and(eq(deckDrafts.deckId, id), eq(deckDrafts.userId, owner.userId)));
    expect(row).toMatchObject({ source: null, compiledJs: expect.any(String) });
  });

  it("names its module, served beside the preview frame under its hash while it is the draft's, and its frame", async () => {
    const id = await deckWith(["One"]);
    const preview = async (source: string, tokens = tokensCss) => {
      const result = await previewDraftAction.runAs(ctxOf(owner), { id, source, tokensCss: tokens, unsaved: true });
      if (!result.ok) throw new Error(JSON.stringify(result));
      return result.value;
    };
    const moduleAt = (url: string, name: string) => {
      const token = new URL(url).pathname.split("/")[2]!;
      return getPreviewModule(new Request(`http://localhost/preview/${token}/module/${name}`), {
        params: Promise.resolve({ token, version: name }),
      });
    };
    const first = await preview(deckSource(["First"]));
    expect(first.module).toMatch(/^[0-9a-f]{32}$/);
    const served = await moduleAt(first.url, first.module);
    expect(served.status).toBe(200);
    const code = await served.text();
    expect(code).toContain("First");
    // The frame's own module path (version 0) is the draft's module too.
    expect(await (await moduleAt(first.url, "0")).text()).toBe(code);

    // A text edit: another module, the same frame document. The old module's name is no longer served
    // (a frame asking for it loads a new frame instead), under either preview link.
    const second = await preview(deckSource(["Second"]));
    expect(second.module).not.toBe(first.module);
    expect(second.frame).toBe(first.frame);
    expect((await moduleAt(second.url, first.module)).status).toBe(404);
    expect((await moduleAt(first.url, second.module)).status).toBe(200);
    expect((await moduleAt(first.url, "f".repeat(32))).status).toBe(404);
    // Other tokens: another frame document (a new frame is loaded).
    const recoloured = await preview(deckSource(["Second"]), ":root { --dh-color-bg: #000; }");
    expect(recoloured.module).toBe(second.module);
    expect(recoloured.frame).not.toBe(second.frame);
  });

  it("is not kept when it is what the editor opened (unsaved false), and discard deletes it", async () => {
    const id = await deckWith(["One"]);
    await previewDraftAction.runAs(ctxOf(owner), { id, source: deckSource(["One"]), tokensCss, unsaved: false });
    expect(await getUnsavedDraft(ctxOf(owner), id)).toBeNull();
    await previewDraftAction.runAs(ctxOf(owner), { id, source: deckSource(["Two"]), tokensCss, unsaved: true });
    expect(await getUnsavedDraft(ctxOf(owner), id)).not.toBeNull();
    expect(await discardDraftAction.runAs(ctxOf(owner), { id })).toEqual({ ok: true, value: { discarded: true } });
    expect(await database.db.select().from(deckDrafts).where(eq(deckDrafts.deckId, id))).toEqual([]);
    // Only the owner keeps drafts of a deck.
    expect(await discardDraftAction.runAs(ctxOf(member), { id })).toMatchObject({ ok: false });
  });
});

describe("comparing slides (Review, the save conflict)", () => {
  it("takes exactly one of a version and the draft, and version 0 as the empty deck", async () => {
    const id = await deckWith(["One", "Two"]);
    const refused = async (input: Record<string, unknown>) => {
      const result = await compareSlidesAction.runAs(ctxOf(owner), { id, before: 1, ...input });
      expect(result).toMatchObject({ ok: false, error: { code: "invalid_request" } });
      if (!result.ok) expect(result.error.message).toMatch(/exactly one of after .* and draft/);
    };
    await refused({});
    await refused({ after: 1, draft: { source: deckSource(["Mine"]), tokensCss, basedOnVersion: 1 } });

    // An editor based on no version (a new deck that got version 1 elsewhere): every slide is added.
    const fromEmpty = await compareSlidesAction.runAs(ctxOf(owner), { id, before: 0, after: 1 });
    expect(fromEmpty, JSON.stringify(fromEmpty)).toMatchObject({
      ok: true,
      value: {
        changes: [
          { slide: 1, kind: "added", beforeUrl: null, afterUrl: expect.any(String) },
          { slide: 2, kind: "added", beforeUrl: null, afterUrl: expect.any(String) },
        ],
        more: 0,
      },
    });
  });

  it("compiles the sent draft first, so the pictures of 'yours' are of the content compared", async () => {
    const id = await deckWith(["One"]);
    // The editor's last compile was of other content than the conflict dialog compares.
    await previewDraftAction.runAs(ctxOf(owner), {
      id,
      source: deckSource(["Stale"]),
      tokensCss,
      basedOnVersion: 1,
      unsaved: true,
    });
    const mine = deckSource(["Fresh"]);
    const compared = await compareSlidesAction.runAs(ctxOf(owner), {
      id,
      before: 1,
      draft: { source: mine, tokensCss, basedOnVersion: 1 },
    });
    expect(compared, JSON.stringify(compared)).toMatchObject({
      ok: true,
      value: { changes: [{ slide: 1, kind: "changed", afterUrl: expect.stringContaining("/frame?") }] },
    });
    const [row] = await database.db
      .select()
      .from(deckDrafts)
      .where(and(eq(deckDrafts.deckId, id), eq(deckDrafts.userId, owner.userId)));
    expect(row?.compiledJs).toContain("Fresh");
    expect(row?.compiledJs).not.toContain("Stale");
    // Kept to restore, based on the version the editor was editing.
    expect(await getUnsavedDraft(ctxOf(owner), id)).toMatchObject({ source: mine, basedOnVersion: 1 });
  });
});

describe("the save conflict's merge", () => {
  it("merges edits of different slides with the newest version, and explains a clash", async () => {
    const id = await deckWith(["Alpha", "Beta"]);
    const theirs = deckSource(["Alpha", "Beta theirs"]);
    expect((await setContent(owner, id, { source: theirs })).status).toBe(200);
    const mine = deckSource(["Alpha mine", "Beta"]);
    const merged = await mergeWithNewestAction.runAs(ctxOf(owner), {
      id,
      source: mine,
      tokensCss,
      basedOnVersion: 1,
    });
    expect(merged).toMatchObject({ ok: true, value: { merged: true, theirsVersion: 2 } });
    const source = merged.ok && merged.value.merged ? merged.value.source : "";
    expect(source).toBe(deckSource(["Alpha mine", "Beta theirs"]));

    const clash = await mergeWithNewestAction.runAs(ctxOf(owner), {
      id,
      source: deckSource(["Alpha", "Beta mine"]),
      tokensCss,
      basedOnVersion: 1,
    });
    expect(clash).toMatchObject({ ok: true, value: { merged: false, reason: expect.stringContaining("Beta") } });
    expect(await mergeWithNewestAction.runAs(ctxOf(owner), { id, source: mine, basedOnVersion: -1 })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
  });
});

describe("Duplicate to my decks", () => {
  it("gives a member a deck of their own with the newest content, titled '(copy)' within the limit", async () => {
    const id = await deckWith(["Shared"], { title: "T".repeat(TITLE_MAX_CHARS) });
    await database.db.update(decks).set({ visibility: "org" }).where(eq(decks.id, id));
    const copy = await duplicateDeck(ctxOf(member), { id });
    expect(copy.title).toBe(`${"T".repeat(TITLE_MAX_CHARS - 7)} (copy)`);
    const [row] = await database.db.select().from(decks).where(eq(decks.id, copy.id));
    expect(row).toMatchObject({ ownerId: member.userId, organizationId: member.organizationId, versionCount: 1 });
    // Validated like the others; another organization's caller is told nothing.
    expect(await duplicateDeckAction.runAs(ctxOf(member), { id: "nope" })).toMatchObject({ ok: false });
    expect(await duplicateDeckAction.runAs(ctxOf(stranger), { id })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });
});

describe("presence", () => {
  it("lists the others who beat within the window, not the caller, within the organization", async () => {
    const id = await deckWith(["Here"]);
    await database.db.update(decks).set({ visibility: "org" }).where(eq(decks.id, id));
    expect(await presenceAction.runAs(ctxOf(owner), { id })).toEqual({ ok: true, value: { others: [] } });
    expect(await presenceAction.runAs(ctxOf(member), { id })).toMatchObject({
      ok: true,
      value: { others: [{ userId: owner.userId }] },
    });
    expect(await presenceAction.runAs(ctxOf(owner), { id })).toMatchObject({
      ok: true,
      value: { others: [{ userId: member.userId, name: member.email }] },
    });
    // Seen too long ago: not listed. Left: not listed at once.
    await database.db
      .update(deckPresence)
      .set({ lastSeen: new Date(Date.now() - 60_000) })
      .where(eq(deckPresence.userId, member.userId));
    expect(await presenceAction.runAs(ctxOf(owner), { id })).toEqual({ ok: true, value: { others: [] } });
    await presenceAction.runAs(ctxOf(member), { id });
    await presenceAction.runAs(ctxOf(member), { id, leaving: true });
    expect(await presenceAction.runAs(ctxOf(owner), { id })).toEqual({ ok: true, value: { others: [] } });
    expect(await presenceAction.runAs(ctxOf(stranger), { id })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });
});
