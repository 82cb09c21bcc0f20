"use client";

import { useState } from "react";
import { setBrandAction } from "@/server/actions/editor";

// The deck's brand, always shown in the editor's bar with its visible label: choosing one names it on the
// deck and hands its tokens to the editor (saved with the next version; the editor says so until then).
// With no brand in the organization yet, "Add a brand" leads to the brands page, where one is made from a
// website; leaving with unsaved changes asks first, as every way out of the editor does.
const ADD_BRAND = "add-brand";

export type PickedBrand = { id: string; name: string; tokensCss: string | null } | null;

export function BrandPicker({
  deckId,
  brands,
  brandId,
  onBrand,
}: {
  deckId: string;
  brands: { id: string; name: string }[];
  brandId: string | null;
  onBrand: (brand: PickedBrand) => void;
}) {
  const [value, setValue] = useState(brandId ?? "");
  const [error, setError] = useState<string | null>(null);
  if (brands.length === 0) {
    return (
      <span className="flex items-center gap-2 text-sm">
        <span className="font-medium text-zinc-700">Brand</span>
        <a href="/brands" className="font-medium text-accent hover:underline">
          Add a brand
        </a>
      </span>
    );
  }
  return (
    <div className="flex items-center gap-2">
      <label className="text-sm font-medium text-zinc-700" htmlFor="brand">
        Brand
      </label>
      <select
        id="brand"
        value={value}
        onChange={async (e) => {
          const next = e.target.value;
          if (next === ADD_BRAND) {
            window.location.assign("/brands");
            return;
          }
          setValue(next);
          const result = await setBrandAction({ id: deckId, brandId: next || null });
          if (!result.ok) return setError(result.error.message);
          setError(null);
          const picked = brands.find((b) => b.id === next);
          onBrand(picked ? { ...picked, tokensCss: result.value.tokensCss } : null);
        }}
        className="w-32 rounded-md py-1.5 pr-8 pl-2 text-sm ring-1 ring-zinc-300"
      >
        <option value="">No brand</option>
        {brands.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
        <option value={ADD_BRAND}>Add a brand…</option>
      </select>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </div>
  );
}
