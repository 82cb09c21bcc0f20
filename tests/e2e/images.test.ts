import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { PNG } from "pngjs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame, requestsInFlight } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { publishDeck } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { hostileSvg, type ImageHost, serveImageHost, solidJpeg, solidPng } from "../helpers/image-fixtures";
import { attributeValues, convertWithLibreOffice, readPptxXml } from "../helpers/pptx-xml";

// Issue 17, "What must be shown": a deck with an uploaded PNG, an uploaded SVG carrying a script and an
// onload (which must not run or reach anything), and a remote image from a loopback fixture host (imported
// when the version is written, reachable through FETCH_ALLOW_HOSTS) — all three drawn by the public viewer
// in a real Chromium, in the PDF (pdfimages), and in the PPTX (ppt/media, alt text), which LibreOffice draws.
// A canary on another loopback port must receive nothing from the server or the browser.

let server: AppServer;
let browser: Browser;
let host: ImageHost;
let owner: TestUser;
let deck: { id: string; slug: string };
const work = process.env.IMAGES_TEST_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-images-"));

const alts = { png: "An uploaded blue chart", svg: "An uploaded green badge", remote: "A remote orange photo" };

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  process.env.FETCH_ALLOW_HOSTS = "localhost";
  host = await serveImageHost({ "/photo.jpg": { body: await solidJpeg(900, 600, "#f97316"), type: "image/jpeg" } });
  browser = await launchBrowser();
  owner = await createUser();

  const png = await call("POST", "/assets", {
    key: owner.key,
    rawBody: new Uint8Array(await solidPng(1200, 800, "#2563eb")),
    headers: { "content-type": "image/png" },
  });
  expect(png.status, JSON.stringify(png.body)).toBe(201);
  const form = new FormData();
  form.append(
    "file",
    new Blob([new Uint8Array(hostileSvg(host.canaryOrigin))], { type: "image/svg+xml" }),
    "badge.svg",
  );
  const svg = await call("POST", "/assets", { key: owner.key, rawBody: form });
  expect(svg.status, JSON.stringify(svg.body)).toBe(201);

  const source = `import { Deck, Slide, Title, Columns, Image } from "@deckhand/player";

export default function Pictures() {
  return (
    <Deck>
      <Slide label="Three images">
        <Title>Three images</Title>
        <Columns>
          <Image src="${png.body.url}" alt="${alts.png}" fit="contain" />
          <Image src="${svg.body.url}" alt="${alts.svg}" fit="contain" />
          <Image src="${host.origin}/photo.jpg" alt="${alts.remote}" fit="contain" />
        </Columns>
      </Slide>
      <Slide label="Again">
        <Title>The chart again</Title>
        <Image src="${png.body.url}" alt="${alts.png}" fit="contain" />
      </Slide>
    </Deck>
  );
}
`;
  deck = await publishDeck(owner, { source });
}, 120_000);

afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await host?.close();
  await server?.close();
});

async function exportFile(format: "pdf" | "pptx"): Promise<string> {
  const res = await call("POST", `/decks/${deck.id}/exports`, { key: owner.key, body: { format } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const done = await waitForExport(owner, res.body.id);
  expect(done.status, JSON.stringify(done)).toBe("completed");
  const location = (await call("GET", `/exports/${res.body.id}/download`, { key: owner.key })).headers.get("location")!;
  const file = path.join(work, `deck.${format}`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(location)).arrayBuffer()));
  return file;
}

