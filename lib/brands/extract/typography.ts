import valueParser from "postcss-value-parser";
import type { Typography } from "@/lib/brands/brand-book";
import { findShippedFont, isGenericFamily, parseFontFamilyList } from "@/lib/contract/fonts";
import { resolveFontSizePx } from "./css-length";
import type { CssModel, CssRule } from "./css-model";
import { parseCompound, splitSelectorList, subjectOf } from "./css-selector";
import { parseFontServiceUrl } from "./font-services";

// Typography: which faces the page sets for body text, headings and code, how heavy, and how big
// headings are relative to body text. Font-service links and @font-face rules are supporting evidence:
// a loaded face that a rule also names is almost certainly the brand's.

type FontRole = Typography["body"];
type Category = FontRole["category"];
type RoleName = "body" | "heading" | "mono";

type Evidence = { score: number; sources: Set<string>; stack: string[] };

const systemKeywords = new Set([
  "-apple-system",
  "blinkmacsystemfont",
  "system-ui",
  "ui-sans-serif",
  "ui-serif",
  "ui-monospace",
  "ui-rounded",
]);

// Faces that stand in for "the operating system's UI font" in hand-written system stacks.
const systemStackFaces = new Set([
  "segoe ui",
  "roboto",
  "helvetica neue",
  "helvetica",
  "arial",
  "noto sans",
  "ubuntu",
  "cantarell",
  "oxygen",
  "oxygen-sans",
  "fira sans",
  "droid sans",
  "liberation sans",
  "apple color emoji",
  "segoe ui emoji",
  "segoe ui symbol",
  "noto color emoji",
]);

const systemMonoFaces = new Set([
  "sfmono-regular",
  "sf mono",
  "menlo",
  "monaco",
  "consolas",
  "liberation mono",
  "courier new",
  "courier",
  "lucida console",
]);

/** The face a font-family stack chooses, or null when it only asks for the system's or a generic one. */
export function chooseFamily(stack: readonly string[]): string | null {
  const keyword = stack.findIndex((family) => systemKeywords.has(family.toLowerCase()));
  const considered = keyword >= 0 ? stack.slice(0, keyword) : stack;
  const first = considered.find((family) => !isGenericFamily(family));
  if (!first) return null;
  const lower = first.toLowerCase();
  if (systemMonoFaces.has(lower)) return null;
  if (lower === "segoe ui" || lower === "roboto") {
    // "Segoe UI", Roboto, "Helvetica Neue", Arial: a system stack without the keywords.
    const systemMembers = stack.filter((family) => systemStackFaces.has(family.toLowerCase())).length;
    if (systemMembers >= 3) return null;
  }
  return first;
}

const categoryByShipped: Record<string, Category> = {
  sans: "sans-serif",
  serif: "serif",
  mono: "monospace",
  display: "display",
};

function categorize(family: string, stack: readonly string[] = []): Category {
  const shipped = findShippedFont(family);
  if (shipped) return categoryByShipped[shipped.category] ?? "sans-serif";
  const generic = stack.map((item) => item.toLowerCase()).find((item) => isGenericFamily(item));
  if (generic === "monospace" || generic === "ui-monospace") return "monospace";
  if (generic === "serif" || generic === "ui-serif") return "serif";
  if (generic === "cursive" || generic === "fantasy") return "display";
  if (generic === "sans-serif" || generic === "ui-sans-serif" || generic === "system-ui") return "sans-serif";
  const name = family.toLowerCase();
  if (/mono|code|courier/.test(name)) return "monospace";
  if (/sans|grotesk|grotesque|gothic|helvetica|arial/.test(name)) return "sans-serif";
  if (/display|script|hand/.test(name)) return "display";
  if (/serif|garamond|baskerville|times|georgia|caslon|bodoni|didot|roman|slab/.test(name)) return "serif";
  return "sans-serif";
}

