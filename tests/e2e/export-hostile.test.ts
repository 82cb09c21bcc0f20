import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";

// Decks that never finish drawing, eat memory or reload themselves, exported by the real runner: each is
// the deck's fault, fails at once with a clear error and no retry, and holds up no other organization.

let database: Database;
let server: AppServer;
let hostile: TestUser;
let bystander: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  hostile = await createUser();
  bystander = await createUser();
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
});

async function exportOf(user: TestUser, source: string) {
  const deck = await createDeck(user);
  const saved = await setContent(user, deck.id, { source });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pdf" } });
  expect(queued.status).toBe(202);
  return { id: queued.body.id as string, queuedAt: performance.now() };
}

async function attemptsOf(id: string) {
  const [row] = await database.db.select().from(exports).where(eq(exports.id, id));
  return row!.attempts;
}

const loopingDeck = deckSource(["Spin"]).replace(
  "export default function Presentation() {",
  "export default function Presentation() {\n  while (Date.now() > 0) {\n    // never yields\n  }",
);

describe("exports of hostile decks", () => {
  it("fails a deck that loops forever at once and without retries; another organization's export goes ahead", async () => {
    const looping = await exportOf(hostile, loopingDeck);
    const unrelated = await exportOf(bystander, deckSource(["Quarterly", "Numbers"]));

    const done = await waitForExport(bystander, unrelated.id, 60_000);
    const unrelatedSeconds = (performance.now() - unrelated.queuedAt) / 1000;
    // The other organization's export did not wait behind the looping one: that one is still being drawn.
    const meanwhile = await call("GET", `/exports/${looping.id}`, { key: hostile.key });
    expect(meanwhile.body.status).toMatch(/^(pending|running)$/);
    const failed = await waitForExport(hostile, looping.id, 90_000);
    const loopingSeconds = (performance.now() - looping.queuedAt) / 1000;
    console.log(
      JSON.stringify({ loopingSeconds: loopingSeconds.toFixed(1), unrelatedSeconds: unrelatedSeconds.toFixed(1) }),
    );

    expect(done.status).toBe("completed");
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/did not finish drawing within 20 s: a slide may loop forever/);
    expect(await attemptsOf(looping.id)).toBe(1);
  }, 120_000);

  it("fails a deck that allocates without bound, without retries", async () => {
    const hungry = deckSource(["Hungry"]).replace(
      "export default function Presentation() {",
      "const kept: number[][] = [];\nexport default function Presentation() {\n  for (;;) kept.push(new Array(1_000_000).fill(kept.length));",
    );
    const { id } = await exportOf(hostile, hungry);
    const failed = await waitForExport(hostile, id, 90_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/crashed the renderer|did not finish drawing/);
    expect(await attemptsOf(id)).toBe(1);
  }, 120_000);

  it("exports a deck that reloads itself or refreshes with <meta>: the renderer keeps the first page", async () => {
    const reloading = deckSource(["Reloads", "Still here"]).replace(
      "export default function Presentation() {",
      'setTimeout(() => location.reload(), 0);\n// The player refuses <meta> to decks; a refresh made anyway must not move the renderer either.\ntry {\n  const meta = document.createElement("meta");\n  meta.httpEquiv = "refresh";\n  meta.content = "0; url=https://example.com/";\n  document.head.append(meta);\n} catch {}\nexport default function Presentation() {',
    );
    const { id } = await exportOf(hostile, reloading);
    const done = await waitForExport(hostile, id, 60_000);
    expect(done.status, done.error).toBe("completed");
    expect(await attemptsOf(id)).toBe(1);
  }, 90_000);
});
