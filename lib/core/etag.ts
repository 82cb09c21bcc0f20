import { createHash } from "node:crypto";

// Entity tags for conditional GETs: a strong tag from the bytes of a response (or from what names them
// for good, such as a deck's id and version), and the If-None-Match check of RFC 9110 §13.1.2.

export function etagOf(content: string | Uint8Array): string {
  return `"${createHash("sha256").update(content).digest("base64url").slice(0, 32)}"`;
}

/** Whether the request's If-None-Match names this tag (weak comparison, as GET and HEAD use). */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const wanted = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === wanted);
}
