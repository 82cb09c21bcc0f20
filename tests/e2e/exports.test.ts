import { randomUUID } from "node:crypto";
import JSZip from "jszip";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decks } from "@/lib/db/schema/decks";
import { exports } from "@/lib/db/schema/exports";
import type { Database } from "@/lib/db/client";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { pictureProblems } from "../helpers/pptx-xml";
import { twelveSlideDeck, twelveSlideHeadings, twelveSlideNotes } from "../helpers/twelve-slide-deck";

let database: Database;
let server: AppServer;
let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;
let deckId: string;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  const org = `org-${randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
  outsider = await createUser();
  const deck = await createDeck(owner, { title: "Export test: Q3/Q4" });
  deckId = deck.id;
  expect((await setContent(owner, deckId, { source: twelveSlideDeck })).status).toBe(200);
  await call("PATCH", `/decks/${deckId}`, { key: owner.key, body: { visibility: "org" } });
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
});

async function download(user: TestUser, exportId: string): Promise<{ bytes: Buffer; disposition: string | null }> {
  const res = await call("GET", `/exports/${exportId}/download`, { key: user.key });
  expect(res.status).toBe(302);
  const location = res.headers.get("location")!;
  expect(location.startsWith(`${server.origin}/files/`)).toBe(true);
  const file = await fetch(location);
  expect(file.status).toBe(200);
  return { bytes: Buffer.from(await file.arrayBuffer()), disposition: file.headers.get("content-disposition") };
}

describe("PDF export", () => {
  it("renders a 12-slide deck to 12 pages of 1440x810 pt with each slide's heading as text", async () => {
    const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pdf" } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      deckId,
      version: 1,
      format: "pdf",
      status: "pending",
      fileName: "Export test Q3 Q4-v1.pdf",
      downloadUrl: null,
      error: null,
    });
    const done = await waitForExport(owner, res.body.id);
    expect(done).toMatchObject({ status: "completed", nonstandardFonts: [], error: null });
    expect(done.downloadUrl).toBe(`${server.origin}/api/v1/exports/${res.body.id}/download`);

    const { bytes, disposition } = await download(owner, res.body.id);
    expect(disposition).toContain("Export test Q3 Q4-v1.pdf");
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    expect(pdf.numPages).toBe(12);
    for (let n = 1; n <= 12; n++) {
      const viewport = (await pdf.getPage(n)).getViewport({ scale: 1 });
      expect([Math.round(viewport.width), Math.round(viewport.height)]).toEqual([1440, 810]);
    }
    const { text } = await extractText(pdf, { mergePages: false });
    twelveSlideHeadings.forEach((heading, index) => expect(text[index]).toContain(heading));
  });

  it("reuses the export for the same deck, version and format by the same key within the window", async () => {
    const first = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pdf", version: 1 },
    });
    const second = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pdf" } });
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    const other = await call("POST", `/decks/${deckId}/exports`, { key: colleague.key, body: { format: "pdf" } });
    expect(other.status).toBe(202);
    expect(other.body.id).not.toBe(first.body.id);
    await waitForExport(colleague, other.body.id);
  });
});

describe("PDF handout (layout 'notes')", () => {
  const A4 = [595, 842];

  it("prints each slide above its speaker notes on a portrait A4 page, numbered", async () => {
    const res = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "notes" },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ format: "pdf", layout: "notes", fileName: "Export test Q3 Q4-v1-notes.pdf" });
    const done = await waitForExport(owner, res.body.id);
    expect(done).toMatchObject({ status: "completed", layout: "notes", error: null });
    expect((await call("GET", `/exports/${res.body.id}`, { key: owner.key })).body.layout).toBe("notes");

    const bytes = (await download(owner, res.body.id)).bytes;
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    expect(pdf.numPages).toBe(12);
    const { text } = await extractText(pdf, { mergePages: false });
    for (let n = 1; n <= 12; n++) {
      const page = await pdf.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      expect([Math.round(viewport.width), Math.round(viewport.height)]).toEqual(A4);
      // The slide itself is still text (vector), above its own notes, with the page number in the footer.
      expect(text[n - 1]).toContain(twelveSlideHeadings[n - 1]);
      expect(text[n - 1]).toContain(twelveSlideNotes[n - 1]);
      expect(text[n - 1]).toMatch(new RegExp(`Slide ${n} of 12`, "i"));
      expect(text[n - 1]).toContain(`Page ${n} of 12`);
      const items = (await page.getTextContent()).items.filter((item) => "str" in item);
      const top = (needle: string) => items.find((item) => item.str.includes(needle))!.transform[5] as number;
      expect(top(twelveSlideHeadings[n - 1]!)).toBeGreaterThan(top(twelveSlideNotes[n - 1]!));
    }
  });

  it("lets long notes run on to the next page and keeps notes as text, never markup", async () => {
    const deck = await createDeck(owner, { title: "Long notes" });
    const long = Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 1}: ${"the quarter in detail ".repeat(30)}`);
    const notes = [`<b>not bold</b> & "quoted"`, long.join("\n\n"), ""];
    const source = `import { Deck, Slide, Title } from "@deckhand/player";
export default function D() {
  return (
    <Deck title="Long notes">
${notes.map((note, i) => `      <Slide label="S${i + 1}" notes={${JSON.stringify(note)}}><Title>SLIDE ${i + 1}</Title></Slide>`).join("\n")}
    </Deck>
  );
}`;
    expect((await setContent(owner, deck.id, { source })).status).toBe(200);
    const res = await call("POST", `/decks/${deck.id}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "notes" },
    });
    expect((await waitForExport(owner, res.body.id)).status).toBe("completed");
    const pdf = await getDocumentProxy(new Uint8Array((await download(owner, res.body.id)).bytes));
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = text.length;
    expect(pages).toBeGreaterThanOrEqual(4);
    expect(text[0]).toContain(`<b>not bold</b> & "quoted"`);
    expect(text[1]).toContain("SLIDE 2");
    expect(text[1]).toContain("Paragraph 1:");
    // The second slide's notes continue past its page; the third slide starts a page of its own.
    expect(text.slice(2, pages - 1).join(" ")).toContain("Paragraph 14:");
    expect(text[pages - 1]).toContain("SLIDE 3");
    expect(text[pages - 1]).toContain("No speaker notes.");
    expect(text[pages - 1]).toContain(`Page ${pages} of ${pages}`);
  });

  it("sets its notes, title and page numbers in the deck's body font, never a system font (issue 38)", async () => {
    const deck = await createDeck(owner, { title: 'Fonts "quoted" \\ } @page' });
    const source = `import { Deck, Slide, Title } from "@deckhand/player";
export default function D() {
  return (
    <Deck>
      <Slide label="One" notes="Said in the deck's own type."><Title>One</Title></Slide>
      <Slide label="Two"><Title>Two</Title></Slide>
    </Deck>
  );
}`;
    const tokensCss = ':root { --font-body: "Lato", Arial, sans-serif; --font-heading: "Lato", Georgia, serif; }';
    expect((await setContent(owner, deck.id, { source, tokensCss })).status).toBe(200);
    const res = await call("POST", `/decks/${deck.id}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "notes" },
    });
    expect((await waitForExport(owner, res.body.id)).status).toBe("completed");
    const bytes = (await download(owner, res.body.id)).bytes;
    // Embedded fonts are named in the file's font dictionaries: /BaseFont /ABCDEF+Family-Style.
    const fonts = new Set(
      [...bytes.toString("latin1").matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([\w-]+)/g)].map((m) => m[1]),
    );
    expect(
      [...fonts].every((font) => font!.startsWith("Lato")),
      [...fonts].join(", "),
    ).toBe(true);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
    expect(text[0]).toContain("Said in the deck's own type.");
    expect(text[0]).toContain('Fonts "quoted" \\ } @page');
    expect(text[0]).toContain("Page 1 of 2");
    expect(text[1]).toContain("Page 2 of 2");
  });

  it("is a layout of PDF only (422 for PPTX) and is part of what the reuse window matches", async () => {
    const pptx = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pptx", layout: "notes" },
    });
    expect(pptx.status).toBe(422);
    expect(pptx.body.error.code).toBe("invalid_request");
    expect(pptx.body.error.message).toMatch(/layout.*PDF/);
    const bad = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "x" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toMatch(/layout: must be 'slides' or 'notes'/);

    const slides = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pdf" } });
    const notes = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "notes" },
    });
    expect(slides.body.layout).toBe("slides");
    expect(notes.body.layout).toBe("notes");
    expect(notes.body.id).not.toBe(slides.body.id);
    const again = await call("POST", `/decks/${deckId}/exports`, {
      key: owner.key,
      body: { format: "pdf", layout: "slides" },
    });
    expect(again.body.id).toBe(slides.body.id);
  });
});

