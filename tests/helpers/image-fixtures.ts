import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

// Images for the asset tests, and a loopback image host for remote images: reached as
// http://localhost:<port>/… (FETCH_ALLOW_HOSTS=localhost lets the safe fetcher reach it), with a canary on
// another loopback port that must never be asked for anything.

/** A PNG of one colour with a darker square in the middle (so a picture of it is recognisable). */
export async function solidPng(width: number, height: number, colour: string): Promise<Buffer> {
  const inner = await sharp({
    create: { width: Math.ceil(width / 2), height: Math.ceil(height / 2), channels: 3, background: "#1f2937" },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: inner, gravity: "centre" }])
    .png()
    .toBuffer();
}

export async function solidJpeg(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp(await solidPng(width, height, colour))
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** An SVG whose script and onload would call `canary` if anything ran them, with external references too. */
export function hostileSvg(canary: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet href="${canary}/stylesheet.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="200" viewBox="0 0 400 200" onload="fetch('${canary}/onload')">
  <script>fetch("${canary}/script"); new Image().src = "${canary}/image";</script>
  <style>@import url("${canary}/import.css"); rect { stroke: #111827; }</style>
  <rect width="400" height="200" fill="#16a34a"/>
  <circle cx="200" cy="100" r="60" fill="#facc15" onclick="fetch('${canary}/click')"/>
  <image href="${canary}/external.png" x="0" y="0" width="50" height="50"/>
  <use xlink:href="${canary}/sprite.svg#icon"/>
  <foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="${canary}/frame"></iframe></div></foreignObject>
</svg>
`);
}

export type ImageHost = {
  /** http://localhost:<port> */
  origin: string;
  /** Requests the host answered, by path. */
  requests: string[];
  /** The canary: http://127.0.0.1:<port>, a loopback address the fetcher refuses. */
  canaryOrigin: string;
  canaryRequests: string[];
  close: () => Promise<void>;
};

/**
 * Serves `images` (path → bytes and type) on loopback, plus `/page.html` (an HTML page), `/lying.png`
 * (HTML sent as image/png), `/to-canary.png` (a redirect to the canary) and `/missing.png` (404).
 */
export async function serveImageHost(images: Record<string, { body: Buffer; type: string }>): Promise<ImageHost> {
  const requests: string[] = [];
  const canaryRequests: string[] = [];
  const canary = http.createServer((req, res) => {
    canaryRequests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "image/png" });
    res.end();
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  const canaryOrigin = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  const html = "<!doctype html><html><body><h1>Not an image</h1></body></html>";

  const handler: http.RequestListener = (req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    requests.push(pathname);
    const image = images[pathname];
    if (image) {
      res.writeHead(200, { "Content-Type": image.type, "Content-Length": image.body.length });
      res.end(image.body);
    } else if (pathname === "/page.html") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(html);
    } else if (pathname === "/lying.png") {
      res.writeHead(200, { "Content-Type": "image/png" });
      res.end(html);
    } else if (pathname === "/to-canary.png") {
      res.writeHead(302, { Location: `${canaryOrigin}/stolen.png` });
      res.end();
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
    }
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
  const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    origin: `http://localhost:${port}`,
    requests,
    canaryOrigin,
    canaryRequests,
    close: async () => {
      await close(v4);
      if (v6Listening) await close(v6);
      await close(canary);
    },
  };
}
