import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/input";
import { listBrands } from "@/lib/brands/brands";
import { createBrandFromUrl } from "@/lib/brands/create-brand";
import { createBrandBody } from "@/lib/brands/schemas";

// GET /api/v1/brands — the organization's brands, newest first
export const GET = withApiKey(async ({ ctx }) => json(await listBrands(ctx)));

// POST /api/v1/brands — extract a brand book from a public website
export const POST = withApiKey(
  async ({ req, ctx }) => json(await createBrandFromUrl(ctx, await readJsonBody(req, createBrandBody)), 201),
  { limit: "slow" },
);
