import { z } from "zod";
import { hasNoNul, nulMessage, timestamp, uuid } from "@/lib/core/fields";

// Request and response schemas of the Assets resource (beyond SPEC.md: issue 17).

export const assetParams = z.object({ id: uuid.describe("The asset's id.") });

const alt = z
  .string()
  .trim()
  .max(1000, "must be at most 1000 characters")
  .refine(hasNoNul, nulMessage("alt"))
  .describe("What the image shows: the alt text suggested when it is inserted into a deck.");

// The JSON form (MCP's upload_asset, and JSON requests): the bytes as base64. The REST route also takes the
// raw bytes (Content-Type image/*) or multipart/form-data (a `file` part), read by lib/api/upload.ts into
// this same shape. The alt text is a query parameter in every form.
export const uploadAssetQuery = z.strictObject({ alt: alt.optional() });

export const uploadAssetBody = z.strictObject({
  data: z
    .base64({ message: "must be the image's bytes in base64" })
    .min(1, "must be the image's bytes in base64")
    .describe("The image file (PNG, JPEG, WebP, GIF, AVIF or SVG), base64-encoded. The type is read from the bytes."),
});

export const assetSchema = z.object({
  id: uuid,
  url: z
    .string()
    .describe("Where the image is served; write it as an Image src (or a Slide's image) in a deck.")
    .meta({ format: "uri" }),
  width: z.int().describe("Width in pixels of the stored image (downscaled to fit 3840x2160)."),
  height: z.int().describe("Height in pixels of the stored image."),
  contentType: z.string().describe("image/png, image/jpeg or image/gif: SVG is rasterised, WebP and AVIF converted."),
  bytes: z.int().describe("Size of the stored image: what counts toward the organization's storage."),
  alt: z.string().nullable(),
  sourceUrl: z.string().nullable().describe("The URL it was imported from, or null for an upload."),
  createdAt: timestamp,
});
