import { createHash } from "node:crypto";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { config, setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { assets } from "@/lib/db/schema/assets";
import { brands } from "@/lib/db/schema/brands";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import type { Db } from "@/lib/db/types";
import { getFileStore } from "@/lib/storage/storage";
import { processImage, type ProcessedImage } from "./image";
import { assetSchema } from "./schemas";

// The organization's images. An image is stored by the hash of the bytes received: the same bytes sent
// twice (by an upload, a deck's remote image, a brand's logo) are one asset, and one stored file even
// across organizations. Stored files never change, so they are served with a year's caching under
// ASSET_PATH on the app's origin (or DECK_CONTENT_ORIGIN), the one image path the frame's CSP allows.

export type AssetRow = typeof assets.$inferSelect;

/** Where assets are served, on the app's origin and on the deck content origin alike. */
export const ASSET_PATH = "/assets/";
/** `/assets/<64 hex>.<png|jpg|gif>`: the whole of an asset's address. */
export const assetPathPattern = /^\/assets\/([0-9a-f]{64})\.(png|jpg|gif)$/;

/** The asset's path on whatever origin serves the deck: how compiled modules refer to it. */
export function assetPath(row: Pick<AssetRow, "sha256" | "contentType">): string {
  const extension = row.contentType === "image/jpeg" ? "jpg" : row.contentType === "image/gif" ? "gif" : "png";
  return `${ASSET_PATH}${row.sha256}.${extension}`;
}

/** The asset's absolute URL, as the API answers it and authors paste it into decks. */
function assetUrl(row: Pick<AssetRow, "sha256" | "contentType">): string {
  return `${config.deckContentOrigin ?? new URL(config.appUrl).origin}${assetPath(row)}`;
}

/**
 * An asset address a deck may name: `/assets/…`, or the same path on the app's origin or the deck content
 * origin. Returns the hash, or null for any other URL.
 */
export function assetHashOf(url: string): string | null {
  let path = url;
  if (!url.startsWith("/")) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const origins = [new URL(config.appUrl).origin, config.viewerBaseUrl && new URL(config.viewerBaseUrl).origin];
    if (config.deckContentOrigin) origins.push(config.deckContentOrigin);
    if (!origins.includes(parsed.origin) || parsed.search || parsed.hash) return null;
    path = parsed.pathname;
  }
  return assetPathPattern.exec(path)?.[1] ?? null;
}

export function presentAsset(row: AssetRow): z.output<typeof assetSchema> {
  return assetSchema.parse({
    id: row.id,
    url: assetUrl(row),
    width: row.width,
    height: row.height,
    contentType: row.contentType,
    bytes: row.bytes,
    alt: row.alt,
    sourceUrl: row.sourceUrl,
    createdAt: row.createdAt,
  });
}

export function imageLimits() {
  return { maxBytes: setting("ASSET_MAX_BYTES"), maxPixels: setting("ASSET_MAX_PIXELS") };
}

/** Who stores an image: the organization it belongs to and the person (null for a system import). */
export type AssetOwner = { db: Db; organizationId: string; userId: string | null };

export function ownerOf(ctx: Ctx): AssetOwner {
  return { db: ctx.db, organizationId: ctx.caller.organizationId, userId: ctx.caller.userId };
}

type StoredFile = Pick<AssetRow, "storedKey" | "contentType" | "bytes" | "width" | "height" | "originalType">;

/** An image checked and converted, not yet stored (`commitImage` stores it). */
export type PreparedImage =
  | { existing: AssetRow }
  | {
      existing: null;
      owner: AssetOwner;
      sha256: string;
      originalBytes: number;
      file: StoredFile | null;
      processed: ProcessedImage | null;
      alt: string | null;
      sourceUrl: string | null;
    };

/**
 * Checks an image for the organization without storing anything: the organization's own copy when it has
 * the same bytes already, else the image converted (or another organization's stored file of the same
 * bytes). `what` names the image in refusals: 422 for what is not an accepted image or is over the
 * limits, 429 when the organization's storage is full (`alsoAdding`: bytes prepared beside it).
 */
