import { z } from "zod";
import { versionParams } from "@/lib/decks/schemas";
import { slideParams } from "@/lib/decks/slide-schemas";

// GET /decks/{id}/slides/{n}/image: its path, query and the metadata of its answer (the HTTP answer is the
// image itself; MCP's get_slide_image answers the image with this metadata as structured content).

const SLIDE_IMAGE_MAX_WIDTH = 1920;
const SLIDE_IMAGE_MIN_WIDTH = 64;

/** The slide-level edits' path: the deck and the slide's number (1 is the first). */
export const slideImageParams = slideParams;

const wholeNumber = (name: string) =>
  z
    .string()
    .regex(/^[0-9]{1,10}$/, `${name} must be a whole number`)
    .transform(Number);

export const slideImageQuery = z.strictObject({
  version: versionParams.shape.version.optional().describe("The version to draw; default the newest."),
  width: wholeNumber("width")
    .refine(
      (n) => n >= SLIDE_IMAGE_MIN_WIDTH && n <= SLIDE_IMAGE_MAX_WIDTH,
      `must be from ${SLIDE_IMAGE_MIN_WIDTH} to ${SLIDE_IMAGE_MAX_WIDTH} pixels`,
    )
    .default(1280)
    .meta({
      type: "integer",
      minimum: SLIDE_IMAGE_MIN_WIDTH,
      maximum: SLIDE_IMAGE_MAX_WIDTH,
      default: 1280,
      description: "The image's width in pixels; the height follows the 16:9 slide.",
    }),
  format: z.enum(["png", "webp"]).default("png").describe("png (lossless, default) or webp (smaller)."),
});

export const slideImageSchema = z.object({
  version: z.number().int().describe("The version drawn."),
  slide: z.number().int().describe("The slide's number (1 is the first)."),
  slides: z.number().int().describe("How many slides the version has."),
  width: z.number().int(),
  height: z.number().int(),
  format: z.enum(["png", "webp"]),
  bytes: z.number().int().describe("The image's size in bytes."),
  renderHash: z
    .string()
    .describe("A hash of the image's bytes (its ETag without quotes): equal hashes, identical pictures."),
});
