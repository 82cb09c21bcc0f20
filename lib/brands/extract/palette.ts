import type { Rgb } from "culori";
import valueParser from "postcss-value-parser";
import type { ColorRole, Palette } from "@/lib/brands/brand-book";
import {
  chroma,
  contrastRatio,
  deltaE,
  ensureContrast,
  flattenOver,
  fromOklch,
  isDark,
  mix,
  NEAR_BLACK,
  oklch,
  pickOnColor,
  readColor,
  WHITE,
} from "./color-math";
import type { CssModel, CssRule } from "./css-model";
import type { Target } from "./css-selector";
import { extractionLimits } from "./limits";

// The palette: every colour the page paints, weighted by where it is painted, clustered, then cast into
// the seven roles a deck needs. Roles the site does not show are derived from the ones it does, and
// say so in `source` with a lower confidence.

/** One sighting of a colour. `tag` says where (see tagWeights), `label` says it for people. */
export type ColorSample = { color: Rgb; weight: number; tag: string; label: string };

export type PaletteSignals = {
  /** `<meta name="theme-color">`. */
  themeColor: string | null;
  /** Fills and strokes of the inline SVG logo. */
  logoColors: string[];
};

type Kind = "text" | "fill" | "border" | "shadow" | "svg" | "accent" | "decoration";

type Swatch = {
  hex: string;
  weight: number;
  tags: Map<string, number>;
  /** The heaviest sighting per tag, to name a role's source. */
  labels: Map<string, { weight: number; label: string }>;
};

/** Near-identical swatches, named by the heaviest; members keep their own tags. */
type Cluster = Swatch & { members: Swatch[] };

type RoleValue = Palette["roles"][ColorRole];

const CLUSTER_DELTA_E = 6;
const DISTINCT_DELTA_E = 15;
const SATURATED_CHROMA = 0.06;
const MIN_ALPHA = 0.1;

export function buildPalette(model: CssModel, signals: PaletteSignals): Palette {
  const samples = collectSamples(model, signals);
  const background =
    pickPageColor(model, "fill") ?? pickVarColor(samples, "background-var") ?? inferDarkBackground(model, samples);
  const backgroundHex = background ? flattenOver(background.color, WHITE) : WHITE;
  const clusters = clusterSamples(samples, backgroundHex);

  const roles = {} as Record<ColorRole, RoleValue>;
  roles.background = background
    ? { hex: backgroundHex, source: background.label, confidence: background.confidence }
    : { hex: WHITE, source: "default white (the page sets no background)", confidence: 0.45 };

  roles.text = pickText(model, clusters, roles.background.hex);
  const fixed = ensureContrast(roles.text.hex, roles.background.hex, 4.5);
  if (fixed.adjusted) {
    roles.text = {
      hex: fixed.hex,
      source: `${roles.text.source}, adjusted to reach 4.5:1 on the background`,
      confidence: Math.min(roles.text.confidence, 0.5),
    };
  }

  const neutrals = [roles.background.hex, roles.text.hex];
  const brand = clusters.filter(
    (cluster) => chroma(cluster.hex) >= SATURATED_CHROMA && neutrals.every((hex) => deltaE(hex, cluster.hex) >= 8),
  );
  roles.primary = pickPrimary(brand, clusters, roles.background.hex, roles.text.hex);
  const [secondary, accent] = pickSecondaryAndAccent(brand, roles.primary.hex, neutrals);
  roles.secondary = secondary ?? deriveSecondary(roles.primary, roles.background.hex, roles.text.hex);
  roles.accent = accent ?? deriveAccent(roles.primary, roles.background.hex, roles.text.hex);
  roles.surface = pickSurface(clusters, roles.background.hex, roles.text.hex);
  roles.muted = pickMuted(clusters, roles.background.hex, roles.text.hex);

  const onPrimary = pickOnColor(roles.primary.hex);
  const onAccent = pickOnColor(roles.accent.hex);
  const weights: Record<ColorRole, number> = {
    primary: 3,
    background: 2,
    text: 2,
    secondary: 1,
    accent: 1,
    surface: 1,
    muted: 1,
  };
  const totalWeight = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
  const confidence = Object.entries(weights).reduce(
    (sum, [role, weight]) => sum + roles[role as ColorRole].confidence * weight,
    0,
  );

  return {
    roles,
    colors: clusters.slice(0, 16).map((cluster) => ({
      hex: cluster.hex,
      weight: round(cluster.weight),
      usage: [...cluster.tags].sort((a, b) => b[1] - a[1]).map(([tag]) => tag),
    })),
    contrast: {
      textOnBackground: contrastRatio(roles.text.hex, roles.background.hex),
      textOnSurface: contrastRatio(roles.text.hex, roles.surface.hex),
      onPrimary,
      onAccent,
    },
    confidence: round(confidence / totalWeight),
  };
}