export async function prepareImage(
  owner: AssetOwner,
  input: Buffer,
  options: { alt?: string | null; sourceUrl?: string | null; what?: string; alsoAdding?: number },
): Promise<PreparedImage> {
  const { db, organizationId } = owner;
  const what = options.what ?? "The image";
  const limits = imageLimits();
  if (input.length > limits.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `${what} is ${input.length} bytes; images of at most ${limits.maxBytes} bytes are accepted.`,
    );
  }
  const sha256 = createHash("sha256").update(input).digest("hex");
  const [mine] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, organizationId), eq(assets.sha256, sha256)))
    .limit(1);
  if (mine) return { existing: mine };

  // The same bytes stored by another organization: the processed file is shared, not made again.
  const [twin] = await db.select().from(assets).where(eq(assets.sha256, sha256)).limit(1);
  const file: StoredFile | null = twin
    ? {
        storedKey: twin.storedKey,
        contentType: twin.contentType,
        bytes: twin.bytes,
        width: twin.width,
        height: twin.height,
        originalType: twin.originalType,
      }
    : null;
  const processed = file ? null : await processImage(input, limits, what);
  await assertStorageLeft(db, organizationId, (file?.bytes ?? processed!.data.length) + (options.alsoAdding ?? 0));
  return {
    existing: null,
    owner,
    sha256,
    originalBytes: input.length,
    file,
    processed,
    alt: options.alt ?? null,
    sourceUrl: options.sourceUrl ?? null,
  };
}

/** The bytes a prepared image adds to the organization's storage. */
export function preparedBytes(prepared: PreparedImage): number {
  if (prepared.existing) return 0;
  return prepared.file?.bytes ?? prepared.processed!.data.length;
}

/** Stores a prepared image (the file, then its row) and answers the organization's asset. */
export async function commitImage(prepared: PreparedImage): Promise<AssetRow> {
  if (prepared.existing) return prepared.existing;
  const { owner, sha256, processed } = prepared;
  let file = prepared.file;
  if (!file) {
    const image = processed!;
    const storedKey = await getFileStore().put(`assets/${sha256}.${image.extension}`, image.data, image.contentType);
    file = {
      storedKey,
      contentType: image.contentType,
      bytes: image.data.length,
      width: image.width,
      height: image.height,
      originalType: image.originalType,
    };
  }
  const [row] = await owner.db
    .insert(assets)
    .values({
      organizationId: owner.organizationId,
      uploadedBy: owner.userId,
      sha256,
      ...file,
      originalBytes: prepared.originalBytes,
      alt: prepared.alt,
      sourceUrl: prepared.sourceUrl,
    })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  // Stored at the same moment by another request of the organization.
  const [existing] = await owner.db
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, owner.organizationId), eq(assets.sha256, sha256)))
    .limit(1);
  return existing!;
}

/** Stores an image for the organization, or finds it stored already (see `prepareImage`). */
export async function storeImage(
  owner: AssetOwner,
  input: Buffer,
  options: { alt?: string | null; sourceUrl?: string | null; what?: string },
): Promise<AssetRow> {
  return commitImage(await prepareImage(owner, input, options));
}

async function assertStorageLeft(db: Db, organizationId: string, adding: number): Promise<void> {
  const limit = setting("ASSET_STORAGE_BYTES");
  const [used] = await db
    .select({ bytes: sql<string>`coalesce(sum(${assets.bytes}), 0)` })
    .from(assets)
    .where(eq(assets.organizationId, organizationId));
  const total = Number(used?.bytes ?? 0);
  if (total + adding > limit) {
    throw new AppError(
      "quota_exceeded",
      `The organization's images use ${total} of ${limit} bytes; this one (${adding} bytes) does not fit. Delete images no deck uses, or ask for more storage.`,
    );
  }
}

// GET /assets: newest first.
export async function listAssets(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(assets)
    .where(eq(assets.organizationId, ctx.caller.organizationId))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(1000);
  return rows.map(presentAsset);
}

/** One of the organization's assets (the brand page shows the logo's), or null. */
export async function getAsset(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.organizationId, ctx.caller.organizationId)))
    .limit(1);
  return row ? presentAsset(row) : null;
}

/** The organization's assets with these hashes (for deck writes that name asset URLs). */
export async function findAssetsByHash(owner: Pick<AssetOwner, "db" | "organizationId">, hashes: string[]) {
  if (hashes.length === 0) return [];
  return owner.db
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, owner.organizationId), inArray(assets.sha256, hashes)));
}

