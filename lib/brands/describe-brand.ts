import type { BrandBook } from "./brand-book";

// The brand book as plain text for a writer or a model: what to use, what to avoid. The AI prompts
// append it to the authoring brief for decks that have a brand.
export function describeBrandBook(book: BrandBook): string {
  const { roles } = book.palette;
  const { heading, body, mono } = book.typography;
  const lines = [
    `BRAND: ${book.name} (from ${book.sourceUrl})`,
    "",
    "The deck's tokensCss already carries this brand; use the tokens (var(--color-primary) …), never raw hex values.",
    "",
    "Colours by role:",
    ...(["background", "surface", "text", "muted", "primary", "secondary", "accent"] as const).map(
      (role) => `- ${role}: ${roles[role].hex} (${roles[role].source})`,
    ),
    `- text on background contrast ${book.palette.contrast.textOnBackground.toFixed(1)}:1; on primary use ${book.palette.contrast.onPrimary.hex}`,
    "",
    "Type:",
    `- headings: ${heading.family} (${heading.category}); body: ${body.family} (${body.category})${mono ? `; code: ${mono.family}` : ""}`,
    "",
    `Voice: ${book.voice.tone.join(", ")}; reading level ${book.voice.readingLevel.label}.`,
    ...book.voice.guidelines.map((rule) => `- ${rule}`),
    ...(book.voice.samplePhrases.length
      ? [`Phrases the brand uses: ${book.voice.samplePhrases.map((p) => `"${p}"`).join("; ")}`]
      : []),
    "",
    `Imagery: ${book.imagery.style}, ${book.imagery.shapes} shapes (corner radius about ${book.imagery.cornerRadiusPx}px on the web).`,
    ...book.imagery.guidelines.map((rule) => `- ${rule}`),
  ];
  return lines.join("\n");
}
