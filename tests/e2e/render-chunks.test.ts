import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CANVAS } from "@/lib/contract/deck";
import type { Database } from "@/lib/db/client";
import type * as Browser from "@/lib/render/browser";
import type * as DeckPage from "@/lib/render/deck-page";
import type * as PlayerFiles from "@/lib/render/player-files";
import { findDeckVersion, type ViewableDeck } from "@/lib/viewer/viewable-deck";
import { createUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// The production server bundles the renderer's code into several chunks (the job runner's, the API routes',
// the server actions'), each with its own copy of lib/render's modules, and an organization's idle renderer
// and the page it made ahead for its next job pass from one to another (the browser is process-wide). Here
// two copies of the modules (imported afresh) take turns in one renderer: what the second knows of a page
// the first made (its frames) must be there, or the second cannot draw its deck or take a picture of it.

type Copy = { deckPage: typeof DeckPage; browser: typeof Browser; playerFiles: typeof PlayerFiles };

async function freshCopy(): Promise<Copy> {
  vi.resetModules();
  return {
    deckPage: await import("@/lib/render/deck-page"),
    browser: await import("@/lib/render/browser"),
    playerFiles: await import("@/lib/render/player-files"),
  };
}

let database: Database;
let viewable: ViewableDeck;
let first: Copy;

beforeAll(async () => {
  database = await setUpTestDatabase();
  const owner = await createUser();
  const deck = await createDeck(owner, { title: "Two copies" });
  expect((await setContent(owner, deck.id, { source: deckSource(["First", "Second"]) })).status).toBe(200);
  viewable = (await findDeckVersion(database.db, deck.id, 1))!;
  first = await freshCopy();
}, 120_000);

afterAll(async () => {
  await first?.browser.closeRenderBrowser();
});

describe("lib/render in several copies of its modules", () => {
  it("draws and pictures a deck in a page another copy made ahead in the organization's renderer", async () => {
    const options = { mode: "export" as const, viewport: CANVAS, timeoutMs: 60_000 };
    // The first copy's job leaves the organization's renderer idle, with a page made ahead for its next job.
    expect(await first.deckPage.withDeckPage(viewable, options, async (_page, report) => report.count)).toBe(2);
    await expect.poll(() => first.browser.idleRenderers().length).toBe(1);

    const second = await freshCopy();
    expect(second.browser).not.toBe(first.browser);
    // One render origin for the process: the page made ahead is at the origin the second copy draws at.
    expect(await second.playerFiles.renderOrigin()).toBe(await first.playerFiles.renderOrigin());
    const picture = await second.deckPage.withDeckPage(viewable, options, (page) =>
      second.browser.pictureOf(page, { x: 0, y: CANVAS.height, ...CANVAS }, { scale: 1 / 3 }),
    );
    const png = PNG.sync.read(picture);
    expect([png.width, png.height]).toEqual([640, 360]);
    // The second slide's title is drawn: dark ink on the light canvas.
    let dark = 0;
    for (let at = 0; at < png.data.length; at += 4) if (png.data[at]! < 100) dark++;
    expect(dark).toBeGreaterThan(100);
  }, 120_000);
});
