import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Editor } from "@/components/app/editor/editor";
import { AppError } from "@/lib/core/errors";
import { authoringModelName } from "@/lib/ai/new-deck-with-ai";
import { uuid } from "@/lib/core/fields";
import { getBrand, listBrands } from "@/lib/brands/brands";
import { brandTokensCss } from "@/lib/decks/create-deck";
import { requireAppContext } from "@/server/context";
import { config } from "@/lib/core/config";
import { starterSource } from "@/lib/source/starter";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { listVersionHistory } from "@/lib/decks/deck-versions";
import { getUnsavedDraft } from "@/lib/decks/drafts";
import { slideNotes } from "@/lib/decks/slide-notes";
import { getDeck } from "@/lib/decks/get-deck";
import { privateDeckOwner } from "@/lib/decks/private-deck";
import { PROMPT_MAX_CHARS } from "@/lib/decks/schemas";
import { PrivateDeck } from "@/components/app/private-deck";
import { createPreviewUrl } from "@/lib/decks/preview-deck";
import { logger } from "@/lib/core/log";

export const metadata: Metadata = { title: "Editor · Deckhand" };
// Its server actions include generate and edit, which wait on a model (as their API routes).
export const maxDuration = 300;

// The editor of one deck: source and tokens, live preview, outline, save, history.
export default async function EditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { ctx } = await requireAppContext();
  const { id } = await params;
  if (!uuid.safeParse(id).success) notFound();
  let deck;
  try {
    deck = await getDeck(ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "forbidden") {
      // A colleague's private deck: say whose it is (inside the organization only; elsewhere a 404).
      const owner = await privateDeckOwner(ctx, id);
      if (owner) return <PrivateDeck owner={owner} />;
    }
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) notFound();
    throw error;
  }
  // The editor shows a deck's history, which stays inside its organization (another organization's public
  // deck is read through its share link).
  if (deck.organizationId !== ctx.caller.organizationId) notFound();
  const [history, brands, brand] = await Promise.all([
    listVersionHistory(ctx, id),
    listBrands(ctx),
    deck.brandId ? brandOf(ctx, deck.id, deck.brandId) : null,
  ]);
  const brandTokens = brand ? brandTokensCss(brand.data) : null;
  // Before its first version a deck opens with its template's newest content (the design it builds on),
  // or a starter module.
  const latest = deck.latestVersion ?? (await startingContent(ctx, deck.startedFromDeckId));
  const canEdit = deck.ownerId === ctx.caller.userId;
  // The owner's typed work not saved as a version (restored with a notice); a reader's view of the newest
  // version (preview, outline, notes), since a reader has no draft to preview.
  const draft = canEdit ? await getUnsavedDraft(ctx, deck.id) : null;
  const reader =
    !canEdit && deck.latestVersion
      ? {
          previewUrl: (await createPreviewUrl(ctx, deck.id, deck.versionCount, { ttlMs: 4 * 60 * 60 * 1000 })).url,
          outline: deck.latestVersion.outline ?? [],
          notes: slideNotes(deck.latestVersion.source ?? "", deck.format),
        }
      : null;
  return (
    <Editor
      deck={{ id: deck.id, title: deck.title, format: deck.format, versionCount: deck.versionCount }}
      settings={{
        title: deck.title,
        kind: deck.kind,
        description: deck.description,
        archived: deck.archived,
        visibility: deck.visibility,
      }}
      publicUrl={deck.publicUrl}
      brands={brands.map((b) => ({ id: b.id, name: b.name }))}
      brandId={deck.brandId}
      brand={brand && brandTokens ? { name: brand.name, tokensCss: brandTokens } : null}
      presentUrl={
        !canEdit && deck.versionCount > 0
          ? `${config.appUrl}/preview/${(await createPreviewUrl(ctx, deck.id, deck.versionCount, { ttlMs: 4 * 60 * 60 * 1000 })).token}/view`
          : null
      }
      canEdit={canEdit}
      aiModel={canEdit ? authoringModelName() : null}
      draft={draft}
      reader={reader}
      noteMaxLength={PROMPT_MAX_CHARS}
      initialSource={latest?.source ?? starterSource(deck.format, deck.title)}
      initialTokens={latest?.tokensCss ?? defaultTokensCss}
      history={history.map((v) => ({
        version: v.version,
        note: v.prompt,
        createdAt: v.createdAt.toISOString(),
        author: v.authorName ?? v.authorEmail ?? "a deleted user",
      }))}
    />
  );
}

// The deck's brand; none when it was deleted or is out of reach. Any other failure (the database) is logged
// and shown on the error page (error.tsx beside this page), not passed off as "no brand".
async function brandOf(ctx: Parameters<typeof getBrand>[0], deckId: string, brandId: string) {
  try {
    return await getBrand(ctx, brandId);
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) return null;
    logger("editor").error("the deck's brand could not be read", { deckId, brandId, error });
    throw error;
  }
}

async function startingContent(ctx: Parameters<typeof getDeck>[0], fromId: string | null) {
  if (!fromId) return null;
  try {
    return (await getDeck(ctx, fromId)).latestVersion;
  } catch {
    return null; // the template is gone or no longer readable
  }
}
