import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { decks } from "@/lib/db/schema/decks";
import type { Database } from "@/lib/db/client";
import { type ApiResponse, call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck } from "../helpers/decks";

// list_decks a page at a time: `limit`, and the next page's URL in a Link header (rel="next") whose cursor
// continues the newest-first order; without `limit` the whole array, as SPEC.md has it.

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

const ids = (res: ApiResponse) => (res.body as { id: string }[]).map((deck) => deck.id);

/** The path and query of a Link header's rel="next" (the API's own URL), or null. */
function nextLink(res: ApiResponse): string | null {
  const link = res.headers.get("link");
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`unexpected Link header: ${link}`);
  const url = new URL(match[1]!);
  expect(`${url.origin}`).toBe(new URL(config.appUrl).origin);
  return `${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`;
}

/** Every page of `path`, following the Link headers. */
async function allPages(user: TestUser, path: string) {
  const pages: string[][] = [];
  for (let next: string | null = path; next;) {
    const res = await call("GET", next, { key: user.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(ids(res));
    next = nextLink(res);
  }
  return pages;
}

/** Decks of `user` inserted with these creation times (PostgreSQL keeps microseconds; a Date keeps ms). */
async function insertDecks(user: TestUser, createdAt: string[], visibility: "private" | "org" = "private") {
  const rows = await database.db
    .insert(decks)
    .values(
      createdAt.map((at, i) => ({
        organizationId: user.organizationId,
        ownerId: user.userId,
        title: `At ${at} #${i}`,
        visibility,
        createdAt: sql`${at}::timestamptz`,
      })),
    )
    .returning({ id: decks.id });
  return rows.map((row) => row.id);
}

describe("GET /decks in pages", () => {
  it("gives every deck once, in the whole list's order, a page of `limit` at a time", async () => {
    const me = await createUser();
    for (let i = 0; i < 25; i++) await createDeck(me, { title: `Deck ${i}` });
    const whole = await call("GET", "/decks", { key: me.key });
    expect(whole.body).toHaveLength(25);
    expect(whole.headers.get("link")).toBeNull();

    const pages = await allPages(me, "/decks?limit=10");
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(ids(whole));
    // A page as long as what is left has no next page; one past the end neither.
    expect((await allPages(me, "/decks?limit=25")).map((page) => page.length)).toEqual([25]);
    expect((await allPages(me, "/decks?limit=100")).map((page) => page.length)).toEqual([25]);
  });

  it("keeps the query in the next page's URL, and the filters across pages", async () => {
    const me = await createUser();
    for (let i = 0; i < 5; i++) await createDeck(me, { title: `Template ${i}`, kind: "template" });
    for (let i = 0; i < 5; i++) await createDeck(me, { title: `Deck ${i}` });
    const first = await call("GET", "/decks?kind=template&limit=2", { key: me.key });
    const next = new URL(nextLink(first)!, "http://x");
    expect(next.pathname).toBe("/decks");
    expect(next.searchParams.get("kind")).toBe("template");
    expect(next.searchParams.get("limit")).toBe("2");
    expect(next.searchParams.get("cursor")).toMatch(/^[\w-]+$/);
    const pages = await allPages(me, "/decks?kind=template&limit=2");
    expect(pages.flat()).toEqual(ids(await call("GET", "/decks?kind=template", { key: me.key })));
    expect(pages.flat()).toHaveLength(5);
  });

  it("orders decks made in the same millisecond, or at the same microsecond, and pages across them", async () => {
    const me = await createUser();
    // Within one millisecond: a cursor that kept only milliseconds would skip or repeat these.
    const times = [
      "2025-03-01T10:00:00.000100Z",
      "2025-03-01T10:00:00.000200Z",
      "2025-03-01T10:00:00.000300Z",
      "2025-03-01T10:00:00.000300Z",
      "2025-03-01T10:00:00.000300Z",
      "2025-03-01T10:00:00.000900Z",
      "2025-03-01T09:59:59.999999Z",
    ];
    await insertDecks(me, times);
    const whole = ids(await call("GET", "/decks", { key: me.key }));
    expect(whole).toHaveLength(times.length);
    for (const limit of [1, 2, 3]) {
      const pages = await allPages(me, `/decks?limit=${limit}`);
      expect(pages.flat(), `limit ${limit}`).toEqual(whole);
    }
  });

  it("neither repeats nor loses a deck while decks are made between and during its pages", async () => {
    const me = await createUser();
    for (let i = 0; i < 12; i++) await createDeck(me, { title: `Before ${i}` });
    const before = ids(await call("GET", "/decks", { key: me.key }));

    // Made between two pages: newer than every deck listed, so they belong before the first page.
    const first = await call("GET", "/decks?limit=5", { key: me.key });
    const made = await Promise.all(Array.from({ length: 4 }, (_, i) => createDeck(me, { title: `Between ${i}` })));
    const rest = await allPages(me, nextLink(first)!);
    expect([...ids(first), ...rest.flat()]).toEqual(before);
    for (const deck of made) expect(rest.flat()).not.toContain(deck.id);

    // Made while the pages are read: every deck there was at the start is listed once, in order.
    const start = ids(await call("GET", "/decks", { key: me.key }));
    const [pages] = await Promise.all([
      allPages(me, "/decks?limit=3"),
      Promise.all(Array.from({ length: 6 }, (_, i) => createDeck(me, { title: `During ${i}` }))),
    ]);
    const listed = pages.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((id) => start.includes(id))).toEqual(start);
  });

  it("never lists another organization's decks, whatever the cursor names", async () => {
    const org = `org-${randomUUID()}`;
    const a = await createUser({ org });
    const b = await createUser({ org });
    const outsider = await createUser();
    // Interleaved in time with the outsider's decks, some of theirs shared with their own organization.
    const stamps = (minute: number) => [0, 1, 2].map((s) => `2025-04-01T10:0${minute}:0${s}.000000Z`);
    const own = [...(await insertDecks(a, stamps(1), "org")), ...(await insertDecks(b, stamps(3)))];
    const foreign = [
      ...(await insertDecks(outsider, stamps(2), "org")),
      ...(await insertDecks(outsider, stamps(4), "org")),
    ];
    const listed = (await allPages(b, "/decks?scope=org&limit=2")).flat();
    expect(new Set(listed)).toEqual(new Set(own));
    for (const id of foreign) expect(listed).not.toContain(id);

    // A cursor naming the outsider's deck only says where to continue in b's own list.
    const forged = Buffer.from(JSON.stringify(["2025-04-01T10:04:01.000000Z", foreign[4]])).toString("base64url");
    const after = await call("GET", `/decks?scope=org&limit=10&cursor=${forged}`, { key: b.key });
    expect(after.status).toBe(200);
    expect(new Set(ids(after))).toEqual(new Set(own));
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["limit=ten", "limit"],
    ["limit=", "limit"],
    ["cursor=", "cursor"],
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from("{}").toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from(JSON.stringify(["2025-01-01", randomUUID()])).toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from(JSON.stringify(["2025-01-01T00:00:00.000000Z", "x"])).toString("base64url")}`, "cursor"],
    [`limit=5&cursor=${"A".repeat(201)}`, "cursor"],
  ])("refuses ?%s with 422 naming %s", async (query, field) => {
    const me = await createUser();
    const res = await call("GET", `/decks?${query}`, { key: me.key });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain(`query.${field}: `);
    if (field === "cursor") expect(res.body.error.message).toContain('Link header (rel="next")');
    else expect(res.body.error.message).toContain("from 1 to 100");
  });

  it("answers 304 to a page the caller has, with the next page's link", async () => {
    const me = await createUser();
    for (let i = 0; i < 3; i++) await createDeck(me, { title: `Deck ${i}` });
    const first = await call("GET", "/decks?limit=2", { key: me.key });
    const again = await call("GET", "/decks?limit=2", {
      key: me.key,
      headers: { "If-None-Match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("link")).toBe(first.headers.get("link"));
  });
});
