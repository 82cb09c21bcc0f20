import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import JSZip from "jszip";
import { getDocumentProxy } from "unpdf";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/core/config";
import type { Database } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { processNextExport } from "@/lib/exports/process-export";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { getFileStore } from "@/lib/storage/storage";
import {
  asExportRender,
  closeRenderBrowser,
  idleRenderers,
  renderContextLimit,
  renderContextStats,
  withRenderPage,
} from "@/lib/render/browser";
import { renderOrigin } from "@/lib/render/player-files";
import { playerAssets } from "@/lib/viewer/assets";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { tooManyRowsDeck } from "../helpers/sample-decks";
import { twelveSlideDeck } from "../helpers/twelve-slide-deck";

// Exports run concurrently by default (the runner's lane is sized to the machine) and never more at once
// than the lane's concurrency: seen from the exports table (rows running at the same time) and from the
// renderer (Chromium contexts open at the same time). No timing is asserted, only what overlapped.

let database: Database;
let owner: TestUser;
const decks: string[] = [];
const BATCH = 6;

beforeAll(async () => {
  database = await setUpTestDatabase();
  owner = await createUser();
  for (let n = 0; n < BATCH; n++) {
    const deck = await createDeck(owner, { title: `Concurrent ${n}` });
    expect((await setContent(owner, deck.id, { source: twelveSlideDeck })).status).toBe(200);
    decks.push(deck.id);
  }
}, 120_000);

afterEach(() => vi.unstubAllEnvs());

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
});

// Requests one export of each deck at once and samples, until all are completed, how many rows are
// running and how many contexts are open at the same time.
async function exportAll(format: "pdf" | "pptx"): Promise<{ running: number; contexts: number }> {
  // The last test's jobs give their places back just after their results: counted from none open.
  await expect.poll(() => renderContextStats().open).toBe(0);
  renderContextStats(true);
  const ids: string[] = [];
  for (const deck of decks) {
    const res = await call("POST", `/decks/${deck}/exports`, { key: owner.key, body: { format } });
    expect(res.status).toBe(202);
    ids.push(res.body.id);
  }
  let running = 0;
  await expect
    .poll(
      async () => {
        const rows = await database.db.select({ status: exports.status }).from(exports).where(inArray(exports.id, ids));
        running = Math.max(running, rows.filter((row) => row.status === "running").length);
        expect(rows.filter((row) => row.status === "failed")).toEqual([]);
        return rows.every((row) => row.status === "completed");
      },
      { timeout: 120_000, interval: 20 },
    )
    .toBe(true);
  return { running, contexts: renderContextStats().peak };
}

// A PDF and a PPTX of version 1 waiting together, written straight to the table so that no runner is woken:
// the test's one call renders them.
function insertPair(user: TestUser, deckId: string, title: string) {
  return database.db
    .insert(exports)
    .values(
      (["pdf", "pptx"] as const).map((format) => ({
        organizationId: user.organizationId,
        deckId,
        version: 1,
        format,
        requestedByUserId: user.userId,
        fileName: `${title}-v1.${format}`,
      })),
    )
    .returning();
}

