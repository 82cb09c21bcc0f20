import { is as matchesSelector, selectAll } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import { getAttributeValue, textContent } from "domutils";
import postcss, { type ChildNode, type Container, type Root } from "postcss";
import valueParser from "postcss-value-parser";
import { parseFontFamilyList } from "@/lib/contract/fonts";
import {
  type ClassUsage,
  classifyCompound,
  classifySelector,
  nameWords,
  splitSelectorList,
  type Target,
} from "./css-selector";
import { isFontServiceUrl } from "./font-services";
import { resolveUrl, stylesheetLinks } from "./html-document";
import { extractionLimits } from "./limits";

// Every style the page applies, as a flat list of rules with var() already resolved: the <style>
// elements and fetched stylesheets in cascade order, then style="" attributes. Rules remember what they
// style (see css-selector.ts) so the palette, typography and imagery passes can weigh them.

type CssDeclaration = { property: string; value: string; important: boolean };

export type CssRule = {
  selector: string;
  targets: ReadonlySet<Target>;
  /** :hover, :focus, ::before and the like: seen only some of the time. */
  state: boolean;
  declarations: CssDeclaration[];
  /** Enclosing @media/@container conditions, or null at the top level. */
  media: string | null;
  origin: "stylesheet" | "style-element" | "style-attribute";
};

type FontFaceRule = { family: string; weights: number[]; sources: string[] };

export type CssModel = {
  rules: CssRule[];
  /** Custom properties that apply to the whole page (declared on :root, html or body), resolved; last wins. */
  customProperties: Map<string, string>;
  fontFaces: FontFaceRule[];
  /** Font-service stylesheets reached through @import. */
  fontImports: string[];
};

export type Stylesheet = { url: string; css: string };

type RawRule = Omit<CssRule, "declarations"> & { declarations: CssDeclaration[] };

const MAX_VAR_DEPTH = 16;

/**
 * Replaces each `var(--name, fallback)` with the property's value (or the fallback when the property is
 * not defined), recursively; an undefined property without fallback stays as written.
 */
export function resolveVars(value: string, properties: ReadonlyMap<string, string>): string {
  return resolveWithin(value, properties, new Set());
}

function resolveWithin(value: string, properties: ReadonlyMap<string, string>, seen: Set<string>): string {
  if (!value.toLowerCase().includes("var(") || seen.size > MAX_VAR_DEPTH) return value;
  return valueParser.stringify(valueParser(value).nodes, (node) => {
    if (node.type !== "function" || node.value.toLowerCase() !== "var") return undefined;
    const comma = node.nodes.findIndex((child) => child.type === "div" && child.value === ",");
    const name = node.nodes.find((child) => child.type === "word")?.value.trim() ?? "";
    const declared = properties.get(name);
    if (declared !== undefined && !seen.has(name)) {
      return resolveWithin(declared, properties, new Set([...seen, name])).trim();
    }
    if (comma >= 0) return resolveWithin(valueParser.stringify(node.nodes.slice(comma + 1)).trim(), properties, seen);
    return undefined;
  });
}

export function buildCssModel(document: Document, pageUrl: string, stylesheets: readonly Stylesheet[]): CssModel {
  const html = selectAll<AnyNode, Element>("html", document)[0] ?? null;
  const body = selectAll<AnyNode, Element>("body", document)[0] ?? null;
  const classUsage = readClassUsage(document);
  const context: WalkContext = {
    classUsage,
    html,
    body,
    rules: [],
    declarations: 0,
    fontFaces: [],
    fontImports: [],
  };

  for (const sheet of orderSheets(document, pageUrl, stylesheets)) {
    context.baseUrl = sheet.baseUrl;
    walk(sheet.root, null, null, sheet.origin, context);
  }
  readStyleAttributes(document, context);

  const rootProperties = new Map<string, string>();
  for (const rule of context.rules) {
    if (!rule.targets.has("root")) continue;
    for (const declaration of rule.declarations) {
      if (declaration.property.startsWith("--")) rootProperties.set(declaration.property, declaration.value);
    }
  }
  const rules = context.rules.map((rule) => resolveRule(rule, rootProperties));
  const customProperties = new Map(
    [...rootProperties].map(([name, value]) => [name, resolveVars(value, rootProperties).trim()]),
  );
  return { rules, customProperties, fontFaces: context.fontFaces, fontImports: [...new Set(context.fontImports)] };
}

