import { getFileStore, verifyDownload } from "@/lib/storage/storage";

// GET /files/{key}?name&expires&signature — a local file behind a signed, expiring link
export async function GET(req: Request, { params }: { params: Promise<{ key: string[] }> }) {
  const key = (await params).key.join("/");
  const query = new URL(req.url).searchParams;
  const name = query.get("name") ?? "";
  if (!verifyDownload(key, name, Number(query.get("expires")), query.get("signature") ?? "")) {
    return new Response("This download link is invalid or has expired.", { status: 403 });
  }
  const file = await getFileStore().get(key);
  if (!file) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