describe("export concurrency", () => {
  it("is sized to the machine by default: at least two exports render at once, never more than the lane's size", async () => {
    vi.stubEnv("EXPORT_CONCURRENCY", "");
    const size = config.exportConcurrency;
    expect(size).toBeGreaterThanOrEqual(2); // two per CPU: 2 on a single-CPU machine with 768 MiB free
    const seen = await exportAll("pdf");
    expect(seen.running).toBeGreaterThanOrEqual(2);
    expect(seen.running).toBeLessThanOrEqual(size);
    expect(seen.contexts).toBeGreaterThanOrEqual(2);
    expect(seen.contexts).toBeLessThanOrEqual(Math.min(size, BATCH));
  }, 180_000);

  it("is bounded by EXPORT_CONCURRENCY when set: one at a time, one context at a time", async () => {
    vi.stubEnv("EXPORT_CONCURRENCY", "1");
    expect(renderContextLimit()).toBe(3); // the export and the deck check's two
    const seen = await exportAll("pptx");
    expect(seen.running).toBe(1);
    expect(seen.contexts).toBe(1);
  }, 180_000);

  it("draws a PDF and a PPTX of the same version waiting together once: one claim renders both", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Both formats" });
    expect((await setContent(user, deck.id, { source: twelveSlideDeck })).status).toBe(200);
    const rows = await insertPair(user, deck.id, "Both formats");
    await expect.poll(() => renderContextStats().open).toBe(0); // the last test's job has given its place back
    renderContextStats(true);
    expect(await processNextExport(rows[0]!.id)).toBe("completed");
    expect(renderContextStats().peak).toBe(1);
    const done = await database.db
      .select()
      .from(exports)
      .where(
        inArray(
          exports.id,
          rows.map((row) => row.id),
        ),
      );
    expect(done.map((row) => [row.format, row.status, row.attempts]).sort()).toEqual([
      ["pdf", "completed", 1],
      ["pptx", "completed", 1],
    ]);
    const file = async (format: string) => {
      const [row] = await database.db
        .select()
        .from(exports)
        .where(eq(exports.id, done.find((r) => r.format === format)!.id));
      return (await getFileStore().get(row!.blobKey!))!.data;
    };
    const pdf = await getDocumentProxy(new Uint8Array(await file("pdf")));
    expect(pdf.numPages).toBe(12);
    const viewport = (await pdf.getPage(1)).getViewport({ scale: 1 });
    expect([Math.round(viewport.width), Math.round(viewport.height)]).toEqual([1440, 810]);
    const pptx = await JSZip.loadAsync(await file("pptx"));
    expect(Object.keys(pptx.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))).toHaveLength(12);
  }, 180_000);
  it("completes the PDF of a pair whose PPTX fails: each claim ends by its own result", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Too big for PowerPoint" });
    expect((await setContent(user, deck.id, { source: tooManyRowsDeck })).status).toBe(200);
    const rows = await insertPair(user, deck.id, "Too big");
    const pdfId = rows.find((row) => row.format === "pdf")!.id;
    // The last test's job gives its place back just after its result: counted from none open.
    await expect.poll(() => renderContextStats().open).toBe(0);
    renderContextStats(true);
    expect(await processNextExport(pdfId)).toBe("completed");
    expect(renderContextStats().peak).toBe(1); // drawn together, once
    const done = await database.db
      .select()
      .from(exports)
      .where(
        inArray(
          exports.id,
          rows.map((row) => row.id),
        ),
      );
    const pdf = done.find((row) => row.format === "pdf")!;
    const pptx = done.find((row) => row.format === "pptx")!;
    expect([pdf.status, pdf.error, pdf.attempts]).toEqual(["completed", null, 1]);
    expect([pptx.status, pptx.attempts]).toEqual(["failed", 1]);
    expect(pptx.error).toMatch(
      /^The slides could not be exported to PowerPoint: slide 1, item \d+: more than 1000 rows in one table\.$/,
    );
    const file = (await getFileStore().get(pdf.blobKey!))!.data;
    expect((await getDocumentProxy(new Uint8Array(file))).numPages).toBe(1);
  }, 180_000);
  it("keeps two contexts for the deck check and previews: exports past their number wait, the others do not", async () => {
    vi.stubEnv("EXPORT_CONCURRENCY", "1");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const page = {
      organization: "concurrency",
      serve: () => null,
      viewport: { width: 320, height: 180 },
      timeoutMs: 60_000,
    };
    const first = asExportRender(() => withRenderPage(page, () => held));
    const second = asExportRender(() => withRenderPage(page, async () => "second export"));
    await expect.poll(() => renderContextStats()).toMatchObject({ open: 1, exports: 1, waiting: 1 });
    // Two renders that are not exports (a check, a preview) open at once while the second export waits.
    const others = await Promise.all(
      ["check", "preview"].map((name) =>
        withRenderPage(page, async () => {
          expect(renderContextStats().waiting).toBe(1);
          return name;
        }),
      ),
    );
    expect(others).toEqual(["check", "preview"]);
    expect(renderContextStats()).toMatchObject({ exports: 1, waiting: 1 });
    release();
    await first;
    expect(await second).toBe("second export");
    // A job's place is given back once its page is closed, just after its result.
    await expect.poll(() => renderContextStats()).toMatchObject({ open: 0, exports: 0, waiting: 0 });
  }, 60_000);
});

