import type { Metadata } from "next";
import { AddBrandForm } from "@/components/app/brand-forms";
import { Card, EmptyState } from "@/components/ui";
import { requireAppContext } from "@/server/context";
import type { BrandBook } from "@/lib/brands/brand-book";
import { getBrand, listBrands } from "@/lib/brands/brands";

export const metadata: Metadata = { title: "Brands · Deckhand" };
// Its server action adds a brand: extraction fetches a site and renders it (as POST /brands).
export const maxDuration = 120;

// The organization's brands: add one from a website, open its brand book.
export default async function BrandsPage() {
  const { ctx } = await requireAppContext();
  const brands = await Promise.all((await listBrands(ctx)).map((brand) => getBrand(ctx, brand.id)));
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Brands</h1>
        <p className="mt-1 text-sm text-zinc-600">A brand styles every slide of the decks that use it.</p>
      </div>
      <Card>
        <AddBrandForm />
      </Card>
      {brands.length === 0 ? (
        <EmptyState title="No brands yet">Add your company's website above.</EmptyState>
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Brands">
          {brands.map((brand) => {
            const book = brand.data as BrandBook;
            return (
              <li key={brand.id}>
                <a
                  href={`/brands/${brand.id}`}
                  className="block overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200 hover:ring-zinc-300 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  <div className="flex h-16">
                    {(["primary", "secondary", "accent", "background", "text"] as const).map((role) => (
                      <span key={role} className="flex-1" style={{ background: book.palette.roles[role]?.hex }} />
                    ))}
                  </div>
                  <div className="p-4">
                    <p className="font-medium">{brand.name}</p>
                    <p className="truncate text-sm text-zinc-500">{brand.sourceUrl}</p>
                  </div>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
