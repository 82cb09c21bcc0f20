// The offline deck editor: applies the few instructions that need no judgement (quoted copy
// replacements, renaming, removing, duplicating and reordering slides) to any deck module, and refuses
// everything else so a model can do it. Edits are made on the source text, located by a small TSX
// scanner, so every byte the instruction does not touch stays as its author wrote it.

import { capitalize } from "@/lib/contract/text";
import { AppError } from "@/lib/core/errors";
import type { DeckFormat } from "@/lib/contract/deck";

export type OfflineEdit = { source: string; summary: string };

// ---------------------------------------------------------------------------------------------
// Scanner: finds JSX elements, their attributes and every piece of user-visible text in a module
// without a full parser. It tracks strings, template literals, comments, regular expressions, brace
// depth and JSX nesting, which is what a deck module needs; exotic syntax makes it throw, and the
// editor then refuses rather than guess.

export type TextRegion = {
  kind: "jsx-text" | "jsx-attr" | "string" | "template";
  /** Content span, without quotes. */
  start: number;
  end: number;
  quote?: string;
  /** A module specifier ("@deckhand/player"): never edited. */
  module?: boolean;
};

type AttributeValue =
  | { kind: "string"; start: number; end: number; quote: string }
  | { kind: "expression"; start: number; end: number }
  | { kind: "element"; start: number; end: number };

export type JsxAttribute = { name: string; start: number; end: number; value: AttributeValue | null };

export type JsxElement = {
  name: string;
  start: number;
  end: number;
  /** End of the opening tag (after its ">" or "/>"). */
  openEnd: number;
  attributes: JsxAttribute[];
  children: JsxChild[];
  parent: JsxElement | null;
};

export type JsxChild =
  | { kind: "element"; element: JsxElement }
  | { kind: "expression"; start: number; end: number; empty: boolean }
  | { kind: "text"; start: number; end: number };

export type ScannedModule = { elements: JsxElement[]; regions: TextRegion[] };

const expressionKeywords = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
  "default",
]);

class ScanError extends Error {}

class TsxScanner {
  readonly elements: JsxElement[] = [];
  readonly regions: TextRegion[] = [];
  private readonly src: string;

  constructor(src: string) {
    this.src = src;
  }

  scan(): ScannedModule {
    const end = this.skipJs(0, null, null);
    if (end !== this.src.length) throw new ScanError(`unexpected "${this.src[end] ?? ""}" at ${end}`);
    this.elements.sort((a, b) => a.start - b.start);
    this.regions.sort((a, b) => a.start - b.start);
    return { elements: this.elements, regions: this.regions };
  }

  /**
   * Skips JavaScript/TypeScript from `pos` to the `stop` character at depth zero (or the end of the
   * file when `stop` is null) and returns its index.
   */
  private skipJs(pos: number, stop: string | null, parent: JsxElement | null): number {
    const src = this.src;
    let depth = 0;
    // What came before, to tell a regex from a division and JSX from a less-than.
    let previous: "start" | "operand" | "keyword-operand" = "start";
    let lastWord = "";
    while (pos < src.length) {
      const char = src[pos] ?? "";
      const next = src[pos + 1] ?? "";
      if (char === stop && depth === 0) return pos;
      if (/\s/.test(char)) {
        pos++;
        continue;
      }
      if (char === "/" && next === "/") {
        pos = this.lineEnd(pos);
        continue;
      }
      if (char === "/" && next === "*") {
        pos = this.commentEnd(pos);
        continue;
      }
      if (char === '"' || char === "'") {
        const end = this.stringEnd(pos, char);
        this.regions.push({
          kind: "string",
          start: pos + 1,
          end: end - 1,
          quote: char,
          module: lastWord === "from" || lastWord === "import",
        });
        pos = end;
        previous = "operand";
        lastWord = "";
        continue;
      }
      if (char === "`") {
        pos = this.templateEnd(pos, parent);
        previous = "operand";
        lastWord = "";
        continue;
      }
      if (/[A-Za-z_$0-9]/.test(char) || char.charCodeAt(0) > 127) {
        let end = pos + 1;
        while (
          end < src.length &&
          (/[\w$]/.test(src[end] ?? "") || (src.charCodeAt(end) > 127 && !/\s/.test(src[end] ?? "")))
        ) {
          end++;
        }
        // Numbers like 1.5e3 keep their dot and exponent sign together.
        if (/[0-9]/.test(char)) {
          while (end < src.length && /[\w.]/.test(src[end] ?? "")) end++;
        }
        lastWord = src.slice(pos, end);
        previous = expressionKeywords.has(lastWord) ? "keyword-operand" : "operand";
        pos = end;
        continue;
      }
      const expressionStart = previous === "start" || previous === "keyword-operand";
      if (char === "/" && expressionStart) {
        pos = this.regexEnd(pos);
        previous = "operand";
        continue;
      }
      if (char === "<" && expressionStart && this.looksLikeJsx(pos)) {
        const element = this.parseElement(pos, parent);
        pos = element.end;
        previous = "operand";
        lastWord = "";
        continue;
      }
      lastWord = "";
      if (char === "(" || char === "[" || char === "{") {
        depth++;
        previous = "start";
      } else if (char === ")" || char === "]" || char === "}") {
        depth--;
        if (depth < 0) throw new ScanError(`unbalanced "${char}" at ${pos}`);
        // After "}" a regex or JSX can start (a block ended); after ")" or "]" an operand ended.
        previous = char === "}" ? "start" : "operand";
      } else if (char === "." && /[0-9]/.test(next)) {
        previous = "operand";
      } else if (char === "+" && next === "+") {
        pos += 2;
        continue;
      } else if (char === "-" && next === "-") {
        pos += 2;
        continue;
      } else {
        previous = "start";
      }
      pos++;
    }
    if (stop !== null) throw new ScanError(`missing "${stop}"`);
    return pos;
  }

