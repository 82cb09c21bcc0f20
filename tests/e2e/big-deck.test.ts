import { randomUUID } from "node:crypto";
import JSZip from "jszip";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import type { Finding } from "@/lib/render/check-findings";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { bigDeck, bigDeckHeading } from "../helpers/big-deck";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { pictureProblems } from "../helpers/pptx-xml";

// A 400-slide deck (issue 39) exports to both formats and is checked, with the job's limits as they are:
// the PPTX walk had grown with the square of the deck's charts and drawing a big deck had outgrown the
// flat drawing deadline. Nothing here is timed; the times are `npm run bench -- scale`.

const SLIDES = 400;
let server: AppServer;
let owner: TestUser;
let deckId: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  owner = await createUser({ org: `big-${randomUUID()}` });
  deckId = (await createDeck(owner, { title: "Big deck" })).id;
  expect((await setContent(owner, deckId, { source: bigDeck(SLIDES) })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
});

async function exported(format: "pdf" | "pptx"): Promise<Buffer> {
  const res = await call("POST", `/decks/${deckId}/exports`, { key: owner.key, body: { format } });
  expect(res.status).toBe(202);
  const done = await waitForExport(owner, res.body.id, 280_000);
  expect(done).toMatchObject({ status: "completed", error: null });
  const link = await call("GET", `/exports/${res.body.id}/download`, { key: owner.key });
  expect(link.status).toBe(302);
  const file = await fetch(link.headers.get("location")!);
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

describe("a 400-slide deck", () => {
  it("exports to a PDF of a page per slide, the last slide's heading on the last page", async () => {
    const pdf = await getDocumentProxy(new Uint8Array(await exported("pdf")));
    expect(pdf.numPages).toBe(SLIDES);
    for (const n of [1, 200, SLIDES]) {
      const page = await pdf.getPage(n);
      const text = (await page.getTextContent()).items.map((item) => ("str" in item ? item.str : "")).join(" ");
      expect(text).toContain(bigDeckHeading(n));
    }
  }, 300_000);

  it("exports to PowerPoint: every slide with its heading as text, its chart native, its notes", async () => {
    const bytes = await exported("pptx");
    expect(await pictureProblems(bytes)).toEqual([]);
    const zip = await JSZip.loadAsync(bytes);
    const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(SLIDES);
    expect(Object.keys(zip.files).filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))).toHaveLength(SLIDES / 2);
    for (const n of [1, 2, 199, 200, SLIDES - 1, SLIDES]) {
      const xml = await zip.file(`ppt/slides/slide${n}.xml`)!.async("string");
      const text = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join(" ");
      expect(text).toContain(bigDeckHeading(n));
      if (n % 2 === 0) expect(xml).toContain('uri="http://schemas.openxmlformats.org/drawingml/2006/chart"');
    }
    const notes = await Promise.all(
      Object.keys(zip.files)
        .filter((name) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(name))
        .map((name) => zip.file(name)!.async("string")),
    );
    expect(notes.some((xml) => xml.includes(`Talk about section ${SLIDES - 1} (0)`))).toBe(true);
  }, 300_000);

  it("is checked: every slide measured, none that cannot be drawn", async () => {
    const res = await call("GET", `/decks/${deckId}/check`, { key: owner.key });
    expect(res.status).toBe(200);
    const { findings, slides } = res.body as { findings: Finding[]; slides: number };
    expect(slides).toBe(SLIDES);
    expect(findings.filter((finding) => finding.kind === "render-failed")).toEqual([]);
  }, 300_000);
});
