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

export const brandDetailSchema = brandSchema.extend({
  data: z.unknown().describe("The brand book: palette with roles, typography, logo, voice and imagery rules."),
});