  private looksLikeJsx(pos: number): boolean {
    const rest = this.src.slice(pos + 1, pos + 200);
    if (rest.startsWith(">")) return true;
    // "<T,>" and "<T extends U>" are type parameters of a generic arrow function, not elements.
    if (/^[A-Za-z_$][\w$]*\s*(?:,|extends\b)/.test(rest)) return false;
    return /^[A-Za-z_$]/.test(rest);
  }

  private parseElement(start: number, parent: JsxElement | null): JsxElement {
    const src = this.src;
    let pos = start + 1;
    pos = this.skipSpace(pos);
    const element: JsxElement = { name: "", start, end: start, openEnd: start, attributes: [], children: [], parent };
    this.elements.push(element);
    if (src[pos] === ">") {
      element.openEnd = pos + 1;
      element.end = this.parseChildren(pos + 1, element);
      return element;
    }
    const name = /^[A-Za-z_$][\w$.:-]*/.exec(src.slice(pos, pos + 200));
    if (!name) throw new ScanError(`element name expected at ${pos}`);
    element.name = name[0];
    pos += name[0].length;
    for (;;) {
      pos = this.skipSpace(pos);
      const char = src[pos];
      if (char === undefined) throw new ScanError(`unterminated <${element.name}>`);
      if (char === "/" && src[pos + 1] === ">") {
        element.openEnd = pos + 2;
        element.end = pos + 2;
        return element;
      }
      if (char === ">") {
        element.openEnd = pos + 1;
        element.end = this.parseChildren(pos + 1, element);
        return element;
      }
      if (char === "{") {
        const end = this.skipJs(pos + 1, "}", element) + 1;
        element.attributes.push({ name: "...", start: pos, end, value: null });
        pos = end;
        continue;
      }
      const attributeName = /^[A-Za-z_$][\w$:-]*/.exec(src.slice(pos, pos + 200));
      if (!attributeName) throw new ScanError(`attribute expected at ${pos}`);
      const attribute: JsxAttribute = {
        name: attributeName[0],
        start: pos,
        end: pos + attributeName[0].length,
        value: null,
      };
      pos = this.skipSpace(attribute.end);
      if (src[pos] === "=") {
        pos = this.skipSpace(pos + 1);
        const quote = src[pos];
        if (quote === '"' || quote === "'") {
          const close = src.indexOf(quote, pos + 1);
          if (close < 0) throw new ScanError(`unterminated attribute at ${pos}`);
          attribute.value = { kind: "string", start: pos + 1, end: close, quote };
          this.regions.push({ kind: "jsx-attr", start: pos + 1, end: close, quote });
          pos = close + 1;
        } else if (quote === "{") {
          const end = this.skipJs(pos + 1, "}", element) + 1;
          attribute.value = { kind: "expression", start: pos, end };
          pos = end;
        } else if (quote === "<") {
          const value = this.parseElement(pos, element);
          attribute.value = { kind: "element", start: pos, end: value.end };
          pos = value.end;
        } else {
          throw new ScanError(`attribute value expected at ${pos}`);
        }
        attribute.end = pos;
      }
      element.attributes.push(attribute);
    }
  }

