"use server";

import { redirect } from "next/navigation";
import { defineAction } from "@/server/action";
import { AppError } from "@/lib/core/errors";
import { deleteBrand } from "@/lib/brands/brands";
import { createBrandFromUrl } from "@/lib/brands/create-brand";
import { brandParams, createBrandBody } from "@/lib/brands/schemas";

// Brands in the app: extract one from a website, delete one (refused while decks use it).

export const createBrandAction = defineAction({
  input: createBrandBody,
  rateLimit: "slow",
  run: (ctx, input) => createBrandFromUrl(ctx, input),
  onSuccess: (brand) => redirect(`/brands/${brand.id}`),
});

export const deleteBrandAction = defineAction({
  input: brandParams.strict(),
  run: async (ctx, { id }) => {
    try {
      return await deleteBrand(ctx, id);
    } catch (error) {
      if (error instanceof AppError && error.code === "conflict") {
        throw new AppError("conflict", `This brand cannot be deleted yet: ${error.message}`);
      }
      throw error;
    }
  },
  onSuccess: () => redirect("/brands"),
});
