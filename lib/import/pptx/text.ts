// Text for the PowerPoint reader: a paragraph (a:p) read with its list level, its bullet (a character, with
// the symbol fonts' private-use characters as the Unicode ones they draw, autonumbering, or none), alignment
// and runs (bold, italic, underline, colour, size, font, links), and what its runs inherit from the list
// styles of the shape, its layout and master when they say nothing.
import type { Element } from "@xmldom/xmldom";
import type { Bullet, Paragraph, PptxDeck, Run } from "./model";
import { attr, kid, kids, nameOf, relAttr, path as xpath } from "./xml";

/** What reading text needs from the reader: colours resolved for the part, the theme's fonts, links. */
export type TextContext = {
  color: (holder: Element | null) => string | undefined;
  theme: PptxDeck["theme"];
  /** An external hyperlink's target by relationship id, of the part the text is in. */
  link: (id: string) => string | undefined;
};

export function readParagraph(p: Element, styles: Array<Element | null>, context: TextContext): Paragraph {
  const pPr = kid(p, "pPr");
  const level = Math.min(8, Math.max(0, Number(attr(pPr, "lvl") ?? 0) || 0));
  const levelStyles = styles.map((style) => kid(style, `lvl${level + 1}pPr`));
  const bullet = bulletOf([pPr, ...levelStyles]);
  const align = ({ l: "left", ctr: "center", r: "right", just: "justify" } as const)[
    (attr(pPr, "algn") ?? levelStyles.map((style) => attr(style, "algn")).find(Boolean) ?? "") as "l"
  ];
  const runs: Run[] = [];
  for (const child of kids(p)) {
    if (nameOf(child) === "br") runs.push({ text: "\n" });
    if (nameOf(child) !== "r" && nameOf(child) !== "fld") continue;
    const text = kid(child, "t")?.textContent ?? "";
    if (!text) continue;
    runs.push(readRun(text, kid(child, "rPr"), context));
  }
  const inherited = runDefaults(levelStyles, context);
  return { level, bullet, ...(align ? { align } : {}), runs, ...(inherited ? { inherited } : {}) };
}

/** What a paragraph's runs take from its list styles (the shape's, the layout's, the master's) when they say nothing. */
function runDefaults(levelStyles: Array<Element | null>, context: TextContext): Paragraph["inherited"] {
  const out: NonNullable<Paragraph["inherited"]> = {};
  for (const style of levelStyles) {
    const defaults = readRun("", kid(style, "defRPr"), context);
    const typeface = attr(xpath(style, "defRPr", "latin"), "typeface");
    if (typeface === "+mj-lt" && context.theme.majorFont) defaults.font = context.theme.majorFont;
    if (typeface === "+mn-lt" && context.theme.minorFont) defaults.font = context.theme.minorFont;
    const flag = (name: "b" | "i") => attr(kid(style, "defRPr"), name);
    if (out.size === undefined && defaults.size) out.size = defaults.size;
    if (out.color === undefined && defaults.color) out.color = defaults.color;
    if (out.font === undefined && defaults.font) out.font = defaults.font;
    if (out.bold === undefined && flag("b")) out.bold = defaults.bold === true;
    if (out.italic === undefined && flag("i")) out.italic = defaults.italic === true;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function readRun(text: string, rPr: Element | null, context: TextContext): Run {
  const run: Run = { text };
  const flag = (name: string) => {
    const value = attr(rPr, name);
    return value === "1" || value === "true";
  };
  if (flag("b")) run.bold = true;
  if (flag("i")) run.italic = true;
  const underline = attr(rPr, "u");
  if (underline && underline !== "none") run.underline = true;
  const size = Number(attr(rPr, "sz"));
  if (size > 0) run.size = size / 100;
  const color = context.color(kid(rPr, "solidFill"));
  if (color) run.color = color;
  const font = attr(kid(rPr, "latin"), "typeface");
  if (font && !font.startsWith("+")) run.font = font;
  const link = context.link(relAttr(kid(rPr, "hlinkClick"), "id") ?? "");
  if (link && /^(https?:|mailto:)/i.test(link)) run.href = link;
  return run;
}

// The symbol fonts' private-use characters PowerPoint's own templates use as bullets, as the Unicode
// characters they draw (Wingdings, Wingdings 2 and 3, Symbol).
const SYMBOL_BULLETS: Record<string, Record<number, string>> = {
  wingdings: { 0x9f: "•", 0xa7: "▪", 0xa8: "◻", 0x76: "❖", 0xd8: "➢", 0xfc: "✔", 0x71: "❑", 0x6e: "■", 0x6c: "●" },
  "wingdings 2": { 0x97: "•", 0x98: "•", 0x9e: "•", 0xa2: "▪", 0xa3: "■", 0x50: "✔", 0x4f: "✗" },
  "wingdings 3": { 0x7d: "▸", 0x75: "▸", 0x84: "▸", 0xc4: "▸", 0x5d: "▸", 0x22: "▸" },
  symbol: { 0xb7: "•", 0xa8: "♦", 0x2d: "–" },
};

function bulletChar(char: string, font: string | null): string {
  const code = char.codePointAt(0) ?? 0;
  const table = SYMBOL_BULLETS[(font ?? "").toLowerCase()];
  if (!table) return char;
  // Symbol fonts are addressed either at their own codes or at U+F000 plus them.
  const own = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code;
  return table[own] ?? (own !== code || code > 0x7e ? "•" : char);
}

function bulletOf(chain: Array<Element | null>): Bullet {
  for (const pPr of chain) {
    if (!pPr) continue;
    if (kid(pPr, "buNone")) return { kind: "none" };
    const auto = kid(pPr, "buAutoNum");
    if (auto) {
      return {
        kind: "number",
        scheme: attr(auto, "type") ?? "arabicPeriod",
        startAt: Math.max(1, Number(attr(auto, "startAt") ?? 1) || 1),
      };
    }
    const char = kid(pPr, "buChar");
    if (char) {
      // The bullet's font is the nearest one said along the same chain.
      const font = chain.map((found) => attr(kid(found, "buFont"), "typeface")).find(Boolean) ?? null;
      return { kind: "char", char: bulletChar(attr(char, "char") ?? "•", font) };
    }
    if (kid(pPr, "buBlip")) return { kind: "char", char: "•" };
  }
  return { kind: "none" };
}

export function runsText(p: Element): string {
  return kids(p)
    .map((child) =>
      nameOf(child) === "br"
        ? "\n"
        : nameOf(child) === "r" || nameOf(child) === "fld"
          ? (kid(child, "t")?.textContent ?? "")
          : "",
    )
    .join("");
}
