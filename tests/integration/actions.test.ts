// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import { type Cookie, inRequest, redirectTarget } from "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { signInAction } from "@/server/actions/auth";
import { switchOrganizationAction } from "@/server/actions/organization";
import { deleteBrandAction } from "@/server/actions/brands";
import { createDeckAction } from "@/server/actions/decks";
import {
  exportStatusAction,
  generateDeckAction,
  previewDraftAction,
  readVersionAction,
  revertAction,
  saveVersionAction,
  setBrandAction,
  updateDeckAction,
} from "@/server/actions/editor";
import { revokeKeyAction } from "@/server/actions/keys";
import { removeMemberAction, setMemberRoleAction } from "@/server/actions/members";
import { defineAction } from "@/server/action";
import { signUp } from "@/lib/auth/accounts-app";
import { PASSWORD_LINE, PASSWORD_SLOTS, verifyPassword } from "@/lib/auth/passwords";
import type { Ctx } from "@/lib/auth/caller";
import { AppError } from "@/lib/core/errors";
import type { Database } from "@/lib/db/client";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { usage } from "@/lib/db/schema/usage";
import { PROMPT_MAX_CHARS, TOKENS_MAX_BYTES } from "@/lib/decks/schemas";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// The app's server actions go through one wrapper (server/action.ts) that validates like the API: the
// same schemas and limits, ids checked as UUIDs before the database, one result type for every refusal.
// Actions are called as a test user (`runAs`: the action without the session lookup) on a real database,
// and, for the session, the form fields and the redirect, as Next.js calls them (inside a request scope).

let database: Database;
let user: TestUser;
let ctx: Ctx;
let deckId: string;

const tokensCss = ":root { --dh-color-bg: #fff; }";

