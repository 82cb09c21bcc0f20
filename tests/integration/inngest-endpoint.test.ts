import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { exports } from "@/lib/db/schema/exports";
import { dispatch } from "../helpers/app-router";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";
import { insertPendingExport } from "../helpers/exports";

// /api/inngest as Inngest Cloud reaches it: with INNGEST_SIGNING_KEY set (and no INNGEST_DEV), a request
// runs a function only when the key signed it; and the functions' limits, idempotency and failure handling.

const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
let database: Database;

beforeAll(async () => {
  vi.stubEnv("INNGEST_SIGNING_KEY", signingKey);
  vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
  vi.stubEnv("INNGEST_DEV", "");
  database = await setUpTestDatabase();
});

afterAll(() => vi.unstubAllEnvs());

// JSON with sorted keys and no spaces: the canonical form the SDK signs and checks (RFC 8785).
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

// What Inngest sends to run a function: the event, no steps done yet, a plan first (nothing executed
// inline), signed `t=<unix seconds>&s=HMAC-SHA256(body + t)` with the key without its `signkey-…-` prefix.
function runRequest(
  fnId: string,
  event: { name: string; data: Record<string, unknown> },
  signature?: string,
  { immediate = false } = {},
) {
  const body = canonical({
    ctx: {
      attempt: 0,
      disable_immediate_execution: !immediate,
      run_id: `run-${randomUUID()}`,
      stack: { current: 0, stack: [] },
      use_api: false,
    },
    event,
    events: [event],
    steps: {},
    version: 1,
  });
  const t = Math.floor(Date.now() / 1000);
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const sign = (secret: string) =>
    `t=${t}&s=${createHmac("sha256", secret)
      .update(body + t)
      .digest("hex")}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature === "valid") headers["x-inngest-signature"] = sign(key);
  if (signature === "wrong-key") headers["x-inngest-signature"] = sign(randomBytes(32).toString("hex"));
  return dispatch(
    new Request(`http://localhost/api/inngest?fnId=deckhand-${fnId}&stepId=step`, { method: "POST", headers, body }),
  );
}

describe("/api/inngest with a signing key", () => {
  it("refuses unsigned and wrongly signed requests and runs nothing", async () => {
    const row = await insertPendingExport(database.db, deckSource(["One"]));
    const event = { name: "deckhand/export.requested", data: { exportId: row.id, organizationId: row.organizationId } };
    for (const signature of [undefined, "wrong-key"]) {
      const res = await runRequest("render-export", event, signature);
      expect(res.status).toBe(401);
    }
    const [after] = await database.db.select().from(exports).where(eq(exports.id, row.id));
    expect(after).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("answers a signed request with the function's next step, signed in return", async () => {
    const event = { name: "deckhand/export.requested", data: { exportId: randomUUID(), organizationId: randomUUID() } };
    const res = await runRequest("render-export", event, "valid");
    expect(res.status).toBe(206);
    expect(res.headers.get("x-inngest-signature")).toMatch(/^t=\d+&s=[0-9a-f]{64}$/);
    const ops = (await res.json()) as { name?: string; displayName?: string }[];
    expect(ops.map((op) => op.displayName ?? op.name)).toEqual(["render"]);
  });
});

describe("the Inngest functions' limits, idempotency and failures", () => {
  it("limit renders per organization and run each generation once per run id", async () => {
    const { renderExport } = await import("@/inngest/functions/render-export");
    const { authorDeck } = await import("@/inngest/functions/author-deck");
    expect(renderExport.opts.concurrency).toEqual([{ limit: 4 }, { key: "event.data.organizationId", limit: 2 }]);
    expect(authorDeck.opts).toMatchObject({
      idempotency: "event.data.runId",
      concurrency: { key: "event.data.organizationId", limit: 4 },
    });
  });

  it("fails the export with a readable error when Inngest gives up on it", async () => {
    // Inngest calls the function's failure handler (`<id>-failure`) with the original event and the error.
    const row = await insertPendingExport(database.db, deckSource(["One"]));
    const original = {
      name: "deckhand/export.requested",
      data: { exportId: row.id, organizationId: row.organizationId },
    };
    const failed = {
      name: "inngest/function.failed",
      data: {
        event: original,
        function_id: "deckhand-render-export",
        run_id: "r1",
        error: { name: "Error", message: "connection reset" },
      },
    };
    const res = await runRequest("render-export-failure", failed, "valid", { immediate: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ exportId: row.id, failed: true });
    const [after] = await database.db.select().from(exports).where(eq(exports.id, row.id));
    expect(after).toMatchObject({ status: "failed", error: "The export could not be rendered: connection reset" });
  });

  it("answers a re-delivered generation with its recorded outcome, authoring nothing again", async () => {
    const { authorDeck } = await import("@/inngest/functions/author-deck");
    const queued = await insertPendingExport(database.db, deckSource(["Seed"]));
    const [run] = await database.db
      .insert(aiRuns)
      .values({
        organizationId: queued.organizationId,
        deckId: queued.deckId,
        userId: queued.requestedByUserId,
        kind: "generate",
        input: { kind: "generate", deckId: queued.deckId, brief: 'Add a slide about "Goals"', mode: "revise" },
        status: "completed",
        result: { id: randomUUID(), version: 7 },
      })
      .returning();
    const event = { name: "deckhand/ai.requested", data: { runId: run!.id, organizationId: queued.organizationId } };
    const { result, ctx } = await new InngestTestEngine({ function: authorDeck, events: [event] }).execute();
    expect(result).toEqual({ runId: run!.id, status: "completed", result: run!.result });
    const steps = (ctx.step.run as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((call) => call[0]);
    expect(steps).toEqual(["load"]);
  });
});