  /** Parses children up to and including the closing tag; returns the index after it. */
  private parseChildren(pos: number, element: JsxElement): number {
    const src = this.src;
    while (pos < src.length) {
      const char = src[pos];
      if (char === "<") {
        const after = this.skipSpace(pos + 1);
        if (src[after] === "/") {
          const close = src.indexOf(">", after);
          if (close < 0) throw new ScanError(`unterminated </${element.name}>`);
          const name = src.slice(after + 1, close).trim();
          if (name !== element.name) throw new ScanError(`</${name}> closes <${element.name}>`);
          return close + 1;
        }
        const child = this.parseElement(pos, element);
        element.children.push({ kind: "element", element: child });
        pos = child.end;
        continue;
      }
      if (char === "{") {
        const end = this.skipJs(pos + 1, "}", element) + 1;
        const inner = src.slice(pos + 1, end - 1);
        const empty = inner.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "").trim().length === 0;
        element.children.push({ kind: "expression", start: pos, end, empty });
        pos = end;
        continue;
      }
      let end = pos;
      while (end < src.length && src[end] !== "<" && src[end] !== "{") end++;
      element.children.push({ kind: "text", start: pos, end });
      if (src.slice(pos, end).trim().length > 0) this.regions.push({ kind: "jsx-text", start: pos, end });
      pos = end;
    }
    throw new ScanError(`unterminated <${element.name}>`);
  }

  private skipSpace(pos: number): number {
    const src = this.src;
    for (;;) {
      while (pos < src.length && /\s/.test(src[pos] ?? "")) pos++;
      if (src[pos] === "/" && src[pos + 1] === "/") pos = this.lineEnd(pos);
      else if (src[pos] === "/" && src[pos + 1] === "*") pos = this.commentEnd(pos);
      else return pos;
    }
  }

  private lineEnd(pos: number): number {
    const end = this.src.indexOf("\n", pos);
    return end < 0 ? this.src.length : end;
  }

  private commentEnd(pos: number): number {
    const end = this.src.indexOf("*/", pos + 2);
    if (end < 0) throw new ScanError("unterminated comment");
    return end + 2;
  }

  private stringEnd(pos: number, quote: string): number {
    const src = this.src;
    for (let index = pos + 1; index < src.length; index++) {
      const char = src[index];
      if (char === "\\") index++;
      else if (char === quote) return index + 1;
      else if (char === "\n") break;
    }
    throw new ScanError(`unterminated string at ${pos}`);
  }

  private templateEnd(pos: number, parent: JsxElement | null): number {
    const src = this.src;
    let quasiStart = pos + 1;
    for (let index = pos + 1; index < src.length; index++) {
      const char = src[index];
      if (char === "\\") {
        index++;
      } else if (char === "`") {
        this.regions.push({ kind: "template", start: quasiStart, end: index });
        return index + 1;
      } else if (char === "$" && src[index + 1] === "{") {
        this.regions.push({ kind: "template", start: quasiStart, end: index });
        index = this.skipJs(index + 2, "}", parent);
        quasiStart = index + 1;
      }
    }
    throw new ScanError(`unterminated template literal at ${pos}`);
  }

  private regexEnd(pos: number): number {
    const src = this.src;
    let inClass = false;
    for (let index = pos + 1; index < src.length; index++) {
      const char = src[index];
      if (char === "\\") index++;
      else if (char === "[") inClass = true;
      else if (char === "]") inClass = false;
      else if (char === "/" && !inClass) {
        let end = index + 1;
        while (/[a-z]/i.test(src[end] ?? "")) end++;
        return end;
      } else if (char === "\n") break;
    }
    throw new ScanError(`unterminated regular expression at ${pos}`);
  }
}

export function scanModule(source: string): ScannedModule {
  return new TsxScanner(source).scan();
}

// ---------------------------------------------------------------------------------------------
// Slides.

export type LocatedSlide = {
  /** 1-based position among the deck's top-level slides. */
  number: number;
  start: number;
  end: number;
  /** The element's source text, byte for byte. */
  text: string;
  /** The static `label`, whitespace-normalised; null when absent or computed. */
  label: string | null;
  element: JsxElement;
};

export type LocatedDeck = {
  slides: LocatedSlide[];
  /** Slides made elsewhere (helpers, .map(), fragments) that slide numbers would not count. */
  hiddenSlides: boolean;
  scanned: ScannedModule;
};

/** The top-level <Slide> (or <Beat>) elements inside <Deck>, in source order. */
export function locateSlides(source: string, format: DeckFormat): LocatedDeck {
  let scanned: ScannedModule;
  try {
    scanned = scanModule(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      "invalid_request",
      `The offline editor could not read this deck's source (${reason}); this edit needs an AI model (set OPENAI_API_KEY)`,
      { cause: error },
    );
  }
  const sectionNames = sectionAliases(source, format === "slides" ? "Slide" : "Beat");
  const deckNames = sectionAliases(source, "Deck");
  const deck = scanned.elements.find((element) => deckNames.has(element.name));
  if (!deck) return { slides: [], hiddenSlides: true, scanned };

  const slides: LocatedSlide[] = [];
  let hiddenSlides = false;
  for (const child of deck.children) {
    if (child.kind === "element" && sectionNames.has(child.element.name)) {
      const element = child.element;
      slides.push({
        number: slides.length + 1,
        start: element.start,
        end: element.end,
        text: source.slice(element.start, element.end),
        label: readLabel(source, element),
        element,
      });
    } else if (child.kind === "element" || (child.kind === "expression" && !child.empty)) {
      hiddenSlides = true;
    }
  }
  const topLevel = new Set(slides.map((slide) => slide.element));
  if (scanned.elements.some((element) => sectionNames.has(element.name) && !topLevel.has(element))) hiddenSlides = true;
  return { slides, hiddenSlides, scanned };
}

function sectionAliases(source: string, component: string): Set<string> {
  const names = new Set([component]);
  const pattern = new RegExp(`\\b${component}\\s+as\\s+([A-Za-z_$][\\w$]*)`, "g");
  for (const match of source.matchAll(pattern)) if (match[1]) names.add(match[1]);
  return names;
}

function readLabel(source: string, element: JsxElement): string | null {
  const value = findAttribute(element, "label")?.value;
  const literal = value ? readStaticValue(source, value) : null;
  const normalized = literal?.replace(/\s+/g, " ").trim();
  return normalized ? normalized : null;
}

function findAttribute(element: JsxElement, name: string): JsxAttribute | undefined {
  // The last one wins, as it does at runtime.
  return element.attributes.filter((attribute) => attribute.name === name).at(-1);
}

