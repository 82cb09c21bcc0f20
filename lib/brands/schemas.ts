import { z } from "zod";
import { hasNoNul, nulMessage, timestamp, uuid } from "@/lib/core/fields";

// Request and response schemas of the Brands resource (SPEC.md).

export const brandParams = z.object({ id: uuid.describe("The brand's id.") });

export const createBrandBody = z.strictObject({
  url: z
    .string({ message: "is required: the address of a public website" })
    .trim()
    .min(1, "is required: the address of a public website")
    .max(2048, "must be at most 2048 characters")
    .refine(hasNoNul, nulMessage("url"))
    .refine((value) => URL.canParse(value), "must be an absolute URL such as https://example.com")
    .meta({ format: "uri", description: "A public website, such as https://example.com." }),
});

export const brandSchema = z.object({
  id: uuid,
  name: z.string(),
  sourceUrl: z.string().describe("The website the brand was extracted from."),
  createdAt: timestamp,
  updatedAt: timestamp,
});

// The brand book as answered (SPEC.md leaves its inner structure open): its sections named and typed as
// objects, so clients that read schemas know what it holds (lib/brands/brand-book.ts has each section's
// fields); each optional and every object open, since a book stored by an older extractor may differ.
const section = (description: string) => z.looseObject({}).optional().describe(description);
export const brandDetailSchema = brandSchema.extend({
  data: z
    .looseObject({
      schemaVersion: z.number().optional().describe("Changes whenever a field's meaning does."),
      name: z.string().optional(),
      sourceUrl: z.string().optional(),
      palette: section("Colours by role (primary, accent, background, text…), the site's colours, their contrast."),
      typography: section("Heading, body and mono fonts, the type scale and the font files the site loads."),
      logo: z.looseObject({}).nullable().optional().describe("The logo found on the site, or null."),
      voice: section("Tone, reading level, sample phrases and writing guidelines."),
      imagery: section("Image style, shapes and corner radius, and guidelines."),
      tokensCss: z.string().optional().describe("The theme tokens a deck styled by this brand gets."),
      sources: section("The pages and stylesheets read, and when."),
      extraction: section("The model used, if any, and how long the extraction took."),
    })
    .describe("The brand book: palette with roles, typography, logo, voice and imagery rules."),
});
