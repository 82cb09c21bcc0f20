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
  oklch,
  pickOnColor,
  WHITE,
} from "./color-math";
import type { CssModel } from "./css-model";
import { extractionLimits } from "./limits";
import {
  type ColorSample,
  collectSamples,
  inferDarkBackground,
  type PaletteSignals,
  pickPageColor,
  pickVarColor,
} from "./palette-samples";

// The palette: every colour the page paints, weighted by where it is painted, clustered, then cast into
// the seven roles a deck needs. Roles the site does not show are derived from the ones it does, and
// say so in `source` with a lower confidence.

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
