// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import "../helpers/next-request";
import fs from "node:fs";
import path from "node:path";
import JSZip from "jszip";
import { beforeAll, describe, expect, it } from "vitest";
import { importDeckAction } from "@/server/actions/decks";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { getDb } from "@/lib/db/client";

// POST /decks/import with a PowerPoint file (faithful mode by default, restyle when asked): every shared sample
// imports in both modes (the cut-short one is a 422), with the words of its slides and notes found in the
// printed deck; the raw body, multipart and JSON
// base64 forms; hostile files refused with nothing saved and the server still answering.

const SAMPLES = path.join(import.meta.dirname, "../fixtures/pptx");
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const sample = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAMPLES, name)));

beforeAll(async () => {
  await setUpTestDatabase();
});

const importRaw = (user: TestUser, bytes: Uint8Array<ArrayBuffer>, query = "") =>
  call("POST", `/decks/import${query}`, { key: user.key, rawBody: bytes, headers: { "content-type": PPTX } });

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

// Runs joined as written, paragraphs (and line breaks) apart.
const xmlText = (xml: string) =>
  [...xml.replace(/<\/a:p>|<a:br\/>/g, "<a:t> </a:t>").matchAll(/<a:t>([^<]*)<\/a:t>/g)]
    .map((match) =>
      match[1]!
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&quot;", '"')
        .replaceAll("&apos;", "'")
        .replaceAll("&amp;", "&"),
    )
    .join("");

