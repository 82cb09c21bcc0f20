import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { getReadableDeck } from "./access";
import type { DeckRow } from "./present";

// A version the renderer can draw on the slide canvas, for exports, the deck check and slide images: anyone who may read
// the deck; a slides deck; a deck-tsx version (default the newest). Another organization reads a public
// deck's newest version only: its history is not shared.
export async function getRenderableVersion(
  ctx: Ctx,
  deckId: string,
  requested: number | undefined,
  done: "exported" | "checked" | "drawn",
): Promise<{ deck: DeckRow; version: number }> {
  const deck = await getReadableDeck(ctx, deckId);
  if (deck.format !== "slides") {
    throw new AppError("invalid_request", `Only slides decks can be ${done}; this deck is a webpage.`);
  }
  if (deck.versionCount === 0) {
    throw new AppError(
      "invalid_request",
      `This deck has no content yet; write a version before ${{ exported: "exporting", checked: "checking", drawn: "drawing" }[done]} it.`,
    );
  }
  const version = requested ?? deck.versionCount;
  if (version !== deck.versionCount && deck.organizationId !== ctx.caller.organizationId) {
    throw new AppError("not_found", `Version ${version} of this deck is not shared outside its organization.`);
  }
  const [row] = await ctx.db
    .select({ format: deckVersions.format })
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, version)));
  if (!row) {
    throw new AppError(
      "not_found",
      `Version ${version} of this deck does not exist (the newest is ${deck.versionCount}).`,
    );
  }
  if (row.format !== "deck-tsx") {
    throw new AppError(
      "invalid_request",
      `Version ${version} is a legacy HTML document; only deck-tsx versions can be ${done}.`,
    );
  }
  return { deck, version };
}
