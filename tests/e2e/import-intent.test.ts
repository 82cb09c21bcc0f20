import fs from "node:fs";
import type { Browser, Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openSlide } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { waitForExport } from "../helpers/exports";
import { type ImageHost, serveImageHost } from "../helpers/image-fixtures";
import { attributeValues, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";

// Imports that keep what the author meant (issue 35, item 3), drawn by the player in Chromium and exported:
// a Marp deck and a Slidev deck (tests/fixtures/import-intent) with inline markup, math, Mermaid, split
// backgrounds, classes and colours, page numbers, click steps and image layouts. Their images are served on a
// loopback port that FETCH_ALLOW_HOSTS lets the import fetch.

let server: AppServer;
let browser: Browser;
let host: ImageHost;
let author: TestUser;
const decks: Record<string, { id: string; slug: string; outline: string[] }> = {};

async function importFixture(name: string) {
  const markdown = fs
    .readFileSync(`tests/fixtures/import-intent/${name}.md`, "utf8")
    .replaceAll("http://localhost:8799", host.origin);
  const res = await call("POST", "/decks/import", { key: author.key, body: { markdown, visibility: "public" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.warnings).toEqual([]);
  const detail = await call("GET", `/decks/${res.body.id}`, { key: author.key });
  decks[name] = { id: res.body.id, slug: res.body.publicSlug, outline: detail.body.latestVersion.outline };
}

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  const images = "tests/fixtures/samples/images";
  host = await serveImageHost(
    Object.fromEntries(
      fs
        .readdirSync(images)
        .map((file) => [`/${file}`, { body: fs.readFileSync(`${images}/${file}`), type: "image/png" }]),
    ),
  );
  process.env.FETCH_ALLOW_HOSTS = "localhost";
  await importFixture("marp-intent");
  await importFixture("slidev-intent");
}, 180_000);

afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
  await host?.close();
});

/** Runs `probe` on the slide labelled `label` of a deck, drawn in the viewer. */
async function onSlide<T>(deck: string, label: string, probe: (frame: Frame, selector: string) => Promise<T>) {
  const { slug, outline } = decks[deck]!;
  const slide = outline.indexOf(label) + 1;
  expect(slide, `${deck} has a slide "${label}"`).toBeGreaterThan(0);
  const { page, frame } = await openSlide(
    browser,
    server.origin,
    slug,
    slide,
    `/tmp/import-intent-${deck}-${slide}.png`,
  );
  try {
    return await probe(frame, `.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${slide}"]`);
  } finally {
    await page.context().close();
  }
}