// The original's words, read independently of the importer: every a:t of each shown slide (with its
// SmartArt data) and of its notes' body (slide number fields left out).
async function originalWords(
  bytes: Uint8Array,
): Promise<{ slides: Set<string>; notes: Set<string>; tables: number; charts: number; pictures: number }> {
  const zip = await JSZip.loadAsync(bytes);
  const slides = new Set<string>();
  const notes = new Set<string>();
  let tables = 0;
  let charts = 0;
  let pictures = 0;
  for (const name of Object.keys(zip.files).filter((file) => /^ppt\/slides\/slide\d+\.xml$/.test(file))) {
    const xml = await zip.file(name)!.async("string");
    if (/<p:sld\b[^>]*\bshow="0"/.test(xml)) continue;
    tables += (xml.match(/<a:tbl>/g) ?? []).length;
    charts += (xml.match(/<c:chart\b/g) ?? []).length;
    pictures +=
      (xml.match(/<p:pic>/g) ?? []).length + (xml.match(/<p:bg>(?:(?!<\/p:bg>)[\s\S])*<a:blip\b/g) ?? []).length;
    const rels = (await zip.file(name.replace("slides/", "slides/_rels/") + ".rels")?.async("string")) ?? "";
    for (const word of words(xmlText(xml.replace(/<a:fld [^>]*type="slidenum"[\s\S]*?<\/a:fld>/g, "")))) {
      slides.add(word);
    }
    for (const [, type, target] of rels.matchAll(/Type="[^"]*\/(diagramData|notesSlide)" Target="\.\.\/([^"]+)"/g)) {
      const part = await zip.file(`ppt/${target}`)?.async("string");
      if (!part) continue;
      const body =
        type === "notesSlide"
          ? [...part.matchAll(/<p:sp>(?:(?!<\/p:sp>)[\s\S])*<\/p:sp>/g)]
              .map((sp) => sp[0])
              .filter((sp) => /<p:ph type="body"/.test(sp))
              .join("")
          : part;
      for (const word of words(xmlText(body))) (type === "notesSlide" ? notes : slides).add(word);
    }
  }
  return { slides, notes, tables, charts, pictures };
}

function recall(expected: Set<string>, found: Set<string>): number {
  if (expected.size === 0) return 1;
  return [...expected].filter((word) => found.has(word)).length / expected.size;
}

describe("POST /decks/import with a PowerPoint file", () => {
  it("imports every sample (the cut-short one is a 422), its slides' and notes' words all found", async () => {
    const user = await createUser();
    const rows: string[] = [];
    for (const [name, mode] of fs
      .readdirSync(SAMPLES)
      .sort()
      .flatMap((file) => [[file, "faithful"] as const, [file, "restyle"] as const])) {
      const bytes = sample(name);
      const res = await importRaw(user, bytes, mode === "restyle" ? "?mode=restyle" : "");
      if (name === "poi-Divino_Revelado.pptx") {
        expect(res.status).toBe(422);
        expect(res.body.error.message).toMatch(/not a ZIP archive, or it is cut short/);
        continue;
      }
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201);
      const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
      const source: string = version.body.source;
      // The printed module's words, strings unescaped as JSON would.
      const printed = words(
        source.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      );
      const original = await originalWords(bytes);
      const text = recall(original.slides, printed);
      const notes = recall(original.notes, printed);
      const count = (pattern: RegExp) => (source.match(pattern) ?? []).length;
      rows.push(
        `${name} (${res.body.importReport.mode}): slides ${res.body.importReport.slides}, text recall ${text.toFixed(3)} (${original.slides.size} words), notes recall ${notes.toFixed(3)} (${original.notes.size} words), tables ${count(/<Table\b/g)}/${original.tables}, charts ${count(/<Chart\b/g)}/${original.charts}, pictures ${count(/<Image\b/g) + count(/ image="/g)}/${original.pictures}, warnings ${res.body.importReport.warnings.length}`,
      );
    }
    console.log(rows.join("\n"));
    for (const row of rows) {
      expect(row).toMatch(/text recall (1\.000|0\.9[5-9]\d).*notes recall 1\.000/);
      // Every table and chart is kept (pictures may be left out, reported: a WMF, say).
      const [, tables, tablesBefore, charts, chartsBefore] = /tables (\d+)\/(\d+), charts (\d+)\/(\d+)/.exec(row)!;
      expect([tables, charts], row).toEqual([tablesBefore, chartsBefore]);
    }
  }, 300_000);

  it("answers the Deck and an import report; pictures become the organization's images with alt text", async () => {
    const user = await createUser();
    const res = await importRaw(
      user,
      sample("python-pptx-shp-picture.pptx"),
      "?title=Pictures&visibility=org&mode=restyle",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      title: "Pictures",
      visibility: "org",
      format: "slides",
      importReport: { slides: 2, mode: "restyle" },
    });
    const assets = await call("GET", "/assets", { key: user.key });
    // Two pictures, each shown whole and cropped: four images.
    expect(assets.body).toHaveLength(4);
    expect(assets.body.map((asset: { alt: string | null }) => asset.alt)).toContain("python-powered.png");
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    expect(version.body.source).toContain('alt="python-powered.png"');
    expect(version.body.prompt).toBe("Imported from PowerPoint");
  });

  it("keeps the slides as they look by default: Frames, the theme's colours and fonts as the deck's tokens", async () => {
    const user = await createUser();
    const res = await importRaw(user, sample("poi-ae.ac.uaeu.faculty_nafaachbili_GeomLec1.pptx"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.importReport).toMatchObject({ slides: 14, mode: "faithful" });
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    expect(version.body.source).toMatch(/<Frame x=\{\d+\} y=\{\d+\} w=\{\d+\} h=\{\d+\}/);
    expect(version.body.source).toContain("<Bullets>");
    expect(version.body.tokensCss).toMatch(/--font-body: "[^"]+", "Helvetica Neue", Arial, system-ui, sans-serif;/);
  });

  it("draws a tiled picture fill as the copies PowerPoint repeats over the area, not one stretched copy", async () => {
    const user = await createUser();
    const res = await importRaw(user, sample("poi-backgrounds.pptx"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const assets = (await call("GET", "/assets", { key: user.key })).body as Array<{ width: number; height: number }>;
    // Slide 4's background: a 128 x 128 texture of 75 dpi tiled at its own size over the 10 x 7.5 in slide, one
    // picture of 960 x 720 px (96 dpi).
    expect(assets.map((asset) => [asset.width, asset.height])).toContainEqual([960, 720]);
  });

  it("takes multipart/form-data with a file part and fields as parts, and JSON with the file in base64", async () => {
    const user = await createUser();
    const form = new FormData();
    form.set("file", new Blob([sample("poi-bar-chart.pptx")], { type: PPTX }), "chart.pptx");
    form.set("title", "From a form");
    form.set("mode", "restyle");
    const multipart = await call("POST", "/decks/import", { key: user.key, rawBody: form });
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(201);
    expect(multipart.body.title).toBe("From a form");
    const version = await call("GET", `/decks/${multipart.body.id}/versions/1`, { key: user.key });
    expect(version.body.source).toMatch(/<Chart\s[^>]*type="bar"/);
    expect(version.body.source).toContain('"1st Qtr"');

    const json = await call("POST", "/decks/import", {
      key: user.key,
      body: { file: Buffer.from(sample("python-pptx-sld-notes.pptx")).toString("base64"), visibility: "public" },
    });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    expect(json.body.importReport.slides).toBe(2);
    const both = await call("POST", "/decks/import", { key: user.key, body: { markdown: "# Hi", file: "AAAA" } });
    expect(both.status).toBe(422);
    expect(both.body.error.message).toMatch(/either markdown or file/);
  });

  it("refuses hostile files with a 422 naming the problem, saves nothing, and keeps answering", async () => {
    const user = await createUser();
    const bomb = await JSZip.loadAsync(sample("python-pptx-sld-notes.pptx"));
    bomb.file("ppt/slides/slide1.xml", Buffer.alloc(64 * 1024 * 1024, 0x20));
    const laughs = await JSZip.loadAsync(sample("python-pptx-sld-notes.pptx"));
    laughs.file(
      "ppt/presentation.xml",
      '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><p:presentation xmlns:p="urn:p">&b;</p:presentation>',
    );
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const cases: Array<[Uint8Array<ArrayBuffer>, RegExp]> = [
      [new Uint8Array(await bomb.generateAsync({ type: "nodebuffer", compression: "DEFLATE" })), /ZIP bomb/],
      [new Uint8Array(await laughs.generateAsync({ type: "nodebuffer", compression: "DEFLATE" })), /DOCTYPE/],
      [ole, /legacy PowerPoint 97–2003 \(\.ppt\)/],
      [new TextEncoder().encode("hello, not a deck"), /not a ZIP archive/],
    ];
    for (const [bytes, message] of cases) {
      const res = await importRaw(user, bytes);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.message).toMatch(message);
    }
    const tooBig = await importRaw(user, new Uint8Array(50 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.code).toBe("payload_too_large");
    expect((await call("GET", "/decks", { key: user.key })).body).toEqual([]);
    expect((await call("GET", "/assets", { key: user.key })).body).toEqual([]);
    expect((await importRaw(user, sample("python-pptx-sld-notes.pptx"))).status).toBe(201);
  }, 120_000);

  it("writes nothing when the deck cannot be made: no deck and no picture stored", async () => {
    const user = await createUser();
    const res = await importRaw(
      user,
      sample("python-pptx-shp-picture.pptx"),
      "?brandId=00000000-0000-4000-8000-000000000000",
    );
    expect(res.status).toBe(404);
    expect((await call("GET", "/decks", { key: user.key })).body).toEqual([]);
    expect((await call("GET", "/assets", { key: user.key })).body).toEqual([]);
  });

  it("is the library's Import PowerPoint action too, refusals coming back as its result", async () => {
    const user = await createUser();
    const ctx = {
      db: await getDb(),
      caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null },
    };
    const file = Buffer.from(sample("poi-table-with-theme.pptx")).toString("base64");
    const made = await importDeckAction.runAs(ctx, { file, mode: "restyle", title: "From the library" });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    const deck = await call("GET", `/decks/${made.ok ? made.value.id : ""}`, { key: user.key });
    expect(deck.body.title).toBe("From the library");
    const refused = await importDeckAction.runAs(ctx, { file: Buffer.from("not a deck").toString("base64") });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "invalid_request", message: expect.stringMatching(/not a ZIP/) },
    });
  });
});