/** The organization's asset imported earlier from this URL, if any: a deck written again does not fetch it again. */
export async function findImportedAsset(owner: Pick<AssetOwner, "db" | "organizationId">, sourceUrl: string) {
  const [row] = await owner.db
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, owner.organizationId), eq(assets.sourceUrl, sourceUrl)))
    .orderBy(desc(assets.createdAt))
    .limit(1);
  return row ?? null;
}

/** The hashes of the stored images a compiled module (or any text) names on the asset path. */
export function assetHashesIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(/\/assets\/([0-9a-f]{64})\.(?:png|jpg|gif)\b/g), (match) => match[1]!))];
}

/**
 * Gives the organization asset rows of its own for the images of organization `from` that content copied
 * from it names (a deck started from another organization's public template). The file is shared (one per
 * hash); the rows decide which images the organization's decks may name (a later save of the copy checks
 * them) and whether the file outlives a deletion (`deleteAsset` removes it only when no organization holds
 * it), so the copy keeps its images whatever `from` deletes. Each row is a copy of `from`'s (alt text and
 * source URL with it, so a remote URL in the copied source is not fetched again when it is saved), with the
 * caller as its uploader, who may delete it once no version shows it; hashes `from` does not hold are left
 * alone. Counts against the organization's storage like any image (429 when full).
 */
export async function adoptAssets(owner: AssetOwner, hashes: string[], from: string): Promise<AssetRow[]> {
  if (hashes.length === 0) return [];
  const held = new Set((await findAssetsByHash(owner, hashes)).map((row) => row.sha256));
  const missing = hashes.filter((hash) => !held.has(hash));
  if (missing.length === 0) return [];
  const sources = await owner.db
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, from), inArray(assets.sha256, missing)));
  if (sources.length === 0) return [];
  await assertStorageLeft(
    owner.db,
    owner.organizationId,
    sources.reduce((total, row) => total + row.bytes, 0),
  );
  return owner.db
    .insert(assets)
    .values(
      sources.map((row) => ({
        organizationId: owner.organizationId,
        uploadedBy: owner.userId,
        sha256: row.sha256,
        storedKey: row.storedKey,
        contentType: row.contentType,
        bytes: row.bytes,
        width: row.width,
        height: row.height,
        originalType: row.originalType,
        originalBytes: row.originalBytes,
        alt: row.alt,
        sourceUrl: row.sourceUrl,
      })),
    )
    .onConflictDoNothing()
    .returning();
}

function assetNotFound(): AppError {
  return new AppError("not_found", "Asset not found.");
}

// DELETE /assets/{id}: by the person who stored it, and only while no version of the organization's decks
// and no brand refers to it (versions are immutable: what they show stays). The stored file goes when no
// organization holds the same image any more.
export async function deleteAsset(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.organizationId, ctx.caller.organizationId)))
    .limit(1);
  if (!row) throw assetNotFound();
  if (row.uploadedBy !== ctx.caller.userId) {
    throw new AppError("forbidden", "Only the person who stored an image may delete it.");
  }
  const pattern = `%${ASSET_PATH}${row.sha256}.%`;
  const [usedByDeck] = await ctx.db
    .select({ id: deckVersions.id })
    .from(deckVersions)
    .innerJoin(decks, eq(decks.id, deckVersions.deckId))
    .where(and(eq(decks.organizationId, ctx.caller.organizationId), sql`${deckVersions.compiledJs} like ${pattern}`))
    .limit(1);
  const [usedByBrand] = await ctx.db
    .select({ id: brands.id })
    .from(brands)
    .where(
      and(eq(brands.organizationId, ctx.caller.organizationId), sql`${brands.data}->'logo'->>'assetId' = ${row.id}`),
    )
    .limit(1);
  if (usedByDeck || usedByBrand) {
    throw new AppError(
      "conflict",
      usedByDeck
        ? "A version of a deck shows this image; versions never change, so it stays."
        : "A brand's logo is this image; it stays while the brand does.",
    );
  }
  await ctx.db.delete(assets).where(eq(assets.id, row.id));
  const [shared] = await ctx.db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.storedKey, row.storedKey), ne(assets.id, row.id)))
    .limit(1);
  if (!shared) await getFileStore().delete(row.storedKey);
  return { deleted: true as const };
}
