// The PowerPoint import's report card (issue 36, "What must be shown"), run by hand, never by npm test:
//   npx tsx --conditions=react-server scripts/pptx-import-report.ts [--mode restyle|faithful] [--out DIR]
//     [--samples DIR] [--only SUBSTRING]
// For every sample in ../shared/samples/pptx/ it imports the file in process through the real import function
// (importPptx) on an embedded database of its own, then reports: the slide count (original's shown slides →
// the import's), text recall (each word of the shown slides' text — text frames, table cells, chart titles,
// categories and series names — found in the imported deck's text), notes recall, tables, charts and pictures
// (original → import; pictures per slide, each once, in faithful mode the master's decorations drawn as
// pictures included), and a visual similarity per slide (SSIM, scripts/pptx-report-images.ts) between
// LibreOffice's render of the original and Deckhand's own PDF export of the import. A sample that is not a
// valid package must be refused as a 422. Writes DIR/report.md, DIR/report.json and a contact sheet per sample
// (DIR/<sample>.png: original | import, a row per slide).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, eq } from "drizzle-orm";
import ts from "typescript";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import type { Db } from "@/lib/db/types";
import type { Paragraph, PptxDeck, Shape } from "@/lib/import/pptx/model";
import { contactSheet, pdfPages, ssim } from "./pptx-report-images";

const { values } = parseArgs({
  options: {
    mode: { type: "string" },
    out: { type: "string", default: path.join(os.tmpdir(), "pptx-import-report") },
    samples: { type: "string", default: path.resolve("../shared/samples/pptx") },
    only: { type: "string" },
  },
  strict: true,
});
const out = path.resolve(values.out!);
const PAGE_WIDTH = 640;

// ---- words -------------------------------------------------------------------------------------------------

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The share of `wanted`'s words (counted with repeats) that `found` holds as often. */
function recall(wanted: string[], found: string[]): { hit: number; of: number; missing: string[] } {
  const have = new Map<string, number>();
  for (const word of found) have.set(word, (have.get(word) ?? 0) + 1);
  let hit = 0;
  const missing: string[] = [];
  for (const word of wanted) {
    const left = have.get(word) ?? 0;
    if (left > 0) {
      hit++;
      have.set(word, left - 1);
    } else missing.push(word);
  }
  return { hit, of: wanted.length, missing };
}

function flatten(shapes: Shape[]): Shape[] {
  return shapes.flatMap((shape) => (shape.kind === "group" ? flatten(shape.children) : [shape]));
}

// Slide numbers and images of slides are the player's own; everything else with text counts.
function originalText(deck: PptxDeck, mode: string): { slides: string[]; notes: string[]; counts: Counts } {
  const slides: string[] = [];
  const notes: string[] = [];
  const counts: Counts = { tables: 0, charts: 0, pictures: 0 };
  for (const slide of deck.slides.filter((s) => !s.hidden)) {
    for (const shape of flatten(slide.shapes)) {
      if (shape.kind === "text" && shape.placeholder?.type === "sldNum") continue;
      // A paragraph's runs are one text (a word may be split across runs: "S" + "egment").
      const paragraph = (p: Paragraph) => p.runs.map((run) => run.text).join("");
      if (shape.kind === "text") slides.push(...shape.paragraphs.map(paragraph));
      if (shape.kind === "table") {
        counts.tables++;
        slides.push(...shape.rows.flat().flatMap((cell) => cell.paragraphs.map(paragraph)));
      }
      if (shape.kind === "chart") {
        counts.charts++;
        slides.push(shape.chart.title ?? "", ...shape.chart.categories, ...shape.chart.series.map((s) => s.name));
      }
    }
    // The pictures the slide shows, each once: its own, its picture fills, its background and, as faithful
    // mode draws them, the master's and layout's (freeforms and lines drawn as pictures included).
    const shown = new Set<string>();
    const decorations = mode === "faithful" ? (slide.masterShapes ?? []) : [];
    for (const shape of flatten([...slide.shapes, ...decorations])) {
      if (shape.kind === "picture") shown.add(`${shape.media}#${JSON.stringify(shape.crop ?? null)}`);
      if (shape.kind === "text" && shape.pictureFill) shown.add(shape.pictureFill);
    }
    if (slide.background?.kind === "picture") shown.add(slide.background.media);
    counts.pictures += shown.size;
    notes.push(slide.notes);
  }
  return { slides, notes, counts };
}

type Counts = { tables: number; charts: number; pictures: number };

// The imported deck's text: JSX text and string literals, except the props that name a choice or a file
// (layout, type, marker, src…), and apart from its notes. Read with TypeScript's parser, not patterns.
const NOT_TEXT = new Set(["layout", "type", "marker", "size", "tone", "align", "src", "image", "fit", "background"]);

