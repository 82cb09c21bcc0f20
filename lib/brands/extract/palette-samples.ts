import type { Rgb } from "culori";
import valueParser from "postcss-value-parser";
import { flattenOver, isDark, NEAR_BLACK, readColor, WHITE } from "./color-math";
import type { CssModel, CssRule } from "./css-model";
import type { Target } from "./css-selector";

// The palette's first step (lib/brands/extract/palette.ts): every colour the page paints, read from its
// stylesheets and signals (theme-color, the inline logo) as weighted sightings tagged with where they were
// painted; and the page's own background and text colour as the cascade decides them.

/** One sighting of a colour. `tag` says where (see tagWeights), `label` says it for people. */
export type ColorSample = { color: Rgb; weight: number; tag: string; label: string };

export type PaletteSignals = {
  /** `<meta name="theme-color">`. */
  themeColor: string | null;
  /** Fills and strokes of the inline SVG logo. */
  logoColors: string[];
};

type Kind = "text" | "fill" | "border" | "shadow" | "svg" | "accent" | "decoration";

function colorKind(property: string): Kind | null {
  switch (property) {
    case "color":
    case "-webkit-text-fill-color":
      return "text";
    case "background":
    case "background-color":
    case "background-image":
      return "fill";
    case "fill":
    case "stroke":
      return "svg";
    case "box-shadow":
    case "text-shadow":
    case "filter":
      return "shadow";
    case "accent-color":
      return "accent";
    case "text-decoration":
    case "text-decoration-color":
    case "caret-color":
      return "decoration";
    case "outline":
    case "outline-color":
    case "column-rule":
    case "column-rule-color":
      return "border";
  }
  if (property.startsWith("border") && !/radius|width|style|image|collapse|spacing/.test(property)) return "border";
  return null;
}

/** Every colour in a declaration value: hex, names, rgb()/hsl()/oklch()..., inside gradients and shadows too. */
export function readColorsInValue(value: string): Rgb[] {
  const colors: Rgb[] = [];
  valueParser(value).walk((node) => {
    if (node.type === "word") {
      const first = node.value[0];
      if (first === "#" || (first && /[a-z]/i.test(first))) {
        const color = readColor(node.value);
        if (color) colors.push(color);
      }
      return;
    }
    if (node.type === "function" && /^(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)$/i.test(node.value)) {
      const color = readColor(valueParser.stringify(node));
      if (color) colors.push(color);
      return false;
    }
    return;
  });
  return colors;
}

const targetOrder: Target[] = [
  "root",
  "button",
  "link",
  "heading",
  "card",
  "header",
  "footer",
  "muted",
  "section",
  "code",
];

function describeSelector(selector: string): string {
  const compact = selector.replace(/\s+/g, " ").trim();
  return compact.length > 48 ? `${compact.slice(0, 45)}...` : compact;
}

function tagFor(rule: CssRule, kind: Kind): { tag: string; weight: number; label: string } {
  if (kind === "shadow") return { tag: "shadow", weight: 0.2, label: `shadow (${describeSelector(rule.selector)})` };
  const target = targetOrder.find((item) => rule.targets.has(item));
  const where = describeSelector(rule.selector);
  const pick = (tag: string, weight: number, label: string) => ({ tag, weight, label: `${label} (${where})` });
  switch (target) {
    case "root":
      if (kind === "fill") return pick("background", 12, "page background");
      if (kind === "text") return pick("text", 12, "body text colour");
      return pick("border", 0.5, "page border");
    case "button":
      if (kind === "fill") return pick("button", 8, "button background");
      if (kind === "border") return pick("button-border", 2, "button border");
      if (kind === "text") return pick("button-text", 0.5, "button text");
      return pick("button", 2, "button colour");
    case "link":
      if (kind === "text") return pick("link", 6, "link colour");
      if (kind === "fill") return pick("button", 5, "link background");
      return pick("link", 2, "link decoration");
    case "heading":
      if (kind === "text") return pick("heading", 3, "heading colour");
      return pick("fill", 1, "heading background");
    case "card":
      if (kind === "fill") return pick("card", 4, "card background");
      if (kind === "text") return pick("card-text", 1, "card text");
      return pick("border", 0.6, "card border");
    case "header":
    case "footer":
      if (kind === "fill") return pick("chrome", 2.5, `${target} background`);
      if (kind === "text") return pick(target === "footer" ? "muted-text" : "chrome-text", 1, `${target} text`);
      return pick("border", 0.4, `${target} border`);
    case "muted":
      if (kind === "text") return pick("muted-text", 3, "secondary text");
      return pick("fill", 1, "background");
    case "section":
      if (kind === "fill") return pick("section", 2, "section background");
      if (kind === "text") return pick("text-other", 1, "text colour");
      return pick("border", 0.4, "border");
    case "code":
      return pick("code", 0.5, "code colour");
    default:
      if (kind === "text") return pick("text-other", 1, "text colour");
      if (kind === "fill") return pick("fill", 1.5, "background");
      if (kind === "svg") return pick("svg", 1.2, "SVG fill");
      if (kind === "accent") return pick("accent-color", 4, "form accent colour");
      if (kind === "decoration") return pick("decoration", 0.5, "decoration");
      return pick("border", 0.4, "border");
  }
}

