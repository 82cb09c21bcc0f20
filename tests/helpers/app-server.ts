import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import nextConfig from "@/next.config";
import { dispatch } from "./app-router";

// A real HTTP server on loopback for browser tests: requests go to the app's route handlers (through the
// same router the integration tests use) and to public/ with the headers next.config.ts declares.

const publicDir = path.resolve("public");
const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
};

async function staticHeaders(pathname: string): Promise<Record<string, string>> {
  const rules = (await nextConfig.headers?.()) ?? [];
  const headers: Record<string, string> = {};
  for (const rule of rules) {
    const prefix = rule.source.replace(/:path\*$/, "");
    if (pathname.startsWith(prefix)) for (const { key, value } of rule.headers) headers[key] = value;
  }
  return headers;
}

async function serveStatic(pathname: string, res: http.ServerResponse): Promise<boolean> {
  const file = path.join(publicDir, path.normalize(decodeURIComponent(pathname)));
  if (!file.startsWith(publicDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return false;
  res.writeHead(200, {
    "Content-Type": types[path.extname(file)] ?? "application/octet-stream",
    ...(await staticHeaders(pathname)),
  });
  res.end(fs.readFileSync(file));
  return true;
}

export type AppServer = { origin: string; close: () => Promise<void> };

export async function startAppServer(port = 0): Promise<AppServer> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      if (req.method === "GET" && (await serveStatic(url.pathname, res))) return;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) headers.set(name, value.join(", "));
      }
      const response = await dispatch(
        new Request(url, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