function importedText(source: string): { slides: string[]; notes: string[]; counts: Counts } {
  const file = ts.createSourceFile("deck.tsx", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const slides: string[] = [];
  const notes: string[] = [];
  const counts: Counts = { tables: 0, charts: 0, pictures: 0 };
  // Pictures are counted per slide, each once (as the original's are).
  let shown = new Set<string>();
  const visit = (node: ts.Node, into: string[] | null) => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(file);
      if (NOT_TEXT.has(name)) {
        if (name === "image") counts.pictures++;
        return;
      }
      ts.forEachChild(node, (child) => visit(child, name === "notes" ? notes : into));
      return;
    }
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const tag = node.tagName.getText(file);
      if (tag === "Table") counts.tables++;
      if (tag === "Chart") counts.charts++;
      if (tag === "Slide") shown = new Set();
      if (tag === "Image") {
        const src = node.attributes.properties.find((p) => ts.isJsxAttribute(p) && p.name.getText(file) === "src");
        const value = src && ts.isJsxAttribute(src) ? src.initializer?.getText(file) : undefined;
        if (value && !shown.has(value)) {
          shown.add(value);
          counts.pictures++;
        }
      }
    }
    if (into && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) into.push(node.text);
    if (into && ts.isJsxText(node)) into.push(node.text);
    ts.forEachChild(node, (child) => visit(child, into));
  };
  visit(file, slides);
  return { slides, notes, counts };
}

// ---- pictures ----------------------------------------------------------------------------------------------