// Custom property names are the clearest statement of intent a stylesheet makes.
function tagForCustomProperty(name: string): { tag: string; weight: number } | null {
  const words = name
    .slice(2)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const has = (...list: string[]) => list.some((word) => words.includes(word));
  const last = words[words.length - 1] ?? "";
  const roleWord = has("primary", "brand", "secondary", "accent", "highlight", "tertiary");
  if (!roleWord && /^\d{2,3}$/.test(last)) return null; // a palette step (--blue-500), not a choice
  if (has("hover", "active", "focus", "pressed", "visited")) return { tag: "var", weight: 0.3 };
  if (roleWord && has("foreground", "fg", "contrast", "on", "inverse", "text")) return { tag: "on-var", weight: 0.5 };
  if (has("border", "line", "divider", "outline", "ring", "shadow")) return { tag: "border-var", weight: 0.5 };
  if (has("muted", "subtle", "dim", "faint", "secondary") && has("text", "fg", "foreground", "ink", "copy")) {
    return { tag: "muted-var", weight: 2.5 };
  }
  if (has("muted", "subtle", "dim", "faint") && !has("bg", "background")) return { tag: "muted-var", weight: 2 };
  if (has("surface", "card", "panel", "elevated", "raised", "paper")) return { tag: "surface-var", weight: 3 };
  if (has("primary", "brand")) return { tag: "primary-var", weight: 5 };
  if (has("secondary")) return { tag: "secondary-var", weight: 4 };
  if (has("accent", "highlight", "tertiary")) return { tag: "accent-var", weight: 4 };
  if (has("bg", "background", "canvas", "page", "backdrop")) return { tag: "background-var", weight: 3 };
  if (has("text", "fg", "foreground", "ink", "body", "copy", "heading")) return { tag: "text-var", weight: 3 };
  return { tag: "var", weight: 0.5 };
}

export function collectSamples(model: CssModel, signals: PaletteSignals): ColorSample[] {
  const samples: ColorSample[] = [];
  for (const rule of model.rules) {
    const scale = (rule.state ? 0.3 : 1) * (rule.media ? 0.6 : 1);
    for (const declaration of rule.declarations) {
      if (declaration.property.startsWith("--")) continue;
      const kind = colorKind(declaration.property);
      if (!kind) continue;
      const { tag, weight, label } = tagFor(rule, kind);
      for (const color of readColorsInValue(declaration.value)) {
        samples.push({ color, weight: weight * scale, tag: rule.state ? "state" : tag, label });
      }
    }
  }
  for (const [name, value] of model.customProperties) {
    if (valueParser(value).nodes.filter((node) => node.type !== "space").length !== 1) continue;
    const color = readColor(value);
    const hint = color ? tagForCustomProperty(name) : null;
    if (color && hint) samples.push({ color, ...hint, label: `custom property ${name}` });
  }
  if (signals.themeColor) {
    const color = readColor(signals.themeColor);
    if (color) samples.push({ color, weight: 6, tag: "theme-color", label: '<meta name="theme-color">' });
  }
  for (const hex of new Set(signals.logoColors)) {
    const color = readColor(hex);
    if (color) samples.push({ color, weight: 4, tag: "logo", label: "logo fill" });
  }
  return samples;
}

type PageColor = { color: Rgb; label: string; confidence: number };

// The page's own background and text colour follow the cascade (last declaration wins, !important
// first), not the weights: that is what a browser paints.
export function pickPageColor(model: CssModel, kind: "fill" | "text"): PageColor | null {
  let chosen: (PageColor & { important: boolean }) | null = null;
  for (const pass of ["top-level", "media"] as const) {
    for (const rule of model.rules) {
      if (!rule.targets.has("root") || rule.state || (pass === "top-level") !== (rule.media === null)) continue;
      for (const declaration of rule.declarations) {
        if (colorKind(declaration.property) !== kind || declaration.property.startsWith("border")) continue;
        if (kind === "fill" && declaration.property === "background-image") continue;
        const colors = readColorsInValue(lastLayer(declaration.value)).filter((color) => (color.alpha ?? 1) >= 0.5);
        const color = kind === "fill" ? colors[colors.length - 1] : colors[0];
        if (!color || (chosen?.important && !declaration.important)) continue;
        const what = kind === "fill" ? "page background" : "body text colour";
        chosen = {
          color,
          label: `${what} (${describeSelector(rule.selector)} ${declaration.property})`,
          confidence: 0.9,
          important: declaration.important,
        };
      }
    }
    if (chosen) return chosen;
  }
  return null;
}

// Pages that paint their background on a wrapper (<main>, #app) and not on body: light body text
// is the tell that the page is dark, and the heaviest dark fill is the likeliest backdrop.
export function inferDarkBackground(model: CssModel, samples: ColorSample[]): PageColor | null {
  const text = pickPageColor(model, "text");
  if (!text || isDark(flattenOver(text.color, WHITE))) return null;
  const fills = new Set(["fill", "section", "chrome", "card"]);
  const darkest = samples
    .filter((sample) => fills.has(sample.tag) && (sample.color.alpha ?? 1) >= 0.9)
    .filter((sample) => isDark(flattenOver(sample.color, WHITE)))
    .sort((a, b) => b.weight - a.weight)[0];
  if (darkest) {
    return { color: darkest.color, label: `${darkest.label}, inferred: the body text is light`, confidence: 0.5 };
  }
  return { color: readColor(NEAR_BLACK)!, label: "inferred dark: the body text is light", confidence: 0.35 };
}

// `background: url(x), linear-gradient(...), #fff`: the colour lives in the last layer.
function lastLayer(value: string): string {
  const nodes = valueParser(value).nodes;
  const lastComma = nodes.map((node) => node.type === "div" && node.value === ",").lastIndexOf(true);
  return lastComma < 0 ? value : valueParser.stringify(nodes.slice(lastComma + 1));
}

export function pickVarColor(samples: ColorSample[], tag: string): PageColor | null {
  const best = samples.filter((sample) => sample.tag === tag).sort((a, b) => b.weight - a.weight)[0];
  return best ? { color: best.color, label: best.label, confidence: 0.6 } : null;
}