describe("PPTX export", () => {
  it("builds an editable 16:9 file: 12 slides with headings as text and speaker notes", async () => {
    const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pptx" } });
    expect(res.status).toBe(202);
    const done = await waitForExport(owner, res.body.id);
    expect(done.status).toBe("completed");
    // The default theme's families are open fonts that PowerPoint does not ship: they travel in the file
    // (embed-fonts.ts, tests/unit/embed-fonts.test.ts), so nothing is reported.
    expect(done.nonstandardFonts).not.toEqual(expect.arrayContaining(["Inter"]));
    expect(done.nonstandardFonts).not.toEqual(expect.arrayContaining(["Source Serif 4"]));

    const { bytes } = await download(owner, res.body.id);
    // Every picture with alt text that says something, none stored twice, none larger than twice its box.
    expect(await pictureProblems(bytes)).toEqual([]);
    const zip = await JSZip.loadAsync(bytes);
    const presentation = await zip.file("ppt/presentation.xml")!.async("string");
    expect(presentation).toMatch(/<p:sldSz cx="12192000" cy="6858000"/);
    const embedded = [...presentation.matchAll(/<p:font typeface="([^"]+)"/g)].map((m) => m[1]);
    expect(embedded).toEqual(expect.arrayContaining(["Inter", "Source Serif 4"]));
    expect(Object.keys(zip.files).filter((name) => name.endsWith(".fntdata")).length).toBeGreaterThanOrEqual(2);
    const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(12);
    for (let n = 1; n <= 12; n++) {
      const xml = await zip.file(`ppt/slides/slide${n}.xml`)!.async("string");
      const text = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join(" ");
      expect(text).toContain(twelveSlideHeadings[n - 1]);
    }
    const notes = await Promise.all(
      Object.keys(zip.files)
        .filter((name) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(name))
        .map((name) => zip.file(name)!.async("string")),
    );
    for (const note of twelveSlideNotes) expect(notes.some((xml) => xml.includes(note))).toBe(true);

    const slide5 = await zip.file("ppt/slides/slide5.xml")!.async("string");
    expect(slide5).toContain("<a:tbl>");
    expect(slide5).toContain("North");
    const slide3 = await zip.file("ppt/slides/slide3.xml")!.async("string");
    expect(slide3).toMatch(/prstGeom prst="roundRect"/);
    const slide6 = await zip.file("ppt/slides/slide6.xml")!.async("string");
    // The chart is a native chart (its data in the file), not a picture.
    expect(slide6).toContain('uri="http://schemas.openxmlformats.org/drawingml/2006/chart"');
    expect(slide6).not.toContain("<p:pic>");
    const slide11 = await zip.file("ppt/slides/slide11.xml")!.async("string");
    expect(slide11).toContain("example.com/docs");
  });
});