function resolveRule(rule: RawRule, rootProperties: ReadonlyMap<string, string>): CssRule {
  // A rule's own custom properties shadow the page's for its other declarations (Tailwind's --tw-* idiom).
  const local = rule.declarations.filter((declaration) => declaration.property.startsWith("--"));
  const scope = local.length
    ? new Map([...rootProperties, ...local.map((item) => [item.property, item.value] as const)])
    : rootProperties;
  return {
    ...rule,
    declarations: rule.declarations.map((declaration) => ({
      ...declaration,
      value: resolveVars(declaration.value, scope),
    })),
  };
}

type WalkContext = {
  classUsage: ClassUsage;
  html: Element | null;
  body: Element | null;
  rules: RawRule[];
  /** Declarations read so far: with the rules, bounded by extractionLimits. */
  declarations: number;
  fontFaces: FontFaceRule[];
  fontImports: string[];
  baseUrl?: string;
};

type OrderedSheet = { root: Root; baseUrl: string; origin: CssRule["origin"] };

// Cascade order: sheets nobody links (fetched @imports, redirected URLs) first, then <link>ed sheets and
// <style> elements in document order, each preceded by the sheets it @imports.
function orderSheets(document: Document, pageUrl: string, stylesheets: readonly Stylesheet[]): OrderedSheet[] {
  const parsed = new Map<string, Root>();
  for (const sheet of stylesheets) {
    const root = parseCss(sheet.css);
    if (root) parsed.set(sheet.url, root);
  }
  const emitted = new Set<string>();
  const ordered: OrderedSheet[] = [];
  const emit = (root: Root, baseUrl: string, origin: CssRule["origin"]) => {
    root.walkAtRules("import", (rule) => {
      const target = readImportUrl(rule.params, baseUrl);
      const imported = target ? parsed.get(target) : undefined;
      if (target && imported && !emitted.has(target)) {
        emitted.add(target);
        emit(imported, target, "stylesheet");
      }
    });
    ordered.push({ root, baseUrl, origin });
  };

  const documentOrder: ({ url: string } | { css: string })[] = [];
  const linked = new Set(stylesheetLinks(document, pageUrl).map((link) => link.url));
  for (const element of selectAll<AnyNode, Element>("link, style", document)) {
    if (element.name === "style") {
      documentOrder.push({ css: textContent(element) });
      continue;
    }
    const href = getAttributeValue(element, "href");
    const url = href ? resolveUrl(href, pageUrl, document) : null;
    if (url && linked.has(url)) documentOrder.push({ url });
  }

  const referenced = new Set<string>();
  for (const item of documentOrder) if ("url" in item) referenced.add(item.url);
  for (const [url, root] of parsed) {
    root.walkAtRules("import", (rule) => {
      const target = readImportUrl(rule.params, url);
      if (target) referenced.add(target);
    });
  }
  for (const [url, root] of parsed) {
    if (!referenced.has(url) && !emitted.has(url)) {
      emitted.add(url);
      emit(root, url, "stylesheet");
    }
  }
  const base = resolveUrl(".", pageUrl, document) ?? pageUrl;
  for (const item of documentOrder) {
    if ("css" in item) {
      const root = parseCss(item.css);
      if (root) emit(root, base, "style-element");
      continue;
    }
    const root = parsed.get(item.url);
    if (root && !emitted.has(item.url)) {
      emitted.add(item.url);
      emit(root, item.url, "stylesheet");
    }
  }
  return ordered;
}

