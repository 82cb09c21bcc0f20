"use server";

import { redirect } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { actionErrorMessage } from "@/lib/app/action-error";
import { actionContext } from "@/lib/app/context";
import { deleteBrand } from "@/lib/brands/brands";
import { createBrandFromUrl } from "@/lib/brands/create-brand";
import { createBrandBody } from "@/lib/brands/schemas";

// Brands in the app: extract one from a website, delete one (refused while decks use it).

export type BrandFormState = { error?: string; url?: string };

export async function createBrandAction(_state: BrandFormState, form: FormData): Promise<BrandFormState> {
  const url = String(form.get("url") ?? "");
  let id: string;
  try {
    const { ctx } = await actionContext("slow");
    const parsed = createBrandBody.safeParse({ url });
    if (!parsed.success) return { error: "Enter the address of a public website, such as https://example.com.", url };
    id = (await createBrandFromUrl(ctx, parsed.data)).id;
  } catch (error) {
    return { error: actionErrorMessage(error), url };
  }
  redirect(`/brands/${id}`);
}

export async function deleteBrandAction(_state: BrandFormState, form: FormData): Promise<BrandFormState> {
  try {
    const { ctx } = await actionContext();
    await deleteBrand(ctx, String(form.get("id") ?? ""));
  } catch (error) {
    const message = actionErrorMessage(error);
    return {
      error:
        error instanceof AppError && error.code === "conflict"
          ? `This brand cannot be deleted yet: ${message}`
          : message,
    };
  }
  redirect("/brands");
}