function readStaticValue(source: string, value: AttributeValue): string | null {
  if (value.kind === "string")
    return decodeRegion(source, { kind: "jsx-attr", start: value.start, end: value.end }).text;
  if (value.kind !== "expression") return null;
  const inner = source.slice(value.start + 1, value.end - 1).trim();
  const literal = /^(["'])([\s\S]*)\1$/.exec(inner) ?? /^(`)([^`$]*|(?:[^`$]|\$(?!\{))*)`$/.exec(inner);
  if (!literal) return null;
  const body = literal[2] ?? "";
  return decodeRegion(body, { kind: literal[1] === "`" ? "template" : "string", start: 0, end: body.length }).text;
}

// ---------------------------------------------------------------------------------------------
// Decoding and encoding text in its syntactic context.

type Decoded = { text: string; /** Raw offset of each decoded character, plus the end. */ offsets: number[] };

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeRegion(source: string, region: TextRegion): Decoded {
  let text = "";
  const offsets: number[] = [];
  const push = (value: string, at: number) => {
    for (const unit of value.split("")) {
      text += unit;
      offsets.push(at);
    }
  };
  let pos = region.start;
  while (pos < region.end) {
    const char = source[pos] ?? "";
    if ((region.kind === "jsx-text" || region.kind === "jsx-attr") && char === "&") {
      const entity = /^&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/i.exec(source.slice(pos, pos + 12));
      const name = entity?.[1];
      const value = name
        ? name.startsWith("#x") || name.startsWith("#X")
          ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
          : name.startsWith("#")
            ? String.fromCodePoint(Number.parseInt(name.slice(1), 10))
            : entities[name.toLowerCase()]
        : undefined;
      if (entity && value !== undefined) {
        push(value, pos);
        pos += entity[0].length;
        continue;
      }
    }
    if ((region.kind === "string" || region.kind === "template") && char === "\\") {
      const { value, length } = decodeEscape(source, pos);
      push(value, pos);
      pos += length;
      continue;
    }
    push(char, pos);
    pos++;
  }
  offsets.push(region.end);
  return { text, offsets };
}

function decodeEscape(source: string, pos: number): { value: string; length: number } {
  const next = source[pos + 1] ?? "";
  const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };
  if (next in simple && !(next === "0" && /[0-9]/.test(source[pos + 2] ?? ""))) {
    return { value: simple[next] ?? "", length: 2 };
  }
  if (next === "x")
    return { value: String.fromCharCode(Number.parseInt(source.slice(pos + 2, pos + 4), 16)), length: 4 };
  if (next === "u" && source[pos + 2] === "{") {
    const close = source.indexOf("}", pos);
    return { value: String.fromCodePoint(Number.parseInt(source.slice(pos + 3, close), 16)), length: close - pos + 1 };
  }
  if (next === "u")
    return { value: String.fromCharCode(Number.parseInt(source.slice(pos + 2, pos + 6), 16)), length: 6 };
  if (next === "\r" && source[pos + 2] === "\n") return { value: "", length: 3 };
  if (next === "\n" || next === "\r" || next === "\u2028" || next === "\u2029") return { value: "", length: 2 };
  return { value: next, length: 2 };
}

function encodeJsString(value: string, quote: string): string {
  const json = JSON.stringify(value).slice(1, -1);
  if (quote === '"') return json;
  return json.replace(/\\.|'/g, (match) => (match === '\\"' ? '"' : match === "'" ? "\\'" : match));
}

function encodeTemplate(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

// ---------------------------------------------------------------------------------------------
// Instructions.

type SlideRef = { kind: "number"; number: number } | { kind: "label"; label: string } | { kind: "last" };

type MoveTarget =
  | { kind: "position"; position: number }
  | { kind: "before"; ref: SlideRef }
  | { kind: "after"; ref: SlideRef }
  | { kind: "start" }
  | { kind: "end" };

type Command =
  | { kind: "replace"; from: string; to: string }
  | { kind: "rename"; ref: SlideRef; label: string }
  | { kind: "remove"; refs: SlideRef[] }
  | { kind: "duplicate"; ref: SlideRef }
  | { kind: "move"; ref: SlideRef; target: MoveTarget }
  | { kind: "swap"; a: SlideRef; b: SlideRef };

const capabilities =
  'Offline, without an AI model, Deckhand can only replace quoted text ("old" → "new", replace "old" with "new"), rename a slide (rename slide 3 to "Results"), remove or duplicate a slide, and reorder slides (move slide 5 to position 2, move "Pricing" before "Team", swap slides 2 and 4).';

function refuse(detail: string): never {
  throw new AppError(
    "invalid_request",
    `${detail} ${capabilities} This instruction needs an AI model (set OPENAI_API_KEY).`,
  );
}

const quotePairs: Record<string, string[]> = {
  '"': ['"', "”", "“"],
  "“": ["”", '"', "“"],
  "”": ["”", '"'],
  "„": ["“", "”", '"'],
  "‘": ["’", "'"],
  "'": ["'", "’"],
  "«": ["»"],
};

const Q = "\u0001";

/** Swaps quoted strings for placeholders so the rest of the instruction can be read with patterns. */
function extractQuoted(instruction: string): { text: string; quoted: string[] } {
  const quoted: string[] = [];
  let text = "";
  let pos = 0;
  while (pos < instruction.length) {
    const char = instruction[pos] ?? "";
    const closers = quotePairs[char];
    const prev = instruction[pos - 1] ?? " ";
    // A straight apostrophe inside a word ("don't") does not open a quote.
    const opens = closers !== undefined && (char !== "'" && char !== "’" ? true : /[\s(:,[{]/.test(prev));
    if (opens && closers) {
      let close = -1;
      // The matching closer wins over a stray other quote mark inside the quoted text.
      for (const closer of closers) {
        for (let index = pos + 1; index < instruction.length; index++) {
          if (instruction[index] !== closer) continue;
          if (
            (char === "'" || char === "‘") &&
            !/^(?:$|[\s.,;:!?)\]}→-])/.test(instruction.slice(index + 1, index + 2))
          ) {
            // A closing single quote ends a word: it is followed by a space, punctuation or the end.
            continue;
          }
          close = index;
          break;
        }
        if (close >= 0) break;
      }
      if (close < 0) refuse(`The quote that starts at "${instruction.slice(pos, pos + 20)}" is never closed.`);
      quoted.push(instruction.slice(pos + 1, close));
      text += `${Q}${quoted.length - 1}${Q}`;
      pos = close + 1;
      continue;
    }
    text += char;
    pos++;
  }
  return { text, quoted };
}

const verbs =
  "(?:replace|change|rename|relabel|remove|delete|drop|duplicate|copy|clone|move|put|place|swap|switch|exchange)";
const arrow = "(?:→|->|=>|⟶|➔|➜|⇒|—>|–>)";
const QUOTE_TOKEN = `${Q}(\\d+)${Q}`;

function splitClauses(text: string): string[] {
  const separator = new RegExp(
    `\\s*(?:,\\s*(?:and\\s+)?(?:then\\s+)?|\\s+and\\s+(?:then\\s+)?|\\s+then\\s+)(?=(?:also\\s+)?${verbs}\\b|${Q}\\d+${Q}\\s*${arrow})`,
    "gi",
  );
  return text
    .split(/\n|;|(?<=[.!?])\s+|[.!?]+$/)
    .flatMap((part) => part.split(separator))
    .map((part) =>
      part
        .trim()
        .replace(/^(?:(?:please|also|then|and|now|finally|next|first|lastly)\b[\s,:]*)+/i, "")
        .replace(/[\s.!,]+$/, "")
        .replace(/\s+please$/i, "")
        .trim(),
    )
    .filter((part) => part.length > 0);
}

const ordinals: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

const SECTION = "(?:slide|beat|section|page)";

function parseRef(raw: string, quoted: string[], bareNumber = false): SlideRef | null {
  const text = raw.trim().replace(/^the\s+/i, "");
  const numbered = new RegExp(`^${SECTION}\\s*(?:number\\s+|no\\.?\\s*|#\\s*)?(\\d+)$`, "i").exec(text);
  if (numbered) return { kind: "number", number: Number(numbered[1]) };
  const ordinal = new RegExp(`^(\\d+)(?:st|nd|rd|th)\\s+${SECTION}$`, "i").exec(text);
  if (ordinal) return { kind: "number", number: Number(ordinal[1]) };
  const word = new RegExp(
    `^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\\s+${SECTION}$`,
    "i",
  ).exec(text);
  if (word) {
    const key = (word[1] ?? "").toLowerCase();
    return key === "last" ? { kind: "last" } : { kind: "number", number: ordinals[key] ?? 0 };
  }
  const label = new RegExp(
    `^(?:${SECTION}\\s+(?:called\\s+|named\\s+|labell?ed\\s+|titled\\s+)?)?${QUOTE_TOKEN}(?:\\s+${SECTION})?$`,
    "i",
  ).exec(text);
  if (label) return { kind: "label", label: quoted[Number(label[1])] ?? "" };
  if (bareNumber && /^#?\d+$/.test(text)) return { kind: "number", number: Number(text.replace("#", "")) };
  return null;
}

function parseRefList(raw: string, quoted: string[]): SlideRef[] | null {
  const plural = new RegExp(`^(?:the\\s+)?${SECTION}s\\s+(.+)$`, "i").exec(raw.trim());
  const body = plural ? (plural[1] ?? "") : raw;
  const parts = body.split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)/i).filter((part) => part.length > 0);
  const refs = parts.map((part) => parseRef(part, quoted, plural !== null));
  return refs.length > 0 && refs.every((ref): ref is SlideRef => ref !== null) ? refs : null;
}

function parseCommand(clause: string, quoted: string[]): Command | null {
  const quote = (token: string | undefined) => quoted[Number(token)] ?? "";
  let match = new RegExp(`^${QUOTE_TOKEN}\\s*${arrow}\\s*${QUOTE_TOKEN}$`, "i").exec(clause);
  if (match) return { kind: "replace", from: quote(match[1]), to: quote(match[2]) };
  match = new RegExp(
    `^(?:replace|change|substitute|swap out)\\s+(?:(?:all|every)\\s+(?:occurrences?\\s+of\\s+)?)?(?:the\\s+)?(?:text|word|words|phrase|copy|wording)?\\s*${QUOTE_TOKEN}\\s+(?:with|to|by|into|for)\\s+(?:the\\s+)?(?:text\\s+)?${QUOTE_TOKEN}(?:\\s+everywhere)?$`,
    "i",
  ).exec(clause);
  if (match) return { kind: "replace", from: quote(match[1]), to: quote(match[2]) };

  match = new RegExp(`^(?:rename|relabel)\\s+(.+?)\\s+(?:to|as|into)\\s+${QUOTE_TOKEN}$`, "i").exec(clause);
  match ??= new RegExp(
    `^(?:change|set)\\s+(?:the\\s+)?(?:label|name)\\s+of\\s+(.+?)\\s+to\\s+${QUOTE_TOKEN}$`,
    "i",
  ).exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "rename", ref, label: quote(match[2]) } : null;
  }

  match = /^(?:remove|delete|drop)\s+(.+)$/i.exec(clause);
  if (match) {
    const refs = parseRefList(match[1] ?? "", quoted);
    return refs ? { kind: "remove", refs } : null;
  }

  match = /^(?:duplicate|copy|clone)\s+(.+)$/i.exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "duplicate", ref } : null;
  }

  match = /^(?:swap|switch|exchange)\s+(.+?)\s+(?:and|with|&)\s+(.+)$/i.exec(clause);
  if (match) {
    const plural = new RegExp(`^(?:the\\s+)?${SECTION}s\\s+`, "i");
    const first = (match[1] ?? "").replace(plural, "");
    const bare = plural.test(match[1] ?? "");
    const a = parseRef(first, quoted, bare);
    const b = parseRef(match[2] ?? "", quoted, bare);
    return a && b ? { kind: "swap", a, b } : null;
  }

  match = new RegExp(
    `^(?:move|put|place)\\s+(.+?)\\s+(?:to\\s+|into\\s+|at\\s+)?(?:the\\s+)?(?:position|slot|place|spot)\\s+(?:number\\s+|#\\s*)?(\\d+)$`,
    "i",
  ).exec(clause);
  match ??= new RegExp(
    `^(?:move|put|place)\\s+(.+?)\\s+to\\s+(?:be\\s+)?(?:the\\s+)?(\\d+)(?:st|nd|rd|th)?(?:\\s+(?:${SECTION}|position|place))?$`,
    "i",
  ).exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "move", ref, target: { kind: "position", position: Number(match[2]) } } : null;
  }
  match =
    /^(?:move|put|place)\s+(.+?)\s+(?:to\s+)?(?:the\s+)?(start|beginning|front|top|end|bottom|back)(?:\s+of\s+the\s+deck)?$/i.exec(
      clause,
    );
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    const atStart = /^(?:start|beginning|front|top)$/i.test(match[2] ?? "");
    return ref ? { kind: "move", ref, target: atStart ? { kind: "start" } : { kind: "end" } } : null;
  }
  match =
    /^(?:move|put|place)\s+(.+?)\s+(?:to\s+)?(before|after|above|below|ahead\s+of|in\s+front\s+of|behind|right\s+before|right\s+after|just\s+before|just\s+after)\s+(.+)$/i.exec(
      clause,
    );
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    const target = parseRef(match[3] ?? "", quoted);
    const before = /before|above|ahead|front/i.test(match[2] ?? "");
    if (!ref || !target) return null;
    return { kind: "move", ref, target: before ? { kind: "before", ref: target } : { kind: "after", ref: target } };
  }
  return null;
}

