import { findShippedFont, type FontCategory } from "@/lib/contract/fonts";

// The shipped family (lib/contract/fonts.ts) that stands in for a font a PowerPoint file names: the family
// itself when it is shipped; for the fonts Office installs, the shipped family closest in look and width;
// for any other, one of its kind guessed from its name (serif, monospace, display), else the sans-serif.

const closest: Record<string, string> = {
  // Humanist sans-serifs.
  calibri: "Open Sans",
  "calibri light": "Open Sans",
  candara: "Lato",
  corbel: "Lato",
  "segoe ui": "Open Sans",
  "segoe ui light": "Open Sans",
  "gill sans": "Lato",
  "gill sans mt": "Lato",
  "trebuchet ms": "Lato",
  tahoma: "Open Sans",
  verdana: "Open Sans",
  optima: "Lato",
  "lucida sans": "Open Sans",
  "lucida sans unicode": "Open Sans",
  "lucida grande": "Open Sans",
  // Neo-grotesques.
  arial: "Inter",
  helvetica: "Inter",
  "helvetica neue": "Inter",
  aptos: "Inter",
  "aptos display": "Inter",
  "franklin gothic medium": "Work Sans",
  "franklin gothic book": "Work Sans",
  "arial narrow": "Roboto",
  "arial black": "Montserrat",
  impact: "Montserrat",
  // Geometric.
  "century gothic": "Poppins",
  futura: "Poppins",
  avenir: "Nunito",
  "avenir next": "Nunito",
  "comic sans ms": "Nunito",
  // Serifs.
  "times new roman": "Source Serif 4",
  times: "Source Serif 4",
  cambria: "Source Serif 4",
  georgia: "Merriweather",
  constantia: "Lora",
  garamond: "Libre Baskerville",
  "book antiqua": "Libre Baskerville",
  "palatino linotype": "Libre Baskerville",
  palatino: "Libre Baskerville",
  baskerville: "Libre Baskerville",
  "bookman old style": "Merriweather",
  // Monospaced.
  consolas: "JetBrains Mono",
  "courier new": "IBM Plex Mono",
  courier: "IBM Plex Mono",
  "lucida console": "IBM Plex Mono",
  menlo: "JetBrains Mono",
};

const byCategory: Record<FontCategory, string> = {
  sans: "Inter",
  serif: "Source Serif 4",
  mono: "JetBrains Mono",
  display: "Playfair Display",
};

function categoryOf(family: string): FontCategory {
  const name = family.toLowerCase();
  if (/mono|courier|consol|\bcode\b|typewriter/.test(name)) return "mono";
  if (/sans|gothic|grotesk|grotesque/.test(name)) return "sans";
  if (/serif|roman|times|garamond|mincho|ming|song|antiqua|book|bodoni|didot|caslon/.test(name)) return "serif";
  if (/display|script|brush|hand/.test(name)) return "display";
  return "sans";
}

/** The shipped family for a font name, and whether it is the font itself. */
export function shippedFamilyFor(family: string): { family: string; exact: boolean } {
  const shipped = findShippedFont(family.trim());
  if (shipped) return { family: shipped.family, exact: true };
  const near = closest[family.trim().toLowerCase()];
  const chosen = near ?? byCategory[categoryOf(family)];
  // Every name above is a shipped family (tests/unit/pptx-faithful.test.ts holds them to the list).
  return { family: chosen, exact: false };
}

/** The families the table maps to (for the test that holds them to the shipped list). */
export const mappedFamilies: readonly string[] = [
  ...new Set([...Object.values(closest), ...Object.values(byCategory)]),
];