// A renderer is kept for its organization's next job (lib/render/browser.ts): each job gets a new page,
// and nothing a job left (globals, timers, window.name, history, storage of every kind, a cached response)
// is there for the next, even for a document that, unlike a deck's, is not sandboxed. (A service worker
// cannot be registered at all: its script would be fetched outside the page, from the network it lacks.)
describe("a renderer kept for an organization", () => {
  // Waits until the organization's renderer is idle again (its cleanup runs after the job's result), after
  // `jobs` jobs.
  const idleWith = (organization: string, jobs: number) =>
    expect
      .poll(() => idleRenderers().filter((renderer) => renderer.organization === organization))
      .toEqual([{ organization, jobs, keeping: null }]);

  const probe = `
    window.seen = (async () => {
      const seen = {
        global: typeof window.leftBehind,
        ticks: typeof window.ticks,
        name: window.name,
        history: history.length,
        local: localStorage.getItem("left"),
        session: sessionStorage.getItem("left"),
        cookie: document.cookie,
        databases: (await indexedDB.databases()).map((database) => database.name),
        caches: await caches.keys(),
        workers: (await navigator.serviceWorker.getRegistrations()).length,
        kept: window.kept,
      };
      window.leftBehind = true;
      setInterval(() => (window.ticks = (window.ticks ?? 0) + 1), 1);
      window.name = "left";
      history.pushState({}, "", "#left");
      localStorage.setItem("left", "yes");
      sessionStorage.setItem("left", "yes");
      document.cookie = "left=yes; max-age=3600; secure";
      await new Promise((done) => { const open = indexedDB.open("left"); open.onsuccess = open.onerror = done; });
      await (await caches.open("left")).put("/left", new Response("yes"));
      return seen;
    })();`;
  const fresh = {
    global: "undefined",
    ticks: "undefined",
    name: "",
    history: 2, // the new page's about:blank, then this document
    local: null,
    session: null,
    cookie: "",
    databases: [],
    caches: [],
    workers: 0,
    kept: 1,
  };

  it("runs an organization's jobs one after another in new pages that see nothing the last one left", async () => {
    let loads = 0;
    const serve = (url: URL) => {
      const type = (kind: string, extra: Record<string, string> = {}) => ({
        headers: { "content-type": kind, ...extra },
      });
      if (url.pathname === "/probe") {
        return new Response(
          `<!doctype html><script src="/kept.js"></script><script>${probe}</script>`,
          type("text/html"),
        );
      }
      if (url.pathname !== "/kept.js") return null;
      loads += 1;
      const cached = { "cache-control": "public, max-age=86400, immutable" };
      return new Response("window.kept = (window.kept ?? 0) + 1;", type("text/javascript", cached));
    };
    const job = (organization: string) =>
      withRenderPage(
        { organization, serve, viewport: { width: 320, height: 180 }, timeoutMs: 60_000 },
        async (page) => {
          await page.goto(`${await renderOrigin()}/probe`);
          return page.evaluate(() => (window as unknown as { seen: Promise<unknown> }).seen);
        },
      );
    const organization = `isolation-${randomUUID()}`;
    expect(await job(organization)).toEqual(fresh);
    await idleWith(organization, 1);
    expect(await job(organization)).toEqual(fresh);
    // The same renderer ran both (its second job), and served the script again rather than from a cache.
    await idleWith(organization, 2);
    expect(loads).toBe(2);
    // Another organization's job never runs in it.
    const other = `isolation-${randomUUID()}`;
    expect(await job(other)).toEqual(fresh);
    await expect
      .poll(() => idleRenderers().filter((renderer) => [organization, other].includes(renderer.organization ?? "")))
      .toEqual([
        { organization, jobs: 2, keeping: null },
        { organization: other, jobs: 1, keeping: null },
      ]);
  }, 120_000);

  it("keeps the player's files in a renderer's cache for its organization's next job, never for another's", async () => {
    const runtime = `/player/${playerAssets().runtime.split("/").pop()}`;
    const serve = (url: URL) =>
      url.pathname === "/page"
        ? new Response(`<!doctype html><script type="module" src="${runtime}"></script>`, {
            headers: { "content-type": "text/html" },
          })
        : null;
    // Whether the page's runtime came from the renderer's cache.
    const job = (organization: string) =>
      withRenderPage(
        { organization, serve, viewport: { width: 320, height: 180 }, timeoutMs: 60_000 },
        async (page) => {
          const loaded = page.waitForResponse((response) => response.url().endsWith(runtime));
          await page.goto(`${await renderOrigin()}/page`);
          const response = await loaded;
          expect(response.status()).toBe(200);
          return response.fromCache();
        },
      );
    const organization = `cache-${randomUUID()}`;
    expect(await job(organization)).toBe(false);
    await idleWith(organization, 1);
    expect(await job(organization)).toBe(true);
    expect(await job(`cache-${randomUUID()}`)).toBe(false);
  }, 120_000);
});
