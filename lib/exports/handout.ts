import type { PDFOptions } from "puppeteer-core";
import { CANVAS } from "@/lib/contract/deck";

// The "notes" layout of a PDF export: a portrait A4 handout page per slide, the slide (still vector: the
// player's own page, scaled with CSS zoom) above its speaker notes, a running header with the deck's title and
// "Page n of m" below. Notes longer than a page continue on the next one; the next slide starts a new page.

const PAGE = { width: 210, height: 297 }; // mm
const MARGIN = { top: 16, side: 16, bottom: 18 }; // mm
const PX_PER_MM = 96 / 25.4;

/** The slide's scale on the page: the width between the margins, less room for its 1 px outline. */
const HANDOUT_ZOOM = ((PAGE.width - 2 * MARGIN.side) * PX_PER_MM - 2) / CANVAS.width;

// Runs in an isolated world of the rendered deck page (see isolated-world.ts): it only adds a style sheet and,
// after each slide, a host whose shadow root holds the notes, so neither the deck's CSS nor its scripts' globals
// reach the notes' layout. The notes are data (JSON), set as textContent: never markup. The notes, the running
// title and the page numbers (CSS page margin boxes, so they are the document's text, not Chromium's header
// template, which can use only system fonts) are set in the deck's body font (--font-body, as the page
// computes it), and the PDF is printed once that font's faces have loaded.
export function handoutScript(notes: readonly string[], title: string): string {
  return `(() => {
  const notes = ${JSON.stringify(notes)};
  const pages = [...document.querySelectorAll(".dh-export-page")];
  const computed = getComputedStyle(pages[0] || document.documentElement).getPropertyValue("--font-body");
  const font = computed.replace(/[{};<>\\\\]/g, "").trim() || "sans-serif";
  const style = document.createElement("style");
  style.textContent = ${JSON.stringify(handoutCss(title))}.replaceAll("FONT_BODY", font);
  document.head.append(style);
  pages.forEach((page, index) => {
    page.classList.add("dh-handout-slide");
    const host = document.createElement("div");
    host.className = "dh-handout-notes";
    const root = host.attachShadow({ mode: "closed" });
    const sheet = document.createElement("style");
    sheet.textContent = ${JSON.stringify(notesCss)}.replaceAll("FONT_BODY", font);
    const label = document.createElement("p");
    label.className = "label";
    label.textContent = "Slide " + (index + 1) + " of " + pages.length;
    root.append(sheet, label);
    const text = (notes[index] || "").trim();
    const paragraphs = text ? text.split(/\\n[ \\t]*\\n+/) : [];
    if (paragraphs.length === 0) {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = "No speaker notes.";
      root.append(empty);
    }
    for (const paragraph of paragraphs) {
      const p = document.createElement("p");
      p.dir = "auto";
      p.textContent = paragraph;
      root.append(p);
    }
    page.after(host);
  });
  return document.fonts.ready.then(() => pages.length);
})()`;
}

/** A CSS string of any text: every character but letters, digits and spaces written as its code point. */
function cssString(text: string): string {
  return `"${[...text].map((c) => (/[\p{L}\p{N} ]/u.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join("")}"`;
}

const small = "font-family: FONT_BODY; font-size: 7pt; color: #6b6b6b;";

const handoutCss = (title: string) => `
@page {
  size: ${PAGE.width}mm ${PAGE.height}mm; margin: ${MARGIN.top}mm ${MARGIN.side}mm ${MARGIN.bottom}mm;
  @top-left { content: ${cssString(title)}; ${small} }
  @bottom-center { content: "Page " counter(page) " of " counter(pages); ${small} }
}
html, body, .dh-player[data-mode="export"] { background: #fff !important; height: auto !important; overflow: visible !important; }
.dh-export-page.dh-handout-slide { zoom: ${HANDOUT_ZOOM}; break-after: avoid !important; break-inside: avoid; outline: 3px solid #c4c4c4; }
.dh-handout-notes { display: block !important; break-after: page; }
.dh-handout-notes:last-child { break-after: auto; }
`;

const notesCss = `
:host { all: initial; display: block; padding-top: 7mm; font: 10.5pt/1.5 FONT_BODY; color: #1f1f1f; }
p { margin: 0 0 3mm; white-space: pre-wrap; overflow-wrap: anywhere; }
.label { margin-bottom: 3mm; font-size: 8pt; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase; color: #6b6b6b; }
.empty { color: #8a8a8a; font-style: italic; }
`;

/** Chromium's print options for the handout: the page, its margins and their text come from the style sheet. */
export const handoutPdfOptions: PDFOptions = { printBackground: true, preferCSSPageSize: true };
