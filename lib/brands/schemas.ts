import { z } from "zod";

// Request and response schemas of the Brands resource (SPEC.md).

export const brandParams = z.object({ id: z.guid({ message: "must be a UUID" }) });

export const createBrandBody = z.strictObject({
  url: z
    .string({ message: "is required: the address of a public website" })
    .trim()
    .min(1, "is required: the address of a public website")
    .max(2048, "must be at most 2048 characters")
    .refine((value) => URL.canParse(value), "must be an absolute URL such as https://example.com"),
});

const timestamp = z.date().transform((d) => d.toISOString());

export const brandSchema = z.object({
  id: z.string(),
  name: z.string(),
  sourceUrl: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const brandDetailSchema = brandSchema.extend({ data: z.unknown() });
