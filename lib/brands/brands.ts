import { and, count, desc, eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { brands } from "@/lib/db/schema/brands";
import { decks } from "@/lib/db/schema/decks";
import { getFileStore } from "@/lib/storage/storage";
import type { BrandBook } from "./brand-book";
import { brandDetailSchema, brandSchema } from "./schemas";

// Reading and deleting brands. Brands belong to the organization: every member may use them.

function isForeignKeyViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "23503") return true;
  }
  return false;
}

function brandNotFound(): AppError {
  return new AppError("not_found", "Brand not found.");
}

async function findBrand(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(brands)
    .where(and(eq(brands.id, id), eq(brands.organizationId, ctx.caller.organizationId)))
    .limit(1);
  if (!row) throw brandNotFound();
  return row;
}

// GET /brands: newest first.
export async function listBrands(ctx: Ctx) {
  const rows = await ctx.db
    .select({
      id: brands.id,
      name: brands.name,
      sourceUrl: brands.sourceUrl,
      createdAt: brands.createdAt,
      updatedAt: brands.updatedAt,
    })
    .from(brands)
    .where(eq(brands.organizationId, ctx.caller.organizationId))
    .orderBy(desc(brands.createdAt), desc(brands.id));
  return rows.map((row) => brandSchema.parse(row));
}

// GET /brands/{id}: the brand with its brand book.
export async function getBrand(ctx: Ctx, id: string) {
  return brandDetailSchema.parse(await findBrand(ctx, id));
}

// DELETE /brands/{id}: refused while a deck (of any owner in the organization) is styled by it.
export async function deleteBrand(ctx: Ctx, id: string): Promise<{ deleted: true }> {
  const brand = await findBrand(ctx, id);
  const [usage] = await ctx.db.select({ n: count() }).from(decks).where(eq(decks.brandId, brand.id));
  const inUse = usage?.n ?? 0;
  if (inUse > 0) {
    // A count only: the decks may be other members' private ones.
    const them = inUse === 1 ? "it" : "them";
    throw new AppError(
      "conflict",
      `${inUse} deck${inUse === 1 ? " uses" : "s use"} this brand; delete ${them} or give ${them} another brand first.`,
    );
  }
  try {
    await ctx.db.delete(brands).where(eq(brands.id, brand.id));
  } catch (error) {
    // A deck created with this brand after the check above: the foreign key refuses the delete.
    if (isForeignKeyViolation(error)) throw new AppError("conflict", "A deck started using this brand; try again.");
    throw error;
  }
  // A logo stored as one of the organization's images stays with them (its uploader may delete it now);
  // one stored before logos were images is removed with the brand.
  const logo = (brand.data as Partial<BrandBook> | null)?.logo;
  const logoKey = logo?.assetId ? null : logo?.storedKey;
  if (logoKey)
    await getFileStore()
      .delete(logoKey)
      .catch(() => {});
  return { deleted: true };
}
