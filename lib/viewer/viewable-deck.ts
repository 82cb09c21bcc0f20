import { and, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import { brands } from "@/lib/db/schema/brands";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { decks } from "@/lib/db/schema/decks";
import { organizations } from "@/lib/db/schema/organizations";
import type { Queryable } from "@/lib/db/types";
import type { DeckLogo } from "./logo";

export type ViewableDeck = {
  /**
   * With the name of the organization that shares it (the share page says who) and its id (a renderer is
   * kept for one organization's decks: lib/render/browser.ts).
   */
  deck: Pick<typeof decks.$inferSelect, "id" | "title" | "description" | "format" | "organizationId"> & {
    organization: string;
  };
  version: Pick<typeof deckVersions.$inferSelect, "version" | "format" | "tokensCss" | "compiledJs" | "html"> & {
    /** Slides in the version's outline, when it is known: a renderer gives a big deck longer to draw. */
    slides?: number | null;
  };
  /** The deck's brand logo (<Logo>); absent or null when the deck has no brand or its brand no stored logo. */
  logo?: DeckLogo | null;
  /** The public link's password (an argon2id hash), when it has one (lib/viewer/link-access.ts). */
  passwordHash?: string | null;
};

// The deck's brand, read in the same query: its name and the stored logo of its brand book (jsonb).
const brandColumns = {
  brandName: brands.name,
  logoKey: sql<string | null>`${brands.data} -> 'logo' ->> 'storedKey'`,
  logoType: sql<string | null>`${brands.data} -> 'logo' ->> 'contentType'`,
};

function logoOf(row: { brandName: string | null; logoKey: string | null; logoType: string | null }): DeckLogo | null {
  if (row.brandName === null || !row.logoKey) return null;
  return { brandName: row.brandName, storedKey: row.logoKey, contentType: row.logoType };
}

const slugPattern = /^[0-9a-z]{6,32}$/;

// One query for a deck and one of its versions: the viewer's hot path.
async function findViewable(db: Queryable, versionJoin: SQL, where: SQL): Promise<ViewableDeck | null> {
  const [row] = await db
    .select({
      id: decks.id,
      title: decks.title,
      description: decks.description,
      format: decks.format,
      organizationId: decks.organizationId,
      organization: organizations.name,
      version: deckVersions.version,
      versionFormat: deckVersions.format,
      tokensCss: deckVersions.tokensCss,
      compiledJs: deckVersions.compiledJs,
      html: deckVersions.html,
      slides: sql<number | null>`jsonb_array_length(${deckVersions.outline})`,
      passwordHash: decks.sharePasswordHash,
      ...brandColumns,
    })
    .from(decks)
    .innerJoin(deckVersions, versionJoin)
    .innerJoin(organizations, eq(organizations.id, decks.organizationId))
    .leftJoin(brands, eq(brands.id, decks.brandId))
    .where(where)
    .limit(1);
  if (!row) return null;
  const {
    version,
    versionFormat,
    tokensCss,
    compiledJs,
    html,
    slides,
    brandName,
    logoKey,
    logoType,
    passwordHash,
    ...deck
  } = row;
  return {
    deck,
    version: { version, format: versionFormat, tokensCss, compiledJs, html, slides },
    logo: logoOf({ brandName, logoKey, logoType }),
    passwordHash,
  };
}

// The newest version of a deck that is public right now; null for an unknown slug, a deck that was
// unpublished, one whose link has expired, or one with no content yet. A password-protected link is found
// (with its hash): the caller decides what a request without the unlock gets.
export function findPublicDeck(db: Queryable, slug: string): Promise<ViewableDeck | null> {
  if (!slugPattern.test(slug)) return Promise.resolve(null);
  return findViewable(
    db,
    and(eq(deckVersions.deckId, decks.id), eq(deckVersions.version, decks.versionCount))!,
    and(
      eq(decks.publicSlug, slug),
      eq(decks.visibility, "public"),
      or(isNull(decks.shareExpiresAt), gt(decks.shareExpiresAt, sql`now()`)),
    )!,
  );
}

// Any version of any deck: only for callers holding a verified preview grant.
export function findDeckVersion(db: Queryable, deckId: string, version: number): Promise<ViewableDeck | null> {
  return findViewable(
    db,
    and(eq(deckVersions.deckId, decks.id), eq(deckVersions.version, version))!,
    eq(decks.id, deckId),
  );
}

// An author's unsaved draft (the editor's live preview), shown as version 0: only with a verified grant.
export async function findDraft(db: Queryable, deckId: string, userId: string): Promise<ViewableDeck | null> {
  const [row] = await db
    .select({
      id: decks.id,
      title: decks.title,
      description: decks.description,
      format: decks.format,
      organizationId: decks.organizationId,
      organization: organizations.name,
      tokensCss: deckDrafts.tokensCss,
      compiledJs: deckDrafts.compiledJs,
      ...brandColumns,
    })
    .from(deckDrafts)
    .innerJoin(decks, eq(decks.id, deckDrafts.deckId))
    .innerJoin(organizations, eq(organizations.id, decks.organizationId))
    .leftJoin(brands, eq(brands.id, decks.brandId))
    .where(and(eq(deckDrafts.deckId, deckId), eq(deckDrafts.userId, userId)))
    .limit(1);
  // A draft that has never compiled has no preview.
  if (!row || row.compiledJs === null) return null;
  const { tokensCss, compiledJs, brandName, logoKey, logoType, ...deck } = row;
  return {
    deck,
    version: { version: 0, format: "deck-tsx", tokensCss, compiledJs, html: null },
    logo: logoOf({ brandName, logoKey, logoType }),
  };
}
