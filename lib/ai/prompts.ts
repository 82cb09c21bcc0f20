import { buildAuthoringBrief } from "@/lib/source/instructions";
import type { DeckFormat } from "@/lib/contract/deck";

// Every prompt Deckhand sends a model. Built from the authoring brief (itself generated from the
// vocabulary), so what the model is told always matches what compiles.

export type PromptContext = {
  format: DeckFormat;
  title: string;
  tokensCss: string;
  /** Plain-text brand book (describeBrandBook), when the deck has a brand. */
  brand: string | null;
  /** Source of the template the deck started from, as a design reference. */
  templateSource: string | null;
  /** The newest version's source (revise and edit). */
  currentSource: string | null;
};

function contextSections(context: PromptContext): string {
  const sections = [
    `DECK\nTitle: ${context.title}\nFormat: ${context.format === "slides" ? "slides (use <Slide>)" : "webpage (use <Beat>)"}`,
    `THEME TOKENS (already applied; do not restate them)\n${context.tokensCss}`,
  ];
  if (context.brand) sections.push(context.brand);
  if (context.templateSource) {
    sections.push(
      `TEMPLATE (the design this deck started from: follow its structure, layouts and components; write fresh content)\n\`\`\`tsx\n${context.templateSource}\n\`\`\``,
    );
  }
  return sections.join("\n\n");
}

export function generateSystemPrompt(context: PromptContext): string {
  return [
    "You write presentation decks as deck-tsx modules for Deckhand.",
    buildAuthoringBrief(),
    contextSections(context),
    "ANSWER FORMAT\nReply with the complete module in one ```tsx code block and nothing else.",
  ].join("\n\n");
}

export function generateUserPrompt(brief: string, context: PromptContext): string {
  if (context.currentSource) {
    return `Rewrite this deck following the brief below. Keep what the brief does not ask to change.\n\nCURRENT MODULE\n\`\`\`tsx\n${context.currentSource}\n\`\`\`\n\nBRIEF\n${brief}`;
  }
  return `Write the deck this brief describes.\n\nBRIEF\n${brief}`;
}

export function editSystemPrompt(context: PromptContext): string {
  return [
    "You make targeted edits to a Deckhand deck-tsx module.",
    buildAuthoringBrief(),
    contextSections(context),
    [
      "ANSWER FORMAT",
      "Reply only with SEARCH/REPLACE hunks against the current module, as many as the edit needs:",
      "<<<<<<< SEARCH",
      "exact lines from the current module (unique, whitespace included)",
      "=======",
      "the lines that replace them",
      ">>>>>>> REPLACE",
      "Change only what the instruction asks; never rewrite slides it does not mention. To add a slide, replace the slide before it with itself followed by the new one; to remove one, replace it with nothing.",
    ].join("\n"),
  ].join("\n\n");
}

export function editUserPrompt(instruction: string, source: string): string {
  return `CURRENT MODULE\n\`\`\`tsx\n${source}\`\`\`\n\nINSTRUCTION\n${instruction}`;
}

/** The deck check's errors on a module that compiles: what a viewer would see broken, slide by slide. */
export function layoutRepairPrompt(kind: "generate" | "edit", errors: { message: string }[]): string {
  const list = errors.map((finding) => `- ${finding.message}`).join("\n");
  const intro = `That module compiles, but drawn on the 1920x1080 canvas the deck check found what a viewer would see broken:\n${list}\n\n`;
  return kind === "generate"
    ? `${intro}Fix exactly these slides (shorten, split or restructure them; move detail to the notes) and reply with the complete corrected module in one \`\`\`tsx block.`
    : `${intro}Reply with SEARCH/REPLACE hunks against the CURRENT MODULE shown above that make the requested edit and fix these.`;
}

export function repairPrompt(kind: "generate" | "edit", error: string): string {
  return kind === "generate"
    ? `That module does not compile:\n${error}\n\nFix exactly that and reply with the complete corrected module in one \`\`\`tsx block.`
    : `Your hunks could not be used:\n${error}\n\nReply with corrected SEARCH/REPLACE hunks against the CURRENT MODULE shown above.`;
}
