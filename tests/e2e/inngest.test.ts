import { randomUUID } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiRequested, exportRequested } from "@/lib/jobs/inngest";
import { authorDeck } from "@/inngest/functions/author-deck";
import { renderExport } from "@/inngest/functions/render-export";
import { sweepExports } from "@/inngest/functions/sweep-exports";
import type { Database } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { exports } from "@/lib/db/schema/exports";
import { closeRenderBrowser } from "@/lib/render/browser";
import { insertPendingExport } from "../helpers/exports";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// The Inngest transport runs the same domain step as the local runner; here its functions run in-process
// with @inngest/test (no Inngest server), against the real database and renderer.

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

afterAll(async () => {
  await closeRenderBrowser();
});

describe("Inngest functions", () => {
  it("render-export completes the export named by the event, and a duplicate delivery does nothing", async () => {
    const row = await insertPendingExport(database.db, deckSource(["One", "Two"]));
    const engine = new InngestTestEngine({
      function: renderExport,
      events: [exportRequested.create({ exportId: row.id })],
    });
    const first = await engine.execute();
    expect(first.error).toBeUndefined();
    expect(first.result).toEqual({ exportId: row.id, outcome: "completed" });
    const [done] = await database.db.select().from(exports).where(eq(exports.id, row.id));
    expect(done).toMatchObject({ status: "completed", attempts: 1 });

    const duplicate = new InngestTestEngine({
      function: renderExport,
      events: [exportRequested.create({ exportId: row.id })],
    });
    const again = await duplicate.execute();
    expect(again.result).toEqual({ exportId: row.id, outcome: "none" });
  });

  it("render-export refuses a malformed payload", async () => {
    const engine = new InngestTestEngine({
      function: renderExport,
      events: [{ name: exportRequested.name, data: { exportId: "not-a-uuid" } }],
    });
    const run = await engine.execute();
    expect(run.error).toBeDefined();
  });

  it("sweep-exports fails abandoned exports and re-sends stalled ones", async () => {
    // Both renderers died: one on its last attempt, one with attempts left.
    const expireLease = (id: string, attempts: number) =>
      database.db
        .update(exports)
        .set({
          status: "running",
          attempts,
          leaseToken: randomUUID(),
          leaseExpiresAt: sql`now() - interval '1 minute'`,
        })
        .where(eq(exports.id, id));
    const abandoned = await insertPendingExport(database.db, deckSource(["One", "Two"]));
    await expireLease(abandoned.id, 3);
    const stalled = await insertPendingExport(database.db, deckSource(["One", "Two"]));
    await expireLease(stalled.id, 1);

    // Sending events needs Inngest itself; the step is mocked and its input inspected.
    const { result, ctx } = await new InngestTestEngine({
      function: sweepExports,
      steps: [{ id: "retry-stalled", handler: () => ({ ids: [] }) }],
    }).execute();
    expect(result).toMatchObject({ failed: expect.any(Number), retried: expect.any(Number) });
    const [failed] = await database.db.select().from(exports).where(eq(exports.id, abandoned.id));
    expect(failed!.status).toBe("failed");
    const sendEvent = ctx.step.sendEvent as unknown as { mock: { calls: unknown[][] } };
    const sent = sendEvent.mock.calls.flatMap((call) => call[1] as { data: { exportId: string } }[]);
    expect(sent.map((event) => event.data.exportId)).toContain(stalled.id);
  });

  it("author-deck runs generate as steps and records the outcome on the run", async () => {
    const queued = await insertPendingExport(database.db, deckSource(["Seed"]));
    const [run] = await database.db
      .insert(aiRuns)
      .values({
        organizationId: queued.organizationId,
        deckId: queued.deckId,
        userId: queued.requestedByUserId,
        kind: "generate",
        input: {
          kind: "generate",
          deckId: queued.deckId,
          brief: 'Add a slide about "Goals" with "Ship" and "Learn"',
          mode: "revise",
        },
      })
      .returning();
    const { result, ctx } = await new InngestTestEngine({
      function: authorDeck,
      events: [aiRequested.create({ runId: run!.id })],
    }).execute();
    expect(result).toMatchObject({ status: "completed", result: { version: 2 } });
    const stepNames = (ctx.step.run as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((call) => call[0]);
    expect(stepNames).toEqual(expect.arrayContaining(["load", "prepare", "offline", "save", "record"]));
    const [row] = await database.db.select().from(aiRuns).where(eq(aiRuns.id, run!.id));
    expect(row).toMatchObject({ status: "completed", result: { version: 2 } });

    // A refusal (an instruction the offline editor cannot follow) is recorded as the run's error.
    const [refused] = await database.db
      .insert(aiRuns)
      .values({
        organizationId: queued.organizationId,
        deckId: queued.deckId,
        userId: queued.requestedByUserId,
        kind: "edit",
        input: { kind: "edit", deckId: queued.deckId, instruction: "Make it sing" },
      })
      .returning();
    const failed = await new InngestTestEngine({
      function: authorDeck,
      events: [aiRequested.create({ runId: refused!.id })],
    }).execute();
    expect(failed.result).toMatchObject({ status: "failed", error: { code: "invalid_request" } });
  });
});
