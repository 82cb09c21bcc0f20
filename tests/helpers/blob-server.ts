import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A Vercel Blob store on loopback, speaking the part of the HTTP API that @vercel/blob uses (read from the
// SDK's source, node_modules/@vercel/blob/dist): the API under `<origin>/api/blob` (the SDK's
// VERCEL_BLOB_API_URL) and the blobs themselves at `<origin>/<pathname>`, as a store's host serves them.
//
//   PUT  /api/blob/?pathname=P      put: body = bytes; x-vercel-blob-access, x-content-type,
//                                   x-add-random-suffix, x-allow-overwrite, x-cache-control-max-age
//   GET  /api/blob/?url=U           head (U is a blob URL or a pathname)
//   GET  /api/blob/?prefix&cursor&limit   list
//   POST /api/blob/delete           del: {"urls": [...]} (URLs or pathnames)
//   GET  /<pathname>                the blob: public to anyone; private only with the store's token
//
// A store is private or public as a whole (as Vercel's are: chosen when the store is created), and a put
// must name the store's access. Every API call needs `Authorization: Bearer <token>`; errors answer
// `{ error: { code, message } }` with the codes the SDK maps to its error classes (forbidden, not_found,
// bad_request).

export type BlobServer = {
  origin: string;
  apiUrl: string;
  token: string;
  /** Every stored blob by pathname (what a test inspects). */
  blobs: Map<string, StoredBlob>;
  close: () => Promise<void>;
};

type StoredBlob = {
  pathname: string;
  data: Buffer;
  contentType: string;
  access: "public" | "private";
  cacheControlMaxAge: number;
  uploadedAt: Date;
  etag: string;
};

const apiPrefix = "/api/blob";

export async function startBlobServer({
  access: storeAccess = "private",
}: { access?: "public" | "private" } = {}): Promise<BlobServer> {
  const storeId = randomBytes(8).toString("hex");
  const token = `vercel_blob_rw_${storeId}_${randomBytes(16).toString("hex")}`;
  const blobs = new Map<string, StoredBlob>();
  let origin = "";

  const urlOf = (blob: StoredBlob) => `${origin}/${blob.pathname}`;
  const describe = (blob: StoredBlob) => ({
    url: urlOf(blob),
    downloadUrl: `${urlOf(blob)}?download=1`,
    pathname: blob.pathname,
    size: blob.data.length,
    contentType: blob.contentType,
    contentDisposition: `inline; filename="${blob.pathname.split("/").pop()}"`,
    cacheControl: `public, max-age=${blob.cacheControlMaxAge}`,
    uploadedAt: blob.uploadedAt.toISOString(),
    etag: blob.etag,
  });
  // A URL of this store or a bare pathname → the pathname.
  const pathnameOf = (urlOrPathname: string) =>
    /^https?:\/\//.test(urlOrPathname) ? decodeURIComponent(new URL(urlOrPathname).pathname.slice(1)) : urlOrPathname;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { error: { code, message } });
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  const api = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      return fail(res, 403, "forbidden", "Access denied, please provide a valid token for this resource.");
    }
    const route = url.pathname.slice(apiPrefix.length).replace(/^\/$/, "");
    if (req.method === "PUT" && route === "") {
      const pathname = url.searchParams.get("pathname") ?? "";
      if (!pathname || pathname.includes("//") || pathname.startsWith("api/"))
        return fail(res, 400, "bad_request", `Invalid pathname: ${pathname}`);
      const access = req.headers["x-vercel-blob-access"];
      if (access !== storeAccess)
        return fail(res, 400, "bad_request", `This is a ${storeAccess} store: access must be "${storeAccess}"`);
      const data = await readBody(req);
      let stored = pathname;
      if (req.headers["x-add-random-suffix"] === "1") {
        const dot = pathname.lastIndexOf(".");
        const suffix = randomBytes(15).toString("base64url").replace(/[-_]/g, "x").slice(0, 20);
        stored =
          dot > pathname.lastIndexOf("/")
            ? `${pathname.slice(0, dot)}-${suffix}${pathname.slice(dot)}`
            : `${pathname}-${suffix}`;
      }
      if (blobs.has(stored) && req.headers["x-allow-overwrite"] !== "1") {
        return fail(res, 400, "bad_request", "This blob already exists, use `allowOverwrite: true` to overwrite it.");
      }
      const blob: StoredBlob = {
        pathname: stored,
        data,
        contentType: String(req.headers["x-content-type"] ?? "application/octet-stream"),
        access,
        cacheControlMaxAge: Number(req.headers["x-cache-control-max-age"] ?? 2_592_000),
        uploadedAt: new Date(),
        etag: `"${createHash("sha256").update(data).digest("hex").slice(0, 32)}"`,
      };
      blobs.set(stored, blob);
      const { size: _size, uploadedAt: _uploadedAt, cacheControl: _cacheControl, ...result } = describe(blob);
      return send(res, 200, result);
    }
    if (req.method === "GET" && route === "" && url.searchParams.has("url")) {
      const blob = blobs.get(pathnameOf(url.searchParams.get("url")!));
      return blob ? send(res, 200, describe(blob)) : fail(res, 404, "not_found", "The requested blob does not exist");
    }
    if (req.method === "GET" && route === "") {
      const prefix = url.searchParams.get("prefix") ?? "";
      const limit = Math.min(Number(url.searchParams.get("limit") ?? 1000), 1000);
      const after = url.searchParams.get("cursor") ?? "";
      const matching = [...blobs.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
      const page = matching.slice(0, limit);
      const hasMore = matching.length > limit;
      return send(res, 200, {
        blobs: page.map((name) => describe(blobs.get(name)!)),
        hasMore,
        ...(hasMore ? { cursor: page.at(-1) } : {}),
      });
    }
    if (req.method === "POST" && route === "/delete") {
      const { urls } = JSON.parse((await readBody(req)).toString()) as { urls: string[] };
      for (const url of urls) blobs.delete(pathnameOf(url));
      return send(res, 200, {});
    }
    return fail(res, 400, "bad_request", `Unknown operation ${req.method} ${url.pathname}`);
  };

  const content = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const blob = req.method === "GET" ? blobs.get(pathnameOf(url.toString())) : undefined;
    if (!blob) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      return res.end("The page could not be found.");
    }
    if (blob.access === "private" && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(403, { "Content-Type": "text/plain" });
      return res.end("Forbidden");
    }
    const name = blob.pathname.split("/").pop()!;
    res.writeHead(200, {
      "Content-Type": blob.contentType,
      "Content-Length": String(blob.data.length),
      "Content-Disposition": `${url.searchParams.has("download") ? "attachment" : "inline"}; filename="${name}"`,
      "Cache-Control": blob.access === "private" ? "private, no-store" : `public, max-age=${blob.cacheControlMaxAge}`,
      ETag: blob.etag,
      "Last-Modified": blob.uploadedAt.toUTCString(),
    });
    res.end(blob.data);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const handle = url.pathname === apiPrefix || url.pathname.startsWith(`${apiPrefix}/`) ? api : content;
    Promise.resolve(handle(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) fail(res, 500, "internal_server_error", String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    apiUrl: `${origin}${apiPrefix}`,
    token,
    blobs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