beforeAll(async () => {
  database = await setUpTestDatabase();
  user = await createUser();
  ctx = ctxOf(user);
  deckId = (await createDeck(user, { title: "Actions" })).id;
  expect((await setContent(user, deckId, { source: deckSource(["One"]), prompt: "first" })).status).toBe(200);
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function ctxOf(u: TestUser): Ctx {
  return { db: database.db, caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null } };
}

// Everything a refused save could have written: the deck's versions, its drafts, the organization's usage.
async function snapshot() {
  const versions = await database.db.select().from(deckVersions).where(eq(deckVersions.deckId, deckId));
  const drafts = await database.db.select().from(deckDrafts).where(eq(deckDrafts.deckId, deckId));
  const used = await database.db.select().from(usage).where(eq(usage.organizationId, user.organizationId));
  const [deck] = await database.db.select().from(decks).where(eq(decks.id, deckId));
  return { versions, drafts, used, deck };
}

const invalid = (message: string) => ({ ok: false, error: { code: "invalid_request", message } });

describe("an action's input is validated with the API's schemas", () => {
  it("refuses tokensCss over 64 KB, as set_deck_content does, and saves nothing", async () => {
    const before = await snapshot();
    const oversized = `:root { --dh-color-bg: #fff; }\n/*${"x".repeat(TOKENS_MAX_BYTES)}*/`;
    const source = deckSource(["Two"]);
    const api = await call("PUT", `/decks/${deckId}/content`, {
      key: user.key,
      body: { source, tokensCss: oversized },
    });
    expect(api.status).toBe(422);
    expect(api.body.error.message).toBe("body.tokensCss: must be at most 64 KB");

    expect(await saveVersionAction.runAs(ctx, { id: deckId, source, tokensCss: oversized })).toEqual(
      invalid("tokensCss: must be at most 64 KB"),
    );
    expect(await previewDraftAction.runAs(ctx, { id: deckId, source, tokensCss: oversized })).toEqual(
      invalid("tokensCss: must be at most 64 KB"),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a 2001-character note (the API's prompt limit), instead of cutting it short, and saves nothing", async () => {
    const before = await snapshot();
    const prompt = "n".repeat(PROMPT_MAX_CHARS + 1);
    const result = await saveVersionAction.runAs(ctx, { id: deckId, source: deckSource(["Two"]), tokensCss, prompt });
    expect(result).toEqual(invalid(`prompt: must be at most ${PROMPT_MAX_CHARS} characters`));
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an id that is not a UUID before it reaches the database, whichever action takes it", async () => {
    const before = await snapshot();
    const query = vi.spyOn(database.db, "select");
    const id = "1; drop table decks";
    const refusals = await Promise.all([
      saveVersionAction.runAs(ctx, { id, source: deckSource(["Two"]), tokensCss }),
      previewDraftAction.runAs(ctx, { id, source: deckSource(["Two"]), tokensCss }),
      readVersionAction.runAs(ctx, { id, version: "1" }),
      revertAction.runAs(ctx, { id, version: "1" }),
      exportStatusAction.runAs(ctx, { id }),
      updateDeckAction.runAs(ctx, { id, title: "Renamed" }),
      generateDeckAction.runAs(ctx, { id, brief: "A deck", mode: "revise" }),
      deleteBrandAction.runAs(ctx, { id }),
      revokeKeyAction.runAs(ctx, { id }),
    ]);
    for (const refusal of refusals) expect(refusal).toEqual(invalid("id: must be a UUID"));
    expect(await setBrandAction.runAs(ctx, { id: deckId, brandId: "brand-1" })).toEqual(
      invalid("brandId: must be a UUID"),
    );
    expect(await setMemberRoleAction.runAs(ctx, { userId: "me", role: "owner" })).toEqual(
      invalid("userId: must be a UUID"),
    );
    expect(await revertAction.runAs(ctx, { id: deckId, version: "0" })).toEqual(
      invalid("version: must be an integer greater than 0"),
    );
    // Only the rate limit was counted: nothing was looked up by those ids.
    expect(query).not.toHaveBeenCalled();
    expect(await snapshot()).toEqual(before);
  });

  it("refuses unknown fields and names each refused field, as the API does", async () => {
    expect(await updateDeckAction.runAs(ctx, { id: deckId, title: "x", owner: "me" })).toEqual(
      invalid('unknown field "owner"'),
    );
    expect(await updateDeckAction.runAs(ctx, { id: deckId, title: " ", visibility: "everyone" })).toEqual(
      invalid(
        'title: must be 1 to 300 characters; visibility: Invalid option: expected one of "private"|"org"|"public"',
      ),
    );
  });

  it("goes through when the input is valid: save, read, revert", async () => {
    const saved = await saveVersionAction.runAs(ctx, {
      id: deckId,
      source: deckSource(["Two"]),
      tokensCss,
      prompt: "p".repeat(PROMPT_MAX_CHARS),
    });
    expect(saved).toEqual({ ok: true, value: { version: 2 } });
    const read = await readVersionAction.runAs(ctx, { id: deckId, version: "2" });
    expect(read).toMatchObject({ ok: true, value: { version: 2, source: deckSource(["Two"]) } });
    expect(await revertAction.runAs(ctx, { id: deckId, version: "1" })).toEqual({ ok: true, value: { version: 3 } });
    const versions = await call("GET", `/decks/${deckId}/versions`, { key: user.key });
    expect(versions.body.map((v: { version: number; prompt: string }) => [v.version, v.prompt.length])).toEqual([
      [3, "Reverted to version 1".length],
      [2, PROMPT_MAX_CHARS],
      [1, "first".length],
    ]);
  });
});

describe("an action's refusals", () => {
  it("are the domain's AppErrors with their codes: a well-formed unknown id, another organization's deck", async () => {
    const stranger = await createUser();
    const unknown = randomUUID();
    expect(await readVersionAction.runAs(ctx, { id: unknown, version: "1" })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(await revertAction.runAs(ctxOf(stranger), { id: deckId, version: "1" })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(await exportStatusAction.runAs(ctx, { id: unknown })).toEqual({
      ok: false,
      error: { code: "not_found", message: "Export not found." },
    });
    // The only owner of an organization cannot leave it.
    expect(await removeMemberAction.runAs(ctx, { userId: user.userId })).toMatchObject({
      ok: false,
      error: { code: "conflict", message: expect.stringContaining("at least one owner") },
    });
  });

  it("are a compile_failed with the compiler's lines when the preview does not compile", async () => {
    const broken = deckSource(["Broken"]).replace("<Title>Broken</Title>", "<Title>Broken</Titel>");
    const result = await previewDraftAction.runAs(ctx, { id: deckId, source: broken, tokensCss });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "compile_failed", message: expect.stringMatching(/^Line \d+:\d+: /m) },
    });
  });

  it("are rate_limited past the user's limit, counted per user like a key's", async () => {
    vi.stubEnv("RATE_LIMIT_PER_MINUTE", "2");
    vi.stubEnv("RATE_LIMIT_WINDOW_SECONDS", "3600"); // no window ends between the calls
    const fresh = ctxOf(await createUser());
    const read = () => readVersionAction.runAs(fresh, { id: randomUUID(), version: "1" });
    expect((await read()).ok).toBe(false);
    expect(await read()).toMatchObject({ error: { code: "not_found" } });
    expect(await read()).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    // Another user's requests are their own.
    expect(await readVersionAction.runAs(ctx, { id: randomUUID(), version: "1" })).toMatchObject({
      error: { code: "not_found" },
    });
  });

  it("are 'internal' with a generic message for anything unexpected, which is logged", async () => {
    const logged = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const failing = defineAction({
      input: z.strictObject({}),
      run: async () => {
        throw new Error("the disk caught fire at /var/secret");
      },
    });
    const result = await failing.runAs(ctx, {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: "internal",
        message: expect.stringMatching(/^Unexpected server error \(request action-[\w-]+\)\.$/),
      },
    });
    expect(JSON.stringify(result)).not.toContain("disk");
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("the disk caught fire"));
  });

  it("keep an AppError's code and message, and a zod error thrown by domain code names its field", async () => {
    const conflict = defineAction({
      input: z.strictObject({}),
      run: async () => {
        throw new AppError("conflict", "Already there.");
      },
    });
    expect(await conflict.runAs(ctx, {})).toEqual({
      ok: false,
      error: { code: "conflict", message: "Already there." },
    });
    const parsing = defineAction({
      input: z.strictObject({}),
      run: async () => z.strictObject({ size: z.number().max(3, "must be at most 3") }).parse({ size: 4 }),
    });
    expect(await parsing.runAs(ctx, {})).toEqual(invalid("size: must be at most 3"));
  });
});

