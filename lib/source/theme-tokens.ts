// The theme tokens a deck's tokensCss may set (the custom properties the player's components read), with
// what each is for and its default: the brief, the theme panel, brands and new decks read them here.

export type TokenSpec = {
  /** Custom property name, e.g. "--color-primary". */
  name: string;
  doc: string;
  default: string;
};

// Defaults are a neutral, high-contrast theme that looks deliberate with no brand applied. Sizes are in
// canvas pixels (1920x1080), so they look large next to web defaults on purpose.
export const themeTokens: readonly TokenSpec[] = [
  { name: "--color-bg", doc: "Slide and page background.", default: "#fafaf9" },
  { name: "--color-surface", doc: 'Cards (<Box tone="surface">), table stripes, code blocks.', default: "#f0eeeb" },
  { name: "--color-text", doc: "Body and heading text on bg and surface.", default: "#1c1917" },
  { name: "--color-muted", doc: "Secondary text: captions, kickers, sources, axis labels.", default: "#6b645d" },
  { name: "--color-border", doc: "Hairlines: table rules, outlined boxes, chart grid.", default: "#dcd8d3" },
  {
    name: "--color-primary",
    doc: "Brand colour: stat values, icons, charts, primary boxes and backgrounds.",
    default: "#1d4ed8",
  },
  { name: "--color-on-primary", doc: "Text and icons drawn on the primary colour.", default: "#ffffff" },
  { name: "--color-secondary", doc: "Second data colour and supporting accents.", default: "#0f766e" },
  {
    name: "--color-accent",
    doc: "Sparse emphasis: highlighted chart point or table row, accent boxes.",
    default: "#c2410c",
  },
  { name: "--color-on-accent", doc: "Text and icons drawn on the accent colour.", default: "#ffffff" },
  {
    name: "--font-heading",
    doc: "Title and Heading typeface.",
    default: '"Source Serif 4", "Source Serif Pro", Georgia, "Times New Roman", serif',
  },
  {
    name: "--font-body",
    doc: "Text, Bullets, Stat labels, tables and charts.",
    default: '"Inter", "Helvetica Neue", Arial, system-ui, sans-serif',
  },
  {
    name: "--font-mono",
    doc: "Code blocks.",
    default: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace',
  },
  {
    name: "--type-base",
    doc: 'Body text size (Text "md") on the 1920x1080 canvas; every other size derives from it. 48px is 24 pt on a 13.33-inch slide: readable from the back of a room.',
    default: "48px",
  },
  {
    name: "--type-scale",
    doc: "Ratio of the type ladder: Text sm = base / scale, lg = base × scale; Heading 3, 2, 1 = base × scale², ³, ⁴; Title = base × scale⁵.",
    default: "1.2",
  },
  { name: "--radius", doc: "Corner radius of boxes, images and code blocks.", default: "16px" },
  {
    name: "--space",
    doc: "Spacing unit; gaps and paddings are multiples of it (slide padding is 12 units).",
    default: "8px",
  },
];

export const defaultTokensCss: string = [
  ":root {",
  ...themeTokens.map((token) => `  ${token.name}: ${token.default};`),
  "}",
].join("\n");
