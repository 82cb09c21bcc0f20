import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { DeckFormat } from "@/lib/contract/deck";
import type { Ctx } from "@/lib/auth/caller";
import { reserializeStoredTokensCss } from "@/lib/source/tokens";
import { themeTokens } from "@/lib/source/theme-tokens";
import { brands } from "@/lib/db/schema/brands";
import { decks } from "@/lib/db/schema/decks";
import { getReadableDeck } from "./access";
import { currentTokensCss } from "./latest-version";
import { presentDeck } from "./present";
import type { createDeckBody } from "./schemas";

// POST /decks (slides only), and the app's "new deck" (slides or webpage). A starting deck of the same
// format lends its brand and theme tokens; the content is written fresh.
export async function createDeck(
  ctx: Ctx,
  input: Omit<z.output<typeof createDeckBody>, "format"> & { format: DeckFormat },
) {
  let brandId: string | null = null;
  let initialTokensCss: string | null = null;
  let startedFromDeckId: string | null = null;

  if (input.fromDeckId) {
    const from = await getReadableDeck(ctx, input.fromDeckId);
    if (from.format !== input.format) {
      throw new AppError(
        "invalid_request",
        `fromDeckId names a ${from.format} deck; only a ${input.format} deck can start a ${input.format} deck.`,
      );
    }
    startedFromDeckId = from.id;
    // A brand belongs to one organization: a public deck of another organization lends its tokens only.
    if (from.organizationId === ctx.caller.organizationId) brandId = from.brandId;
    // Lent re-serialised: the starting deck's tokens may be a row stored before values were checked the
    // way a browser reads them (and may belong to another organization); only validated parts pass on.
    initialTokensCss = reserializeStoredTokensCss(await currentTokensCss(ctx.db, from));
  }

  if (input.brandId) {
    const [brand] = await ctx.db
      .select({ id: brands.id, data: brands.data })
      .from(brands)
      .where(and(eq(brands.id, input.brandId), eq(brands.organizationId, ctx.caller.organizationId)));
    if (!brand) throw new AppError("not_found", "Brand not found.");
    brandId = brand.id;
    initialTokensCss = brandTokensCss(brand.data) ?? initialTokensCss;
  }

  const [row] = await ctx.db
    .insert(decks)
    .values({
      organizationId: ctx.caller.organizationId,
      ownerId: ctx.caller.userId,
      title: input.title,
      description: input.description,
      kind: input.kind,
      format: input.format,
      brandId,
      startedFromDeckId,
      initialTokensCss,
    })
    .returning();
  return presentDeck(row!);
}

// A brand's tokens, re-serialised like any stored tokens (the synthesiser writes font names read from a
// website into them); null when the brand has none, or none that are valid. Brands extracted before the
// presenting type scale carry the synthesiser's old default body size (it never read one from a website), so
// that one value is read as today's default: a deck started from such a brand reads from the back of a room.
export function brandTokensCss(data: unknown): string | null {
  const tokens = (data as { tokensCss?: unknown } | null)?.tokensCss;
  if (typeof tokens !== "string") return null;
  return reserializeStoredTokensCss(tokens.replace(OLD_DEFAULT_BASE, `$1${defaultBase}$2`));
}

const OLD_DEFAULT_BASE = /(--type-base:\s*)32px(\s*;)/;
const defaultBase = themeTokens.find((token) => token.name === "--type-base")!.default;
