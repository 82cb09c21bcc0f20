import { json, withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { deleteBrand, getBrand } from "@/lib/brands/brands";
import { brandParams } from "@/lib/brands/schemas";

// GET /api/v1/brands/{id} — the brand with its brand book
export const GET = withApiKey<{ id: string }>(async ({ params, ctx }) =>
  json(await getBrand(ctx, readParams(params, brandParams).id)),
);

// DELETE /api/v1/brands/{id} — refused with 409 while decks use it
export const DELETE = withApiKey<{ id: string }>(async ({ params, ctx }) =>
  json(await deleteBrand(ctx, readParams(params, brandParams).id)),
);
