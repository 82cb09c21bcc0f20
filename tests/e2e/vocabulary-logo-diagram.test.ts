import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrandBook, brandBookSchema } from "@/lib/brands/brand-book";
import { getDb } from "@/lib/db/client";
import { brands } from "@/lib/db/schema/brands";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { getFileStore } from "@/lib/storage/storage";
import { playerAssets } from "@/lib/viewer/assets";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, publishDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { attributeValues, convertWithLibreOffice, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";
import { stableScreenshot } from "../helpers/screenshots";

// <Logo> and <Diagram> in Chromium: the brand logo served from the deck's own origin under the frame's
// CSP (share link, embed, editor preview, exports), nothing at all without a brand; Mermaid diagrams
// drawn from a chunk only decks with a diagram load, in the brand's colours, inside the canvas; a
// syntax error shown on its slide without failing exports. Screenshots go to /tmp/logo-diagram-shots.

const SHOTS = "/tmp/logo-diagram-shots";

// A stored SVG logo as a website may serve it, script included: drawn as an image it never runs, and
// opened directly its route's CSP sandboxes it.
const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="96" viewBox="0 0 360 96">
  <script>document.documentElement.setAttribute("data-ran", "yes")</script>
  <circle cx="48" cy="48" r="40" fill="#0e7490"/>
  <path d="M31 67V29h9l18 23V29h9v38h-9L40 44v23z" fill="#ffffff"/>
  <rect x="104" y="26" width="236" height="14" rx="7" fill="#0f172a"/>
  <rect x="104" y="56" width="160" height="14" rx="7" fill="#0e7490"/>
</svg>`;

const tokensCss = `:root {
  --color-bg: #f8fafc;
  --color-surface: #eef2f6;
  --color-text: #0f172a;
  --color-muted: #475569;
  --color-border: #cbd5e1;
  --color-primary: #0e7490;
  --color-on-primary: #ffffff;
  --color-secondary: #7c3aed;
  --color-accent: #b45309;
  --color-on-accent: #ffffff;
}`;

const flowLabels = ["Sign up", "First deck", "Shared?", "Team plan", "Reminder"];

const brandedDeck = `import { Deck, Slide, Title, Heading, Text, Logo, Diagram, Columns, Box } from "@deckhand/player";

const flow = \`flowchart LR
  A[${flowLabels[0]}] --> B[${flowLabels[1]}]
  B --> C{${flowLabels[2]}}
  C -- yes --> D[${flowLabels[3]}]
  C -- no --> E[${flowLabels[4]}]\`;

export default function Branded() {
  return (
    <Deck title="Branded">
      <Slide label="Cover" layout="center" background="primary">
        <Logo size="lg" />
        <Title subtitle="A logo and two diagrams" align="center">Northwind onboarding</Title>
      </Slide>
      <Slide label="Flow">
        <Logo placement="top-right" />
        <Heading>A team activates in four steps</Heading>
        <Diagram title="Activation">{flow}</Diagram>
      </Slide>
      <Slide label="Sequence">
        <Heading>Every save is a version</Heading>
        <Columns ratio="2:1" gap="xl" align="center">
          <Diagram alt="The editor saves a version through the API" code={\`sequenceDiagram
  participant Editor
  participant API
  Editor->>API: Save version
  API-->>Editor: Version 7\`} />
          <Text>The API numbers versions in one transaction.</Text>
        </Columns>
      </Slide>
      <Slide label="Broken">
        <Heading>A diagram that does not parse</Heading>
        <Diagram code="flowchart LR; A -->" />
      </Slide>
      <Slide label="Inline">
        <Heading>Logos inline, original and mono</Heading>
        <Columns gap="xl">
          <Box tone="surface" padding="lg"><Logo tone="original" /><Text>On a quiet card</Text></Box>
          <Box tone="primary" padding="lg"><Logo tone="mono" /><Text>In the text colour</Text></Box>
        </Columns>
      </Slide>
    </Deck>
  );
}
`;

const plainDeck = `import { Deck, Slide, Title, Logo } from "@deckhand/player";

export default function Plain() {
  return (
    <Deck title="Plain">
      <Slide label="Cover" layout="center">
        <Logo size="lg" />
        <Title>No brand, no logo</Title>
      </Slide>
    </Deck>
  );
}
`;

function brandBook(storedKey: string): BrandBook {
  const role = (hex: string) => ({ hex, source: "test", confidence: 1 });
  const font = { family: "Inter", category: "sans-serif" as const, weights: [400, 600], source: "test", confidence: 1 };
  return brandBookSchema.parse({
    schemaVersion: 1,
    name: "Northwind",
    sourceUrl: "https://northwind.example/",
    palette: {
      roles: {
        primary: role("#0e7490"),
        secondary: role("#7c3aed"),
        accent: role("#b45309"),
        background: role("#f8fafc"),
        surface: role("#eef2f6"),
        text: role("#0f172a"),
        muted: role("#475569"),
      },
      colors: [{ hex: "#0e7490", weight: 1, usage: ["buttons"] }],
      contrast: {
        textOnBackground: 17,
        textOnSurface: 15,
        onPrimary: { hex: "#ffffff", ratio: 5.4 },
        onAccent: { hex: "#ffffff", ratio: 5 },
      },
      confidence: 1,
    },
    typography: { heading: font, body: font, mono: null, scale: { basePx: 16, ratio: 1.25 }, fontSources: [] },
    logo: {
      kind: "svg",
      source: "inline-svg",
      sourceUrl: null,
      storedKey,
      contentType: "image/svg+xml",
      width: 360,
      height: 96,
      confidence: 0.85,
    },
    voice: {
      tone: ["plain"],
      readingLevel: { grade: 8, label: "plain" },
      samplePhrases: [],
      guidelines: [],
      confidence: 1,
    },
    imagery: { style: "minimal", shapes: "rounded", cornerRadiusPx: 12, guidelines: [], confidence: 1 },
    tokensCss,
    sources: { pages: ["https://northwind.example/"], stylesheets: [], fetchedAt: new Date().toISOString() },
    extraction: { model: null, durationMs: 1 },
  });
}

let server: AppServer;
let browser: Browser;
let author: TestUser;
let branded: { id: string; slug: string };
let plain: { id: string; slug: string };
// Branded decks whose logo cannot be shown: the brand has none, or its stored file is gone.
let noLogo: { id: string; slug: string };
let lostLogo: { id: string; slug: string };

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  fs.rmSync(SHOTS, { recursive: true, force: true });
  fs.mkdirSync(SHOTS, { recursive: true });

  // A brand as create_brand_from_url leaves it: the logo in the file store, the book naming it.
  const key = `brands/${author.organizationId}/${randomUUID()}.svg`;
  const storedKey = await getFileStore().put(key, Buffer.from(logoSvg), "image/svg+xml");
  const [brand] = await (
    await getDb()
  )
    .insert(brands)
    .values({
      organizationId: author.organizationId,
      createdBy: author.userId,
      name: "Northwind",
      sourceUrl: "https://northwind.example/",
      data: brandBook(storedKey),
    })
    .returning();
  const deck = await createDeck(author, { title: "Branded", brandId: brand!.id });
  const saved = await setContent(author, deck.id, { source: brandedDeck, tokensCss });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const shared = await call("PATCH", `/decks/${deck.id}`, { key: author.key, body: { visibility: "public" } });
  expect(shared.status).toBe(200);
  branded = { id: deck.id, slug: shared.body.publicSlug };
  plain = await publishDeck(author, { source: plainDeck });

  const brandedWith = async (logo: BrandBook["logo"]) => {
    const [row] = await (
      await getDb()
    )
      .insert(brands)
      .values({
        organizationId: author.organizationId,
        createdBy: author.userId,
        name: "Other brand",
        sourceUrl: "https://other.example/",
        data: { ...brandBook(storedKey), logo },
      })
      .returning();
    const created = await createDeck(author, { title: "Other", brandId: row!.id });
    expect((await setContent(author, created.id, { source: plainDeck })).status).toBe(200);
    const opened = await call("PATCH", `/decks/${created.id}`, { key: author.key, body: { visibility: "public" } });
    return { id: created.id, slug: opened.body.publicSlug as string };
  };
  noLogo = await brandedWith(null);
  lostLogo = await brandedWith({
    ...brandBook(storedKey).logo!,
    storedKey: `brands/${author.organizationId}/gone.svg`,
  });
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

type Opened = { page: Page; frame: Frame; requests: string[] };

// A frame document in a 1280x720 page, every request the page makes recorded, the slide shown.
async function openFrame(url: string, slide: number, shot: string): Promise<Opened> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  // In every frame: what the diagrams were doing at the moment the player said it was ready.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.documentElement.dataset.ready !== "true") return;
      (window as unknown as { __diagramsAtReady?: string[] }).__diagramsAtReady ??= [
        ...document.querySelectorAll(".dh-diagram"),
      ].map((figure) => figure.getAttribute("data-state") ?? "");
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  });
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const frame = await openDeckFrame(page, url);
  await expect
    .poll(() => frame.locator(`.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${slide}"]`).count())
    .toBe(1);
  fs.writeFileSync(path.join(SHOTS, `${shot}.png`), await stableScreenshot(page));
  return { page, frame, requests };
}

