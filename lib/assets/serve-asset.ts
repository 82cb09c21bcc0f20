import { eq } from "drizzle-orm";
import { assets } from "@/lib/db/schema/assets";
import type { Db } from "@/lib/db/types";
import { getFileStore } from "@/lib/storage/storage";
import { assetPathPattern } from "./assets";

// GET /assets/{sha256}.{png|jpg|gif}, on the app's origin and the deck content origin: the image itself,
// answered to anyone who has its address (as public as the decks that show it; the address is the hash of
// the image's bytes, which nobody guesses). Always an image type of the stored file's own (PNG, JPEG, GIF:
// never SVG, never HTML), nosniff, sandboxed when opened directly, readable from the opaque-origin frame
// (CORS), and cached for a year: the address names the bytes, so they never change.

const headers = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

const types: Record<string, string> = { png: "image/png", jpg: "image/jpeg", gif: "image/gif" };

function notFound(): Response {
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** The stored image at `pathname` (`/assets/<hash>.<ext>`), or null when there is none. */
export async function readAsset(db: Db, pathname: string): Promise<{ data: Buffer; contentType: string } | null> {
  const match = assetPathPattern.exec(pathname);
  if (!match) return null;
  const [hash, extension] = [match[1]!, match[2]!];
  const [row] = await db
    .select({ storedKey: assets.storedKey, contentType: assets.contentType })
    .from(assets)
    .where(eq(assets.sha256, hash))
    .limit(1);
  if (!row || row.contentType !== types[extension]) return null;
  const file = await getFileStore().get(row.storedKey);
  return file ? { data: file.data, contentType: row.contentType } : null;
}

export async function assetResponse(req: Request, db: Db, pathname: string): Promise<Response> {
  const match = assetPathPattern.exec(pathname);
  if (!match) return notFound();
  const tag = `"${match[1]}"`;
  const cache = { ...headers, "Cache-Control": "public, max-age=31536000, immutable", ETag: tag };
  const given = req.headers.get("if-none-match");
  const file = await readAsset(db, pathname);
  if (!file) return notFound();
  if (given && given.split(",").some((value) => value.trim().replace(/^W\//, "") === tag)) {
    return new Response(null, { status: 304, headers: cache });
  }
  return new Response(new Uint8Array(file.data), {
    headers: { ...cache, "Content-Type": file.contentType, "Content-Length": String(file.data.length) },
  });
}
