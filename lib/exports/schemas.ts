import { z } from "zod";
import { exportFormats, exportStatuses } from "@/lib/db/schema/exports";

// Request and response schemas of the Exports resource (SPEC.md).

export const exportParams = z.object({ id: z.guid({ message: "must be a UUID" }) });

export const createExportBody = z.strictObject({
  format: z.enum(exportFormats, { message: "must be 'pdf' or 'pptx'" }),
  version: z
    .number({ message: "must be an integer greater than 0" })
    .int("must be an integer greater than 0")
    .positive("must be an integer greater than 0")
    .max(2_147_483_647, "is too large")
    .optional(),
});

export const exportSchema = z.object({
  id: z.string(),
  deckId: z.string(),
  version: z.number().int(),
  format: z.enum(exportFormats),
  status: z.enum(exportStatuses),
  fileName: z.string().nullable(),
  nonstandardFonts: z.array(z.string()).nullable(),
  error: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  createdAt: z.date().transform((d) => d.toISOString()),
});