function parseCss(css: string): Root | null {
  try {
    return postcss.parse(css);
  } catch {
    // A sheet postcss cannot read is skipped: its colours are lost, not the brand.
    return null;
  }
}

export function readImportUrl(params: string, baseUrl: string): string | null {
  const first = valueParser(params).nodes.find((node) => node.type !== "space" && node.type !== "comment");
  if (!first) return null;
  let target: string | undefined;
  if (first.type === "string") target = first.value;
  else if (first.type === "function" && first.value.toLowerCase() === "url") {
    target = first.nodes[0]?.value;
  }
  if (!target) return null;
  try {
    return new URL(target.trim(), baseUrl).toString();
  } catch {
    return null;
  }
}

function skipMedia(params: string): boolean {
  const query = params.toLowerCase().replace(/\s+/g, "");
  // Extraction describes the page as a default (light-scheme, screen) visitor sees it.
  return (
    query.includes("prefers-color-scheme:dark") ||
    query === "print" ||
    query.startsWith("print") ||
    query.startsWith("onlyprint") ||
    query.includes("forced-colors:active") ||
    query.includes("prefers-contrast:more")
  );
}

function walk(
  container: Container,
  media: string | null,
  parentSelector: string | null,
  origin: CssRule["origin"],
  context: WalkContext,
): void {
  for (const node of container.nodes ?? []) {
    if (full(context)) return;
    if (node.type === "atrule") {
      const name = node.name.toLowerCase();
      if (name === "media" || name === "container") {
        if (skipMedia(node.params)) continue;
        walk(node, media ? `${media} and ${node.params}` : node.params, parentSelector, origin, context);
      } else if (name === "supports" || name === "layer" || name === "scope" || name === "document") {
        walk(node, media, parentSelector, origin, context);
      } else if (name === "font-face") {
        readFontFace(node, context);
      } else if (name === "import") {
        const url = readImportUrl(node.params, context.baseUrl ?? "about:blank");
        if (url && isFontServiceUrl(url)) context.fontImports.push(url);
      }
      continue;
    }
    if (node.type !== "rule") continue;
    const selector = parentSelector ? nestSelector(node.selector, parentSelector) : node.selector;
    const declarations = readDeclarations(node.nodes);
    if (declarations.length) addRule(selector, declarations, media, origin, context);
    walk(node, media, selector, origin, context);
  }
}

// Past the limits the rest of the styles is left unread: the brand comes from what was read first.
function full(context: WalkContext): boolean {
  return context.rules.length >= extractionLimits.rules || context.declarations >= extractionLimits.declarations;
}

function nestSelector(selector: string, parent: string): string {
  const parents = splitSelectorList(parent);
  return splitSelectorList(selector)
    .flatMap((child) =>
      parents.map((outer) => (child.includes("&") ? child.split("&").join(outer) : `${outer} ${child}`)),
    )
    .join(", ");
}

function readDeclarations(nodes: readonly ChildNode[]): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  for (const node of nodes) {
    if (node.type !== "decl") continue;
    const property = node.prop.startsWith("--") ? node.prop : node.prop.toLowerCase();
    declarations.push({ property, value: node.value.trim(), important: node.important === true });
  }
  return declarations;
}

function addRule(
  selectorList: string,
  declarations: CssDeclaration[],
  media: string | null,
  origin: CssRule["origin"],
  context: WalkContext,
): void {
  const targets = new Set<Target>();
  let state = true;
  for (const selector of splitSelectorList(selectorList)) {
    const classified = classifySelector(selector, context.classUsage);
    if (classified.targets.has("root") && !appliesToRoot(selector, context)) classified.targets.delete("root");
    for (const target of classified.targets) targets.add(target);
    state &&= classified.state;
  }
  context.declarations += declarations.length;
  context.rules.push({ selector: selectorList, targets, state, declarations, media, origin });
}

