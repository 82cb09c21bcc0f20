import { formatHex, interpolate, parse } from "culori";
import { fontStack } from "@/lib/contract/fonts";
import { themeTokens } from "@/lib/source/theme-tokens";
import type { Imagery, Palette, Typography } from "./brand-book";
import { contrastOf } from "./extract/color-math";

// A brand book → the `:root` theme tokens a deck starts with. Colours map role to token; fonts name
// the brand's face first and a shipped face of the same kind next, so a deck looks the same in the
// viewer and in exports even when the brand's own face is not shipped (it is then reported as missing).

// A brand book's kinds of face, as the font list names them.
const kindOf = { "sans-serif": "sans", serif: "serif", display: "display", monospace: "mono" } as const;

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
    if (grounds.every((ground) => contrastOf(candidate, ground) >= TEXT_CONTRAST)) return candidate;
  }
  return text;
}

// The colour drawn on a fill: the brand's own choice while it still reads on the (possibly adjusted)
// fill, else whichever of white and near-black reads best.
function onFill(fill: string, preferred: string): string {
  if (contrastOf(preferred, fill) >= TEXT_CONTRAST) return preferred;
  return contrastOf("#ffffff", fill) >= contrastOf("#111111", fill) ? "#ffffff" : "#111111";
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
    "--font-heading": fontStack(typography.heading.family, kindOf[typography.heading.category]),
    "--font-body": fontStack(typography.body.family, kindOf[typography.body.category]),
    "--font-mono": typography.mono
      ? fontStack(typography.mono.family, kindOf[typography.mono.category])
      : defaults["--font-mono"]!,
    "--type-base": defaults["--type-base"]!,
    "--type-scale": String(Math.round(scale * 1000) / 1000),
    "--radius": `${radius}px`,
    "--space": defaults["--space"]!,
  };
  return [":root {", ...Object.entries(tokens).map(([name, value]) => `  ${name}: ${value};`), "}"].join("\n");
}