// ---- collecting -------------------------------------------------------------------------------------

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

function collectSamples(model: CssModel, signals: PaletteSignals): ColorSample[] {
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
function pickPageColor(model: CssModel, kind: "fill" | "text"): PageColor | null {
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
function inferDarkBackground(model: CssModel, samples: ColorSample[]): PageColor | null {
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

function pickVarColor(samples: ColorSample[], tag: string): PageColor | null {
  const best = samples.filter((sample) => sample.tag === tag).sort((a, b) => b.weight - a.weight)[0];
  return best ? { color: best.color, label: best.label, confidence: 0.6 } : null;
}

// ---- clustering -------------------------------------------------------------------------------------

/** Groups near-identical colours (ΔE2000 below ~6), heaviest first; each cluster is named by its heaviest shade. */
export function clusterSamples(samples: readonly ColorSample[], backgroundHex: string): Cluster[] {
  const byHex = new Map<string, Swatch>();
  for (const sample of samples) {
    if ((sample.color.alpha ?? 1) < MIN_ALPHA) continue;
    const hex = flattenOver(sample.color, backgroundHex);
    const swatch = byHex.get(hex) ?? { hex, weight: 0, tags: new Map(), labels: new Map() };
    addSighting(swatch, sample.tag, sample.weight, sample.label);
    byHex.set(hex, swatch);
  }
  const clusters: Cluster[] = [];
  // Every swatch is compared with every cluster: only the most used colours are clustered.
  const swatches = [...byHex.values()].sort((a, b) => b.weight - a.weight).slice(0, extractionLimits.distinctColors);
  for (const swatch of swatches) {
    let cluster = clusters.find((candidate) => deltaE(candidate.hex, swatch.hex) < CLUSTER_DELTA_E);
    if (!cluster) {
      cluster = { hex: swatch.hex, weight: 0, tags: new Map(), labels: new Map(), members: [] };
      clusters.push(cluster);
    }
    cluster.members.push(swatch);
    for (const [tag, weight] of swatch.tags) {
      addSighting(cluster, tag, weight, swatch.labels.get(tag)?.label ?? tag, swatch.labels.get(tag)?.weight);
    }
  }
  return clusters.sort((a, b) => b.weight - a.weight);
}

function addSighting(swatch: Swatch, tag: string, weight: number, label: string, labelWeight = weight): void {
  swatch.weight += weight;
  swatch.tags.set(tag, (swatch.tags.get(tag) ?? 0) + weight);
  const known = swatch.labels.get(tag);
  if (!known || known.weight < labelWeight) swatch.labels.set(tag, { weight: labelWeight, label });
}

function tagWeight(cluster: Swatch, factors: Record<string, number>): number {
  let score = 0;
  for (const [tag, weight] of cluster.tags) score += weight * (factors[tag] ?? 0);
  return score;
}

function bestLabel(cluster: Swatch, factors: Record<string, number>): string {
  let best: { score: number; label: string } | null = null;
  for (const [tag, { label }] of cluster.labels) {
    const score = (cluster.tags.get(tag) ?? 0) * (factors[tag] ?? 0);
    if (!best || score > best.score) best = { score, label };
  }
  return best?.label ?? "most used colour";
}

// ---- roles ------------------------------------------------------------------------------------------

const textFactors: Record<string, number> = { "text-var": 1, heading: 0.6, "text-other": 0.4, "card-text": 0.3 };

function pickText(model: CssModel, clusters: Cluster[], background: string): RoleValue {
  const page = pickPageColor(model, "text");
  if (page) return { hex: flattenOver(page.color, background), source: page.label, confidence: page.confidence };
  const candidates = clusters
    .filter((cluster) => contrastRatio(cluster.hex, background) >= 3 && chroma(cluster.hex) < SATURATED_CHROMA)
    .map((cluster) => ({ cluster, score: tagWeight(cluster, textFactors) }))
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = candidates[0];
  if (best) {
    return { hex: best.cluster.hex, source: bestLabel(best.cluster, textFactors), confidence: 0.55 };
  }
  // Browsers paint unstyled text black; on a dark page that would be unreadable, so white instead.
  return isDark(background)
    ? { hex: WHITE, source: "default (no text colour set; light text for the dark background)", confidence: 0.35 }
    : { hex: "#000000", source: "browser default text colour (none set)", confidence: 0.45 };
}

const primaryFactors: Record<string, number> = {
  button: 1,
  "primary-var": 1.2,
  "theme-color": 1,
  link: 0.8,
  "accent-color": 0.8,
  logo: 0.8,
  "button-border": 0.5,
  heading: 0.2,
  chrome: 0.3,
  fill: 0.2,
  svg: 0.2,
  "accent-var": 0.3,
  "secondary-var": 0.2,
  "text-other": 0.1,
  section: 0.2,
  var: 0.1,
  decoration: 0.1,
};

const strongPrimaryTags = ["button", "primary-var", "theme-color", "link", "accent-color", "logo"];

function pickPrimary(brand: Cluster[], clusters: Cluster[], background: string, text: string): RoleValue {
  const ranked = brand
    .map((cluster) => ({ cluster, score: tagWeight(cluster, primaryFactors) }))
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (best) {
    const kinds = strongPrimaryTags.filter((tag) => best.cluster.tags.has(tag)).length;
    const runnerUp = ranked[1]?.score ?? 0;
    const base = kinds >= 3 ? 0.9 : kinds === 2 ? 0.8 : kinds === 1 ? 0.6 : 0.4;
    return {
      hex: best.cluster.hex,
      source: bestLabel(best.cluster, primaryFactors),
      confidence: round(Math.min(0.95, base + (best.score > runnerUp * 2 ? 0.05 : -0.1))),
    };
  }
  // A monochrome brand: its buttons are the primary colour even when they are black.
  const neutralButton = clusters
    .filter((cluster) => deltaE(cluster.hex, background) >= 10)
    .map((cluster) => ({ cluster, score: cluster.tags.get("button") ?? 0 }))
    .filter((item) => item.score >= 8)
    .sort((a, b) => b.score - a.score)[0];
  if (neutralButton) {
    return {
      hex: neutralButton.cluster.hex,
      source: `${bestLabel(neutralButton.cluster, { button: 1 })}, a neutral brand`,
      confidence: 0.55,
    };
  }
  return {
    hex: mix(text, background, isDark(background) ? 0.1 : 0.15),
    source: "derived from text (the site shows no brand colour)",
    confidence: 0.2,
  };
}

const secondaryFactors: Record<string, number> = { ...primaryFactors, "secondary-var": 1.5, "accent-var": 1 };

function pickSecondaryAndAccent(
  brand: Cluster[],
  primary: string,
  neutrals: string[],
): [RoleValue | null, RoleValue | null] {
  const used = (cluster: Cluster) =>
    ["secondary-var", "accent-var"].some((tag) => cluster.tags.has(tag)) ||
    cluster.weight - (cluster.tags.get("var") ?? 0) - (cluster.tags.get("border-var") ?? 0) >= 1;
  const pool = brand.filter(
    (cluster) =>
      used(cluster) &&
      deltaE(cluster.hex, primary) >= DISTINCT_DELTA_E &&
      neutrals.every((hex) => deltaE(hex, cluster.hex) >= 8),
  );
  const taken = new Set<Cluster>();
  const byTag = (tag: string) =>
    pool.filter((cluster) => cluster.tags.has(tag)).sort((a, b) => b.tags.get(tag)! - a.tags.get(tag)!)[0];
  const distinctFromTaken = (cluster: Cluster) =>
    [...taken].every((other) => deltaE(other.hex, cluster.hex) >= DISTINCT_DELTA_E);

  let accent = byTag("accent-var") ?? null;
  if (accent) taken.add(accent);
  let secondary = byTag("secondary-var") ?? null;
  if (secondary && !distinctFromTaken(secondary)) secondary = null;
  if (secondary) taken.add(secondary);

  const rest = pool
    .filter((cluster) => !taken.has(cluster))
    .map((cluster) => ({ cluster, score: tagWeight(cluster, secondaryFactors) + cluster.weight * 0.05 }))
    .sort((a, b) => b.score - a.score);
  if (!secondary) {
    secondary = rest.find((item) => distinctFromTaken(item.cluster))?.cluster ?? null;
    if (secondary) taken.add(secondary);
  }
  if (!accent) {
    // Used sparingly but vivid: the most saturated of what is left.
    accent =
      rest
        .filter((item) => !taken.has(item.cluster) && distinctFromTaken(item.cluster))
        .sort((a, b) => chroma(b.cluster.hex) - chroma(a.cluster.hex))[0]?.cluster ?? null;
  }
  const describe = (cluster: Cluster | null, hintTag: string): RoleValue | null => {
    if (!cluster) return null;
    const hinted = cluster.tags.has(hintTag);
    const evidence = strongPrimaryTags.filter((tag) => cluster.tags.has(tag)).length + (hinted ? 1 : 0);
    return {
      hex: cluster.hex,
      source: hinted ? (cluster.labels.get(hintTag)?.label ?? hintTag) : bestLabel(cluster, secondaryFactors),
      confidence: evidence >= 2 ? 0.8 : evidence === 1 ? 0.65 : 0.45,
    };
  };
  return [describe(secondary, "secondary-var"), describe(accent, "accent-var")];
}

function deriveSecondary(primary: RoleValue, background: string, text: string): RoleValue {
  if (chroma(primary.hex) < SATURATED_CHROMA) {
    return { hex: mix(text, background, 0.3), source: "derived from text (no second brand colour)", confidence: 0.2 };
  }
  const { l, c, h } = oklch(primary.hex);
  const hex = fromOklch(isDark(background) ? Math.min(0.85, l + 0.12) : Math.max(0.25, l - 0.14), c * 0.85, h - 28);
  return { hex, source: "derived from primary (hue shifted, deepened)", confidence: 0.25 };
}

function deriveAccent(primary: RoleValue, background: string, text: string): RoleValue {
  if (chroma(primary.hex) < SATURATED_CHROMA) {
    return { hex: mix(text, background, 0.2), source: "derived from text (no accent colour)", confidence: 0.2 };
  }
  const { l, c, h } = oklch(primary.hex);
  const hex = fromOklch(Math.min(0.75, Math.max(0.55, l)), Math.max(c, 0.12), h + 150);
  return { hex, source: "derived from primary (split complement)", confidence: 0.25 };
}

const surfaceFactors: Record<string, number> = {
  "surface-var": 1.2,
  card: 1,
  section: 0.6,
  chrome: 0.3,
  fill: 0.3,
  code: 0.2,
};

// Surfaces are meant to be subtle (a dark card is often within ΔE 6 of its page), so they are looked
// for among the exact shades, not the clusters.
function pickSurface(clusters: Cluster[], background: string, text: string): RoleValue {
  const backgroundLightness = oklch(background).l;
  const best = clusters
    .flatMap((cluster) => cluster.members)
    .filter((swatch) => {
      const distance = deltaE(swatch.hex, background);
      return (
        distance >= 2 &&
        distance <= 30 &&
        Math.abs(oklch(swatch.hex).l - backgroundLightness) < 0.2 &&
        contrastRatio(text, swatch.hex) >= 3
      );
    })
    .map((swatch) => ({ swatch, score: tagWeight(swatch, surfaceFactors) }))
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score)[0];
  if (best) {
    const strong = best.swatch.tags.has("card") || best.swatch.tags.has("surface-var");
    return { hex: best.swatch.hex, source: bestLabel(best.swatch, surfaceFactors), confidence: strong ? 0.75 : 0.5 };
  }
  return {
    hex: mix(background, text, isDark(background) ? 0.08 : 0.04),
    source: "derived from background (shifted toward text)",
    confidence: 0.35,
  };
}

const mutedFactors: Record<string, number> = {
  "muted-var": 1.2,
  "muted-text": 1,
  "text-other": 0.3,
  "card-text": 0.3,
  "chrome-text": 0.2,
};

function pickMuted(clusters: Cluster[], background: string, text: string): RoleValue {
  const [low, high] = [oklch(text).l, oklch(background).l].sort((a, b) => a - b) as [number, number];
  const best = clusters
    .filter((cluster) => {
      const lightness = oklch(cluster.hex).l;
      return (
        chroma(cluster.hex) < SATURATED_CHROMA + 0.02 &&
        lightness > low &&
        lightness < high &&
        deltaE(cluster.hex, text) >= CLUSTER_DELTA_E &&
        contrastRatio(cluster.hex, background) >= 3
      );
    })
    .map((cluster) => ({ cluster, score: tagWeight(cluster, mutedFactors) }))
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score)[0];
  if (best) {
    const strong = best.cluster.tags.has("muted-text") || best.cluster.tags.has("muted-var");
    return { hex: best.cluster.hex, source: bestLabel(best.cluster, mutedFactors), confidence: strong ? 0.7 : 0.45 };
  }
  const derived = ensureContrast(mix(text, background, 0.45), background, 3);
  return { hex: derived.hex, source: "derived (55% text over background)", confidence: 0.35 };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
