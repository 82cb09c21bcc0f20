import { randomUUID } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRequested } from "@/inngest/client";
import { renderExport } from "@/inngest/functions/render-export";
import { sweepExports } from "@/inngest/functions/sweep-exports";
import type { Database } from "@/lib/db/client";
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
    const abandoned = await insertPendingExport(database.db, deckSource(["One", "Two"]));
    await database.db
      .update(exports)
      .set({
        status: "running",
        attempts: 3,
        leaseToken: randomUUID(),
        leaseExpiresAt: sql`now() - interval '1 minute'`,
      })
      .where(eq(exports.id, abandoned.id));
    const stalled = await insertPendingExport(database.db, deckSource(["One", "Two"]));
    await database.db
      .update(exports)
      .set({
        status: "running",
        attempts: 1,
        leaseToken: randomUUID(),
        leaseExpiresAt: sql`now() - interval '1 minute'`,
      })
      .where(eq(exports.id, stalled.id));

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
});
