import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, createUser, windowWithRoom } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";

// Rate limits per API key, counted in the database (fixed windows of RATE_LIMIT_WINDOW_SECONDS).

// Long enough that a burst of requests fits in one window with room to spare on a busy machine.
const WINDOW_SECONDS = 12;
const startOfWindow = () => windowWithRoom(WINDOW_SECONDS, 8);

beforeAll(async () => {
  await setUpTestDatabase();
});

afterEach(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  process.env.RATE_LIMIT_SLOW_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
});

describe("rate limits", () => {
  it("counts down in headers, answers 429 with Retry-After past the limit, and lets the next window through", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "5";
    process.env.RATE_LIMIT_WINDOW_SECONDS = String(WINDOW_SECONDS);
    const user = await createUser();
    await startOfWindow();
    for (let i = 1; i <= 5; i++) {
      const res = await call("GET", "/decks", { key: user.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(5 - i));
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    }
    const limited = await call("GET", "/decks", { key: user.key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_SECONDS).toBe(true);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");

    // Another key has its own budget.
    expect((await call("GET", "/decks", { key: (await createUser()).key })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const after = await call("GET", "/decks", { key: user.key });
    expect(after.status).toBe(200);
  }, 60_000);

  it("lets exactly the limit through when requests arrive at once", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "10";
    process.env.RATE_LIMIT_WINDOW_SECONDS = String(WINDOW_SECONDS);
    const user = await createUser();
    await startOfWindow();
    const statuses = (
      await Promise.all(Array.from({ length: 25 }, () => call("GET", "/decks", { key: user.key })))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  }, 60_000);

  it("gives the slow endpoints their own, lower limit", async () => {
    process.env.RATE_LIMIT_SLOW_PER_MINUTE = "1";
    process.env.RATE_LIMIT_WINDOW_SECONDS = String(WINDOW_SECONDS);
    const user = await createUser();
    await startOfWindow();
    expect((await call("POST", "/brands", { key: user.key, body: {} })).status).toBe(422);
    expect((await call("POST", "/brands", { key: user.key, body: {} })).status).toBe(429);
    // The deck check draws a whole deck: it shares the slow class.
    expect((await call("GET", `/decks/${randomUUID()}/check`, { key: user.key })).status).toBe(429);
    expect((await call("GET", "/brands", { key: user.key })).status).toBe(200);
  }, 60_000);
});
