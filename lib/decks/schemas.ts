import { z } from "zod";
import { hasNoNul, nulMessage, timestamp, uuid } from "@/lib/core/fields";
import { deckKinds, deckVisibilities } from "@/lib/db/schema/decks";
import { versionFormats } from "@/lib/db/schema/deck-versions";
import { deckFormats } from "@/lib/contract/deck";

// Request and response schemas of the Decks and Versions resources (SPEC.md). Handlers parse input with
// the request schemas and pass every response through the response schemas, so nothing extra leaks.

const SOURCE_MAX_BYTES = 1024 * 1024;
export const TOKENS_MAX_BYTES = 64 * 1024;
export const PROMPT_MAX_CHARS = 2000;
const DESCRIPTION_MAX_CHARS = 10_000;

const id = uuid;
export const TITLE_MAX_CHARS = 300;
const title = z
  .string()
  .trim()
  .min(1, `must be 1 to ${TITLE_MAX_CHARS} characters`)
  .max(TITLE_MAX_CHARS, `must be 1 to ${TITLE_MAX_CHARS} characters`)
  .refine(hasNoNul, nulMessage("title"));
const description = z
  .string()
  .max(DESCRIPTION_MAX_CHARS, `must be at most ${DESCRIPTION_MAX_CHARS} characters`)
  .refine(hasNoNul, nulMessage("description"));
const byteLength = (s: string) => Buffer.byteLength(s, "utf8");
/**
 * A UTF-8 byte limit as JSON Schema can say it: a string of more than `bytes` characters is always too long
 * (a character is at least one byte), so `maxLength` is exact for ASCII and a necessary bound otherwise;
 * `x-maxBytes` carries the limit the server applies to the UTF-8 encoding.
 */
const byteLimitMeta = (bytes: number) => ({ maxLength: bytes, "x-maxBytes": bytes });

export const deckParams = z.object({ id: id.describe("The deck's id.") });

export const versionParams = z.object({
  id: id.describe("The deck's id."),
  version: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "must be an integer greater than 0")
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, "is too large")
    // A path segment, documented as the integer it names.
    .meta({ type: "integer", minimum: 1, maximum: 2_147_483_647, description: "Version number (1 is the first)." }),
});

// list_decks' paging: a page of `limit` decks, and the next one's URL in the Link header (rel="next"), whose
// `cursor` is where the page ended in the list's order (newest first): the last deck's creation time, to
// the microsecond, and its id. Without `limit` the answer is the whole list, as SPEC.md has it.
const LIST_LIMIT_MAX = 100;
const limitMessage = `must be an integer from 1 to ${LIST_LIMIT_MAX}`;
const cursorMessage = `is not a cursor this API gave out; take the next page's URL from the Link header (rel="next")`;
const deckCursor = z.object({
  createdAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  id: z.uuid(),
});
export type DeckCursor = z.output<typeof deckCursor>;

export function encodeDeckCursor(cursor: DeckCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

function decodeDeckCursor(text: string): DeckCursor | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    const parsed = deckCursor.safeParse({ createdAt, id });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const listDecksQuery = z.strictObject({
  scope: z
    .enum(["mine", "org"])
    .default("mine")
    .describe("'mine': decks the key's owner created; 'org': every deck of the organization the caller may read."),
  kind: z.enum(deckKinds).optional().describe("Only decks of this kind; 'template' lists the starting points."),
  includeArchived: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .describe("Whether archived decks are listed too."),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, limitMessage)
    .transform(Number)
    .refine((n) => n <= LIST_LIMIT_MAX, limitMessage)
    .optional()
    .meta({
      type: "integer",
      minimum: 1,
      maximum: LIST_LIMIT_MAX,
      description: `At most this many decks (1 to ${LIST_LIMIT_MAX}); the Link header (rel="next") then gives the URL of the next page, when there is one. Without it, every deck is listed.`,
    }),
  cursor: z
    .string()
    .max(200, cursorMessage)
    .transform((text, ctx) => {
      const cursor = decodeDeckCursor(text);
      if (cursor) return cursor;
      ctx.addIssue({ code: "custom", message: cursorMessage });
      return z.NEVER;
    })
    .optional()
    .meta({
      type: "string",
      description:
        "Where the previous page ended: the `cursor` of its Link header's next URL (or MCP's nextCursor). Opaque; the list continues after that deck, newest first.",
    }),
});

export const createDeckBody = z.strictObject({
  brandId: id.nullish().describe("Brand to style the deck with (see list_brands); omit for none."),
  fromDeckId: id
    .nullish()
    .describe(
      "Build on this deck's design (usually a template): its theme tokens and brand carry over, its content does not. A 'webpage' deck is refused.",
    ),
  kind: z.enum(deckKinds).default("deck").describe("'template' creates a starting point for the organization."),
  description: description.default("").describe("What the deck is for; shown with templates."),
  title: title.default("Untitled deck").describe("The deck's name."),
  format: z
    .literal("slides", {
      message: "only 'slides' decks can be created through the API; webpage decks are made in the app",
    })
    .default("slides")
    .describe("Only 'slides' (paged 16:9) decks are created through the API."),
});

