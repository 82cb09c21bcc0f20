import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { extractText, getDocumentProxy } from "unpdf";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { attributeValues, convertWithLibreOffice, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";
import { tooManyRowsDeck } from "../helpers/sample-decks";
import { requireTools } from "../helpers/tools";

// A PPTX export of a deck that attacks the exporter, by the real runner: font names and text that would
// end an XML attribute or element, characters XML cannot hold, and script that rewrites the built-ins the
// slide extractor used to rely on (Object.defineProperty, Array.prototype.map, JSON.stringify,
// getComputedStyle) so as to hand the exporter a slide of its own. The file must be well-formed XML
// everywhere, open in LibreOffice, and hold the deck's real slides and nothing the script made up.

const hostileFont = `Evil"Font' <b> & x="1"`;

// The slide model the script tries to slip in: a slide of its own, with a font that would break out of
// the typeface attribute.
const fakeModel = `[{ background: null, items: [{ kind: "text", rect: { x: 0, y: 0, w: 1920, h: 200 }, runs: [{ text: "INJECTED SLIDE", font: 'X"/><p:sp>', size: 80, bold: true, italic: false, underline: false, strike: false, color: { hex: "FF0000", alpha: 1 }, letterSpacing: 0 }], align: "left", lineHeight: 96, singleLine: true }] }]`;

const hostileDeck = `import { Deck, Slide, Heading, Text } from "@deckhand/player";

const fake = ${fakeModel};
const looksLikeSlides = (value: unknown) =>
  Array.isArray(value) && value.some((slide) => slide && typeof slide === "object" && Array.isArray((slide as { items?: unknown }).items));

// Whoever defines __deckhandExtract gets ours.
const define = Object.defineProperty;
Object.defineProperty = function (target: object, key: PropertyKey, descriptor: PropertyDescriptor) {
  if (key === "__deckhandExtract") return define(target, key, { ...descriptor, value: () => fake });
  return define(target, key, descriptor);
} as typeof Object.defineProperty;

// Mapping the slide pages answers our slides.
const map = Array.prototype.map;
Array.prototype.map = function (this: unknown[], ...args: unknown[]) {
  const result = (map as (...a: unknown[]) => unknown[]).apply(this, args);
  const pages = this.length > 0 && this.every((node) => node instanceof Element && node.classList.contains("dh-export-page"));
  return pages ? fake : result;
} as typeof Array.prototype.map;

// Serialising slides answers ours.
const stringify = JSON.stringify;
JSON.stringify = function (value: unknown, ...rest: unknown[]) {
  return looksLikeSlides(value) ? stringify(fake) : (stringify as (...a: unknown[]) => string)(value, ...rest);
} as typeof JSON.stringify;

// Computed styles lie about fonts.
const computed = window.getComputedStyle;
(window as { getComputedStyle: unknown }).getComputedStyle = function (element: Element, pseudo?: string | null) {
  const style = computed.call(window, element, pseudo);
  return new Proxy(style, {
    get(target, key) {
      if (key === "fontFamily") return '"INJECTED FONT"';
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
};

export default function Hostile() {
  return (
    <Deck title="Hostile">
      <Slide label="One" notes={"Notes & <tags> \\"quoted\\"\\u0001 end"}>
        <Heading>
          <span style={{ fontFamily: ${JSON.stringify(JSON.stringify(hostileFont))} }}>Real heading one</span>
        </Heading>
      </Slide>
      <Slide label="Two">
        <Heading>Real heading two</Heading>
        <Text>
          {"Fish & <chips> \\u0001\\u000B\\uFFFE\\uD800 done"} <a href="https://example.com/?a=1&b=%22x%22">a link</a>{" "}
          <a href="javascript:alert(1)">not a link</a>
        </Text>
      </Slide>
    </Deck>
  );
}
`;

requireTools(["soffice"], "libreoffice-impress");

let database: Database;
let server: AppServer;
let user: TestUser;
let work: string;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  user = await createUser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-pptx-hostile-"));
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function queuePptx(source: string, title = "Hostile") {
  const deck = await createDeck(user, { title });
  const saved = await setContent(user, deck.id, { source });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pptx" } });
  expect(queued.status).toBe(202);
  return { id: queued.body.id as string, done: await waitForExport(user, queued.body.id, 90_000) };
}

async function exportPptx(source: string, title: string): Promise<Buffer> {
  const queued = await queuePptx(source, title);
  const done = queued.done;
  expect(done.status, done.error).toBe("completed");
  const location = (await call("GET", `/exports/${queued.id}/download`, { key: user.key })).headers.get("location")!;
  return Buffer.from(await (await fetch(location)).arrayBuffer());
}

describe("PPTX export of a hostile deck", () => {
  let bytes: Buffer;

  beforeAll(async () => {
    bytes = await exportPptx(hostileDeck, `Hostile & <"fonts">`);
  }, 120_000);

  it("is well-formed XML in every part and holds the real slides, not the injected one", async () => {
    const parts = await readPptxXml(bytes);
    const slides = slideParts(parts);
    expect(slides).toHaveLength(2);
    const slideText = slides.map((slide) => texts(slide, "a:t").join(" "));
    expect(slideText[0]).toContain("Real heading one");
    expect(slideText[1]).toContain("Real heading two");
    expect(slideText[1]).toMatch(/Fish & <chips> +done/);
    for (const [name, document] of parts) {
      expect(document.documentElement?.toString(), name).not.toContain("INJECTED");
    }

    // The hostile family is one attribute value, the same string; nothing else the script said about fonts.
    const typefaces = attributeValues(slides[0]!, "a:latin", "typeface");
    expect(typefaces).toContain(hostileFont);
    // Only the http(s) link, with its "&" escaped in the relationship and read back intact.
    const targets = attributeValues(parts.get("ppt/slides/_rels/slide2.xml.rels")!, "Relationship", "Target");
    expect(targets).toContain("https://example.com/?a=1&b=%22x%22");
    expect(targets.some((target) => target.startsWith("javascript:"))).toBe(false);

    const [notes] = slideParts(parts, "notesSlides", "notesSlide");
    expect(texts(notes!, "a:t").join("")).toContain('Notes & <tags> "quoted" end');
    expect(texts(parts.get("docProps/core.xml")!, "dc:title")).toEqual([`Hostile & <"fonts">`]);
  });

  it("opens in LibreOffice with both slides", async () => {
    const pptx = path.join(work, "hostile.pptx");
    fs.writeFileSync(pptx, bytes);
    const pdfFile = convertWithLibreOffice(pptx, work);
    expect(fs.existsSync(pdfFile)).toBe(true);
    const pdf = await getDocumentProxy(new Uint8Array(fs.readFileSync(pdfFile)));
    expect(pdf.numPages).toBe(2);
    const { text } = await extractText(pdf, { mergePages: false });
    expect(text[0]).toContain("Real heading one");
    expect(text[1]).toContain("Real heading two");
    expect(text.join(" ")).not.toContain("INJECTED");
  }, 150_000);
});

describe("PPTX export of a deck past the slide model's limits", () => {
  it("fails at once as the deck's fault, saying what is too large", async () => {
    const { id, done } = await queuePptx(tooManyRowsDeck);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(
      /^The slides could not be exported to PowerPoint: slide 1, item \d+: more than 1000 rows in one table\.$/,
    );
    const [row] = await database.db.select().from(exports).where(eq(exports.id, id));
    expect(row!.attempts).toBe(1);
  }, 120_000);
});
