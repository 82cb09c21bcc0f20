// The open fonts Deckhand ships (from @fontsource packages, copied into the player's assets by
// scripts/build-player.ts) and how a CSS font-family value is read. tokensCss may name any family;
// shipped ones render identically in the viewer and in exports, others fall back along their CSS stack
// and are reported: by the player (the faces that did not load) and by the server (tokens, brands).

export type FontCategory = "sans" | "serif" | "mono" | "display";

export type ShippedFont = {
  family: string;
  /** @fontsource package the files come from. */
  package: string;
  category: FontCategory;
  weights: readonly number[];
  /** Whether an italic face of weight 400 is shipped. */
  italic: boolean;
};

export const shippedFonts: readonly ShippedFont[] = [
  { family: "Inter", package: "@fontsource/inter", category: "sans", weights: [400, 500, 600, 700, 800], italic: true },
  { family: "DM Sans", package: "@fontsource/dm-sans", category: "sans", weights: [400, 500, 700], italic: true },
  {
    family: "IBM Plex Sans",
    package: "@fontsource/ibm-plex-sans",
    category: "sans",
    weights: [400, 500, 600, 700],
    italic: true,
  },
  { family: "Lato", package: "@fontsource/lato", category: "sans", weights: [400, 700, 900], italic: true },
  {
    family: "Montserrat",
    package: "@fontsource/montserrat",
    category: "sans",
    weights: [400, 500, 600, 700, 800],
    italic: true,
  },
  { family: "Nunito", package: "@fontsource/nunito", category: "sans", weights: [400, 600, 700, 800], italic: true },
  { family: "Open Sans", package: "@fontsource/open-sans", category: "sans", weights: [400, 600, 700], italic: true },
  { family: "Poppins", package: "@fontsource/poppins", category: "sans", weights: [400, 500, 600, 700], italic: true },
  { family: "Raleway", package: "@fontsource/raleway", category: "sans", weights: [400, 600, 700], italic: true },
  { family: "Roboto", package: "@fontsource/roboto", category: "sans", weights: [400, 500, 700], italic: true },
  {
    family: "Space Grotesk",
    package: "@fontsource/space-grotesk",
    category: "sans",
    weights: [400, 500, 600, 700],
    italic: false,
  },
  {
    family: "Work Sans",
    package: "@fontsource/work-sans",
    category: "sans",
    weights: [400, 500, 600, 700],
    italic: true,
  },
  {
    family: "Source Serif 4",
    package: "@fontsource/source-serif-4",
    category: "serif",
    weights: [400, 600, 700],
    italic: true,
  },
  { family: "Lora", package: "@fontsource/lora", category: "serif", weights: [400, 500, 600, 700], italic: true },
  {
    family: "Merriweather",
    package: "@fontsource/merriweather",
    category: "serif",
    weights: [400, 700, 900],
    italic: true,
  },
  {
    family: "Libre Baskerville",
    package: "@fontsource/libre-baskerville",
    category: "serif",
    weights: [400, 700],
    italic: true,
  },
  {
    family: "Playfair Display",
    package: "@fontsource/playfair-display",
    category: "display",
    weights: [400, 600, 700, 800],
    italic: true,
  },
  {
    family: "DM Serif Display",
    package: "@fontsource/dm-serif-display",
    category: "display",
    weights: [400],
    italic: true,
  },
  {
    family: "JetBrains Mono",
    package: "@fontsource/jetbrains-mono",
    category: "mono",
    weights: [400, 500, 700],
    italic: false,
  },
  { family: "Fira Code", package: "@fontsource/fira-code", category: "mono", weights: [400, 500, 700], italic: false },
  {
    family: "IBM Plex Mono",
    package: "@fontsource/ibm-plex-mono",
    category: "mono",
    weights: [400, 500, 700],
    italic: false,
  },
];

/**
 * The colour emoji font every text falls back to after the theme's stack (vocabulary.css), so emoji draw in
 * the viewer, the PDF and the deck check's renderer on a server without system fonts. It is split by
 * unicode-range: a deck loads only the parts holding the emoji it uses.
 */