function parseInstruction(instruction: string): Command[] {
  const { text, quoted } = extractQuoted(instruction);
  const commands: Command[] = [];
  for (const clause of splitClauses(text)) {
    const command = parseCommand(clause, quoted);
    if (!command) {
      const shown = clause.replace(
        new RegExp(QUOTE_TOKEN, "g"),
        (_, index: string) => `"${quoted[Number(index)] ?? ""}"`,
      );
      refuse(`The offline editor does not understand "${shown}".`);
    }
    commands.push(command);
  }
  if (commands.length === 0) refuse("The instruction is empty.");
  return commands;
}

// ---------------------------------------------------------------------------------------------
// Applying commands.

type State = {
  source: string;
  /** Identity of each current slide, in order; original slides are 0..n-1, copies get new ids. */
  ids: number[];
  nextId: number;
  originalCount: number;
  hiddenSlides: boolean;
};

export function editOfflineDeck(input: { source: string; instruction: string; format: DeckFormat }): OfflineEdit {
  const commands = parseInstruction(input.instruction);
  const noun = input.format === "slides" ? "slide" : "beat";
  const initial = locateSlides(input.source, input.format);
  const state: State = {
    source: input.source,
    ids: initial.slides.map((_, index) => index),
    nextId: initial.slides.length,
    originalCount: initial.slides.length,
    hiddenSlides: initial.hiddenSlides,
  };
  const summary: string[] = [];
  for (const command of commands) summary.push(applyCommand(state, command, input.format, noun));

  const final = locateSlides(state.source, input.format);
  if (final.slides.length !== state.ids.length) {
    throw new Error("offline edit lost track of the deck's slides");
  }
  return { source: state.source, summary: `${summary.join("; ")}.` };
}

