// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import { type Cookie, inRequest, redirectTarget } from "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { decode, encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { signInAction, signOutAction } from "@/server/actions/auth";
import { createKeyAction } from "@/server/actions/keys";
import { getAppContext, requireAppContext } from "@/server/context";
import { endCurrentSession, handlers } from "@/server/next-auth";
import { signUp } from "@/lib/auth/accounts-app";
import type { Database } from "@/lib/db/client";
import { sessions } from "@/lib/db/schema/sessions";
import { serverSecret } from "@/lib/core/secret";
import { setUpTestDatabase } from "../helpers/database";

// Sessions of the browser app, exercised through the app's own server actions and getAppContext inside a
// Next.js request scope (the stores `cookies()` and `headers()` read), without a browser: a session cookie
// stops working when its session signs out, while other sessions of the same person go on.

let database: Database;
const password = "correct horse battery staple";

beforeAll(async () => {
  database = await setUpTestDatabase();
});

const sessionCookies = (cookies: Cookie[]) => cookies.filter((c) => c.name.includes("authjs.session-token"));

async function newAccount() {
  const email = `session-${randomUUID()}@example.test`;
  const user = await signUp(database.db, { name: "Sam", email, password });
  return { ...user, email };
}

async function signIn(email: string, protocol: "http" | "https" = "http"): Promise<Cookie[]> {
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  form.set("next", "/decks");
  const outcome = await inRequest(() => signInAction(null, form), { protocol });
  expect(redirectTarget(outcome.error)).toMatch(/^(https?:\/\/localhost:3000)?\/decks$/);
  const cookies = sessionCookies(outcome.cookies).map(({ name, value }) => ({ name, value }));
  expect(cookies).toHaveLength(1);
  return cookies;
}

const contextUser = async (cookies: Cookie[], protocol: "http" | "https" = "http") => {
  const outcome = await inRequest(() => getAppContext(), { cookies, protocol });
  if (outcome.error) throw outcome.error;
  return outcome.result?.user.id ?? null;
};

async function signOut(cookies: Cookie[], protocol: "http" | "https" = "http") {
  const outcome = await inRequest(() => signOutAction({}), { cookies, protocol });
  expect(redirectTarget(outcome.error)).toBe("/sign-in");
  expect(sessionCookies(outcome.cookies)).toEqual([]); // the browser's cookie is cleared
}

describe("signing out", () => {
  it.each(["http", "https"] as const)(
    "ends that session (over %s): its cookie, replayed, is no session at all; another session goes on",
    async (protocol) => {
      const sam = await newAccount();
      const laptop = await signIn(sam.email, protocol);
      const phone = await signIn(sam.email, protocol);
      expect(laptop[0]!.value).not.toBe(phone[0]!.value);
      expect(await contextUser(laptop, protocol)).toBe(sam.id);
      expect(await contextUser(phone, protocol)).toBe(sam.id);

      await signOut(laptop, protocol);

      // The cookie the laptop held before signing out, sent again by whoever copied it.
      expect(await contextUser(laptop, protocol)).toBeNull();
      const page = await inRequest(() => requireAppContext(), { cookies: laptop, protocol });
      expect(redirectTarget(page.error)).toBe("/sign-in");
      const action = await inRequest(() => createKeyAction({ name: "copied" }), { cookies: laptop, protocol });
      expect(action.result).toEqual({
        ok: false,
        error: { code: "unauthorized", message: "Your session has ended. Sign in again." },
      });

      expect(await contextUser(phone, protocol)).toBe(sam.id);
    },
  );
});

const COOKIE = "authjs.session-token"; // over http; "__Secure-authjs.session-token" over https

// A session cookie sealed the way next-auth seals them, holding `claims`.
const sealed = async (claims: Record<string, unknown>): Promise<Cookie[]> => [
  { name: COOKIE, value: await encode({ token: claims, secret: serverSecret().toString("base64"), salt: COOKIE }) },
];

const claimsOf = async (cookies: Cookie[]) =>
  decode({ token: cookies[0]!.value, secret: serverSecret().toString("base64"), salt: COOKIE });

