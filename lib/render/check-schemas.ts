import { z } from "zod";
import { versionParams } from "@/lib/decks/schemas";
import { type FindingKind, findingKinds } from "@/lib/contract/check";

// GET /decks/{id}/check: its query and its answer (used by the API, the MCP tool and the editor's action).

export const checkDeckQuery = z.strictObject({
  version: versionParams.shape.version.optional().describe("The version to check; default the newest."),
  attach: z
    .enum(["images"])
    .optional()
    .describe(
      "Over MCP, 'images' attaches a picture of each slide with findings (the first 5, 960 px wide) as image content after the findings. Over REST the findings alone are answered: GET /decks/{id}/slides/{n}/image draws a slide.",
    ),
});

/** How many slides with findings check_deck attaches pictures of (MCP, attach: "images"), and how wide. */
export const CHECK_IMAGES = { slides: 5, width: 960 } as const;

export const findingSchema = z.object({
  kind: z.enum(Object.keys(findingKinds) as [FindingKind, ...FindingKind[]]).describe(
    `What is wrong, stable across releases. ${Object.entries(findingKinds)
      .map(([kind, doc]) => `${kind}: ${doc}.`)
      .join(" ")}`,
  ),
  severity: z
    .enum(["error", "warning"])
    .describe("'error': a viewer sees something broken; 'warning': against the authoring brief's rules."),
  slide: z.number().int().nullable().describe("1-based slide number; null for a finding about the whole deck."),
  label: z.string().nullable().describe("The slide's label; null with slide."),
  message: z.string().describe("What is wrong, where, and what to do about it."),
  component: z.string().optional().describe("The component concerned, as the deck names it (Bullets, Stat…)."),
  text: z.string().optional().describe("The start of the component's text."),
  measured: z
    .number()
    .optional()
    .describe(
      "The measure behind the finding: px past the edge or overlapping, the contrast ratio, or a count of words or bullets.",
    ),
});

export const checkResultSchema = z.object({
  version: z.number().int().describe("The version checked."),
  slides: z.number().int().describe("How many slides were drawn."),
  errors: z.number().int().describe("Findings of severity 'error'."),
  warnings: z.number().int().describe("Findings of severity 'warning'."),
  findings: z
    .array(findingSchema)
    .describe("In slide order, errors first on each slide; empty when nothing was found."),
});