function applyCommand(state: State, command: Command, format: DeckFormat, noun: string): string {
  if (command.kind === "replace") return applyReplace(state, command.from, command.to);

  const deck = locateSlides(state.source, format);
  if (deck.slides.length === 0) {
    refuse(`This deck has no <${format === "slides" ? "Slide" : "Beat"}> elements written directly inside <Deck>.`);
  }
  const resolve = (ref: SlideRef): number => resolveRef(state, deck, ref, noun);
  const describe = (index: number) => {
    const slide = deck.slides[index];
    return `${noun} ${index + 1}${slide?.label ? ` "${slide.label}"` : ""}`;
  };

  switch (command.kind) {
    case "rename": {
      const index = resolve(command.ref);
      const label = command.label.replace(/\s+/g, " ").trim();
      if (!label) refuse("A slide label cannot be empty.");
      const slide = deck.slides[index];
      if (!slide) throw new Error("unreachable");
      const text = setLabel(state.source, slide, label);
      state.source = spliceSlides(
        state.source,
        deck.slides,
        deck.slides.map((other) => (other === slide ? text : other.text)),
      );
      return `renamed ${describe(index)} to "${label}"`;
    }
    case "remove": {
      const indexes = [...new Set(command.refs.map(resolve))].sort((a, b) => a - b);
      if (indexes.length >= deck.slides.length)
        refuse(`A deck needs at least one ${noun}; this would remove all of them.`);
      const described = indexes.map(describe);
      state.source = removeSlides(state.source, deck.slides, new Set(indexes));
      state.ids = state.ids.filter((_, index) => !indexes.includes(index));
      return `removed ${described.join(", ")}`;
    }
    case "duplicate": {
      const index = resolve(command.ref);
      const slide = deck.slides[index];
      if (!slide) throw new Error("unreachable");
      const taken = new Set(deck.slides.map((other) => other.label?.toLowerCase()).filter(Boolean));
      const base = `${slide.label ?? `${capitalize(noun)} ${index + 1}`} (copy)`;
      let label = base;
      for (let suffix = 2; taken.has(label.toLowerCase()); suffix++) label = `${base.slice(0, -1)} ${suffix})`;
      const copy = setLabel(state.source, slide, label);
      state.source = insertAfter(state.source, deck.slides, index, copy);
      state.ids.splice(index + 1, 0, state.nextId++);
      return `duplicated ${describe(index)} as "${label}"`;
    }
    case "move": {
      const from = resolve(command.ref);
      const order = deck.slides.map((_, index) => index);
      order.splice(from, 1);
      let to: number;
      let where: string;
      const target = command.target;
      if (target.kind === "position") {
        if (target.position < 1 || target.position > deck.slides.length) {
          refuse(`There is no position ${target.position}; the deck has ${deck.slides.length} ${noun}s.`);
        }
        to = target.position - 1;
        where = `to position ${target.position}`;
      } else if (target.kind === "start" || target.kind === "end") {
        to = target.kind === "start" ? 0 : order.length;
        where = `to the ${target.kind}`;
      } else {
        const anchor = resolve(target.ref);
        if (anchor === from) refuse(`Cannot move ${describe(from)} ${target.kind} itself.`);
        to = order.indexOf(anchor) + (target.kind === "after" ? 1 : 0);
        where = `${target.kind} ${describe(anchor)}`;
      }
      order.splice(to, 0, from);
      reorder(state, deck, order);
      return `moved ${describe(from)} ${where}`;
    }
    case "swap": {
      const a = resolve(command.a);
      const b = resolve(command.b);
      if (a === b) refuse(`Cannot swap ${describe(a)} with itself.`);
      const order = deck.slides.map((_, index) => index);
      order[a] = b;
      order[b] = a;
      reorder(state, deck, order);
      return `swapped ${describe(a)} and ${describe(b)}`;
    }
  }
}

