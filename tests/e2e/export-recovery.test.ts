import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, openPglite, adoptDatabase } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { claimExport, completeExport, failAbandonedExports, failExport, MAX_ATTEMPTS } from "@/lib/exports/lease";
import { processNextExport } from "@/lib/exports/process-export";
import { DatabaseLockedError } from "@/lib/db/pglite-lock";
import { closeRenderBrowser } from "@/lib/render/browser";
import { insertPendingExport } from "../helpers/exports";

// A renderer killed mid-job, in a real child process: its lease expires, the export is taken again and
// ends completed exactly once. On PGlite the two processes take turns on a data folder on disk; on
// PostgreSQL (TEST_DATABASE_URL) they share the server.

const LEASE_MS = 1500;
const postgres = process.env.TEST_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-recovery-"));
let database: Database | undefined;

async function open(): Promise<Database> {
  // A SIGKILLed process takes a moment to die; until it has, its lock on the data folder holds.
  for (let attempt = 0; ; attempt++) {
    try {
      database = postgres ? await openDatabase(postgres) : await openPglite(path.join(dataDir, "pglite"));
      break;
    } catch (error) {
      if (!(error instanceof DatabaseLockedError) || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  adoptDatabase(database);
  return database;
}

afterAll(async () => {
  await closeRenderBrowser();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// The module waits at its top level, so the render is still running when the worker is killed.
const slowDeck = `import { Deck, Slide, Title } from "@deckhand/player";
await new Promise((resolve) => setTimeout(resolve, 3000));
export default function Slow() {
  return <Deck><Slide label="Only"><Title>Rendered after a crash</Title></Slide></Deck>;
}
`;

describe("export leases", () => {
  it("a worker killed during a render leaves an export that is later completed exactly once", async () => {
    process.env.EXPORT_LEASE_MS = String(LEASE_MS);
    let db = (await open()).db;
    const queued = await insertPendingExport(db, slowDeck);
    if (!postgres) await database!.close(); // the child process owns the data folder now

    const child = spawn(
      path.resolve("node_modules/.bin/tsx"),
      ["--conditions=react-server", "tests/helpers/export-worker.ts", queued.id],
      {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: postgres ?? "",
          EXPORT_LEASE_MS: String(LEASE_MS),
          LOG_FORMAT: "json",
          // The test waits for the claim's line (the suites' default level hides info lines).
          LOG_LEVEL: "info",
        },
        stdio: ["ignore", "pipe", "inherit"],
        // Its own process group: tsx runs the script in a child process, and the kill must reach both.
        detached: true,
      },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"export.claimed"')) resolve();
      });
      child.on("exit", () => reject(new Error(`the worker exited before claiming: ${output}`)));
    });
    // Claimed: the render is under way (the module waits 3 s at its top level).
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    expect(output).not.toContain("export.completed");

    db = (await open()).db;
    const [orphan] = await db.select().from(exports).where(eq(exports.id, queued.id));
    expect(orphan).toMatchObject({ status: "running", attempts: 1, blobKey: null });

    // Nobody renews the dead worker's lease: once it expires the export is taken again and rendered.
    await expect.poll(() => processNextExport(queued.id), { timeout: 90_000, interval: 200 }).toBe("completed");
    expect(await processNextExport(queued.id)).toBe("none");
    const [done] = await db.select().from(exports).where(eq(exports.id, queued.id));
    expect(done).toMatchObject({ status: "completed", attempts: 2, error: null });
    expect(done!.completedAt).toBeInstanceOf(Date);
  }, 120_000);

  it("a worker that lost its lease can neither complete nor fail the export", async () => {
    const db = (database ?? (await open())).db;
    const queued = await insertPendingExport(db, slowDeck);
    const zombie = await claimExport(db, "zombie", queued.id);
    expect(zombie?.attempts).toBe(1);
    await db
      .update(exports)
      .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(exports.id, queued.id));
    const successor = await claimExport(db, "successor", queued.id);
    expect(successor?.attempts).toBe(2);

    expect(await completeExport(db, queued.id, "zombie", { blobKey: "exports/x.pdf", nonstandardFonts: [] })).toBe(
      false,
    );
    await failExport(db, queued.id, "zombie", "late failure", true);
    expect(
      await completeExport(db, queued.id, "successor", { blobKey: `exports/${queued.id}.pdf`, nonstandardFonts: [] }),
    ).toBe(true);
    const [row] = await db.select().from(exports).where(eq(exports.id, queued.id));
    expect(row).toMatchObject({ status: "completed", blobKey: `exports/${queued.id}.pdf`, error: null });
  });

  it("an export whose renderer died on every attempt ends failed, never stuck running", async () => {
    const db = (database ?? (await open())).db;
    const queued = await insertPendingExport(db, slowDeck);
    await db
      .update(exports)
      .set({
        status: "running",
        attempts: MAX_ATTEMPTS,
        leaseToken: randomUUID(),
        leaseExpiresAt: sql`now() - interval '1 second'`,
      })
      .where(eq(exports.id, queued.id));
    expect(await claimExport(db, "late", queued.id)).toBeNull();
    await failAbandonedExports(db);
    const [row] = await db.select().from(exports).where(eq(exports.id, queued.id));
    expect(row).toMatchObject({ status: "failed", leaseToken: null });
    expect(row!.error).toMatch(/stopped responding 3 times/);
  });
});