describe("export rules", () => {
  it("answers 409 on download until the export is completed, and for a failed one", async () => {
    // A deck of its own, so these hand-made rows are never offered for reuse to the other tests.
    const deck = await createDeck(owner);
    await setContent(owner, deck.id);
    for (const status of ["pending", "running", "failed"] as const) {
      const [row] = await database.db
        .insert(exports)
        .values({
          organizationId: owner.organizationId,
          deckId: deck.id,
          version: 1,
          format: "pdf",
          status,
          requestedByKeyId: (await keyIdOf(owner))!,
          requestedByUserId: owner.userId,
          // Held by a worker that is alive (a lease far in the future), so no runner takes it.
          attempts: 3,
          leaseToken: "another-worker",
          leaseExpiresAt: new Date(Date.now() + 3_600_000),
          error: status === "failed" ? "Rendering took longer than 120 s" : null,
        })
        .returning();
      const res = await call("GET", `/exports/${row!.id}/download`, { key: owner.key });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("conflict");
    }
  });

  it("lets only the requesting key download; other organizations see nothing", async () => {
    const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pdf" } });
    await waitForExport(owner, res.body.id);
    expect((await call("GET", `/exports/${res.body.id}`, { key: colleague.key })).status).toBe(200);
    const byColleague = await call("GET", `/exports/${res.body.id}/download`, { key: colleague.key });
    expect(byColleague.status).toBe(403);
    expect((await call("GET", `/exports/${res.body.id}`, { key: outsider.key })).status).toBe(404);
    expect((await call("GET", `/exports/${res.body.id}/download`, { key: outsider.key })).status).toBe(404);
    expect((await call("GET", `/exports/${randomUUID()}`, { key: owner.key })).status).toBe(404);
    expect((await call("GET", `/exports/not-a-uuid`, { key: owner.key })).status).toBe(422);
  });

  it("refuses a forged or expired file link", async () => {
    const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format: "pdf" } });
    await waitForExport(owner, res.body.id);
    const location = new URL(
      (await call("GET", `/exports/${res.body.id}/download`, { key: owner.key })).headers.get("location")!,
    );
    const forged = new URL(location);
    forged.searchParams.set("expires", String(Date.now() + 86_400_000));
    expect((await fetch(forged)).status).toBe(403);
    const renamed = new URL(location);
    renamed.searchParams.set("name", "other.pdf");
    expect((await fetch(renamed)).status).toBe(403);
  });

  it("deletes the exported files with their deck", async () => {
    const deck = await createDeck(owner, { title: "Short-lived" });
    await setContent(owner, deck.id);
    const res = await call("POST", `/decks/${deck.id}/exports`, { key: owner.key, body: { format: "pdf" } });
    await waitForExport(owner, res.body.id);
    const location = (await call("GET", `/exports/${res.body.id}/download`, { key: owner.key })).headers.get(
      "location",
    )!;
    expect((await fetch(location)).status).toBe(200);
    expect((await call("DELETE", `/decks/${deck.id}`, { key: owner.key })).status).toBe(200);
    expect((await fetch(location)).status).toBe(404);
    expect((await call("GET", `/exports/${res.body.id}`, { key: owner.key })).status).toBe(404);
  });

  it.each([
    [{}, 422, /format/],
    [{ format: "docx" }, 422, /format/],
    [{ format: "pdf", version: 0 }, 422, /version/],
    [{ format: "pdf", version: -2 }, 422, /version/],
    [{ format: "pdf", version: 1.5 }, 422, /version/],
    [{ format: "pdf", version: "1" }, 422, /version/],
    [{ format: "pdf", extra: true }, 422, /unknown field/],
    [{ format: "pdf", version: 99 }, 404, /Version 99/],
  ])("answers %j with %i", async (body, status, message) => {
    const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toMatch(message);
  });

  it("refuses a deck without content and a webpage deck with 422, and a deck the caller cannot see with 404", async () => {
    const empty = await createDeck(owner);
    const res = await call("POST", `/decks/${empty.id}/exports`, { key: owner.key, body: { format: "pdf" } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/no content/);

    const [webpage] = await database.db
      .insert(decks)
      .values({
        organizationId: owner.organizationId,
        ownerId: owner.userId,
        title: "Page",
        format: "webpage",
        versionCount: 0,
      })
      .returning();
    const page = await call("POST", `/decks/${webpage!.id}/exports`, { key: owner.key, body: { format: "pdf" } });
    expect(page.status).toBe(422);
    expect(page.body.error.message).toMatch(/webpage/);

    expect(
      (await call("POST", `/decks/${deckId}/exports`, { key: outsider.key, body: { format: "pdf" } })).status,
    ).toBe(404);
  });
});

async function keyIdOf(user: TestUser): Promise<string | undefined> {
  const { apiKeys } = await import("@/lib/db/schema/api-keys");
  const { eq } = await import("drizzle-orm");
  const { hashApiKey } = await import("@/lib/auth/api-keys");
  const [row] = await database.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashApiKey(user.key)));
  return row?.id;
}
