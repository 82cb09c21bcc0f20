import { formatHex, interpolate, parse, wcagContrast } from "culori";
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

/** What the deck check asks of text (WCAG AA for normal text): the player draws stat values, kickers, chart
 * labels and code in these tones on the background and on surface cards. */
const TEXT_CONTRAST = 4.5;

// A tone moved toward the text colour, in OKLab steps of 5%, until it reads at 4.5:1 on every ground: a
// brand's blue on its near-black page (3.4:1) becomes a lighter blue of the same hue. Unchanged when it
// already reads.
function readable(tone: string, grounds: string[], text: string): string {
  for (let step = 0; step <= 20; step++) {
    const candidate = step === 0 ? tone : mix(tone, text, step / 20);
    if (grounds.every((ground) => wcagContrast(candidate, ground) >= TEXT_CONTRAST)) return candidate;
  }
  return text;
}

// The colour drawn on a fill: the brand's own choice while it still reads on the (possibly adjusted)
// fill, else whichever of white and near-black reads best.
function onFill(fill: string, preferred: string): string {
  if (wcagContrast(preferred, fill) >= TEXT_CONTRAST) return preferred;
  return wcagContrast("#ffffff", fill) >= wcagContrast("#111111", fill) ? "#ffffff" : "#111111";
}

export function synthesizeTokensCss(book: { palette: Palette; typography: Typography; imagery: Imagery }): string {
  const { roles, contrast } = book.palette;
  const { typography, imagery } = book;
  // Radii on the 1920x1080 canvas are about twice a web page's; pills become generous rounded corners.
  const radius = imagery.shapes === "pill" ? 32 : Math.min(40, Math.round(imagery.cornerRadiusPx * 2));
  // Capped at 1.25: on the presenting base (48px) a steeper ladder makes a Title wider than the slide.
  const scale = Math.min(1.25, Math.max(1.15, typography.scale.ratio));
  const grounds = [roles.background.hex, roles.surface.hex];
  const tone = (hex: string) => readable(hex, grounds, roles.text.hex);
  const primary = tone(roles.primary.hex);
  const accent = tone(roles.accent.hex);
  const tokens: Record<string, string> = {
    "--color-bg": roles.background.hex,
    "--color-surface": roles.surface.hex,
    "--color-text": roles.text.hex,
    "--color-muted": tone(roles.muted.hex),
    "--color-border": mix(roles.background.hex, roles.text.hex, 0.16),
    "--color-primary": primary,
    "--color-on-primary": onFill(primary, contrast.onPrimary.hex),
    "--color-secondary": tone(roles.secondary.hex),
    "--color-accent": accent,
    "--color-on-accent": onFill(accent, contrast.onAccent.hex),
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