// The app's "new deck" form: create_deck's fields and limits, but any format (webpage decks are made in the
// app), and a blank title (the form's field left empty) is the default title.
export const createDeckInAppBody = createDeckBody.extend({
  title: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    createDeckBody.shape.title,
  ),
  format: z.enum(deckFormats, { message: "must be 'slides' or 'webpage'" }).default("slides"),
});

export const updateDeckBody = z.strictObject({
  title: title.optional().describe("The deck's name."),
  kind: z.enum(deckKinds).optional().describe("'template' offers the deck as a starting point; 'deck' stops that."),
  description: description.optional().describe("What the deck is for."),
  archived: z.boolean().optional().describe("An archived template is no longer offered."),
  visibility: z
    .enum(deckVisibilities)
    .optional()
    .describe(
      "'public' publishes the deck at publicUrl; 'org' shares it with the organization; 'private' with no one.",
    ),
});

export const setContentBody = z.strictObject({
  source: z
    .string()
    .min(1, "must not be empty")
    .refine((s) => byteLength(s) <= SOURCE_MAX_BYTES, "must be at most 1 MB")
    .refine(hasNoNul, nulMessage("source"))
    .meta(byteLimitMeta(SOURCE_MAX_BYTES))
    .describe(
      "The complete deck-tsx module (at most 1 MB): default-exports the deck root and imports only the player's vocabulary (see get_authoring_instructions). Replaces the whole content.",
    ),
  tokensCss: z
    .string()
    .refine((s) => byteLength(s) <= TOKENS_MAX_BYTES, "must be at most 64 KB")
    .refine(hasNoNul, nulMessage("tokensCss"))
    .meta(byteLimitMeta(TOKENS_MAX_BYTES))
    .nullish()
    .describe(
      "Theme tokens: a :root CSS block, optionally preceded by font @import rules (at most 64 KB). Defaults to the latest version's tokens.",
    ),
  prompt: z
    .string()
    .max(PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`)
    .refine(hasNoNul, nulMessage("prompt"))
    .nullish()
    .describe("A note recorded with the version, such as what changed."),
});

const versionNumber = z.int().positive();

export const deckSchema = z.object({
  id: uuid,
  title: z.string(),
  brandId: uuid.nullable().describe("Brand used for look and feel; null when the deck has none."),
  kind: z.enum(deckKinds).describe("'template': the organization starts new decks from it."),
  description: z.string(),
  archived: z.boolean().describe("A retired template: still named by decks built from it, no longer offered."),
  startedFromDeckId: uuid.nullable().describe("The deck (often a template) this deck's design was built on."),
  format: z.enum(deckFormats).describe("'slides' is paged 16:9; 'webpage' is a scrolling page. Fixed at creation."),
  visibility: z.enum(deckVisibilities),
  publicSlug: z.string().nullable().describe("Share slug; set on first publish, stable afterwards."),
  publicUrl: z
    .url()
    .nullable()
    .describe("The viewer link to share while visibility is 'public'; null otherwise. Do not build links from the id."),
  organizationId: uuid,
  ownerId: uuid,
  createdAt: timestamp,
  updatedAt: timestamp,
});

const versionContent = {
  format: z.enum(versionFormats).describe("'deck-tsx' (a module) or the legacy 'html' (a standalone document)."),
  source: z.string().nullable().describe("TSX source that default-exports the deck root."),
  tokensCss: z.string().nullable().describe("Theme tokens (:root CSS block) of deck-tsx versions."),
  compiledJs: z.string().nullable().describe("The compiled module the player executes."),
  outline: z.array(z.string()).nullable().describe("Slide (or beat) labels, in order."),
  html: z.string().nullable().describe("Standalone HTML document; set only on legacy 'html' versions."),
};

export const deckDetailSchema = deckSchema.extend({
  latestVersion: z
    .object({ version: versionNumber, ...versionContent })
    .nullable()
    .describe("Content of the newest version; null if the deck never had content."),
  versionCount: z.int().nonnegative(),
});

export const versionSummarySchema = z.object({
  id: uuid,
  version: versionNumber,
  prompt: z.string().nullable().describe("The brief or note that produced the version."),
  createdAt: timestamp,
});

export const versionSchema = versionSummarySchema.extend({ deckId: uuid, ...versionContent });

export const versionWriteResultSchema = z.object({ id: uuid, version: versionNumber });

export const deletedSchema = z.object({ deleted: z.literal(true) });
