import type { FontCategory } from "@/lib/contract/fonts";
import { themeTokens } from "@/lib/source/theme-tokens";

// What control each theme token gets in the theme panel, derived from the vocabulary's token list (so a
// token added there gets a control here): colours as colour pickers (with the tokens their contrast is
// measured against), font families as pickers over the shipped faces, sizes as numbers in px, the type
// scale as a ratio. A token of no known kind is a text field.

export type TokenControl = {
  name: string;
  label: string;
  doc: string;
  default: string;
} & (
  | { kind: "color"; contrastWith: string[] }
  | { kind: "font"; categories: FontCategory[] }
  | { kind: "px"; min: number; max: number; step: number }
  | { kind: "ratio" }
  | { kind: "text" }
);

const labels: Record<string, string> = {
  "--color-bg": "Background",
  "--color-surface": "Surface",
  "--color-text": "Text",
  "--color-muted": "Muted text",
  "--color-border": "Border",
  "--color-primary": "Primary",
  "--color-on-primary": "Text on primary",
  "--color-secondary": "Secondary",
  "--color-accent": "Accent",
  "--color-on-accent": "Text on accent",
  "--font-heading": "Heading font",
  "--font-body": "Body font",
  "--font-mono": "Code font",
  "--type-base": "Body text size (px)",
  "--type-scale": "Type scale",
  "--radius": "Corner radius (px)",
  "--space": "Spacing unit (px)",
};

// Text colours and the backgrounds they are drawn on, both ways round.
const contrastPairs: [string, string][] = [
  ["--color-text", "--color-bg"],
  ["--color-muted", "--color-bg"],
  ["--color-text", "--color-surface"],
  ["--color-on-primary", "--color-primary"],
  ["--color-on-accent", "--color-accent"],
];

const pxRanges: Record<string, { min: number; max: number; step: number }> = {
  "--type-base": { min: 12, max: 96, step: 1 },
  "--radius": { min: 0, max: 96, step: 1 },
  "--space": { min: 2, max: 32, step: 1 },
};

function controlFor(token: (typeof themeTokens)[number]): TokenControl {
  const base = {
    name: token.name,
    label: labels[token.name] ?? token.name.replace(/^--/, "").replace(/-/g, " "),
    doc: token.doc,
    default: token.default,
  };
  if (token.name.startsWith("--color-")) {
    const contrastWith = contrastPairs.flatMap(([text, background]) =>
      text === token.name ? [background] : background === token.name ? [text] : [],
    );
    return { ...base, kind: "color", contrastWith };
  }
  if (token.name.startsWith("--font-")) {
    const categories: FontCategory[] = token.name === "--font-mono" ? ["mono"] : ["sans", "serif", "display"];
    return { ...base, kind: "font", categories };
  }
  if (token.name === "--type-scale") return { ...base, kind: "ratio" };
  const range = pxRanges[token.name];
  if (range) return { ...base, kind: "px", ...range };
  return { ...base, kind: "text" };
}

export const tokenControls: readonly TokenControl[] = themeTokens.map(controlFor);

export const typeScales: readonly { value: string; label: string }[] = [
  { value: "1.125", label: "1.125 (major second)" },
  { value: "1.2", label: "1.2 (minor third)" },
  { value: "1.25", label: "1.25 (major third)" },
  { value: "1.333", label: "1.333 (perfect fourth)" },
  { value: "1.414", label: "1.414 (augmented fourth)" },
  { value: "1.5", label: "1.5 (perfect fifth)" },
  { value: "1.618", label: "1.618 (golden ratio)" },
];