describe("images in a public deck", () => {
  it("shows the uploaded PNG, the sanitised SVG and the imported remote image from the asset path", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const requests: string[] = [];
    context.on("request", (request) => requests.push(request.url()));
    const inFlight = requestsInFlight(context);
    const page = await context.newPage();
    const frame = await openDeckFrame(page, `${server.origin}/d/${deck.slug}/embed?chrome=0&slide=1`);
    await expect
      .poll(() =>
        frame.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.dh-slide[data-slide="1"] img.dh-image-img')].map((img) => ({
            alt: img.alt,
            natural: img.naturalWidth,
            src: new URL(img.currentSrc).pathname,
          })),
        ),
      )
      .toEqual([
        { alt: alts.png, natural: 1200, src: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\.png$/) },
        { alt: alts.svg, natural: 2048, src: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\.png$/) },
        { alt: alts.remote, natural: 900, src: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\.jpg$/) },
      ]);
    // Drawn, not only loaded: the middle of each picture on the screen has the image's colours (the SVG's
    // yellow circle, the dark squares of the others).
    const centres = await frame.evaluate(() =>
      [...document.querySelectorAll<HTMLImageElement>('.dh-slide[data-slide="1"] img.dh-image-img')].map((img) => {
        const box = img.getBoundingClientRect();
        return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
      }),
    );
    // Within a few levels of the expected colour per channel (the photo is a JPEG).
    const expected = [
      [0x1f, 0x29, 0x37],
      [0xfa, 0xcc, 0x15],
      [0x1f, 0x29, 0x37],
    ];
    await expect
      .poll(async () => {
        const shot = PNG.sync.read(await page.screenshot());
        return centres.map(({ x, y }, index) => {
          const offset = (y * shot.width + x) * 4;
          return [0, 1, 2].every((channel) => Math.abs(shot.data[offset + channel]! - expected[index]![channel]!) <= 6);
        });
      })
      .toEqual([true, true, true]);
    fs.writeFileSync(path.join(work, "viewer-1.png"), await page.screenshot());
    await expect.poll(() => inFlight.size).toBe(0);
    // The browser asked neither the image host nor the canary for anything: images come from the app.
    expect(requests.filter((url) => url.startsWith(host.origin) || url.startsWith(host.canaryOrigin))).toEqual([]);
    expect(host.canaryRequests).toEqual([]);
    await context.close();
  }, 60_000);

  it("shows them in the share link's og.png", async () => {
    const res = await fetch(`${server.origin}/d/${deck.slug}/og.png`);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    fs.writeFileSync(path.join(work, "og.png"), bytes);
    const og = PNG.sync.read(bytes);
    // The SVG's yellow circle, the PNG's blue and the photo's orange are all in the picture.
    const colours = new Set<string>();
    for (let offset = 0; offset < og.data.length; offset += 4) {
      const [r, g, b] = [og.data[offset]!, og.data[offset + 1]!, og.data[offset + 2]!];
      if (Math.abs(r - 0xfa) < 8 && Math.abs(g - 0xcc) < 8 && Math.abs(b - 0x15) < 8) colours.add("yellow");
      if (Math.abs(r - 0x25) < 8 && Math.abs(g - 0x63) < 8 && Math.abs(b - 0xeb) < 8) colours.add("blue");
      if (Math.abs(r - 0xf9) < 10 && Math.abs(g - 0x73) < 10 && Math.abs(b - 0x16) < 10) colours.add("orange");
    }
    expect([...colours].sort()).toEqual(["blue", "orange", "yellow"]);
  }, 60_000);

  it("embeds the images in the PDF at print resolution", async () => {
    const pdf = await exportFile("pdf");
    const list = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" });
    const rows = list
      .split("\n")
      .slice(2)
      .filter((line) => line.trim() !== "")
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[2] === "image");
    const sizes = rows.map((cols) => `${cols[3]}x${cols[4]}`);
    expect(sizes).toEqual(expect.arrayContaining(["1200x800", "2048x1024", "900x600"]));
    execFileSync("pdftoppm", ["-png", "-r", "40", "-f", "1", "-l", "1", pdf, path.join(work, "pdf")]);
    expect(host.canaryRequests).toEqual([]);
  }, 120_000);

  it("places each image in the PPTX as a picture with its alt text, a reused one once, and LibreOffice draws them", async () => {
    const file = await exportFile("pptx");
    const bytes = fs.readFileSync(file);
    const zip = await JSZip.loadAsync(bytes);
    const media = Object.keys(zip.files).filter((name) => name.startsWith("ppt/media/") && !zip.files[name]!.dir);
    const parts = await readPptxXml(bytes);
    const descriptions = [...parts]
      .filter(([name]) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
      .flatMap(([, xml]) => attributeValues(xml, "p:cNvPr", "descr"));
    expect(descriptions).toEqual(expect.arrayContaining([alts.png, alts.svg, alts.remote]));
    expect(descriptions.filter((text) => text === alts.png)).toHaveLength(2);
    expect(descriptions.some((text) => text === "img" || text === "svg" || text === "div")).toBe(false);
    // Three distinct images; the chart shown on both slides is one file.
    const hashes = new Set(
      await Promise.all(media.map(async (name) => (await zip.file(name)!.async("nodebuffer")).toString("base64"))),
    );
    expect(hashes.size).toBe(media.length);
    expect(media.length).toBe(3);
    const converted = convertWithLibreOffice(file, work);
    execFileSync("pdftoppm", ["-png", "-r", "40", "-f", "1", "-l", "1", converted, path.join(work, "pptx")]);
    const images = execFileSync("pdfimages", ["-list", converted], { encoding: "utf8" });
    expect(images.split("\n").filter((line) => /\bimage\b/.test(line)).length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
