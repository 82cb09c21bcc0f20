import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

// The brand fixture websites (tests/fixtures/brand-sites/<name>/) served over loopback HTTP, reached as
// http://localhost:<port>/<name>/ — "localhost" is what FETCH_ALLOW_HOSTS lets the safe fetcher reach.

const root = path.resolve("tests/fixtures/brand-sites");
const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

export type FixtureSites = { origin: string; url: (site: string) => string; close: () => Promise<void> };

export async function serveFixtureSites(): Promise<FixtureSites> {
  const handler: http.RequestListener = (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    let file = path.join(root, path.normalize(pathname));
    if (file.endsWith(path.sep) || (fs.existsSync(file) && fs.statSync(file).isDirectory()))
      file = path.join(file, "index.html");
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] ?? "application/octet-stream" });
    res.end(fs.readFileSync(file));
  };
  // "localhost" may resolve to 127.0.0.1 or ::1 first: answer on both loopback addresses, same port.
  const v4 = http.createServer(handler);
  await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", resolve));
  const port = (v4.address() as AddressInfo).port;
  const v6 = http.createServer(handler);
  const v6Listening = await new Promise<boolean>((resolve) => {
    v6.once("error", () => resolve(false));
    v6.listen(port, "::1", () => resolve(true));
  });
  const origin = `http://localhost:${port}`;
  const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    origin,
    url: (site) => `${origin}/${site}/`,
    close: async () => {
      await close(v4);
      if (v6Listening) await close(v6);
    },
  };
}