const openSlide = (slug: string, slide: number, shot: string) =>
  openFrame(`${server.origin}/d/${slug}/embed?chrome=0&slide=${slide}`, slide, shot);

type SlideReport = {
  overflow: boolean;
  outside: string[];
  errors: string[];
  logos: { width: number; height: number; natural: number; complete: boolean; alt: string; x: number; y: number }[];
  diagrams: { state: string; texts: string[]; box: { x: number; y: number; w: number; h: number } | null }[];
  diagramErrors: string[];
  ready: boolean;
};

// What slide `n` shows, in canvas pixels.
function report(frame: Frame, n: number): Promise<SlideReport> {
  return frame.evaluate((index) => {
    const section = document.querySelector<HTMLElement>(
      `.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${index}"]`,
    )!;
    const origin = section.getBoundingClientRect();
    const scale = origin.width / section.offsetWidth;
    const box = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return {
        x: (rect.left - origin.left) / scale,
        y: (rect.top - origin.top) / scale,
        w: rect.width / scale,
        h: rect.height / scale,
      };
    };
    const outside: string[] = [];
    for (const element of section.querySelectorAll("*")) {
      const b = box(element);
      if (b.w === 0 && b.h === 0) continue;
      if (b.x < -1 || b.y < -1 || b.x + b.w > 1921 || b.y + b.h > 1081) outside.push(element.tagName.toLowerCase());
    }
    return {
      overflow: section.hasAttribute("data-dh-overflow") || section.querySelector("[data-dh-overflow]") !== null,
      outside: [...new Set(outside)],
      errors: window.__deckhand?.errors ?? [],
      logos: [...section.querySelectorAll<HTMLImageElement>(".dh-logo-img")].map((image) => {
        const b = box(image);
        return {
          width: b.w,
          height: b.h,
          natural: image.naturalWidth,
          complete: image.complete,
          alt: image.alt,
          x: b.x,
          y: b.y,
        };
      }),
      diagrams: [...section.querySelectorAll(".dh-diagram")].map((figure) => {
        const svg = figure.querySelector("svg");
        return {
          state: figure.getAttribute("data-state") ?? "",
          texts: svg ? [...svg.querySelectorAll("text")].map((text) => (text.textContent ?? "").trim()) : [],
          box: svg ? box(svg) : null,
        };
      }),
      diagramErrors: [...section.querySelectorAll(".dh-diagram-error")].map((error) => error.textContent ?? ""),
      ready: document.documentElement.dataset.ready === "true",
    };
  }, n);
}

