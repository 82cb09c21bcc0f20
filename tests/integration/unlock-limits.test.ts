import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser } from "../helpers/api";
import { dispatch } from "../helpers/app-router";
import { setUpTestDatabase } from "../helpers/database";

// Guessing a password link's password (POST /d/{slug}/unlock, lib/viewer/unlock.ts) on the real route handler:
// attempts are limited per client address, which no header a client writes can change, and wrong passwords per
// link from every address, so rotating addresses does not buy more guesses. Each refusal is a 429 with
// Retry-After and the form saying why.

let author: TestUser;
const PASSWORD = "open sesame";
const source = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Locked() {
  return <Deck><Slide label="One"><Heading>Board numbers</Heading></Slide></Deck>;
}`;

async function lockedLink(): Promise<string> {
  const id = (await call("POST", "/decks", { key: author.key, body: { title: "Locked" } })).body.id as string;
  expect((await call("PUT", `/decks/${id}/content`, { key: author.key, body: { source } })).status).toBe(200);
  const published = await call("PATCH", `/decks/${id}`, { key: author.key, body: { visibility: "public" } });
  expect((await call("PATCH", `/decks/${id}/link`, { key: author.key, body: { password: PASSWORD } })).status).toBe(
    200,
  );
  return String(published.body.publicUrl).split("/d/")[1]!;
}

async function unlock(slug: string, password: string, headers: Record<string, string> = {}) {
  const response = await dispatch(
    new Request(`http://localhost/d/${slug}/unlock`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ password }).toString(),
    }),
  );
  return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() };
}

beforeAll(async () => {
  await setUpTestDatabase();
  author = await createUser();
}, 60_000);

afterEach(() => {
  delete process.env.TRUSTED_PROXIES;
  delete process.env.UNLOCK_ATTEMPTS_PER_ADDRESS;
  delete process.env.UNLOCK_FAILURES_PER_LINK;
});

describe("unlock attempts", () => {
  it("are not multiplied by rotating X-Forwarded-For when no proxy is trusted", async () => {
    const slug = await lockedLink();
    for (let index = 0; index < 10; index++) {
      const answer = await unlock(slug, `guess ${index}`, { "x-forwarded-for": `203.0.113.${index + 1}` });
      expect(answer.status).toBe(401);
      expect(answer.text).toContain("That password is not right.");
    }
    const refused = await unlock(slug, "guess 11", { "x-forwarded-for": "203.0.113.99", "x-real-ip": "192.0.2.9" });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect(refused.text).toContain("Too many tries from your network");
    // Not even the right password is checked for this address until the window ends.
    expect((await unlock(slug, PASSWORD, { "x-forwarded-for": "203.0.113.100" })).status).toBe(429);
  });

  it("are limited per link from every address: new addresses do not buy more wrong guesses", async () => {
    process.env.TRUSTED_PROXIES = "1";
    process.env.UNLOCK_ATTEMPTS_PER_ADDRESS = "3";
    process.env.UNLOCK_FAILURES_PER_LINK = "5";
    const slug = await lockedLink();
    const other = await lockedLink();
    for (let index = 0; index < 5; index++) {
      expect((await unlock(slug, `guess ${index}`, { "x-forwarded-for": `198.51.100.${index + 1}` })).status).toBe(401);
    }
    const locked = await unlock(slug, "guess 6", { "x-forwarded-for": "198.51.100.6" });
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(locked.text).toContain("Too many wrong passwords were tried for this link");
    // The link takes no password at all meanwhile, from anyone (otherwise guessing would go on from new
    // addresses); other links are untouched.
    expect((await unlock(slug, PASSWORD, { "x-forwarded-for": "198.51.100.7" })).status).toBe(429);
    expect((await unlock(other, PASSWORD, { "x-forwarded-for": "198.51.100.7" })).status).toBe(303);
  });

  it("by one address stop at its own limit, below the link's, so another address still unlocks", async () => {
    process.env.TRUSTED_PROXIES = "1";
    process.env.UNLOCK_ATTEMPTS_PER_ADDRESS = "3";
    process.env.UNLOCK_FAILURES_PER_LINK = "10";
    const slug = await lockedLink();
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++) {
      statuses.push((await unlock(slug, `guess ${index}`, { "x-forwarded-for": "198.51.100.20" })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    // IPv6: the /64 is one address; rotating inside it changes nothing.
    for (const host of ["1", "2", "3"]) {
      expect((await unlock(slug, "guess", { "x-forwarded-for": `2001:db8:5:6::${host}` })).status).toBe(401);
    }
    expect((await unlock(slug, PASSWORD, { "x-forwarded-for": "2001:db8:5:6::ffff" })).status).toBe(429);
    const right = await unlock(slug, PASSWORD, { "x-forwarded-for": "198.51.100.21" });
    expect(right.status).toBe(303);
    expect(right.retryAfter).toBeNull();
  });
});
