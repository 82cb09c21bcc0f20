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
import { convertWithLibreOffice } from "../helpers/pptx-xml";
import { stableScreenshot } from "../helpers/screenshots";
import { fiveSlideDeck } from "../helpers/sample-decks";

// The exported PPTX opened by another program (LibreOffice Impress), each slide compared with the
// viewer's own screenshot of that slide. LibreOffice gets the deck's shipped fonts (decompressed from
// the player's woff2 files) through its own fontconfig, as a PowerPoint user would install them.

const tools = ["soffice", "pdftoppm", "woff2_decompress"];
const missing = tools.filter((tool) => {
  try {
    execFileSync("which", [tool], { stdio: "ignore" });
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0 && process.env.CI) {
  throw new Error(`CI must install ${missing.join(", ")} (apt-get install libreoffice-impress poppler-utils woff2)`);
}

// SSIM on 240x135 luminance. Measured on this deck: each slide against its own viewer screenshot scores
// 0.93-0.98 (LibreOffice lays text out itself: hinting and a pixel or two of baseline drift), while a
// slide against a different slide scores 0.48-0.88 (two sparse centred slides look alike). So every
// slide must reach 0.9, a margin of ~0.03 under the worst measured match, and must also look more like
// its own screenshot than like its neighbour's, which catches swapped or blank slides that sparse
// layouts would let pass an absolute threshold alone.
const MIN_SSIM = 0.9;

let server: AppServer;
let browser: Browser;
let user: TestUser;
let work: string;

beforeAll(async () => {
  if (missing.length > 0) return;
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-fidelity-"));
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

describe.skipIf(missing.length > 0)("PPTX fidelity in LibreOffice", () => {
  it("renders every slide close to the viewer's own screenshot", async () => {
    const deck = await createDeck(user, { title: "Fidelity" });
    await setContent(user, deck.id, { source: fiveSlideDeck });
    const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pptx" } });
    expect((await waitForExport(user, queued.body.id)).status).toBe("completed");
    const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: user.key })).headers.get(
      "location",
    )!;
    const pptx = path.join(work, "deck.pptx");
    fs.writeFileSync(pptx, Buffer.from(await (await fetch(location)).arrayBuffer()));

    const fontsConf = installFonts(work);
    convertWithLibreOffice(pptx, work, { ...process.env, FONTCONFIG_FILE: fontsConf });
    execFileSync("pdftoppm", [
      "-png",
      "-scale-to-x",
      "960",
      "-scale-to-y",
      "540",
      path.join(work, "deck.pdf"),
      path.join(work, "office"),
    ]);
    const office = fs
      .readdirSync(work)
      .filter((file) => /^office-\d+\.png$/.test(file))
      .sort()
      .map((file) => PNG.sync.read(fs.readFileSync(path.join(work, file))));
    expect(office).toHaveLength(5);

    const published = await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } });
    const viewer: PNG[] = [];
    for (let slide = 1; slide <= 5; slide++) {
      const page = await (await browser.newContext({ viewport: { width: 960, height: 540 } })).newPage();
      await openDeckFrame(page, `${server.origin}/d/${published.body.publicSlug}/embed?chrome=0&slide=${slide}`);
      viewer.push(PNG.sync.read(await stableScreenshot(page)));
      await page.context().close();
    }

    const scores = viewer.map((shot, i) => ssim(shot, office[i]!));
    const crossScores = viewer.map((shot, i) => ssim(shot, office[(i + 1) % 5]!));
    console.log(
      JSON.stringify({ ssim: scores.map((s) => s.toFixed(3)), mismatched: crossScores.map((s) => s.toFixed(3)) }),
    );
    scores.forEach((score, i) => {
      expect(score, `slide ${i + 1}`).toBeGreaterThanOrEqual(MIN_SSIM);
      expect(score, `slide ${i + 1} against a different slide`).toBeGreaterThan(crossScores[i]!);
    });
  }, 240_000);
});
