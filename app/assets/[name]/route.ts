import { assetResponse } from "@/lib/assets/serve-asset";
import { getDb } from "@/lib/db/client";

// GET /assets/{sha256}.{ext} — an image of a deck (lib/assets/serve-asset.ts)
export async function GET(req: Request, { params }: { params: Promise<{ name: string }> }) {
  return assetResponse(req, await getDb(), `/assets/${(await params).name}`);
}
