import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { memberships } from "@/lib/db/schema/memberships";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";

let database: Database;
let alice: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  alice = await createUser();
});

const someId = randomUUID();
const everyEndpoint: [string, string][] = [
  ["GET", "/instructions"],
  ["GET", "/decks"],
  ["POST", "/decks"],
  ["GET", `/decks/${someId}`],
  ["PATCH", `/decks/${someId}`],
  ["DELETE", `/decks/${someId}`],
  ["PUT", `/decks/${someId}/content`],
  ["GET", `/decks/${someId}/versions`],
  ["GET", `/decks/${someId}/versions/1`],
  ["POST", `/decks/${someId}/versions/1/revert`],
];

describe("API key authentication", () => {
  it.each(everyEndpoint)("%s %s answers 401 without a key", async (method, path) => {
    const res = await call(method, path, { body: method === "GET" || method === "DELETE" ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
    expect(res.body.error.message).toMatch(/Missing API key/);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it.each([
    ["a non-bearer scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["a key without the dk_ prefix", "Bearer sk_live_123"],
    ["a truncated key", "Bearer dk_abc"],
    ["an empty bearer", "Bearer "],
  ])("refuses %s as malformed", async (_, authorization) => {
    const res = await call("GET", "/decks", { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: "unauthorized" });
  });

  it("refuses a well-formed key that was never issued", async () => {
    const res = await call("GET", "/decks", { key: generateApiKey() });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/Unknown API key/);
  });

  it("refuses a revoked key, and revoking twice reports nothing to revoke", async () => {
    const bob = await createUser();
    expect((await call("GET", "/decks", { key: bob.key })).status).toBe(200);
    expect(await revokeApiKey(database.db, bob.key)).toBe(true);
    expect(await revokeApiKey(database.db, bob.key)).toBe(false);
    const res = await call("GET", "/decks", { key: bob.key });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it("refuses a key whose creator left the organization", async () => {
    const carol = await createUser();
    await database.db.delete(memberships).where(eq(memberships.userId, carol.userId));
    expect((await call("GET", "/decks", { key: carol.key })).status).toBe(401);
  });

  it("stores only the SHA-256 of a key, and records when it was last used", async () => {
    const hash = createHash("sha256").update(alice.key).digest("hex");
    await call("GET", "/decks", { key: alice.key });
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
    expect(row).toBeDefined();
    expect(row!.prefix).toBe(alice.key.slice(0, 11));
    expect(JSON.stringify(row)).not.toContain(alice.key);
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
    expect(alice.key).toMatch(/^dk_[0-9A-Za-z]{43}$/);
  });
});

describe("GET /instructions", () => {
  it("returns the authoring brief as plain text", async () => {
    const res = await call("GET", "/instructions", { key: alice.key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["instructions"]);
    expect(res.body.instructions).toContain("@deckhand/player");
    expect(res.body.instructions).toContain("1920");
  });
});

describe("unknown API paths", () => {
  it.each([
    ["GET", "/nope"],
    ["POST", "/decks/x/y/z"],
  ])("%s %s answers a JSON 404", async (method, path) => {
    const res = await call(method, path, { key: alice.key });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found", message: expect.stringContaining(path) });
  });
});
