import { z } from "zod";
import { hasNoNul, nulMessage } from "@/lib/core/fields";
import { PROMPT_MAX_CHARS, setContentBody, versionParams } from "./schemas";

// The slide-level edits' path, query and bodies (GET, PUT, POST, DELETE /decks/{id}/slides…, and …/move).
// Slides are numbered from 1, as the player, the check and slide images number them.

const slideNumber = (description: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,4}$/, "must be a slide number: an integer from 1")
    .transform((n) => Number(n))
    .meta({ type: "integer", minimum: 1, maximum: 99_999, description });

export const slideParams = z.object({
  id: versionParams.shape.id,
  n: slideNumber("The slide's number (1 is the first)."),
});

export const listSlidesQuery = z.strictObject({
  version: versionParams.shape.version.optional().describe("The version to read; default the newest."),
});

const basedOnVersion = z
  .int("must be an integer")
  .min(1, "must be a version number (1 or more)")
  .optional()
  .describe("The version this edit was made on: when the deck has a newer one, nothing is saved (409).");

const prompt = z
  .string()
  .max(PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`)
  .refine(hasNoNul, nulMessage("prompt"))
  .nullish()
  .describe("A note recorded with the version, such as what changed.");

const slideSource = setContentBody.shape.source.describe(
  "One <Slide> element, from <Slide to </Slide>, as TSX (at most 1 MB). Player components it uses are imported when the module does not import them yet.",
);

export const replaceSlideBody = z.strictObject({ source: slideSource, basedOnVersion, prompt });

export const insertSlideBody = z.strictObject({
  after: z
    .int("must be an integer")
    .min(0, "must be 0 (first) or a slide number")
    .describe("The slide to insert after: 0 puts the new slide first."),
  source: slideSource,
  basedOnVersion,
  prompt,
});

export const moveSlideBody = z.strictObject({
  to: z.int("must be an integer").min(1, "must be a slide number (1 or more)").describe("The slide's new number."),
  basedOnVersion,
  prompt,
});

export const deleteSlideQuery = z.strictObject({
  basedOnVersion: versionParams.shape.version
    .optional()
    .describe("The version this edit was made on: when the deck has a newer one, nothing is saved (409)."),
});

export const slideListSchema = z.object({
  version: z.number().int().describe("The version read."),
  editable: z
    .boolean()
    .describe(
      "False when some slides are made in code (.map, a condition, a helper): slide edits are refused; write the whole module with set_deck_content.",
    ),
  slides: z.array(
    z.object({
      slide: z.number().int().describe("The slide's number (1 is the first)."),
      label: z.string().nullable().describe("Its label (the outline entry), or null."),
      notes: z.string().describe('Its speaker notes as written (notes="…"); empty when none or made in code.'),
      source: z.string().describe("Its TSX, from <Slide to </Slide>: the bytes a slide edit replaces."),
    }),
  ),
});