/** `font: italic 700 1.25rem/1.4 "Inter", sans-serif` → its weight, size and family list. */
export function readFontShorthand(value: string): {
  weight: number | null;
  size: string | null;
  families: string | null;
} {
  const nodes = valueParser(value).nodes;
  let weight: number | null = null;
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.type === "space") continue;
    const word = node.type === "word" ? node.value.toLowerCase() : "";
    const numeric = readWeight(word);
    if (numeric !== null) {
      // A bare number before the size is the weight (sizes need a unit).
      weight = numeric;
      continue;
    }
    const dimension = node.type === "word" ? valueParser.unit(word) : false;
    const isSize =
      (node.type === "function" && node.value !== "var") ||
      (dimension !== false && dimension.unit !== "") ||
      word === "0" ||
      /^(x*-?small|medium|x*-?large|smaller|larger)$/.test(word);
    if (!isSize) continue;
    let rest = index + 1;
    if (nodes[rest]?.type === "div" && nodes[rest]!.value === "/") rest += 2;
    while (nodes[rest]?.type === "space") rest++;
    return {
      weight,
      size: valueParser.stringify(node),
      families: valueParser.stringify(nodes.slice(rest)).trim() || null,
    };
  }
  return { weight, size: null, families: null };
}

function readWeight(word: string): number | null {
  if (word === "normal") return 400;
  if (word === "bold") return 700;
  if (!/^\d{3}$/.test(word)) return null;
  const weight = Number(word);
  return weight >= 100 && weight <= 1000 ? weight : null;
}

