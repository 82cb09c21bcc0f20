import { formatHex, interpolate, parse } from "culori";
import { findShippedFont } from "@/lib/contract/fonts";
import { themeTokens } from "@/lib/deck/vocabulary";
import type { Imagery, Palette, Typography } from "./brand-book";

// A brand book → the `:root` theme tokens a deck starts with. Colours map role to token; fonts name
// the brand's face first and a shipped face of the same kind next, so a deck looks the same in the
// viewer and in exports even when the brand's own face is not shipped (it is then reported as missing).

const fallbackByCategory: Record<Typography["body"]["category"], string> = {
  "sans-serif": '"Inter", "Helvetica Neue", Arial, sans-serif',
  serif: '"Source Serif 4", Georgia, "Times New Roman", serif',
  display: '"Playfair Display", Georgia, serif',
  monospace: '"JetBrains Mono", Menlo, Consolas, monospace',
};

// A family name read from a website, as a CSS string: characters that could end the string, the
// declaration or an inline <style> are dropped.
function quote(family: string): string {
  const plain = [...family].filter((c) => c >= " " && c !== "\u007f" && !`"\\<>;{}`.includes(c)).join("");
  return `"${plain.trim()}"`;
}

function fontStack(role: Typography["body"]): string {
  const fallback = fallbackByCategory[role.category];
  if (!role.family || fallback.startsWith(quote(role.family))) return fallback;
  const shipped = findShippedFont(role.family);
  const generic = fallback.slice(fallback.lastIndexOf(",") + 1).trim();
  return shipped ? `${quote(shipped.family)}, ${generic}` : `${quote(role.family)}, ${fallback}`;
}

function mix(a: string, b: string, amount: number): string {
  const from = parse(a);
  const to = parse(b);
  if (!from || !to) return a;
  return formatHex(interpolate([from, to], "oklab")(amount)) ?? a;
}

const defaults = Object.fromEntries(themeTokens.map((token) => [token.name, token.default]));

export function synthesizeTokensCss(book: { palette: Palette; typography: Typography; imagery: Imagery }): string {
  const { roles, contrast } = book.palette;
  const { typography, imagery } = book;
  // Radii on the 1920x1080 canvas are about twice a web page's; pills become generous rounded corners.
  const radius = imagery.shapes === "pill" ? 32 : Math.min(40, Math.round(imagery.cornerRadiusPx * 2));
  // Capped at 1.25: on the presenting base (48px) a steeper ladder makes a Title wider than the slide.
  const scale = Math.min(1.25, Math.max(1.15, typography.scale.ratio));
  const tokens: Record<string, string> = {
    "--color-bg": roles.background.hex,
    "--color-surface": roles.surface.hex,
    "--color-text": roles.text.hex,
    "--color-muted": roles.muted.hex,
    "--color-border": mix(roles.background.hex, roles.text.hex, 0.16),
    "--color-primary": roles.primary.hex,
    "--color-on-primary": contrast.onPrimary.hex,
    "--color-secondary": roles.secondary.hex,
    "--color-accent": roles.accent.hex,
    "--color-on-accent": contrast.onAccent.hex,
    "--font-heading": fontStack(typography.heading),
    "--font-body": fontStack(typography.body),
    "--font-mono": typography.mono ? fontStack(typography.mono) : defaults["--font-mono"]!,
    "--type-base": defaults["--type-base"]!,
    "--type-scale": String(Math.round(scale * 1000) / 1000),
    "--radius": `${radius}px`,
    "--space": defaults["--space"]!,
  };
  return [":root {", ...Object.entries(tokens).map(([name, value]) => `  ${name}: ${value};`), "}"].join("\n");
}
