import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
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
import { parseEot } from "../helpers/eot";
import { waitForExport } from "../helpers/exports";
import { ssim } from "../helpers/image-similarity";
import { convertWithLibreOffice } from "../helpers/pptx-xml";
import { fiveSlideDeck } from "../helpers/sample-decks";
import { requireTools } from "../helpers/tools";
import { stableScreenshot } from "../helpers/screenshots";

// The fonts embedded in the PPTX, rendered on a machine that has none of the deck's fonts: LibreOffice Impress
// under a fontconfig of its own, checked to hold no shipped family. Two renders of the same file:
// - as it is: LibreOffice 7.4 (Debian 12's) does not import PPTX embedded fonts (that came in 25.8, with
//   libeot), so there it falls back; a LibreOffice that imports them draws the deck's fonts already;
// - with only the fonts the file carries added (each .fntdata part's EOT unwrapped by tests/helpers/eot.ts, and
//   by libeot's eot2ttf to the same bytes):
//   the text comes out in Inter and Source Serif 4, and each slide matches the viewer's own screenshot. The
//   fonts in the file are all the deck needs.

// eot2ttf is libeot's converter: the decoder LibreOffice's PPTX import runs on .fntdata parts.
requireTools(
  ["soffice", "pdftoppm", "pdffonts", "fc-list", "eot2ttf"],
  "libreoffice-impress poppler-utils fontconfig eot2ttf",
);

// SSIM on 240x135 luminance, as in pptx-fidelity.test.ts (which measured 0.75-0.99 for a slide against its own
// screenshot with the fonts installed, 0.44-0.81 against another slide).
const MIN_SSIM = 0.72;

let server: AppServer;
let browser: Browser;
let user: TestUser;
let work: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-pptx-fonts-"));
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A fontconfig of the system's fonts plus `extra` (a folder), with a cache of its own. */
function fontconfig(dir: string, extra?: string): NodeJS.ProcessEnv {
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, "fonts.conf");
  fs.writeFileSync(
    conf,
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>${extra ? `<dir>${extra}</dir>` : ""}<cachedir>${path.join(dir, "cache")}</cachedir></fontconfig>`,
  );
  return { ...process.env, FONTCONFIG_FILE: conf };
}

/** LibreOffice's PDF of the file, its slides as 960x540 PNGs and the fonts it used. */
function renderWithLibreOffice(pptx: Buffer, dir: string, env: NodeJS.ProcessEnv) {
  const file = path.join(dir, "deck.pptx");
  fs.writeFileSync(file, pptx);
  const pdf = convertWithLibreOffice(file, dir, env);
  execFileSync("pdftoppm", ["-png", "-scale-to-x", "960", "-scale-to-y", "540", pdf, path.join(dir, "slide")]);
  const slides = fs
    .readdirSync(dir)
    .filter((name) => /^slide-\d+\.png$/.test(name))
    .sort()
    .map((name) => PNG.sync.read(fs.readFileSync(path.join(dir, name))));
  const fonts = execFileSync("pdffonts", [pdf], { encoding: "utf8" })
    .split("\n")
    .slice(2)
    .map((line) => line.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ""))
    .filter(Boolean);
  return { slides, fonts };
}

describe("fonts embedded in the PPTX, on a machine without them", () => {
  it("carries every font the deck is drawn in: rendered from the file's own fonts, it matches the viewer", async () => {
    const deck = await createDeck(user, { title: "Embedded fonts" });
    await setContent(user, deck.id, { source: fiveSlideDeck });
    const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pptx" } });
    const done = await waitForExport(user, queued.body.id);
    expect(done.status).toBe("completed");
    expect(done.nonstandardFonts).toEqual([]);
    const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: user.key })).headers.get(
      "location",
    )!;
    const pptx = Buffer.from(await (await fetch(location)).arrayBuffer());

    // The machine: no shipped family installed.
    const bare = fontconfig(path.join(work, "bare"));
    const installed = execFileSync("fc-list", [":", "family"], { env: bare, encoding: "utf8" }).toLowerCase();
    for (const font of shippedFonts) expect(installed, font.family).not.toContain(font.family.toLowerCase());

    // The fonts the file carries, unwrapped from their EOT parts.
    const zip = await JSZip.loadAsync(pptx);
    const carried = path.join(work, "carried");
    fs.mkdirSync(carried);
    const families = new Set<string>();
    for (const name of Object.keys(zip.files).filter((part) => part.endsWith(".fntdata"))) {
      const part = path.join(work, path.basename(name));
      fs.writeFileSync(part, await zip.file(name)!.async("nodebuffer"));
      const eot = parseEot(fs.readFileSync(part));
      expect(eot.flags, name).toBe(0);
      families.add(eot.familyName);
      const ttf = path.join(carried, `${path.basename(name, ".fntdata")}.ttf`);
      fs.writeFileSync(ttf, eot.fontData);
      // libeot reads the part as the same TrueType font, byte for byte.
      execFileSync("eot2ttf", [part, `${ttf}.libeot`]);
      expect(fs.readFileSync(`${ttf}.libeot`).equals(eot.fontData), name).toBe(true);
      fs.rmSync(`${ttf}.libeot`);
    }
    expect([...families].sort()).toEqual(["Inter", "Source Serif 4"]);

    const asIs = renderWithLibreOffice(pptx, path.join(work, "bare"), bare);
    const withCarried = renderWithLibreOffice(
      pptx,
      path.join(work, "with"),
      fontconfig(path.join(work, "with"), carried),
    );
    expect(withCarried.fonts).toEqual(expect.arrayContaining(["Inter-Regular", "SourceSerif4-Regular"]));
    expect(withCarried.slides).toHaveLength(5);

    const viewer: PNG[] = [];
    const published = await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } });
    for (let slide = 1; slide <= 5; slide++) {
      const page = await (await browser.newContext({ viewport: { width: 960, height: 540 } })).newPage();
      await openDeckFrame(page, `${server.origin}/d/${published.body.publicSlug}/embed?chrome=0&slide=${slide}`);
      viewer.push(PNG.sync.read(await stableScreenshot(page)));
      await page.context().close();
    }
    const scores = (slides: PNG[]) => viewer.map((shot, i) => Number(ssim(shot, slides[i]!).toFixed(3)));
    const carriedScores = scores(withCarried.slides);
    const asIsScores = scores(asIs.slides);
    const importsEmbedded = asIs.fonts.includes("Inter-Regular");
    console.log(
      JSON.stringify({
        importsEmbedded,
        asIs: { fonts: asIs.fonts, ssim: asIsScores },
        withCarried: { fonts: withCarried.fonts, ssim: carriedScores },
      }),
    );
    carriedScores.forEach((score, i) => expect(score, `slide ${i + 1}`).toBeGreaterThanOrEqual(MIN_SSIM));
    // Where LibreOffice does not load them from the file it draws other fonts, and the slides drift from the viewer.
    if (!importsEmbedded) {
      expect(asIs.fonts.some((font) => /^(Inter|SourceSerif4)/.test(font))).toBe(false);
      expect(asIsScores.reduce((a, b) => a + b)).toBeLessThan(carriedScores.reduce((a, b) => a + b));
    }
  }, 300_000);
});