describe("an imported Marp deck in the player", () => {
  it("keeps bold, italic, code, links and strikethrough in bullets and table cells", async () => {
    const found = await onSlide("marp-intent", "Inline emphasis everywhere", (frame, slide) =>
      frame.evaluate((selector) => {
        const root = document.querySelector(selector)!;
        const text = (query: string) => [...root.querySelectorAll(query)].map((element) => element.textContent);
        const link = root.querySelector<HTMLAnchorElement>(".dh-bullets a.dh-link");
        return {
          strong: text(".dh-bullet strong"),
          em: text(".dh-bullet em"),
          code: text(".dh-bullet code"),
          struck: text(".dh-bullet s"),
          link: link && {
            href: link.href,
            text: link.textContent,
            underline: getComputedStyle(link).textDecorationLine,
          },
          cells: { strong: text(".dh-table th strong"), code: text(".dh-table td code") },
          codeFont: getComputedStyle(root.querySelector(".dh-bullet code")!).fontFamily,
        };
      }, slide),
    );
    expect(found).toMatchObject({
      strong: ["38 minutes"],
      em: ["cache"],
      code: ["hash(inputs)"],
      struck: ["Nightly builds"],
      link: { href: "https://example.com/design", text: "the design", underline: "underline" },
      cells: { strong: ["Before"], code: ["4 min"] },
    });
    expect(found.codeFont).toMatch(/JetBrains Mono/);
  });

  it("typesets $…$ and $$…$$ with KaTeX, with MathML for screen readers", async () => {
    const found = await onSlide("marp-intent", "The formula", (frame, slide) =>
      frame.evaluate((selector) => {
        const root = document.querySelector(selector)!;
        return [...root.querySelectorAll(".dh-formula")].map((formula) => ({
          display: formula.hasAttribute("data-display"),
          state: formula.getAttribute("data-state"),
          tex: formula.querySelector("annotation")?.textContent,
          mathml: formula.querySelector(".katex-mathml math") !== null,
          shown: formula.querySelector(".katex-html")!.getBoundingClientRect().width > 20,
          inText: formula.closest(".dh-text") !== null,
        }));
      }, slide),
    );
    expect(found).toEqual([
      {
        display: false,
        state: "drawn",
        tex: "h = \\frac{hits}{hits + misses}",
        mathml: true,
        shown: true,
        inText: true,
      },
      {
        display: true,
        state: "drawn",
        tex: "T = \\sum_{i=1}^{n} t_i (1 - h_i)",
        mathml: true,
        shown: true,
        inText: false,
      },
    ]);
  });

  it("draws a mermaid flowchart with Diagram", async () => {
    const labels = await onSlide("marp-intent", "How a build runs", (frame, slide) =>
      frame.evaluate(
        (selector) => ({
          state: document.querySelector(`${selector} .dh-diagram`)?.getAttribute("data-state"),
          text: document.querySelector(`${selector} .dh-diagram svg`)?.textContent ?? "",
          code: document.querySelector(`${selector} .dh-code`) !== null,
        }),
        slide,
      ),
    );
    expect(labels.state).toBe("drawn");
    expect(labels.text).toContain("Upload to cache");
    expect(labels.code).toBe(false);
  });

  it("puts a `bg right:40%` image on the right 40% of the slide, edge to edge, the content beside it", async () => {
    const boxes = await onSlide("marp-intent", "Watching the cache", (frame, slide) =>
      frame.evaluate((selector) => {
        const root = document.querySelector<HTMLElement>(selector)!;
        const origin = root.getBoundingClientRect();
        const scale = origin.width / 1920;
        const box = (element: Element | null) => {
          const rect = element!.getBoundingClientRect();
          return [rect.left - origin.left, rect.top - origin.top, rect.width, rect.height].map((n) =>
            Math.round(n / scale),
          );
        };
        const img = root.querySelector<HTMLImageElement>(".dh-slide-side-image img")!;
        return {
          image: box(img),
          loaded: img.complete && img.naturalWidth > 0,
          heading: box(root.querySelector(".dh-heading")),
          bullets: box(root.querySelector(".dh-bullets")),
          scrim: getComputedStyle(root, "::before").content,
          number: getComputedStyle(root, "::after").content,
        };
      }, slide),
    );
    expect(boxes.image).toEqual([1152, 0, 768, 1080]);
    expect(boxes.loaded).toBe(true);
    for (const content of [boxes.heading, boxes.bullets])
      expect(content[0]! + content[2]!).toBeLessThanOrEqual(1152 - 90);
    expect(boxes.scrim).toBe("none");
    expect(boxes.number).toBe('"5"');
  });

  it("honours _class: invert, _backgroundColor and _color, and `paginate` (not on the cover: _paginate: false)", async () => {
    const colours = async (label: string) =>
      onSlide("marp-intent", label, (frame, slide) =>
        frame.evaluate((selector) => {
          const root = document.querySelector<HTMLElement>(selector)!;
          const style = getComputedStyle(root);
          return {
            ground: style.backgroundColor,
            text: getComputedStyle(root.querySelector(".dh-text")!).color,
            number: getComputedStyle(root, "::after").content,
          };
        }, slide),
      );
    expect(await colours("Inverted slide")).toEqual({
      ground: "rgb(28, 25, 23)",
      text: "rgb(250, 250, 249)",
      number: '"7"',
    });
    expect(await colours("Custom colours")).toEqual({
      ground: "rgb(18, 52, 86)",
      text: "rgb(253, 246, 227)",
      number: '"8"',
    });
    expect((await colours("What the author meant")).number).toBe("none");
  });
});

