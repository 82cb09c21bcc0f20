import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shippedFonts } from "@/lib/contract/fonts";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { ssim } from "../helpers/image-similarity";
import { waitForExport } from "../helpers/exports";
import JSZip from "jszip";
import sharp from "sharp";
import { attributeValues, convertWithLibreOffice, pictureProblems, readPptxXml, slideParts } from "../helpers/pptx-xml";
import { expectScreenshot, stableScreenshot } from "../helpers/screenshots";
import { requireTools } from "../helpers/tools";
import { chartTypesDeck, fiveSlideDeck, nativeTextDeck, showcaseDeck } from "../helpers/sample-decks";

// The exported PPTX opened by another program (LibreOffice Impress), each slide compared with the
// viewer's own screenshot of that slide. LibreOffice gets the deck's shipped fonts (decompressed from
// the player's woff2 files) through its own fontconfig, as a PowerPoint user would install them.

requireTools(["soffice", "pdftoppm", "woff2_decompress"], "libreoffice-impress poppler-utils woff2");

// SSIM on 240x135 luminance. Measured on these decks at the presenting type scale (body 48px): each slide
// against its own viewer screenshot scores 0.75-0.99 (LibreOffice lays text out itself: hinting, a pixel or
// two of baseline drift, and lines broken where it breaks them, where the viewer balances them; at 24 pt a
// re-wrapped word moves more pixels than it did at 16 pt), while a slide against a different slide scores
// 0.44-0.81 (two sparse centred slides look alike). So every slide must reach 0.72, under the worst measured
// match, and must also look more like its own screenshot than like its neighbour's, which catches swapped or
// blank slides that sparse layouts would let pass an absolute threshold alone.
const MIN_SSIM = 0.72;
// Every render of every slide, for a person to look at (FIDELITY_SHOTS: a folder of one's own, when several
// checkouts run this at once).
const SHOTS = process.env.FIDELITY_SHOTS ?? "/tmp/fidelity-shots";

let server: AppServer;
let browser: Browser;
let user: TestUser;
let work: string;
let fontsConf: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-fidelity-"));
  fontsConf = installFonts(work);
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