export const emojiFont = { family: "Noto Color Emoji", package: "@fontsource/noto-color-emoji" } as const;

// Fonts installed with Microsoft Office on Windows and macOS: a PPTX naming one of these shows as designed.
export const officeFonts: readonly string[] = [
  "Aptos",
  "Arial",
  "Arial Black",
  "Book Antiqua",
  "Calibri",
  "Calibri Light",
  "Cambria",
  "Candara",
  "Century Gothic",
  "Comic Sans MS",
  "Consolas",
  "Constantia",
  "Corbel",
  "Courier New",
  "Franklin Gothic Medium",
  "Garamond",
  "Georgia",
  "Gill Sans MT",
  "Impact",
  "Lucida Console",
  "Palatino Linotype",
  "Segoe UI",
  "Tahoma",
  "Times New Roman",
  "Trebuchet MS",
  "Verdana",
];

const genericFamilies = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-serif",
  "ui-sans-serif",
  "ui-monospace",
  "ui-rounded",
  "math",
  "emoji",
]);

const shippedByName = new Map(shippedFonts.map((font) => [font.family.toLowerCase(), font]));

export function findShippedFont(family: string): ShippedFont | undefined {
  return shippedByName.get(family.toLowerCase());
}

// What follows a family in the stacks Deckhand writes: the shipped face of its kind (when the family is not
// shipped, so the viewer and the exports still draw one face), then the system faces of that kind (where
// even that is missing: a PPTX opened elsewhere), as the default theme does (lib/source/theme-tokens.ts).
const shippedOfKind: Record<FontCategory, string> = {
  sans: "Inter",
  serif: "Source Serif 4",
  display: "Playfair Display",
  mono: "JetBrains Mono",
};
const systemOfKind: Record<FontCategory, string> = {
  sans: '"Helvetica Neue", Arial, system-ui, sans-serif',
  serif: 'Georgia, "Times New Roman", serif',
  display: 'Georgia, "Times New Roman", serif',
  mono: '"SFMono-Regular", Menlo, Consolas, monospace',
};

/**
 * The one font-family value Deckhand writes for a family (the theme panel, a brand's tokens): a shipped
 * family under its shipped name, then the system faces of its kind; any other family (read from a website,
 * say) quoted, with the characters that could end the string, the declaration or an inline <style> dropped,
 * then the shipped face of `category` and its system faces. No family: the shipped face of `category`.
 */
export function fontStack(family: string | null | undefined, category: FontCategory = "sans"): string {
  const shipped = family ? findShippedFont(family.trim()) : undefined;
  if (shipped) return `"${shipped.family}", ${systemOfKind[shipped.category]}`;
  const lead = `"${shippedOfKind[category]}", ${systemOfKind[category]}`;
  const plain = [...(family ?? "")].filter((c) => c >= " " && c !== "\u007f" && !`"\\<>;{}`.includes(c)).join("");
  return plain.trim() ? `"${plain.trim()}", ${lead}` : lead;
}

export function isGenericFamily(family: string): boolean {
  return genericFamilies.has(family.toLowerCase());
}

/** Splits a CSS font-family value into family names, unquoting them: `"Inter", Arial, sans-serif`. */
export function parseFontFamilyList(value: string): string[] {
  const families: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^,]+))\s*(?:,|$)/g;
  for (const match of value.matchAll(pattern)) {
    const name = (match[1] ?? match[2] ?? match[3] ?? "").trim().replace(/\s+/g, " ");
    if (name) families.push(name);
  }
  return families;
}

/**
 * The first family of each `--font-*` token: the faces the deck is designed in. A family that is neither
 * shipped nor generic is "unavailable": the viewer and exporter fall back along the stack.
 */
export function analyzeDeckFonts(properties: Record<string, string>): { primary: string[]; unavailable: string[] } {
  const primary: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    if (!name.startsWith("--font-")) continue;
    const first = parseFontFamilyList(value)[0];
    if (first && !primary.includes(first)) primary.push(first);
  }
  const unavailable = primary.filter((family) => !findShippedFont(family) && !isGenericFamily(family));
  return { primary, unavailable };
}