describe("an imported Slidev deck in the player", () => {
  it("draws a click-step highlight in its final state: every line at full contrast", async () => {
    const lines = await onSlide("slidev-intent", "The upsert, step by step", (frame, slide) =>
      frame.evaluate(
        (selector) => ({
          dimmed: document.querySelector(`${selector} .dh-code[data-has-highlight]`) !== null,
          opacities: [...document.querySelectorAll(`${selector} .dh-code-line`)].map(
            (line) => getComputedStyle(line).opacity,
          ),
        }),
        slide,
      ),
    );
    expect(lines).toEqual({ dimmed: false, opacities: ["1", "1", "1", "1", "1"] });
  });

  it("shows v-click content, a sequence diagram, and image-left as the picture on the left half", async () => {
    const clicks = await onSlide("slidev-intent", "Revealed one by one", (frame, slide) =>
      frame.evaluate((selector) => document.querySelector(selector)!.textContent, slide),
    );
    expect(clicks).toContain("Finally, refuse over the limit");
    expect(clicks).toContain("Everything shown in the export.");
    const sequence = await onSlide("slidev-intent", "Sequence", (frame, slide) =>
      frame.evaluate(
        (selector) => document.querySelector(`${selector} .dh-diagram`)?.getAttribute("data-state"),
        slide,
      ),
    );
    expect(sequence).toBe("drawn");
    const split = await onSlide("slidev-intent", "Dashboard on the left", (frame, slide) =>
      frame.evaluate((selector) => {
        const root = document.querySelector(selector)!;
        const origin = root.getBoundingClientRect();
        const image = root.querySelector(".dh-slide-side-image img")!.getBoundingClientRect();
        const heading = root.querySelector(".dh-heading")!.getBoundingClientRect();
        return {
          image: [image.left - origin.left, image.width / origin.width],
          headingStart: (heading.left - origin.left) / origin.width,
          alt: root.querySelector(".dh-slide-side-image img")!.getAttribute("alt"),
        };
      }, slide),
    );
    expect(split.image).toEqual([0, 0.5]);
    expect(split.headingStart).toBeGreaterThan(0.5);
    expect(split.alt).toBe("Dashboard on the left");
  });
});

describe("the deck check on the imported decks", () => {
  it("measures formulas, split images, page numbers and the slides' own colours without an error", async () => {
    for (const name of ["marp-intent", "slidev-intent"]) {
      const check = await call("GET", `/decks/${decks[name]!.id}/check`, { key: author.key });
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      const errors = (check.body.findings as Array<{ severity: string; kind: string; label: string; message: string }>)
        .filter((finding) => finding.severity === "error")
        .map((finding) => `${finding.label}: ${finding.kind} ${finding.message}`);
      expect(errors, name).toEqual([]);
    }
  }, 120_000);
});

describe("the imported Marp deck as PPTX", () => {
  it("writes inline markup as runs (bold, italic, struck, a link) and a display formula as a picture with its TeX", async () => {
    const res = await call("POST", `/decks/${decks["marp-intent"]!.id}/exports`, {
      key: author.key,
      body: { format: "pptx" },
    });
    const done = await waitForExport(author, res.body.id, 170_000);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const link = await call("GET", `/exports/${res.body.id}/download`, { key: author.key });
    const bytes = Buffer.from(await (await fetch(link.headers.get("location")!)).arrayBuffer());
    const parts = await readPptxXml(bytes);
    const slides = slideParts(parts);
    const runs = (slide: number) =>
      [...slides[slide]!.getElementsByTagName("a:r")].map((run) => {
        const properties = run.getElementsByTagName("a:rPr")[0];
        return {
          text: texts(run as never, "a:t").join(""),
          bold: properties?.getAttribute("b") === "1",
          italic: properties?.getAttribute("i") === "1",
          strike: properties?.getAttribute("strike") === "sngStrike",
          link: (properties?.getElementsByTagName("a:hlinkClick").length ?? 0) > 0,
        };
      });
    const emphasis = runs(1);
    expect(emphasis.find((run) => run.text === "38 minutes")).toMatchObject({ bold: true });
    expect(emphasis.find((run) => run.text === "cache")).toMatchObject({ italic: true });
    expect(emphasis.find((run) => run.text === "Nightly builds")).toMatchObject({ strike: true });
    expect(emphasis.find((run) => run.text === "the design")).toMatchObject({ link: true });
    const rels = parts.get("ppt/slides/_rels/slide2.xml.rels")!;
    expect(attributeValues(rels, "Relationship", "Target")).toContain("https://example.com/design");
    // The formula slide: the inline formula is text in its sentence, the display one a described picture.
    const formula = runs(2)
      .map((run) => run.text)
      .join("");
    expect(formula).toContain("The hit rate is h=hits/(hits+misses) for each step.");
    expect(attributeValues(slides[2]!, "p:cNvPr", "descr")).toContain("Formula: T = \\sum_{i=1}^{n} t_i (1 - h_i)");
  }, 200_000);
});