function resolveRef(state: State, deck: LocatedDeck, ref: SlideRef, noun: string): number {
  if (ref.kind === "last") return deck.slides.length - 1;
  if (ref.kind === "number") {
    if (state.hiddenSlides) {
      refuse(
        `This deck makes some ${noun}s outside <Deck>'s direct children, so ${noun} numbers are ambiguous offline; refer to the ${noun} by its quoted label instead.`,
      );
    }
    // Numbers name slides as the deck was before this instruction, so "remove slides 2 and 3" means both originals.
    if (ref.number < 1 || ref.number > state.originalCount) {
      refuse(`There is no ${noun} ${ref.number}; the deck has ${state.originalCount} ${noun}s.`);
    }
    const index = state.ids.indexOf(ref.number - 1);
    if (index < 0) refuse(`${capitalize(noun)} ${ref.number} was already removed earlier in this instruction.`);
    return index;
  }
  const wanted = ref.label.replace(/\s+/g, " ").trim().toLowerCase();
  const matches = deck.slides.filter((slide) => slide.label?.toLowerCase() === wanted);
  if (matches.length > 1) {
    refuse(
      `Several ${noun}s are labelled "${ref.label}"; refer to one by number (e.g. ${noun} ${matches[0]?.number}).`,
    );
  }
  const match = matches[0];
  if (!match) {
    const labels = deck.slides.map((slide) => `"${slide.label ?? `${capitalize(noun)} ${slide.number}`}"`).join(", ");
    refuse(`No ${noun} is labelled "${ref.label}". The ${noun}s are: ${labels}.`);
  }
  return match.number - 1;
}

function reorder(state: State, deck: LocatedDeck, order: number[]): void {
  state.source = spliceSlides(
    state.source,
    deck.slides,
    order.map((index) => deck.slides[index]?.text ?? ""),
  );
  state.ids = order.map((index) => state.ids[index] ?? -1);
}

/** Writes new element texts into the slides' places; whatever lies between slides stays put. */
function spliceSlides(source: string, slides: LocatedSlide[], texts: string[]): string {
  let result = "";
  let cursor = 0;
  slides.forEach((slide, index) => {
    result += source.slice(cursor, slide.start) + (texts[index] ?? "");
    cursor = slide.end;
  });
  return result + source.slice(cursor);
}

/** Removes slides together with the whitespace that led up to each, so no blank gaps remain. */
function removeSlides(source: string, slides: LocatedSlide[], remove: Set<number>): string {
  let result = "";
  let cursor = 0;
  slides.forEach((slide, index) => {
    if (!remove.has(index)) return;
    const leadStart = leadingSpaceStart(source, slide.start, cursor);
    result += source.slice(cursor, leadStart);
    cursor = slide.end;
  });
  return result + source.slice(cursor);
}