describe("actions as Next.js calls them", () => {
  const password = "correct horse battery staple";
  let cookies: Cookie[];
  let member: { id: string; email: string };

  beforeAll(async () => {
    member = { ...(await signUp(database.db, { name: "Ana", email: `ana-${randomUUID()}@example.test`, password })) };
    const form = new FormData();
    form.set("email", member.email);
    form.set("password", password);
    const outcome = await inRequest(() => signInAction(null, form));
    expect(redirectTarget(outcome.error)).toMatch(/\/decks$/);
    cookies = outcome.cookies.filter((c) => c.name.includes("authjs.session-token"));
    expect(cookies).toHaveLength(1);
  });

  const newDeckForm = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    return form;
  };

  it("reads a form's fields as the input, and a redirect after success passes through", async () => {
    const outcome = await inRequest(() => createDeckAction(null, newDeckForm({ title: "", format: "webpage" })), {
      cookies,
    });
    const target = redirectTarget(outcome.error);
    expect(target).toMatch(/^\/decks\/[0-9a-f-]{36}$/);
    const [deck] = await database.db
      .select()
      .from(decks)
      .where(eq(decks.id, target!.split("/").at(-1)!));
    expect(deck).toMatchObject({ title: "Untitled deck", format: "webpage", ownerId: member.id });
  });

  it("answers a refused form with the result instead of redirecting", async () => {
    const outcome = await inRequest(
      () => createDeckAction(null, newDeckForm({ title: "From", format: "slides", fromDeckId: "template" })),
      { cookies },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual(invalid("fromDeckId: must be a UUID"));
  });

  it("checks the organization against the person's memberships", async () => {
    const elsewhere = (await createUser()).organizationId;
    const outcome = await inRequest(() => switchOrganizationAction({ organizationId: elsewhere }), { cookies });
    expect(outcome.result).toEqual({
      ok: false,
      error: { code: "forbidden", message: "You are not a member of that organization." },
    });
    expect(outcome.cookies.filter((c) => c.name === "dh_org")).toEqual([]);
  });

  it("is unauthorized without a session", async () => {
    const outcome = await inRequest(() => createDeckAction({ title: "No one's" }));
    expect(outcome.result).toEqual({
      ok: false,
      error: { code: "unauthorized", message: "Your session has ended. Sign in again." },
    });
  });

  it("answers a sign-in while the server's password checks are all taken as a refusal to retry", async () => {
    // Every slot and place in line of lib/auth/passwords.ts held by checks that wait for the gate.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = Array.from({ length: PASSWORD_SLOTS + PASSWORD_LINE }, () =>
      verifyPassword(null, "guess", () => gate),
    );
    try {
      const form = newDeckForm({ email: member.email, password });
      const outcome = await inRequest(() => signInAction(null, form));
      expect(outcome.result).toEqual({
        ok: false,
        error: {
          code: "rate_limited",
          message: "Too many sign-ins are being checked right now. Try again in a few seconds.",
        },
      });
    } finally {
      open();
      await Promise.all(held);
    }
  });

  it("answers a wrong password as a refusal the form shows", async () => {
    const form = newDeckForm({ email: member.email, password: "not the password" });
    const outcome = await inRequest(() => signInAction(null, form));
    expect(outcome.result).toEqual({
      ok: false,
      error: { code: "unauthorized", message: "That email and password do not match an account." },
    });
  });
});
