// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { duplicateDeckAction, startFromTemplateAction } from "@/server/actions/decks";
import { readNewestVersionAction, startExportAction } from "@/server/actions/editor";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource, publishDeck } from "../helpers/decks";

// A share link's password and expiry guard the deck by id too (lib/decks/access.ts): another organization
// reads a public deck through the API, its exports, MCP (mcp.test.ts) and the app's actions only while the
// link is open, and a locked or expired one answers exactly as a deck it may not read. The deck's own
// organization reads it as before.

let database: Database;
let owner: TestUser;
let colleague: TestUser; // the owner's organization
let outsider: TestUser; // another organization

type Link = "open" | "password" | "expired";
const closedLinks = ["password", "expired"] as const;

beforeAll(async () => {
  database = await setUpTestDatabase();
  const org = `org-${randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
  outsider = await createUser();
});

function ctxOf(u: TestUser): Ctx {
  return { db: database.db, caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null } };
}

// A public slides deck of the owner's with two slides, its link open, behind a password, or expired.
async function publicDeck(link: Link): Promise<string> {
  const { id } = await publishDeck(owner, { source: deckSource([`${link} one`, `${link} two`]) });
  if (link !== "open") await setLink(id, link === "password" ? { password: "open sesame" } : pastExpiry());
  return id;
}

async function setLink(id: string, body: Record<string, unknown>) {
  const res = await call("PATCH", `/decks/${id}/link`, { key: owner.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const pastExpiry = () => ({ expiresAt: new Date(Date.now() - 60_000).toISOString() });

// What a deck the caller may not read (here: one that does not exist) answers.
async function unknownDeckError(path: (id: string) => string, method = "GET", body?: unknown) {
  const res = await call(method, path(randomUUID()), { key: outsider.key, body });
  expect(res.status).toBe(404);
  return { code: res.body.error.code, message: res.body.error.message };
}

describe("another organization and a locked or expired share link", () => {
  it("gets the 404 of an unknown deck from get_deck, the check, exports, create_deck's fromDeckId and writes", async () => {
    const asUnknown = await unknownDeckError((id) => `/decks/${id}`);
    expect(asUnknown).toEqual({ code: "not_found", message: "Deck not found." });
    for (const link of closedLinks) {
      const id = await publicDeck(link);
      const answers: [string, string, unknown][] = [
        ["GET", `/decks/${id}`, undefined],
        ["GET", `/decks/${id}/check`, undefined],
        ["POST", `/decks/${id}/exports`, { format: "pdf" }],
        ["POST", `/decks/${id}/exports`, { format: "pptx" }],
        ["POST", "/decks", { title: "Borrowed", fromDeckId: id }],
        // Versions say nothing of a deck that is not shared, not even that its versions are not.
        ["GET", `/decks/${id}/versions`, undefined],
        ["GET", `/decks/${id}/versions/1`, undefined],
        // An owner-only write is a 404 too, not the 403 that would tell the deck exists.
        ["PATCH", `/decks/${id}`, { title: "taken over" }],
        ["PATCH", `/decks/${id}/link`, { password: null }],
      ];
      for (const [method, path, body] of answers) {
        const res = await call(method, path, { key: outsider.key, body });
        // Soft: a failure names every path that still answers, not only the first.
        expect.soft(res.status, `${link}: ${method} ${path}`).toBe(404);
        expect.soft(res.body?.error, `${link}: ${method} ${path}`).toMatchObject(asUnknown);
      }
    }
  });

  it("gets not_found from the app's duplicate, Use template, read-newest-version and export actions", async () => {
    for (const link of closedLinks) {
      const id = await publicDeck(link);
      const refused = { ok: false, error: { code: "not_found", message: "Deck not found." } };
      const duplicated = await duplicateDeckAction.runAs(ctxOf(outsider), { id });
      expect.soft(duplicated, `${link}: duplicate`).toMatchObject(refused);
      const started = await startFromTemplateAction.runAs(ctxOf(outsider), { fromDeckId: id });
      expect.soft(started, `${link}: use template`).toMatchObject(refused);
      const newest = await readNewestVersionAction.runAs(ctxOf(outsider), { id });
      expect.soft(newest, `${link}: read newest version`).toMatchObject(refused);
      const exported = await startExportAction.runAs(ctxOf(outsider), { id, format: "pdf" });
      expect.soft(exported, `${link}: export`).toMatchObject(refused);
    }
  });

  it("can no longer read or download an export it made while the link was open", async () => {
    const id = await publicDeck("open");
    const created = await call("POST", `/decks/${id}/exports`, { key: outsider.key, body: { format: "pdf" } });
    expect(created.status).toBe(202);
    const exportId = created.body.id as string;
    expect((await call("GET", `/exports/${exportId}`, { key: outsider.key })).status).toBe(200);

    for (const closed of [{ password: "open sesame" }, pastExpiry()]) {
      await setLink(id, closed);
      for (const path of [`/exports/${exportId}`, `/exports/${exportId}/download`]) {
        const res = await call("GET", path, { key: outsider.key });
        expect.soft(res.status, `${JSON.stringify(closed)}: ${path}`).toBe(404);
      }
      // Opened again, the export is the outsider's to read again.
      await setLink(id, { password: null, expiresAt: null });
      expect((await call("GET", `/exports/${exportId}`, { key: outsider.key })).status).toBe(200);
    }
  });
});

describe("an open share link, and the deck's own organization", () => {
  it("another organization still reads, checks, exports and duplicates a public deck whose link is open", async () => {
    const id = await publicDeck("open");
    // Open until an expiry still ahead.
    await setLink(id, { expiresAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    const detail = await call("GET", `/decks/${id}`, { key: outsider.key });
    expect(detail.status).toBe(200);
    expect(detail.body.latestVersion.outline).toEqual(["open one", "open two"]);
    const checked = await call("GET", `/decks/${id}/check`, { key: outsider.key });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toMatchObject({ version: 1, slides: 2 });
    expect((await call("POST", `/decks/${id}/exports`, { key: outsider.key, body: { format: "pdf" } })).status).toBe(
      202,
    );
    expect(await duplicateDeckAction.runAs(ctxOf(outsider), { id })).toMatchObject({ ok: true });
    expect(await readNewestVersionAction.runAs(ctxOf(outsider), { id })).toMatchObject({
      ok: true,
      value: { version: 1, source: deckSource(["open one", "open two"]) },
    });
  });

  it("the owner and a colleague read, check and export the deck whatever its link", async () => {
    for (const link of ["open", ...closedLinks] as const) {
      const id = await publicDeck(link);
      for (const member of [owner, colleague]) {
        const detail = await call("GET", `/decks/${id}`, { key: member.key });
        expect(detail.status, link).toBe(200);
        expect(detail.body.latestVersion.outline).toEqual([`${link} one`, `${link} two`]);
        expect((await call("GET", `/decks/${id}/versions/1`, { key: member.key })).status, link).toBe(200);
        expect(await readNewestVersionAction.runAs(ctxOf(member), { id }), link).toMatchObject({ ok: true });
      }
      const checked = await call("GET", `/decks/${id}/check`, { key: colleague.key });
      expect(checked.status, `${link}: ${JSON.stringify(checked.body)}`).toBe(200);
      expect(checked.body).toMatchObject({ version: 1, slides: 2 });
      const exported = await call("POST", `/decks/${id}/exports`, { key: owner.key, body: { format: "pdf" } });
      expect(exported.status, link).toBe(202);
      expect((await call("GET", `/exports/${exported.body.id}`, { key: owner.key })).status, link).toBe(200);
      expect(await duplicateDeckAction.runAs(ctxOf(colleague), { id }), link).toMatchObject({ ok: true });
    }
  }, 60_000);
});