function insertAfter(source: string, slides: LocatedSlide[], index: number, text: string): string {
  const slide = slides[index];
  if (!slide) return source;
  const lead = source.slice(leadingSpaceStart(source, slide.start, 0), slide.start) || "\n";
  return source.slice(0, slide.end) + lead + text + source.slice(slide.end);
}

function leadingSpaceStart(source: string, start: number, floor: number): number {
  let index = start;
  while (index > floor && /\s/.test(source[index - 1] ?? "")) index--;
  return index;
}

/** The slide's text with its `label` set, keeping the attribute's quoting style where it can. */
function setLabel(source: string, slide: LocatedSlide, label: string): string {
  const attribute = findAttribute(slide.element, "label");
  const offset = slide.start;
  const text = slide.text;
  const value = attribute?.value;
  if (attribute && value) {
    const replacement = encodeLabel(source, value, label);
    const start = (value.kind === "string" ? value.start - 1 : value.start) - offset;
    const end = (value.kind === "string" ? value.end + 1 : value.end) - offset;
    return text.slice(0, start) + replacement + text.slice(end);
  }
  const encoded = /^[^"&\n\r]*$/.test(label) ? `"${label}"` : `{${JSON.stringify(label)}}`;
  if (attribute) {
    return text.slice(0, attribute.end - offset) + `=${encoded}` + text.slice(attribute.end - offset);
  }
  const nameEnd = 1 + slide.element.name.length;
  return `${text.slice(0, nameEnd)} label=${encoded}${text.slice(nameEnd)}`;
}

/** A label value in the style the author used: attribute string, or the same literal in braces. */
function encodeLabel(source: string, value: AttributeValue, label: string): string {
  if (value.kind === "string" && !new RegExp(`[${value.quote}&\\n\\r]`).test(label)) {
    return `${value.quote}${label}${value.quote}`;
  }
  if (value.kind === "expression") {
    const inner = source.slice(value.start + 1, value.end - 1).trim();
    const quote = inner.charAt(0);
    if ((quote === '"' || quote === "'") && readStaticValue(source, value) !== null) {
      return `{${quote}${encodeJsString(label, quote)}${quote}}`;
    }
    if (quote === "`" && readStaticValue(source, value) !== null) return `{\`${encodeTemplate(label)}\`}`;
  }
  return /^[^"&\n\r]*$/.test(label) ? `"${label}"` : `{${JSON.stringify(label)}}`;
}

function applyReplace(state: State, from: string, to: string): string {
  if (from.length === 0) refuse("The text to replace is empty.");
  if (from === to) return `left "${from}" as it is`;
  const { regions } = (() => {
    try {
      return scanModule(state.source);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return refuse(`The offline editor could not read this deck's source (${reason}).`);
    }
  })();
  const edits: Array<{ start: number; end: number; text: string }> = [];
  let count = 0;
  for (const region of regions) {
    if (region.module) continue;
    const decoded = decodeRegion(state.source, region);
    const matches = findMatches(decoded.text, from, region.kind === "jsx-text");
    if (matches.length === 0) continue;
    count += matches.length;
    if (region.kind === "jsx-attr" && needsExpression(to, region.quote ?? '"')) {
      // A JSX attribute string has no escapes: the whole value becomes a string expression.
      let value = "";
      let cursor = 0;
      for (const match of matches) {
        value += decoded.text.slice(cursor, match.start) + to;
        cursor = match.end;
      }
      value += decoded.text.slice(cursor);
      edits.push({ start: region.start - 1, end: region.end + 1, text: `{${JSON.stringify(value)}}` });
      continue;
    }
    for (const match of matches) {
      edits.push({
        start: decoded.offsets[match.start] ?? region.start,
        end: decoded.offsets[match.end] ?? region.end,
        text: encodeFor(region, to),
      });
    }
  }
  if (count === 0) {
    throw new AppError(
      "invalid_request",
      `The text "${from}" does not occur in the deck, so it cannot be replaced; quote the exact words as they appear on the slide. Nothing was changed.`,
    );
  }
  edits.sort((a, b) => b.start - a.start);
  let source = state.source;
  for (const edit of edits) source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
  state.source = source;
  return `replaced "${from}" with "${to}" (${count} occurrence${count === 1 ? "" : "s"})`;
}

function findMatches(text: string, needle: string, flexibleSpace: boolean): Array<{ start: number; end: number }> {
  const matches: Array<{ start: number; end: number }> = [];
  if (flexibleSpace) {
    // JSX text wraps across lines; a quoted phrase matches however its spaces were laid out.
    const pattern = new RegExp(
      needle
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("\\s+"),
      "g",
    );
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0) matches.push({ start: match.index, end: match.index + match[0].length });
    }
    return matches;
  }
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + needle.length)) {
    matches.push({ start: index, end: index + needle.length });
  }
  return matches;
}

function needsExpression(value: string, quote: string): boolean {
  return value.includes(quote) || /[&\n\r]/.test(value);
}

function encodeFor(region: TextRegion, value: string): string {
  switch (region.kind) {
    case "string":
      return encodeJsString(value, region.quote ?? '"');
    case "template":
      return encodeTemplate(value);
    case "jsx-attr":
      return value;
    case "jsx-text":
      return /^[^{}<>&\n\r]*$/.test(value) ? value : `{${JSON.stringify(value)}}`;
  }
}