function libreOfficePdf(sample: string, dir: string): string {
  const pdf = path.join(dir, `${path.basename(sample, ".pptx")}.pdf`);
  if (!fs.existsSync(pdf)) {
    // A profile of its own, so a LibreOffice the person has open does not take the conversion.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pptx-report-lo-"));
    try {
      execFileSync(
        "soffice",
        [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", "pdf", "--outdir", dir, sample],
        { stdio: "ignore", timeout: 180_000 },
      );
    } finally {
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
  return pdf;
}

// ---- the run -----------------------------------------------------------------------------------------------

type Row = {
  sample: string;
  status: number;
  error?: string;
  slides?: string;
  textRecall?: number;
  notesRecall?: number | null;
  tables?: string;
  charts?: string;
  pictures?: string;
  ssim?: number[];
  /** The original's words the import does not hold. */
  missing?: string[];
  warnings?: number;
  seconds?: number;
};

const percent = (r: { hit: number; of: number }) => (r.of === 0 ? null : r.hit / r.of);

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const work = path.join(out, "work");
  fs.mkdirSync(work, { recursive: true });
  process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "pptx-report-data-"));
  process.env.COMPILE_IN_WORKER ??= "0";
  process.env.APP_URL ??= "http://127.0.0.1:3000";
  // Loaded after the settings above are in place.
  const { adoptDatabase, migrateDatabase, openPglite } = await import("@/lib/db/client");
  const { createKeyForEmail } = await import("@/lib/auth/accounts");
  const { AppError } = await import("@/lib/core/errors");
  const { statusOf } = await import("@/lib/api/status");
  const { importModes, importPptx } = await import("@/lib/import/pptx/import-pptx");
  const { readPptx } = await import("@/lib/import/pptx/read-pptx");
  const { findDeckVersion } = await import("@/lib/viewer/viewable-deck");
  const { renderPdf } = await import("@/lib/exports/render-export");
  const { closeRenderBrowser } = await import("@/lib/render/browser");

  const modes: readonly string[] = importModes;
  const mode = values.mode ?? (modes.includes("faithful") ? "faithful" : "restyle");
  if (!modes.includes(mode)) throw new Error(`--mode ${mode}: this build imports in ${modes.join(", ")} mode only.`);

  const database = await openPglite(undefined);
  await migrateDatabase(database);
  adoptDatabase(database);
  const user = await createKeyForEmail(database.db, { email: `report-${randomUUID()}@example.test` });
  const ctx = { db: database.db, caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null } };

  const samples = fs
    .readdirSync(values.samples!)
    .filter((name) => name.endsWith(".pptx") && (!values.only || name.includes(values.only)))
    .sort();
  const rows: Row[] = [];
  try {
    for (const name of samples) {
      const file = path.join(values.samples!, name);
      const bytes = fs.readFileSync(file);
      const stem = path.basename(name, ".pptx");
      const started = performance.now();
      let deck: PptxDeck;
      let imported: Awaited<ReturnType<typeof importPptx>>;
      try {
        deck = readPptx(new Uint8Array(bytes));
        imported = await importPptx(ctx, {
          file: bytes,
          visibility: "private",
          mode: mode as (typeof importModes)[number],
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        rows.push({ sample: name, status: statusOf(error), error: error.message });
        process.stderr.write(`${name}: ${statusOf(error)} ${error.message}\n`);
        continue;
      }
      const seconds = (performance.now() - started) / 1000;
      const viewable = (await findDeckVersion(database.db, imported.id, 1))!;
      const before = originalText(deck, mode);
      const afterText = importedText(await sourceOf(database.db, imported.id));

      const originalPages = pdfPages(libreOfficePdf(file, work), path.join(work, `${stem}-original`), PAGE_WIDTH);
      const pdf = path.join(work, `${stem}-import.pdf`);
      fs.writeFileSync(pdf, (await renderPdf(viewable)).data);
      const importPages = pdfPages(pdf, path.join(work, `${stem}-import`), PAGE_WIDTH);
      const scores: number[] = [];
      const sheet: Array<{ original?: string; imported?: string; caption: string }> = [];
      for (let index = 0; index < Math.max(originalPages.length, importPages.length); index++) {
        const a = originalPages[index];
        const b = importPages[index];
        const score = a && b ? await ssim(a, b) : undefined;
        if (score !== undefined) scores.push(score);
        sheet.push({
          original: a,
          imported: b,
          caption: `slide ${index + 1}${score === undefined ? "" : `  ·  SSIM ${score.toFixed(2)}`}`,
        });
      }
      await contactSheet(path.join(out, `${stem}.png`), `${name} (${mode})`, sheet);
      const shown = deck.slides.filter((slide) => !slide.hidden).length;
      const text = recall(words(before.slides.join(" ")), words(afterText.slides.join(" ")));
      const notes = recall(words(before.notes.join(" ")), words(afterText.notes.join(" ")));
      rows.push({
        sample: name,
        status: 201,
        slides: `${shown} → ${imported.importReport.slides}`,
        textRecall: percent(text) ?? 1,
        notesRecall: percent(notes),
        missing: [...text.missing, ...notes.missing.map((word) => `notes: ${word}`)],
        tables: `${before.counts.tables} → ${afterText.counts.tables}`,
        charts: `${before.counts.charts} → ${afterText.counts.charts}`,
        pictures: `${before.counts.pictures} → ${afterText.counts.pictures}`,
        ssim: scores,
        warnings: imported.importReport.warnings.length,
        seconds,
      });
      process.stderr.write(`${name}: imported, ${scores.length} slides compared\n`);
    }
  } finally {
    await closeRenderBrowser();
    await database.close();
  }
  fs.writeFileSync(path.join(out, "report.json"), `${JSON.stringify({ mode, rows }, null, 2)}\n`);
  const markdown = table(mode, rows);
  fs.writeFileSync(path.join(out, "report.md"), markdown);
  process.stdout.write(markdown);
  const invalid = rows.filter((row) => row.status !== 201);
  if (invalid.some((row) => row.status !== 422)) process.exitCode = 1;
}

async function sourceOf(db: Db, deckId: string): Promise<string> {
  const [row] = await db
    .select({ source: deckVersions.source })
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deckId), eq(deckVersions.version, 1)));
  return row?.source ?? "";
}

function table(mode: string, rows: Row[]): string {
  const pct = (value: number | null | undefined) =>
    value === null || value === undefined ? "–" : `${Math.round(value * 100)}%`;
  const mean = (list: number[]) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : NaN);
  const lines = [
    `# PowerPoint import report (${mode} mode)`,
    "",
    "| sample | status | slides | text recall | notes recall | tables | charts | pictures | SSIM mean (min–max) | warnings | s |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of rows) {
    if (row.status !== 201) {
      lines.push(`| ${row.sample} | ${row.status}: ${row.error} | | | | | | | | | |`);
      continue;
    }
    const scores = row.ssim ?? [];
    const visual = scores.length
      ? `${mean(scores).toFixed(2)} (${Math.min(...scores).toFixed(2)}–${Math.max(...scores).toFixed(2)})`
      : "–";
    lines.push(
      `| ${row.sample} | ${row.status} | ${row.slides} | ${pct(row.textRecall)} | ${pct(row.notesRecall)} | ${row.tables} | ${row.charts} | ${row.pictures} | ${visual} | ${row.warnings} | ${row.seconds!.toFixed(1)} |`,
    );
  }
  const all = rows.flatMap((row) => row.ssim ?? []);
  lines.push("", `Per-slide SSIM over ${all.length} slides: mean ${mean(all).toFixed(2)}.`, "");
  return lines.join("\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