describe("a session cookie", () => {
  it("carries the user and a session recorded in the database", async () => {
    const sam = await newAccount();
    const claims = await claimsOf(await signIn(sam.email));
    expect(claims).toMatchObject({ uid: sam.id, sid: expect.any(String) });
    const [row] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, claims!.sid as string));
    expect(row).toMatchObject({ userId: sam.id });
    const days = (row!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("from before sessions were recorded (the user id alone) is no session", async () => {
    const sam = await newAccount();
    const legacy = await sealed({ uid: sam.id, sub: sam.id, email: sam.email });
    expect(await contextUser(legacy)).toBeNull();
  });

  it("naming a session that does not exist, or another person's session, is no session", async () => {
    const sam = await newAccount();
    const kim = await newAccount();
    const kims = await claimsOf(await signIn(kim.email));
    expect(await contextUser(await sealed({ uid: sam.id, sid: randomUUID() }))).toBeNull();
    expect(await contextUser(await sealed({ uid: sam.id, sid: kims!.sid }))).toBeNull();
    expect(await contextUser(await sealed({ uid: sam.id, sid: "not-a-uuid" }))).toBeNull();
    expect(await contextUser(await sealed({ uid: kim.id, sid: kims!.sid }))).toBe(kim.id);
  });

  it("stops working when its session expires, and the next sign-in forgets expired sessions", async () => {
    const sam = await newAccount();
    const cookies = await signIn(sam.email);
    const sid = (await claimsOf(cookies))!.sid as string;
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sid));
    expect(await contextUser(cookies)).toBeNull();
    await signIn(sam.email);
    expect(await database.db.select().from(sessions).where(eq(sessions.id, sid))).toEqual([]);
  });

  it("that does not decode is no session, and signing out with it (or with none) still signs out", async () => {
    const garbage = [{ name: COOKIE, value: "not-a-jwt" }];
    expect(await contextUser(garbage)).toBeNull();
    await signOut(garbage);
    await signOut([]);
  });
});

describe("ending sessions", () => {
  it("endCurrentSession ends the session itself, before next-auth clears the cookie", async () => {
    const sam = await newAccount();
    const cookies = await signIn(sam.email);
    const outcome = await inRequest(() => endCurrentSession(), { cookies });
    expect(outcome.error).toBeUndefined();
    // Not cleared by this step: a failure here would leave the person signed in, and told so.
    expect(sessionCookies(outcome.cookies).map(({ name, value }) => ({ name, value }))).toEqual(cookies);
    expect(await contextUser(cookies)).toBeNull();
  });

  it("ends only the sessions of the cookie, never all of the person's", async () => {
    const sam = await newAccount();
    const sessionsOfSam = () => database.db.select().from(sessions).where(eq(sessions.userId, sam.id));
    const cookies = await Promise.all([signIn(sam.email), signIn(sam.email), signIn(sam.email)]);
    expect(await sessionsOfSam()).toHaveLength(3);
    await signOut(cookies[1]!);
    expect(await sessionsOfSam()).toHaveLength(2);
    expect(await Promise.all(cookies.map((c) => contextUser(c)))).toEqual([sam.id, null, sam.id]);
  });

  it("next-auth's own endpoints agree: /api/auth/session is empty for a signed-out cookie, and POST /api/auth/signout ends the session", async () => {
    const sam = await newAccount();
    const first = await signIn(sam.email);
    const second = await signIn(sam.email);
    const header = (cookies: Cookie[]) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const session = async (cookies: Cookie[]) => {
      const res = await handlers.GET(
        new NextRequest("http://localhost:3000/api/auth/session", { headers: { cookie: header(cookies) } }),
      );
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await session(first)).toMatchObject({ user: { id: sam.id } });

    const csrf = await handlers.GET(
      new NextRequest("http://localhost:3000/api/auth/csrf", { headers: { cookie: header(first) } }),
    );
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]!);
    const res = await handlers.POST(
      new NextRequest("http://localhost:3000/api/auth/signout", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: [header(first), ...csrfCookie].join("; "),
        },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in" }),
      }),
    );
    expect(res.status).toBe(302);

    expect(await session(first)).toBeNull();
    expect(await contextUser(first)).toBeNull();
    expect(await session(second)).toMatchObject({ user: { id: sam.id } });
  });
});
