import { z } from "zod";
import { deckFormats, deckKinds, deckVisibilities } from "@/lib/db/schema/decks";
import { versionFormats } from "@/lib/db/schema/deck-versions";

// Request and response schemas of the Decks and Versions resources (SPEC.md). Handlers parse input with
// the request schemas and pass every response through the response schemas, so nothing extra leaks.

export const SOURCE_MAX_BYTES = 1024 * 1024;
export const TOKENS_MAX_BYTES = 64 * 1024;
export const PROMPT_MAX_CHARS = 2000;
export const DESCRIPTION_MAX_CHARS = 10_000;

// Any 8-4-4-4-12 hex id: a well-formed id that names nothing is a 404, not a validation error.
const id = z.guid({ message: "must be a UUID" });
const title = z.string().trim().min(1, "must be 1 to 300 characters").max(300, "must be 1 to 300 characters");
const description = z.string().max(DESCRIPTION_MAX_CHARS, `must be at most ${DESCRIPTION_MAX_CHARS} characters`);
const byteLength = (s: string) => Buffer.byteLength(s, "utf8");

export const deckParams = z.object({ id });

export const versionParams = z.object({
  id,
  version: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "must be an integer greater than 0")
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, "is too large"),
});

export const listDecksQuery = z.strictObject({
  scope: z.enum(["mine", "org"]).default("mine"),
  kind: z.enum(deckKinds).optional(),
  includeArchived: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
});

export const createDeckBody = z.strictObject({
  brandId: id.nullish(),
  fromDeckId: id.nullish(),
  kind: z.enum(deckKinds).default("deck"),
  description: description.default(""),
  title: title.default("Untitled deck"),
  format: z
    .literal("slides", {
      message: "only 'slides' decks can be created through the API; webpage decks are made in the app",
    })
    .default("slides"),
});

export const updateDeckBody = z.strictObject({
  title: title.optional(),
  kind: z.enum(deckKinds).optional(),
  description: description.optional(),
  archived: z.boolean().optional(),
  visibility: z.enum(deckVisibilities).optional(),
});

export const setContentBody = z.strictObject({
  source: z
    .string()
    .min(1, "must not be empty")
    .refine((s) => byteLength(s) <= SOURCE_MAX_BYTES, "must be at most 1 MB"),
  tokensCss: z
    .string()
    .refine((s) => byteLength(s) <= TOKENS_MAX_BYTES, "must be at most 64 KB")
    .nullish(),
  prompt: z.string().max(PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`).nullish(),
});

const timestamp = z.date().transform((d) => d.toISOString());

export const deckSchema = z.object({
  id: z.string(),
  title: z.string(),
  brandId: z.string().nullable(),
  kind: z.enum(deckKinds),
  description: z.string(),
  archived: z.boolean(),
  startedFromDeckId: z.string().nullable(),
  format: z.enum(deckFormats),
  visibility: z.enum(deckVisibilities),
  publicSlug: z.string().nullable(),
  publicUrl: z.string().nullable(),
  organizationId: z.string(),
  ownerId: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const versionContent = {
  format: z.enum(versionFormats),
  source: z.string().nullable(),
  tokensCss: z.string().nullable(),
  compiledJs: z.string().nullable(),
  outline: z.array(z.string()).nullable(),
  html: z.string().nullable(),
};

export const deckDetailSchema = deckSchema.extend({
  latestVersion: z.object({ version: z.number().int(), ...versionContent }).nullable(),
  versionCount: z.number().int(),
});

export const versionSummarySchema = z.object({
  id: z.string(),
  version: z.number().int(),
  prompt: z.string().nullable(),
  createdAt: timestamp,
});

export const versionSchema = versionSummarySchema.extend({ deckId: z.string(), ...versionContent });

export const versionWriteResultSchema = z.object({ id: z.string(), version: z.number().int() });

export const deletedSchema = z.object({ deleted: z.literal(true) });

export type DeckInput = z.input<typeof deckSchema>;
