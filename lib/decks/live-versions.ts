import { and, eq } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { config } from "@/lib/core/config";
import type { DeckFormat } from "@/lib/contract/deck";
import { locateSlides } from "@/lib/source/transform/tsx-module";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { users } from "@/lib/db/schema/users";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getDeckWithReadableHistory } from "./access";
import { getDeckVersion } from "./deck-versions";
import { compileDraft } from "./drafts";

// Live saves in the editor: what an open editor polls to learn that the deck gained a version (saved in
// another tab, by the API, the AI, or by its owner while a colleague reads it), and the slides that changed
// between two contents as pictures side by side (the live-save notice's Review, the save conflict).

export type NewestVersion = {
  version: number;
  author: string;
  /** Whether the caller wrote it (another tab of theirs, their API key, their AI run). */
  byCaller: boolean;
  note: string | null;
  createdAt: string;
};

/** The deck's newest version and who wrote it; null before its first. One row read when nothing changed. */
export async function newestVersion(ctx: Ctx, deckId: string, known: number): Promise<NewestVersion | null> {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  if (deck.versionCount === 0 || deck.versionCount <= known) return null;
  const [row] = await ctx.db
    .select({
      version: deckVersions.version,
      note: deckVersions.prompt,
      createdAt: deckVersions.createdAt,
      createdBy: deckVersions.createdBy,
      name: users.name,
      email: users.email,
    })
    .from(deckVersions)
    .leftJoin(users, eq(users.id, deckVersions.createdBy))
    .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, deck.versionCount)));
  if (!row) return null;
  return {
    version: row.version,
    author: row.name ?? row.email ?? "a deleted user",
    byCaller: row.createdBy === ctx.caller.userId,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}

export type SlideChange = {
  /** 1-based, in the "after" content (in the "before" one for a removed slide). */
  slide: number;
  label: string;
  kind: "changed" | "added" | "removed";
  beforeUrl: string | null;
  afterUrl: string | null;
};

const MAX_CHANGES = 8;

function slideTexts(source: string, format: DeckFormat): { text: string; label: string | null }[] | null {
  try {
    const deck = locateSlides(source, format);
    return deck.hiddenSlides ? null : deck.slides.map((slide) => ({ text: slide.text, label: slide.label }));
  } catch {
    return null;
  }
}

/**
 * The slides that differ between version `before` (0: the empty deck, before its first version) and
 * `after`: a version, or the caller's draft with its typed content, compiled into their draft first so the
 * pictures show that content (not whatever the editor compiled last). Each comes with a link drawing it in
 * either (the library thumbnail's frame, one slide). Slides are paired by position; a deck whose slides are
 * made in code is compared as a whole (slide 1).
 */
export async function compareSlides(
  ctx: Ctx,
  deckId: string,
  before: number,
  after: { version: number } | { draft: { source: string; tokensCss?: string | null; basedOnVersion: number } },
): Promise<{ changes: SlideChange[]; more: number }> {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  const old = before === 0 ? { source: "" } : await getDeckVersion(ctx, deck.id, before);
  if ("draft" in after) {
    // Unsaved work (what differs from the version it is based on), kept to restore as the autosave keeps it.
    const { source, tokensCss, basedOnVersion } = after.draft;
    await compileDraft(ctx, deck.id, { source, tokensCss: tokensCss ?? "", basedOnVersion, unsaved: true });
  }
  const next =
    "version" in after
      ? { source: (await getDeckVersion(ctx, deck.id, after.version)).source ?? "", version: after.version }
      : { source: after.draft.source, version: 0 };
  const origin = config.deckContentOrigin ?? config.appUrl;
  const link = (version: number, slide: number, draft: boolean) => {
    const token = mintPreviewToken({
      deckId: deck.id,
      version,
      ...(draft ? { draftOf: ctx.caller.userId } : {}),
    });
    return `${origin}/preview/${token}/frame?mode=thumb&chrome=0&slide=${slide}`;
  };
  // The empty deck has nothing to draw.
  const beforeLink = (slide: number) => (before === 0 ? null : link(before, slide, false));
  const draft = !("version" in after);
  const a = slideTexts(old.source ?? "", deck.format);
  const b = slideTexts(next.source, deck.format);
  const all: SlideChange[] = [];
  if (!a || !b) {
    if ((old.source ?? "") !== next.source)
      all.push({
        slide: 1,
        label: "The deck",
        kind: "changed",
        beforeUrl: beforeLink(1),
        afterUrl: link(next.version, 1, draft),
      });
  } else {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const was = a[i];
      const now = b[i];
      if (was && now && was.text === now.text) continue;
      all.push({
        slide: i + 1,
        label: now?.label ?? was?.label ?? `Slide ${i + 1}`,
        kind: !was ? "added" : !now ? "removed" : "changed",
        beforeUrl: was ? beforeLink(i + 1) : null,
        afterUrl: now ? link(next.version, i + 1, draft) : null,
      });
    }
  }
  return { changes: all.slice(0, MAX_CHANGES), more: Math.max(0, all.length - MAX_CHANGES) };
}
