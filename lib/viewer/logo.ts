import { createHash } from "node:crypto";
import { getFileStore } from "@/lib/storage/storage";

// A deck's brand logo as the player's <Logo> loads it: from the frame document's own origin
// (/d/{slug}/logo, /preview/{token}/logo, or the export renderer's made-up origin), the one image URL
// outside the player's assets that the frame's CSP allows. Brand logos are stored as fetched from the
// brand's website (lib/brands/create-brand.ts), SVG included, so they are only ever answered as images:
// the stored image type, never sniffed, and a CSP that sandboxes the file and refuses everything it could
// load or run when it is opened directly rather than drawn by an <img>.

/** The brand logo of a deck, read with the deck (lib/viewer/viewable-deck.ts). */
export type DeckLogo = {
  /** The brand's name: the logo's default alt text. */
  brandName: string;
  /** Key (or blob URL) of the stored copy in the file store. */
  storedKey: string;
  /** The type it was stored with, as the brand book records it. */
  contentType: string | null;
};

const imageType = /^image\/[a-z0-9][a-z0-9.+-]*$/;

// The brand book's type, or else the store's, when it is an image type; anything else is not served.
function servedType(logo: DeckLogo, stored: string): string | null {
  for (const candidate of [logo.contentType, stored]) {
    const type = candidate?.split(";")[0]?.trim().toLowerCase();
    if (type && imageType.test(type)) return type;
  }
  return null;
}

/** A stored logo's entity tag: the key names one stored file, and a new logo is stored under a new key. */
function logoTag(logo: DeckLogo): string {
  return `"${createHash("sha256").update(logo.storedKey).digest("base64url").slice(0, 22)}"`;
}

function notFound(): Response {
  return Response.json(
    { error: { code: "not_found", message: "This deck has no brand logo." } },
    { status: 404, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );
}

const imageHeaders = {
  "X-Content-Type-Options": "nosniff",
  // Opened directly, an SVG would be a document: sandboxed, with nothing it may load or run.
  "Content-Security-Policy": "default-src 'none'; sandbox",
  // The frame's origin is opaque: its <img> and the "mono" tone's CSS mask (fetched in CORS mode) are
  // cross-origin requests. The logo is as public as the frame that shows it.
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/**
 * The logo's bytes with its stored type, or a JSON 404 when the deck has none (no brand, no stored logo,
 * the file gone, a type that is not an image). `req` answers a matching If-None-Match with 304.
 * `cacheControl` is the route's: logos change when a brand does, so a short max-age or revalidation.
 */
export async function logoResponse(
  req: Request | null,
  logo: DeckLogo | null | undefined,
  cacheControl: string,
): Promise<Response> {
  if (!logo) return notFound();
  const tag = logoTag(logo);
  const headers = { ...imageHeaders, "Cache-Control": cacheControl, ETag: tag };
  const given = req?.headers.get("if-none-match");
  if (given && given.split(",").some((value) => value.trim().replace(/^W\//, "") === tag)) {
    return new Response(null, { status: 304, headers });
  }
  const file = await getFileStore().get(logo.storedKey);
  if (!file) return notFound();
  const type = servedType(logo, file.contentType);
  if (!type) return notFound();
  return new Response(new Uint8Array(file.data), { headers: { ...headers, "Content-Type": type } });
}