export function buildTypography(model: CssModel, fontStylesheets: readonly string[]): Typography {
  const evidence: Record<RoleName, Map<string, Evidence>> = { body: new Map(), heading: new Map(), mono: new Map() };
  const weights: Record<RoleName, Set<number>> = { body: new Set(), heading: new Set(), mono: new Set() };
  let bodyIsSystemStack: string[] | null = null;

  const note = (role: RoleName, family: string, score: number, source: string, stack: string[]) => {
    const key = family.toLowerCase();
    const entry = evidence[role].get(key) ?? { score: 0, sources: new Set<string>(), stack };
    entry.score += score;
    entry.sources.add(source);
    evidence[role].set(key, entry);
    familyNames.set(key, familyNames.get(key) ?? family);
  };
  const familyNames = new Map<string, string>();

  for (const rule of model.rules) {
    if (rule.state) continue;
    const roles = rolesOf(rule);
    if (!roles.length) continue;
    for (const declaration of rule.declarations) {
      let stackText: string | null = null;
      let weight: number | null = null;
      if (declaration.property === "font-family") stackText = declaration.value;
      else if (declaration.property === "font-weight") weight = readWeight(declaration.value.trim().toLowerCase());
      else if (declaration.property === "font") {
        const shorthand = readFontShorthand(declaration.value);
        stackText = shorthand.families;
        weight = shorthand.weight;
      }
      for (const { role, score } of roles) {
        if (weight !== null && score >= 2) weights[role].add(weight);
        if (!stackText) continue;
        const stack = parseFontFamilyList(stackText);
        const family = chooseFamily(stack);
        if (family) note(role, family, score, `${describe(rule.selector)} font-family`, stack);
        else if (role === "body" && rule.targets.has("root")) bodyIsSystemStack = stack;
      }
    }
  }

  for (const [name, value] of model.customProperties) {
    const words = name.toLowerCase().split(/[^a-z0-9]+/);
    if (!words.some((word) => word === "font" || word === "family" || word === "ff")) continue;
    const stack = parseFontFamilyList(value);
    const family = chooseFamily(stack);
    if (!family) continue;
    const role: RoleName = words.some((word) => ["mono", "code"].includes(word))
      ? "mono"
      : words.some((word) => ["heading", "headings", "display", "title", "headline"].includes(word))
        ? "heading"
        : "body";
    note(role, family, 2, `custom property ${name}`, stack);
  }

  // Loaded faces: font-service links (families named in the URL) and @font-face rules.
  const loaded = new Map<string, { weights: Set<number>; via: Set<string> }>();
  const load = (family: string, familyWeights: readonly number[], via: string) => {
    const key = family.toLowerCase();
    const entry = loaded.get(key) ?? { weights: new Set<number>(), via: new Set<string>() };
    for (const weight of familyWeights) entry.weights.add(weight);
    entry.via.add(via);
    loaded.set(key, entry);
    familyNames.set(key, familyNames.get(key) ?? family);
  };
  const serviceUrls = [...new Set([...fontStylesheets, ...model.fontImports])];
  for (const url of serviceUrls) {
    const via = url.includes("fonts.googleapis.com") ? "Google Fonts link" : "font stylesheet link";
    for (const item of parseFontServiceUrl(url)) load(item.family, item.weights, via);
  }
  for (const face of model.fontFaces) load(face.family, face.weights, "@font-face");

  const pick = (role: RoleName): { key: string; entry: Evidence } | null => {
    let best: { key: string; entry: Evidence; score: number } | null = null;
    for (const [key, entry] of evidence[role]) {
      const score = entry.score + (loaded.has(key) ? 2 : 0);
      if (!best || score > best.score) best = { key, entry, score };
    }
    return best;
  };

  const roleFor = (role: RoleName, chosen: { key: string; entry: Evidence }, declaredOnRoot: boolean): FontRole => {
    const family = familyNames.get(chosen.key) ?? chosen.key;
    const loadedBy = loaded.get(chosen.key);
    const sources = [...chosen.entry.sources].slice(0, 2);
    if (loadedBy) sources.push(`loaded via ${[...loadedBy.via].join(" and ")}`);
    const base = role === "body" ? (declaredOnRoot ? 0.75 : 0.55) : 0.7;
    const seenWeights = new Set([...weights[role], ...(loadedBy?.weights ?? [])]);
    return {
      family,
      category: categorize(family, chosen.entry.stack),
      weights: sortedWeights(seenWeights, role),
      source: sources.join("; "),
      confidence: Math.min(0.95, base + (loadedBy ? 0.15 : 0)),
    };
  };

  const bodyPick = pick("body");
  let body: FontRole;
  if (bodyPick) {
    const onRoot =
      [...bodyPick.entry.sources].some((source) => source.includes("custom property")) ||
      bodyHasRootFamily(model, bodyPick.key);
    body = roleFor("body", bodyPick, onRoot);
  } else {
    const headingKey = pick("heading")?.key;
    const unused = [...loaded].find(
      ([key]) => key !== headingKey && categorize(familyNames.get(key) ?? key) !== "monospace",
    );
    if (unused) {
      const [key, entry] = unused;
      const family = familyNames.get(key) ?? key;
      body = {
        family,
        category: categorize(family),
        weights: sortedWeights(new Set([...weights.body, ...entry.weights]), "body"),
        source: `loaded via ${[...entry.via].join(" and ")}, not named by a body rule`,
        confidence: 0.4,
      };
    } else {
      body = fallbackBody(bodyIsSystemStack, weights.body);
    }
  }

  const headingPick = pick("heading");
  const heading: FontRole = headingPick
    ? roleFor("heading", headingPick, false)
    : {
        ...body,
        weights: sortedWeights(weights.heading, "heading"),
        source: `same as body (headings declare no family of their own): ${body.source}`,
        confidence: Math.min(body.confidence, 0.5),
      };

  const monoPick = pick("mono");
  const mono = monoPick ? { ...roleFor("mono", monoPick, false), confidence: 0.6 } : null;

  const fontSources = [...new Set([...serviceUrls, ...model.fontFaces.flatMap((face) => face.sources)])].slice(0, 24);
  return { heading, body, mono, scale: readScale(model), fontSources };
}

function fallbackBody(systemStack: string[] | null, seen: Set<number>): FontRole {
  const serif = systemStack?.some((family) => ["ui-serif", "serif", "georgia"].includes(family.toLowerCase()));
  const family = serif ? "Source Serif 4" : "Inter";
  const reason = systemStack
    ? `the page uses a system font stack (${systemStack.slice(0, 3).join(", ")}); no brand face`
    : "the page names no font family (browser default)";
  return {
    family,
    category: serif ? "serif" : "sans-serif",
    weights: sortedWeights(seen, "body"),
    source: `${reason}; fell back to the shipped ${family}`,
    confidence: systemStack ? 0.25 : 0.15,
  };
}

function sortedWeights(weights: Set<number>, role: RoleName): number[] {
  const list = [...weights].filter((weight) => Number.isInteger(weight));
  if (!list.length) list.push(role === "heading" ? 700 : 400);
  return [...new Set(list)].sort((a, b) => a - b);
}

