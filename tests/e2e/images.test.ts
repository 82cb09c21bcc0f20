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
import { attributeValues, convertWithLibreOffice, pictureProblems, readPptxXml, slideParts } from "../helpers/pptx-xml";

// Issue 17, "What must be shown": a deck with an uploaded PNG, an uploaded SVG carrying a script and an
// onload (which must not run or reach anything), and a remote image from a loopback fixture host (imported
// when the version is written, reachable through FETCH_ALLOW_HOSTS) — all three drawn by the public viewer
// in a real Chromium, in the PDF (pdfimages), and in the PPTX (ppt/media, alt text), which LibreOffice draws.
// A canary on another loopback port must receive nothing from the server or the browser. Two slides share a
// background photo (`<Slide image>`): in the PPTX it is the stored file, once, cropped to cover the slide as
// the viewer does, named after its slide, under the scrim, the text and the <Image> shown over it.

let server: AppServer;
let browser: Browser;
let host: ImageHost;
let owner: TestUser;
let deck: { id: string; slug: string };
const work = process.env.IMAGES_TEST_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-images-"));

const alts = { png: "An uploaded blue chart", svg: "An uploaded green badge", remote: "A remote orange photo" };
const backgrounds = ["Background image: Harbour at dawn", "Background image: Thank you"];
/** The stored files of the deck's images (the uploads and the imported photo), by path. */
let stored: Map<string, Buffer>;
let photoPath: string;

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
  // A 16:10 photo: covering a 16:9 slide crops it top and bottom.
  const photo = await call("POST", "/assets", {
    key: owner.key,
    rawBody: new Uint8Array(await solidJpeg(1600, 1000, "#7c3aed")),
    headers: { "content-type": "image/jpeg" },
  });
  expect(photo.status, JSON.stringify(photo.body)).toBe(201);
  photoPath = new URL(photo.body.url).pathname;

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
      <Slide label="Harbour at dawn" layout="center" image="${photo.body.url}">
        <Title>Harbour at dawn</Title>
      </Slide>
      <Slide label="Thank you" image="${photo.body.url}">
        <Title>Thank you</Title>
        <Image src="${svg.body.url}" alt="${alts.svg}" fit="contain" />
      </Slide>
    </Deck>
  );
}
`;
  deck = await publishDeck(owner, { source });
  const listed = await call("GET", "/assets", { key: owner.key });
  stored = new Map();
  for (const asset of listed.body as { url: string }[]) {
    const { pathname } = new URL(asset.url);
    stored.set(pathname, Buffer.from(await (await fetch(`${server.origin}${pathname}`)).arrayBuffer()));
  }
  expect(stored.size).toBe(4);
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
    // The background photo of slides 3 and 4 is an <img> of the asset path as well, decoded, decorative
    // (both drawn once the last slide is shown: the stage draws the slides near the one shown).
    await frame.evaluate(() => window.dispatchEvent(new KeyboardEvent("keydown", { key: "End" })));
    await expect
      .poll(() =>
        frame.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>(".dh-slide > img.dh-slide-image")].map((img) => ({
            alt: img.alt,
            natural: img.naturalWidth,
            src: new URL(img.currentSrc).pathname,
          })),
        ),
      )
      .toEqual([
        { alt: "", natural: 1600, src: photoPath },
        { alt: "", natural: 1600, src: photoPath },
      ]);
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
    expect(descriptions).toEqual(expect.arrayContaining([alts.png, alts.svg, alts.remote, ...backgrounds]));
    expect(descriptions.filter((text) => text === alts.png)).toHaveLength(2);
    expect(descriptions.some((text) => text === "img" || text === "svg" || text === "div")).toBe(false);
    // No picture without alt text, none stored twice, none larger than twice its box.
    expect(await pictureProblems(bytes)).toEqual([]);
    // Every media part is distinct, and each stored image is one of them, exactly once: the chart shown on
    // two slides and the photo behind two slides are one file each (the scrims are shapes, not pictures).
    const mediaBytes = await Promise.all(media.map((name) => zip.file(name)!.async("nodebuffer")));
    expect(new Set(mediaBytes.map((data) => data.toString("base64"))).size).toBe(media.length);
    for (const [assetPath, data] of stored) {
      expect(mediaBytes.filter((part) => part.equals(data)).length, assetPath).toBe(1);
    }

    // The background: the whole slide, the stored photo cropped top and bottom (cover), first on the slide,
    // then the scrim (a shape with a gradient fill, an alpha on each stop), then the title.
    const slides = slideParts(parts);
    for (const [index, alt] of [
      [2, backgrounds[0]!],
      [3, backgrounds[1]!],
    ] as const) {
      const slide = slides[index]!;
      const pictures = [...slide.getElementsByTagName("p:pic")];
      const picture = pictures.find((pic) => pic.getElementsByTagName("p:cNvPr")[0]?.getAttribute("descr") === alt);
      expect(picture, alt).toBeDefined();
      const offset = picture!.getElementsByTagName("a:off")[0]!;
      const extent = picture!.getElementsByTagName("a:ext")[0]!;
      expect([offset.getAttribute("x"), offset.getAttribute("y")]).toEqual(["0", "0"]);
      expect(Number(extent.getAttribute("cx"))).toBeCloseTo(12_192_000, -3);
      expect(Number(extent.getAttribute("cy"))).toBeCloseTo(6_858_000, -3);
      const crop = picture!.getElementsByTagName("a:srcRect")[0]!;
      // 1600x1000 shown at 1920x1200 and cut to 1080: 60 px off the top and the bottom, 5% each.
      expect(Number(crop.getAttribute("t"))).toBeCloseTo(5_000, -2);
      expect(Number(crop.getAttribute("b"))).toBeCloseTo(5_000, -2);
      expect(Number(crop.getAttribute("l") ?? 0)).toBe(0);
      // The picture is the stored photo itself.
      const rid = picture!.getElementsByTagName("a:blip")[0]!.getAttribute("r:embed");
      const rels = parts.get(`ppt/slides/_rels/slide${index + 1}.xml.rels`)!;
      const target = [...rels.getElementsByTagName("Relationship")]
        .find((rel) => rel.getAttribute("Id") === rid)
        ?.getAttribute("Target");
      expect(target).toMatch(/^\.\.\/media\//);
      const embedded = await zip.file(`ppt/${target!.slice("../".length)}`)!.async("nodebuffer");
      expect(embedded.equals(stored.get(photoPath)!)).toBe(true);
      // Paint order: the photo first, then the scrim over it, then the title over both.
      const drawn = [...slide.getElementsByTagName("p:spTree")[0]!.childNodes].filter(
        (node) => node.nodeName === "p:pic" || node.nodeName === "p:sp",
      );
      expect(drawn[0]).toBe(picture);
      expect(drawn[1]?.nodeName).toBe("p:sp");
      // drawn[1] is the slide's first shape.
      const scrim = slide.getElementsByTagName("p:sp")[0]!;
      const fill = scrim.getElementsByTagName("a:gradFill")[0];
      expect(fill, "the scrim's gradient fill").toBeDefined();
      const stops = [...fill!.getElementsByTagName("a:gs")];
      expect(stops.length).toBeGreaterThanOrEqual(2);
      for (const stop of stops) {
        const alpha = Number(stop.getElementsByTagName("a:alpha")[0]?.getAttribute("val"));
        expect(alpha).toBeGreaterThan(0);
        expect(alpha).toBeLessThan(100_000);
      }
      // The centred slide's scrim is radial, the content slide's linear.
      expect(fill!.getElementsByTagName(index === 2 ? "a:path" : "a:lin")).toHaveLength(1);
      const title = drawn.findIndex((node) =>
        (node.textContent ?? "").includes(alt.slice("Background image: ".length)),
      );
      expect(title).toBeGreaterThan(1);
      if (index === 3) {
        // The badge shown over the photo comes after the title, over everything else.
        const badge = pictures.find(
          (pic) => pic.getElementsByTagName("p:cNvPr")[0]?.getAttribute("descr") === alts.svg,
        );
        expect(badge).toBeDefined();
        expect(drawn.indexOf(badge!)).toBeGreaterThan(title);
      }
    }

    const converted = convertWithLibreOffice(file, work);
    execFileSync("pdftoppm", ["-png", "-r", "40", converted, path.join(work, "pptx")]);
    const images = execFileSync("pdfimages", ["-list", converted], { encoding: "utf8" });
    const rows = images
      .split("\n")
      .slice(2)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[2] === "image");
    expect(rows.length).toBeGreaterThanOrEqual(4);
    // LibreOffice draws the photo on slides 3 and 4 at its own size (it crops when drawing).
    expect(rows.filter((cols) => cols[3] === "1600" && cols[4] === "1000").map((cols) => cols[0])).toEqual(
      expect.arrayContaining(["3", "4"]),
    );
  }, 180_000);
});