const isDiagramChunk = (url: string) => /\/player\/diagram(-[A-Z0-9]+\.js|\/)/.test(url);

async function download(exportId: string): Promise<Buffer> {
  const location = (await call("GET", `/exports/${exportId}/download`, { key: author.key })).headers.get("location")!;
  return Buffer.from(await (await fetch(location)).arrayBuffer());
}

describe("Logo", () => {
  it("shows the brand's logo on a share link, loaded from the deck's own origin", async () => {
    const { page, frame, requests } = await openSlide(branded.slug, 1, "1-cover-logo");
    const result = await report(frame, 1);
    expect(result.errors).toEqual([]);
    expect(result.logos).toHaveLength(1);
    const [logo] = result.logos;
    expect(logo!.complete).toBe(true);
    expect(logo!.natural).toBeGreaterThan(0);
    expect(logo!.alt).toBe("Northwind");
    // "lg": four times the base size tall, the width following the logo's 360:96 shape.
    expect(logo!.height).toBeCloseTo(128, 0);
    expect(logo!.width).toBeCloseTo(128 * (360 / 96), 0);
    expect(requests).toContain(`${server.origin}/d/${branded.slug}/logo`);
    // On the primary cover ("auto"): on a plate of the page colour.
    const plate = await frame.evaluate(() => getComputedStyle(document.querySelector(".dh-logo")!).backgroundColor);
    expect(plate).toBe("rgb(248, 250, 252)");
    // No diagram on this slide, but the deck has some: the renderer is loaded for the deck.
    await expect.poll(() => requests.some(isDiagramChunk)).toBe(true);
    await page.context().close();
  }, 60_000);

  it("pins a corner logo in the slide's padding without moving the content", async () => {
    const { page, frame } = await openSlide(branded.slug, 2, "2-flow-diagram");
    const result = await report(frame, 2);
    const [logo] = result.logos;
    expect(logo!.natural).toBeGreaterThan(0);
    // top-right, in the 96px padding band, its right edge on the content's.
    expect(logo!.y).toBeGreaterThan(0);
    expect(logo!.y + logo!.height).toBeLessThanOrEqual(96);
    expect(logo!.x + logo!.width).toBeCloseTo(1920 - 96, 0);
    const headingTop = await frame.evaluate(
      () => document.querySelector<HTMLElement>('.dh-slide[data-slide="2"] .dh-heading')!.offsetTop,
    );
    expect(headingTop).toBe(96);
    await page.context().close();
  }, 60_000);

  it("draws nothing for a deck without a brand, and loads no diagram code for a deck without a diagram", async () => {
    const { page, frame, requests } = await openSlide(plain.slug, 1, "5-no-brand");
    const result = await report(frame, 1);
    expect(result.errors).toEqual([]);
    expect(await frame.locator(".dh-logo, img").count()).toBe(0);
    expect(requests.filter((url) => url.includes("/logo"))).toEqual([]);
    expect(requests.filter(isDiagramChunk)).toEqual([]);
    // The frame's CSP allows no image beyond the player's own, the asset path and data: URLs.
    const csp = (await fetch(`${server.origin}/d/${plain.slug}/embed`)).headers.get("content-security-policy")!;
    expect(csp).toContain(`img-src ${server.origin}/player/ ${server.origin}/assets/ data:;`);
    await page.context().close();

    // A brand without a logo: the same. A logo whose file is gone: the image fails and nothing is left.
    for (const [deck, shot] of [
      [noLogo, "5-brand-without-logo"],
      [lostLogo, "5-brand-logo-gone"],
    ] as const) {
      const opened = await openSlide(deck.slug, 1, shot);
      await expect.poll(() => opened.frame.locator(".dh-logo, img").count()).toBe(0);
      expect((await report(opened.frame, 1)).errors).toEqual([]);
      await opened.page.context().close();
    }
    expect((await fetch(`${server.origin}/d/${noLogo.slug}/logo`)).status).toBe(404);
    expect((await fetch(`${server.origin}/d/${lostLogo.slug}/logo`)).status).toBe(404);
  }, 60_000);

  it("answers the logo route with the stored type, nosniff, a sandboxing CSP and an ETag; JSON 404 when none", async () => {
    const url = `${server.origin}/d/${branded.slug}/logo`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe(logoSvg);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(url, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // The frame's CSP names exactly this URL as the one image beyond the player's.
    const csp = (await fetch(`${server.origin}/d/${branded.slug}/frame`)).headers.get("content-security-policy")!;
    expect(csp).toContain(`img-src ${server.origin}/player/ ${server.origin}/assets/ data: ${url};`);

    for (const missing of [`${server.origin}/d/${plain.slug}/logo`, `${server.origin}/d/nosuchdeck/logo`]) {
      const none = await fetch(missing);
      expect(none.status).toBe(404);
      expect(none.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await none.json()).error.code).toBe("not_found");
    }

    // Opened directly, the SVG's script does not run.
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    expect(await page.evaluate(() => document.documentElement.getAttribute("data-ran"))).toBeNull();
    await page.context().close();
  }, 60_000);

  it("follows the module's access rules: the editor preview's token, and nothing once the deck is private", async () => {
    const token = mintPreviewToken({ deckId: branded.id, version: 1 });
    const logo = await fetch(`${server.origin}/preview/${token}/logo`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/svg+xml");
    expect(logo.headers.get("cache-control")).toBe("private, no-cache");
    expect((await fetch(`${server.origin}/preview/${token}x/logo`)).status).toBe(404);

    const { page, frame, requests } = await openFrame(
      `${server.origin}/preview/${token}/frame?chrome=0&slide=2`,
      2,
      "6-preview-logo",
    );
    const [drawn] = (await report(frame, 2)).logos;
    expect(drawn!.natural).toBeGreaterThan(0);
    expect(requests).toContain(`${server.origin}/preview/${token}/logo`);
    await page.context().close();

    const other = await createUser();
    const privateDeck = await createDeck(other, { title: "Was public" });
    await setContent(other, privateDeck.id, { source: plainDeck });
    const opened = await call("PATCH", `/decks/${privateDeck.id}`, { key: other.key, body: { visibility: "public" } });
    const slug = opened.body.publicSlug as string;
    await call("PATCH", `/decks/${privateDeck.id}`, { key: other.key, body: { visibility: "private" } });
    expect((await fetch(`${server.origin}/d/${slug}/logo`)).status).toBe(404);
  }, 60_000);
});

describe("Diagram", () => {
  it("keeps mermaid out of the runtime bundle", () => {
    const assets = playerAssets();
    const runtime = fs.readFileSync(path.join("public", assets.runtime), "utf8");
    for (const marker of ["securityLevel", "flowchart-v2", "mermaid", "dagre", "startOnLoad"]) {
      expect(runtime, marker).not.toContain(marker);
    }
    const renderer = fs.readFileSync(path.join("public", assets.diagram), "utf8");
    expect(renderer).toContain("securityLevel");
  });

  it("draws a flowchart with its labels as SVG text, in the brand's colours, inside the canvas", async () => {
    const { page, frame } = await openSlide(branded.slug, 2, "2-flow-diagram");
    // Ready only once every diagram of the deck was drawn (or showed its problem).
    const atReady = await frame.evaluate(
      () => (window as unknown as { __diagramsAtReady?: string[] }).__diagramsAtReady,
    );
    expect(atReady).toEqual(["drawn", "drawn", "error"]);
    const result = await report(frame, 2);
    expect(result.ready).toBe(true);
    expect(result.diagrams[0]!.state).toBe("drawn");
    expect(result.errors).toEqual([]);
    expect(result.overflow).toBe(false);
    expect(result.outside).toEqual([]);
    const [diagram] = result.diagrams;
    for (const label of flowLabels) expect(diagram!.texts).toContain(label);
    expect(await frame.locator(".dh-diagram foreignObject").count()).toBe(0);
    // Grown into the body under the heading, and centred in it.
    const { box } = diagram!;
    expect(box!.w).toBeGreaterThan(1000);
    expect(Math.abs(box!.x + box!.w / 2 - 960)).toBeLessThan(2);
    const colours = await frame.evaluate(() => {
      const node = document.querySelector(".dh-diagram .node rect, .dh-diagram .node polygon")!;
      const style = getComputedStyle(node);
      return { stroke: style.stroke, fill: style.fill };
    });
    expect(colours.stroke).toBe("rgb(14, 116, 144)");
    await page.context().close();
  }, 60_000);

  it("draws a sequence diagram in a column and labels it for screen readers", async () => {
    const { page, frame } = await openSlide(branded.slug, 3, "3-sequence-diagram");
    await expect.poll(async () => (await report(frame, 3)).diagrams[0]?.state).toBe("drawn");
    const result = await report(frame, 3);
    expect(result.overflow).toBe(false);
    expect(result.outside).toEqual([]);
    expect(result.diagrams[0]!.texts).toEqual(expect.arrayContaining(["Editor", "API", "Save version"]));
    expect(await frame.locator('.dh-slide[data-slide="3"] .dh-diagram svg').getAttribute("aria-label")).toBe(
      "The editor saves a version through the API",
    );
    await page.context().close();
  }, 60_000);

  it("shows a syntax error on its slide, not as a failure of the deck", async () => {
    const { page, frame } = await openSlide(branded.slug, 4, "4-syntax-error");
    await expect.poll(async () => (await report(frame, 4)).diagrams[0]?.state).toBe("error");
    const result = await report(frame, 4);
    expect(result.errors).toEqual([]);
    expect(result.diagramErrors).toHaveLength(1);
    expect(result.diagramErrors[0]).toContain("This diagram could not be drawn");
    // Mermaid's first line, and the source line with a caret under the place.
    expect(result.diagramErrors[0]).toContain("Parse error on line");
    expect(result.diagramErrors[0]).toContain("flowchart LR; A -->");
    expect(result.diagramErrors[0]).toMatch(/-\^/);
    expect(result.overflow).toBe(false);
    await page.context().close();
  }, 60_000);

  it("draws the inline logos, mono in the text colour", async () => {
    const { page, frame } = await openSlide(branded.slug, 5, "7-inline-logos");
    const result = await report(frame, 5);
    expect(result.logos).toHaveLength(2);
    for (const logo of result.logos) expect(logo.natural).toBeGreaterThan(0);
    const mono = await frame.evaluate(() => {
      const element = document.querySelector('.dh-logo[data-tone="mono"]')!;
      const style = getComputedStyle(element);
      return { background: style.backgroundImage, mask: style.maskImage || style.webkitMaskImage };
    });
    expect(mono.background).toContain("rgb(255, 255, 255)");
    expect(mono.mask).toContain("/logo");
    expect(result.overflow).toBe(false);
    await page.context().close();
  }, 60_000);
});

describe("exports", () => {
  it("prints the logo and the diagrams to PDF and to PPTX (pictures with alt text)", async () => {
    const pdfQueued = await call("POST", `/decks/${branded.id}/exports`, { key: author.key, body: { format: "pdf" } });
    const pptxQueued = await call("POST", `/decks/${branded.id}/exports`, {
      key: author.key,
      body: { format: "pptx" },
    });
    expect(pdfQueued.status).toBe(202);
    expect(pptxQueued.status).toBe(202);
    const pdfDone = await waitForExport(author, pdfQueued.body.id, 180_000);
    expect(pdfDone.status, JSON.stringify(pdfDone)).toBe("completed");
    const pptxDone = await waitForExport(author, pptxQueued.body.id, 180_000);
    expect(pptxDone.status, JSON.stringify(pptxDone)).toBe("completed");

    const pdfBytes = await download(pdfQueued.body.id);
    const pdfPath = path.join(SHOTS, "deck.pdf");
    fs.writeFileSync(pdfPath, pdfBytes);
    const pdf = await getDocumentProxy(new Uint8Array(pdfBytes));
    expect(pdf.numPages).toBe(5);
    const pageText = async (n: number) =>
      (await (await pdf.getPage(n)).getTextContent()).items
        .map((item) => ("str" in item ? item.str : ""))
        .join(" ")
        .replace(/\s+/g, " ");
    const flow = await pageText(2);
    for (const label of flowLabels) expect(flow).toContain(label);
    expect(await pageText(3)).toContain("Save version");
    expect(await pageText(4)).toContain("This diagram could not be drawn");
    execFileSync("pdftoppm", ["-png", "-r", "60", pdfPath, path.join(SHOTS, "pdf")]);

    const pptxBytes = await download(pptxQueued.body.id);
    const pptxPath = path.join(SHOTS, "deck.pptx");
    fs.writeFileSync(pptxPath, pptxBytes);
    const slides = slideParts(await readPptxXml(pptxBytes));
    expect(slides).toHaveLength(5);
    const pictures = (index: number) => attributeValues(slides[index]!, "p:cNvPr", "descr").filter(Boolean);
    expect(pictures(0)).toContain("Northwind");
    expect(pictures(1)).toEqual(expect.arrayContaining(["Northwind", "Activation"]));
    expect(pictures(2)).toContain("The editor saves a version through the API");
    expect(texts(slides[3]!, "a:t").join(" ")).toContain("This diagram could not be drawn");

    const work = fs.mkdtempSync(path.join(SHOTS, "office-"));
    const converted = convertWithLibreOffice(pptxPath, work);
    execFileSync("pdftoppm", ["-png", "-r", "60", converted, path.join(SHOTS, "pptx")]);
    expect(fs.readdirSync(SHOTS).filter((file) => /^pptx-\d+\.png$/.test(file))).toHaveLength(5);
  }, 400_000);
});
