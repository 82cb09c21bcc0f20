// What a selector styles, judged from its subject (the last compound): the page itself, headings,
// buttons, links, chrome, cards... This is a small tokenizer over the selector grammar, enough to read
// tags, classes, ids, attributes and pseudo-classes; anything it cannot classify counts as "other".

export type Target =
  | "root"
  | "heading"
  | "h1"
  | "h2"
  | "h3"
  | "paragraph"
  | "button"
  | "link"
  | "header"
  | "footer"
  | "card"
  | "section"
  | "code"
  | "muted";

export type Compound = {
  tag: string | null;
  classes: string[];
  ids: string[];
  attributes: { name: string; value: string }[];
  pseudos: string[];
  /** Arguments of :is()/:where()/:matches(), which style the subject too. */
  inner: string[];
};

/** Classes seen on the page's own elements, by what those elements are (a class used on <button>s). */
export type ClassUsage = ReadonlyMap<string, ReadonlySet<"button" | "link" | "heading">>;

const statePseudos = new Set([
  "hover",
  "focus",
  "focus-visible",
  "focus-within",
  "active",
  "visited",
  "disabled",
  "checked",
  "invalid",
  "target",
  "before",
  "after",
  "placeholder",
  "selection",
  "marker",
  "-webkit-scrollbar",
  "-webkit-scrollbar-thumb",
  "-webkit-scrollbar-track",
  "backdrop",
  "file-selector-button",
]);

// Calls `visit` for every character outside quotes, escapes and ()/[] nesting.
function scanTopLevel(text: string, visit: (char: string, index: number) => void): void {
  let depth = 0;
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\") {
      index++;
      continue;
    }
    if (quote) {
      if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (depth === 0) visit(char, index);
  }
}

export function subjectOf(selector: string): string {
  let start = 0;
  scanTopLevel(selector, (char, index) => {
    if (char === ">" || char === "+" || char === "~" || /\s/.test(char)) start = index + 1;
  });
  return selector.slice(start).trim();
}

export function parseCompound(compound: string): Compound {
  const result: Compound = { tag: null, classes: [], ids: [], attributes: [], pseudos: [], inner: [] };
  let index = 0;
  const readIdent = (): string => {
    let ident = "";
    while (index < compound.length) {
      const char = compound[index]!;
      if (char === "\\") {
        ident += compound[index + 1] ?? "";
        index += 2;
      } else if (/[\w-]/.test(char) || char.charCodeAt(0) > 127) {
        ident += char;
        index++;
      } else break;
    }
    return ident;
  };
  const readBalanced = (open: string, close: string): string => {
    let depth = 0;
    const start = index;
    let quote: string | null = null;
    for (; index < compound.length; index++) {
      const char = compound[index]!;
      if (char === "\\") {
        index++;
        continue;
      }
      if (quote) {
        if (char === quote) quote = null;
        continue;
      }
      if (char === '"' || char === "'") quote = char;
      else if (char === open) depth++;
      else if (char === close && --depth === 0) {
        index++;
        return compound.slice(start + 1, index - 1);
      }
    }
    return compound.slice(start + 1);
  };

  while (index < compound.length) {
    const char = compound[index]!;
    if (char === "*" || char === "&") {
      index++;
    } else if (char === ".") {
      index++;
      result.classes.push(readIdent());
    } else if (char === "#") {
      index++;
      result.ids.push(readIdent());
    } else if (char === "[") {
      result.attributes.push(parseAttribute(readBalanced("[", "]")));
    } else if (char === ":") {
      while (compound[index] === ":") index++;
      const name = readIdent().toLowerCase();
      result.pseudos.push(name);
      if (compound[index] === "(") {
        const argument = readBalanced("(", ")");
        if (["is", "where", "matches", "-webkit-any", "-moz-any"].includes(name)) result.inner.push(argument);
      }
    } else {
      const ident = readIdent();
      if (!ident) index++;
      else if (result.tag === null) result.tag = ident.toLowerCase();
    }
  }
  return result;
}

function parseAttribute(text: string): { name: string; value: string } {
  const operator = /[~|^$*]?=/.exec(text);
  if (!operator) return { name: text.trim().toLowerCase(), value: "" };
  const name = text.slice(0, operator.index).trim().toLowerCase();
  let value = text.slice(operator.index + operator[0].length).trim();
  // Drop a trailing case flag (` i`) and the quotes.
  value = value.replace(/\s+[is]$/i, "");
  if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
    value = value.slice(1, -1);
  }
  return { name, value: value.toLowerCase() };
}

