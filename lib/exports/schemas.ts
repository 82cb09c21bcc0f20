import { z } from "zod";
import { timestamp, uuid } from "@/lib/core/fields";
import { exportFormats, exportLayouts, exportStatuses } from "@/lib/db/schema/exports";

// Request and response schemas of the Exports resource (SPEC.md).

export const exportParams = z.object({ id: uuid.describe("The export's id.") });

export const createExportBody = z.strictObject({
  format: z.enum(exportFormats, { message: "must be 'pdf' or 'pptx'" }).describe("The file type to render."),
  version: z
    .number({ message: "must be an integer greater than 0" })
    .int("must be an integer greater than 0")
    .positive("must be an integer greater than 0")
    .max(2_147_483_647, "is too large")
    .optional()
    .describe("The version to render; default the newest."),
  layout: z
    .enum(exportLayouts, { message: "must be 'slides' or 'notes'" })
    .optional()
    .describe(
      "PDF only. 'slides' (default): one 16:9 page per slide. 'notes': a portrait handout page per slide, the slide above its speaker notes, with page numbers.",
    ),
});

export const exportSchema = z.object({
  id: uuid,
  deckId: uuid,
  version: z.int().positive().describe("The deck version rendered."),
  format: z.enum(exportFormats),
  layout: z.enum(exportLayouts).describe("'slides', or 'notes' for a PDF handout of the slides and speaker notes."),
  status: z.enum(exportStatuses).describe("Poll get_export until 'completed' (or 'failed')."),
  fileName: z.string().nullable(),
  nonstandardFonts: z
    .array(z.string())
    .nullable()
    .describe("Fonts in the deck that may not render identically in the export."),
  error: z.string().nullable().describe("Why the export failed, when status is 'failed'."),
  downloadUrl: z
    .url()
    .nullable()
    .describe("Authenticated download endpoint (download_export); set once status is 'completed'."),
  createdAt: timestamp,
});
