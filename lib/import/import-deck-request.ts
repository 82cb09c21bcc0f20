import { z } from "zod";
import { importDeck, importDeckBody, importResultSchema } from "@/lib/ai/import-deck";
import type { Ctx } from "@/lib/auth/caller";
import { deckSchema } from "@/lib/decks/schemas";
import { importModes, importPptx, importReportSchema } from "./pptx/import-pptx";

// POST /decks/import's input as one schema: the Markdown import's fields (lib/ai/import-deck.ts) or a
// PowerPoint file (`file`, base64 in JSON; the raw body and multipart are turned into the same shape by
// lib/api/upload.ts), and the call that answers each.

export const importDeckRequest = importDeckBody
  .extend({
    markdown: importDeckBody.shape.markdown.optional(),
    file: z
      .base64({ message: "must be the PowerPoint file's bytes in base64" })
      .min(1, "must be the PowerPoint file's bytes in base64")
      .optional()
      .describe(
        "A PowerPoint file (.pptx), base64-encoded, instead of `markdown`. Over REST, the raw file or multipart/form-data may be sent instead.",
      ),
    mode: z
      .enum(importModes)
      .optional()
      .describe(
        "With `file`: 'faithful' (default) keeps every slide as it looks (each shape a positioned Frame of editable text, pictures, tables and charts; the theme's colours and fonts as the deck's tokens); 'restyle' maps the content into the vocabulary's own layouts, so the deck takes the house style or a brand.",
      ),
  })
  .superRefine((value, ctx) => {
    if ((value.markdown === undefined) === (value.file === undefined)) {
      ctx.addIssue({ code: "custom", path: ["markdown"], message: "give either markdown or file (a PowerPoint file)" });
    }
    if (value.mode !== undefined && value.file === undefined) {
      ctx.addIssue({ code: "custom", path: ["mode"], message: "applies to a PowerPoint file only" });
    }
  });

export const importDeckResponse = deckSchema.extend({
  warnings: importResultSchema.shape.warnings
    .optional()
    .describe("A Markdown import's notes: what of the input the deck does not show as written."),
  importReport: importReportSchema
    .optional()
    .describe("A PowerPoint import's report: slides, mode and what was approximated or left out."),
});

export async function runImport(ctx: Ctx, body: z.output<typeof importDeckRequest>) {
  const { file, mode, markdown, ...rest } = body;
  if (file !== undefined) {
    return importPptx(ctx, { ...rest, file: Buffer.from(file, "base64"), mode: mode ?? "faithful" });
  }
  return importDeck(ctx, { ...rest, markdown: markdown! });
}