function installFonts(dir: string): string {
  const fontsDir = path.join(dir, "fonts");
  fs.mkdirSync(fontsDir, { recursive: true });
  const shipped = fs
    .readdirSync("public/player/fonts")
    .filter((file) => /-latin-\d+-(normal|italic)\.woff2$/.test(file));
  expect(shipped.length).toBeGreaterThanOrEqual(shippedFonts.length);
  for (const file of shipped) {
    fs.copyFileSync(path.join("public/player/fonts", file), path.join(fontsDir, file));
    execFileSync("woff2_decompress", [path.join(fontsDir, file)]);
    fs.rmSync(path.join(fontsDir, file));
  }
  const conf = path.join(dir, "fonts.conf");
  fs.writeFileSync(
    conf,
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>${fontsDir}</dir><cachedir>${path.join(dir, "cache")}</cachedir></fontconfig>`,
  );
  return conf;
}

async function download(exportId: string): Promise<Buffer> {
  const location = (await call("GET", `/exports/${exportId}/download`, { key: user.key })).headers.get("location")!;
  return Buffer.from(await (await fetch(location)).arrayBuffer());
}

// A PDF rasterised at the viewer's screenshot size, one PNG a page, in order.
function rasterise(pdf: string, prefix: string): PNG[] {
  execFileSync("pdftoppm", ["-png", "-scale-to-x", "960", "-scale-to-y", "540", pdf, path.join(work, prefix)]);
  return fs
    .readdirSync(work)
    .filter((file) => new RegExp(`^${prefix}-\\d+\\.png$`).test(file))
    .sort()
    .map((file) => PNG.sync.read(fs.readFileSync(path.join(work, file))));
}

/** The deck as the viewer, the PDF export and LibreOffice (from the PPTX export) draw it, slide by slide. */
async function renderThreeWays(name: string, source: string, slides: number) {
  const { viewer, pdf, office } = await renderThreeWaysWithFile(name, source, slides);
  return { viewer, pdf, office };
}

async function renderThreeWaysWithFile(name: string, source: string, slides: number) {
  const deck = await createDeck(user, { title: name });
  await setContent(user, deck.id, { source });
  const queue = (format: "pdf" | "pptx") =>
    call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format } });
  const [pdfQueued, pptxQueued] = [await queue("pdf"), await queue("pptx")];
  for (const queued of [pdfQueued, pptxQueued]) {
    expect((await waitForExport(user, queued.body.id, 180_000)).status).toBe("completed");
  }
  const exported = path.join(work, `${name}-export.pdf`);
  fs.writeFileSync(exported, await download(pdfQueued.body.id));
  const pptx = path.join(work, `${name}.pptx`);
  fs.writeFileSync(pptx, await download(pptxQueued.body.id));
  const converted = convertWithLibreOffice(pptx, work, { ...process.env, FONTCONFIG_FILE: fontsConf });
  const pdf = rasterise(exported, `${name}-pdf`);
  const office = rasterise(converted, `${name}-office`);
  expect(pdf).toHaveLength(slides);
  expect(office).toHaveLength(slides);

  const published = await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } });
  const viewer: PNG[] = [];
  for (let slide = 1; slide <= slides; slide++) {
    const page = await (await browser.newContext({ viewport: { width: 960, height: 540 } })).newPage();
    await openDeckFrame(page, `${server.origin}/d/${published.body.publicSlug}/embed?chrome=0&slide=${slide}`);
    viewer.push(PNG.sync.read(await stableScreenshot(page)));
    await page.context().close();
  }
  fs.mkdirSync(SHOTS, { recursive: true });
  viewer.forEach((png, i) => {
    for (const [kind, image] of [
      ["viewer", png],
      ["pdf", pdf[i]!],
      ["office", office[i]!],
    ] as const) {
      fs.writeFileSync(path.join(SHOTS, `${name}-${i + 1}-${kind}.png`), PNG.sync.write(image));
    }
  });
  fs.copyFileSync(pptx, path.join(SHOTS, `${name}.pptx`));
  return { viewer, pdf, office, pptx: fs.readFileSync(pptx) };
}

// A bright 4K "photo" (sky, sun, hills): the largest image the asset store keeps.
async function brightPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3840" height="2160">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#bfe3ff"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
<rect width="3840" height="2160" fill="url(#sky)"/><circle cx="2900" cy="620" r="300" fill="#ffd84a"/>
<path d="M0 1500 Q 900 1150 1800 1500 T 3840 1450 V 2160 H 0 Z" fill="#9fd99b"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

// Each slide of LibreOffice's render against the viewer's screenshot of it, and of its neighbour.
function expectOfficeMatches(viewer: PNG[], office: PNG[]) {
  const scores = viewer.map((shot, i) => ssim(shot, office[i]!));
  const crossScores = viewer.map((shot, i) => ssim(shot, office[(i + 1) % office.length]!));
  console.log(
    JSON.stringify({ ssim: scores.map((s) => s.toFixed(3)), mismatched: crossScores.map((s) => s.toFixed(3)) }),
  );
  scores.forEach((score, i) => {
    expect(score, `slide ${i + 1}`).toBeGreaterThanOrEqual(MIN_SSIM);
    expect(score, `slide ${i + 1} against a different slide`).toBeGreaterThan(crossScores[i]!);
  });
}

describe("PPTX fidelity in LibreOffice", () => {
  it("renders every slide close to the viewer's own screenshot", async () => {
    const { viewer, office } = await renderThreeWays("five", fiveSlideDeck, 5);
    expectOfficeMatches(viewer, office);
  }, 240_000);

  // The components the layout work added (Timeline, Steps, multi-series charts, Diagram) and a balanced
  // content slide: the viewer and the PDF against committed screenshots (a layout change shows up as a
  // failed comparison, to be looked at and re-committed), LibreOffice against the viewer.
  it("draws the new components and a balanced slide the same in the viewer, the PDF and LibreOffice", async () => {
    const labels = ["balanced", "timeline", "steps", "vertical", "grouped", "stacked", "lines", "single", "diagram"];
    const { viewer, pdf, office } = await renderThreeWays("showcase", showcaseDeck, labels.length);
    labels.forEach((label, i) => {
      expectScreenshot(PNG.sync.write(viewer[i]!), `showcase-${i + 1}-${label}`);
      expectScreenshot(PNG.sync.write(pdf[i]!), `showcase-${i + 1}-${label}-pdf`);
    });
    expectOfficeMatches(viewer, office);
  }, 360_000);

  // Native charts of the other types (a doughnut, one line, bars below zero) drawn by LibreOffice.
  it("draws a pie, a line and negative bars as native charts close to the viewer", async () => {
    const { viewer, office } = await renderThreeWays("charts", chartTypesDeck, 3);
    expectOfficeMatches(viewer, office);
  }, 240_000);

  // What the PPTX writes as native text (issue 18): a Python code block with a highlighted line, Bullets
  // with each marker as PowerPoint bullets or numbering, Steps badges, letter-spaced eyebrows, emoji and
  // a long single-line title, each slide against the viewer's screenshot.
  // Pictures (issue 18): a 4K background photo under its scrim (a content slide, a full-bleed one with
  // white text, a centred one), line icons, and the same photo as an <Image> in a column. The scrims are
  // shapes with gradient fills, the icons SVG pictures with PNG fallbacks, the photo one media part.
  it("draws background images under native scrims, SVG icons and a scaled-down photo close to the viewer", async () => {
    const upload = await call("POST", "/assets", {
      key: user.key,
      rawBody: new Uint8Array(await brightPhoto()),
      headers: { "content-type": "image/jpeg" },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const photo = upload.body.url as string;
    const source = `import { Deck, Slide, Heading, Title, Text, Columns, Stack, Icon, Image } from "@deckhand/player";

export default function Pictures() {
  return (
    <Deck title="Pictures">
      <Slide label="Harbour" image="${photo}">
        <Heading>Why teams pick Deckhand</Heading>
        <Columns>
          <Stack><Icon name="check" size="xl" /><Text>Fast to write</Text></Stack>
          <Stack><Icon name="trending-up" size="xl" tone="accent" /><Text>Grows with you</Text></Stack>
          <Stack><Icon name="info" size="xl" tone="secondary" /><Text>Clear by default</Text></Stack>
        </Columns>
      </Slide>
      <Slide label="Full bleed" layout="full-bleed" background="primary" image="${photo}">
        <Heading>White text on a bright photo</Heading>
        <Text>The scrim stays strong where the text is.</Text>
      </Slide>
      <Slide label="Centre" layout="center" image="${photo}">
        <Title>Thank you</Title>
        <Icon name="arrow-right" size="lg" />
      </Slide>
      <Slide label="Photo">
        <Heading>The photo in a column</Heading>
        <Columns>
          <Text>The same 4K file, shown small: the PPTX holds it at twice the size it is drawn.</Text>
          <Image src="${photo}" alt="Sky, sun and hills" fit="cover" />
        </Columns>
      </Slide>
    </Deck>
  );
}
`;
    const { viewer, office, pptx } = await renderThreeWaysWithFile("pictures", source, 4);
    // The XML: no picture without alt text, none stored twice, none over twice its box.
    expect(await pictureProblems(pptx)).toEqual([]);
    const parts = await readPptxXml(pptx);
    const slides = slideParts(parts);
    for (const index of [0, 1, 2]) {
      const fill = slides[index]!.getElementsByTagName("a:gradFill")[0];
      expect(fill, `slide ${index + 1}: the scrim`).toBeDefined();
      const alphas = attributeValues(fill as never, "a:alpha", "val").map(Number);
      expect(alphas.length).toBeGreaterThanOrEqual(2);
      for (const alpha of alphas) expect(alpha).toBeLessThan(100_000);
      expect(attributeValues(slides[index]!, "p:cNvPr", "descr")).not.toContain("Scrim over the background image");
    }
    const descriptions = slides.flatMap((slide) => attributeValues(slide, "p:cNvPr", "descr"));
    expect(descriptions).toEqual(
      expect.arrayContaining([
        "Icon: check",
        "Icon: trending-up",
        "Icon: info",
        "Icon: arrow-right",
        "Background image: Harbour",
        "Sky, sun and hills",
      ]),
    );
    // Icons: an SVG (asvg:svgBlip) with the PNG fallback as the blip itself.
    const icons = [...slides[0]!.getElementsByTagName("p:pic")].filter((pic) =>
      pic.getElementsByTagName("p:cNvPr")[0]?.getAttribute("descr")?.startsWith("Icon: "),
    );
    expect(icons).toHaveLength(3);
    const rels = [...parts.get("ppt/slides/_rels/slide1.xml.rels")!.getElementsByTagName("Relationship")];
    const target = (id: string | null | undefined) =>
      rels.find((rel) => rel.getAttribute("Id") === id)?.getAttribute("Target");
    for (const icon of icons) {
      expect(target(icon.getElementsByTagName("a:blip")[0]!.getAttribute("r:embed"))).toMatch(/\.png$/);
      expect(target(icon.getElementsByTagName("asvg:svgBlip")[0]?.getAttribute("r:embed"))).toMatch(/\.svg$/);
    }
    // The photo: stored once at 3840x2160 (the backgrounds) and once scaled down (the column).
    const zip = await JSZip.loadAsync(pptx);
    const jpegs = Object.keys(zip.files).filter((name) => /^ppt\/media\/.*\.(jpe?g)$/.test(name));
    const sizes = await Promise.all(
      jpegs.map(async (name) => {
        const { width, height } = await sharp(await zip.file(name)!.async("nodebuffer")).metadata();
        return `${width}x${height}`;
      }),
    );
    expect(sizes).toContain("3840x2160");
    expect(sizes).toHaveLength(2);
    console.log(JSON.stringify({ pptxBytes: pptx.length, photos: sizes }));
    expectOfficeMatches(viewer, office);
  }, 300_000);

  it("draws code, native bullets, badges and single-line eyebrows close to the viewer", async () => {
    const { viewer, office } = await renderThreeWays("native-text", nativeTextDeck, 4);
    expectOfficeMatches(viewer, office);
  }, 240_000);
});