function bodyHasRootFamily(model: CssModel, key: string): boolean {
  return model.rules.some(
    (rule) =>
      rule.targets.has("root") &&
      rule.declarations.some((declaration) => {
        const stackText =
          declaration.property === "font-family"
            ? declaration.value
            : declaration.property === "font"
              ? readFontShorthand(declaration.value).families
              : null;
        return stackText ? chooseFamily(parseFontFamilyList(stackText))?.toLowerCase() === key : false;
      }),
  );
}

function rolesOf(rule: CssRule): { role: RoleName; score: number }[] {
  const roles: { role: RoleName; score: number }[] = [];
  const { targets } = rule;
  if (targets.has("code")) roles.push({ role: "mono", score: 5 });
  else if (targets.has("h1")) roles.push({ role: "heading", score: 5 });
  else if (targets.has("h2")) roles.push({ role: "heading", score: 4 });
  else if (targets.has("h3")) roles.push({ role: "heading", score: 3 });
  else if (targets.has("heading")) roles.push({ role: "heading", score: 2.5 });
  else if (targets.has("root")) roles.push({ role: "body", score: 10 });
  else if (targets.has("paragraph")) roles.push({ role: "body", score: 3 });
  else if (!targets.has("button")) roles.push({ role: "body", score: 0.5 });
  return roles;
}

function describe(selector: string): string {
  const compact = selector.replace(/\s+/g, " ").trim();
  return compact.length > 40 ? `${compact.slice(0, 37)}...` : compact;
}

// ---- scale ------------------------------------------------------------------------------------------

function readScale(model: CssModel): Typography["scale"] {
  let remPx = 16;
  for (const size of sizesFor(model, (rule) => subjectTags(rule).some((tag) => tag === "html" || tag === ":root"))) {
    remPx = resolveFontSizePx(size, { remPx: 16, emPx: 16 }) ?? remPx;
  }
  let basePx = remPx;
  for (const size of sizesFor(model, (rule) => subjectTags(rule).includes("body"))) {
    basePx = resolveFontSizePx(size, { remPx, emPx: remPx }) ?? basePx;
  }
  const estimates: number[] = [];
  (["h1", "h2", "h3"] as const).forEach((level, index) => {
    const sizes = sizesFor(model, (rule) => rule.targets.has(level));
    const last = sizes[sizes.length - 1];
    const px = last ? resolveFontSizePx(last, { remPx, emPx: basePx }) : null;
    if (!px || px <= basePx) return;
    // h3, h2, h1 sit one, two, three steps above body text.
    estimates.push(Math.pow(px / basePx, 1 / (3 - index)));
  });
  const ratio = estimates.length
    ? Math.exp(estimates.reduce((sum, estimate) => sum + Math.log(estimate), 0) / estimates.length)
    : 1.25;
  return {
    basePx: Math.round(basePx * 100) / 100,
    ratio: Math.round(Math.min(1.5, Math.max(1.125, ratio)) * 1000) / 1000,
  };
}

// Top-level rules first (as a desktop visitor without media-specific overrides sees them); media rules
// only when the top level says nothing.
function sizesFor(model: CssModel, matches: (rule: CssRule) => boolean): string[] {
  const read = (topLevel: boolean) =>
    model.rules
      .filter((rule) => !rule.state && (rule.media === null) === topLevel && matches(rule))
      .flatMap((rule) =>
        rule.declarations.flatMap((declaration) => {
          if (declaration.property === "font-size") return [declaration.value];
          if (declaration.property === "font") {
            const size = readFontShorthand(declaration.value).size;
            return size ? [size] : [];
          }
          return [];
        }),
      );
  const topLevel = read(true);
  return topLevel.length ? topLevel : read(false);
}

function subjectTags(rule: CssRule): string[] {
  if (!rule.targets.has("root")) return [];
  return splitSelectorList(rule.selector).map((selector) => {
    const compound = parseCompound(subjectOf(selector));
    return compound.pseudos.includes("root") ? ":root" : (compound.tag ?? "");
  });
}