/** Class or id names broken into lower-case words: `btnPrimary`, `btn-primary`, `btn_primary` → btn, primary. */
export function nameWords(names: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const name of names) for (const word of wordsOf(name)) words.add(word);
  return words;
}

const wordCache = new Map<string, string[]>();

function wordsOf(name: string): string[] {
  let words = wordCache.get(name);
  if (!words) {
    words = name
      .replace(/([a-z])([A-Z])/g, "$1-$2")
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((part) => part.toLowerCase());
    // Utility-class stylesheets have tens of thousands of names; the cache only needs the recent ones.
    if (wordCache.size >= 10_000) wordCache.clear();
    wordCache.set(name, words);
  }
  return words;
}

const buttonWords = ["btn", "button", "cta"];
const headingWords = ["title", "heading", "headline", "display"];
const mutedWords = [
  "muted",
  "subtle",
  "meta",
  "caption",
  "secondary",
  "subtitle",
  "lead",
  "description",
  "note",
  "hint",
];
const cardWords = ["card", "tile", "panel", "surface", "callout", "well"];

export function classifySelector(selector: string, classUsage: ClassUsage): { targets: Set<Target>; state: boolean } {
  const compound = parseCompound(subjectOf(selector));
  const targets = classifyCompound(compound, classUsage);
  for (const inner of compound.inner) {
    for (const part of splitSelectorList(inner)) {
      for (const target of classifySelector(part, classUsage).targets) targets.add(target);
    }
  }
  return { targets, state: compound.pseudos.some((pseudo) => statePseudos.has(pseudo)) };
}

export function classifyCompound(compound: Compound, classUsage: ClassUsage): Set<Target> {
  const targets = new Set<Target>();
  const tag = compound.tag;
  const words = nameWords([...compound.classes, ...compound.ids]);
  const hasWord = (list: readonly string[]) => list.some((word) => words.has(word));
  const attribute = (name: string) => compound.attributes.find((item) => item.name === name);
  const usage = new Set(compound.classes.flatMap((name) => [...(classUsage.get(name) ?? [])]));

  if (tag === "html" || tag === "body" || compound.pseudos.includes("root")) targets.add("root");
  if (tag && /^h[1-6]$/.test(tag)) {
    targets.add("heading");
    if (tag === "h1" || tag === "h2" || tag === "h3") targets.add(tag);
  }
  if (tag === "p") targets.add("paragraph");

  const classAttribute = attribute("class")?.value ?? "";
  const isButton =
    tag === "button" ||
    (tag === "input" && ["submit", "button"].includes(attribute("type")?.value ?? "")) ||
    attribute("role")?.value === "button" ||
    hasWord(buttonWords) ||
    buttonWords.some((word) => classAttribute.includes(word)) ||
    usage.has("button");
  if (isButton) targets.add("button");
  else if (tag === "a" || (usage.has("link") && compound.classes.length > 0 && !tag)) targets.add("link");

  if (tag === "header" || tag === "nav" || hasWord(["header", "navbar", "nav", "topbar", "masthead"])) {
    targets.add("header");
  }
  if (tag === "footer" || words.has("footer")) targets.add("footer");
  if (!isButton && hasWord(cardWords)) targets.add("card");
  if (tag === "section" || tag === "aside" || hasWord(["section", "band", "hero"])) targets.add("section");
  if ((tag && ["code", "pre", "kbd", "samp"].includes(tag)) || hasWord(["code", "mono"])) targets.add("code");
  if (!isButton && ((tag && ["small", "figcaption", "caption"].includes(tag)) || hasWord(mutedWords))) {
    targets.add("muted");
  }
  if (!isButton && (hasWord(headingWords) || usage.has("heading")) && !words.has("sub") && !words.has("subtitle")) {
    targets.add("heading");
  }
  return targets;
}

/** Splits `a, b:is(c, d)` at its top-level commas. */
export function splitSelectorList(list: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanTopLevel(list, (char, index) => {
    if (char !== ",") return;
    parts.push(list.slice(start, index).trim());
    start = index + 1;
  });
  parts.push(list.slice(start).trim());
  return parts.filter(Boolean);
}