// `body.dark` or `html[data-theme=dark]` style the page only if the page's own <html>/<body> match.
function appliesToRoot(selector: string, context: WalkContext): boolean {
  const elements = [context.html, context.body].filter((element) => element !== null);
  if (!elements.length) return true;
  try {
    return elements.some((element) => matchesSelector(element, selector));
  } catch {
    // css-select does not know every pseudo-class; a selector it cannot read is taken at its word.
    return true;
  }
}

function readFontFace(node: Container, context: WalkContext): void {
  let family = "";
  const weights: number[] = [];
  const sources: string[] = [];
  for (const child of node.nodes ?? []) {
    if (child.type !== "decl") continue;
    const property = child.prop.toLowerCase();
    if (property === "font-family") family = parseFontFamilyList(child.value)[0] ?? "";
    else if (property === "font-weight") {
      // A variable font's range ("100 900") says what it can do, not what the site uses.
      const words = child.value.trim().split(/\s+/);
      const word = words.length === 1 ? (words[0] ?? "") : "";
      const weight = word === "normal" ? 400 : word === "bold" ? 700 : Number(word);
      if (word && Number.isInteger(weight) && weight > 0 && weight <= 1000) weights.push(weight);
    } else if (property === "src") {
      valueParser(child.value).walk((value) => {
        if (value.type !== "function" || value.value.toLowerCase() !== "url") return;
        const target = value.nodes[0]?.value.trim();
        if (!target || target.startsWith("data:")) return;
        try {
          sources.push(new URL(target, context.baseUrl ?? "about:blank").toString());
        } catch {
          // an unusable URL is not a source
        }
      });
    }
  }
  if (family) context.fontFaces.push({ family, weights, sources });
}

function readStyleAttributes(document: Document, context: WalkContext): void {
  for (const element of selectAll<AnyNode, Element>("[style]", document)) {
    if (full(context)) return;
    const style = getAttributeValue(element, "style") ?? "";
    const root = parseCss(`x{${style}}`);
    const rule = root?.first;
    if (!rule || rule.type !== "rule") continue;
    const declarations = readDeclarations(rule.nodes);
    if (!declarations.length) continue;
    const classes = (getAttributeValue(element, "class") ?? "").split(/\s+/).filter(Boolean);
    const id = getAttributeValue(element, "id");
    const attributes = Object.entries(element.attribs).map(([name, value]) => ({ name, value: value.toLowerCase() }));
    const targets = classifyCompound(
      { tag: element.name.toLowerCase(), classes, ids: id ? [id] : [], attributes, pseudos: [], inner: [] },
      context.classUsage,
    );
    const selector = [element.name, ...classes.map((name) => `.${name}`)].join("");
    context.declarations += declarations.length;
    context.rules.push({ selector, targets, state: false, declarations, media: null, origin: "style-attribute" });
  }
}

function readClassUsage(document: Document): ClassUsage {
  const usage = new Map<string, Set<"button" | "link" | "heading">>();
  for (const element of selectAll<AnyNode, Element>("[class]", document)) {
    const classes = (getAttributeValue(element, "class") ?? "").split(/\s+/).filter(Boolean);
    const tag = element.name.toLowerCase();
    const type = (getAttributeValue(element, "type") ?? "").toLowerCase();
    const role = (getAttributeValue(element, "role") ?? "").toLowerCase();
    let kind: "button" | "link" | "heading" | null = null;
    if (tag === "button" || role === "button" || (tag === "input" && (type === "submit" || type === "button"))) {
      kind = "button";
    } else if (tag === "a") {
      const words = nameWords(classes);
      kind = words.has("btn") || words.has("button") || words.has("cta") ? "button" : "link";
    } else if (/^h[1-3]$/.test(tag)) kind = "heading";
    if (!kind) continue;
    for (const name of classes) {
      const kinds = usage.get(name) ?? new Set();
      kinds.add(kind);
      usage.set(name, kinds);
    }
  }
  return usage;
}
