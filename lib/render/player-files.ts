import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";

// The origin deck documents are drawn under in the renderer: a loopback HTTP server of this process that
// serves the player's built files (public/player: runtime, chunks, stylesheets, fonts) and a blank page.
// Every other URL of the origin (the frame document, the deck's module, its images) is answered from memory
// by the job's own page through request interception, and never reaches this server. The player's files are
// the ones requests go through to: Chromium keeps them in the renderer's HTTP cache, and V8 their compiled
// code, for the organization's next jobs, where answering them from memory sent the 330 KB runtime and the
// fonts to Chromium again for every job (a response answered through interception is never cached).
// They are the same public files /player/ serves to every visitor; a renderer keeps one organization's jobs
// only (browser.ts), and its cache holds nothing else: every other response is answered from memory.

const publicPlayer = path.join(process.cwd(), "public", "player");
const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".woff2": "font/woff2",
  ".json": "application/json",
};
const files = new Map<string, Promise<Buffer | null>>();
export const BLANK_PATH = "/blank";

function readPlayerFile(pathname: string): Promise<Buffer | null> | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = path.join(publicPlayer, path.normalize(decoded.slice("/player/".length)));
  if (!decoded.startsWith("/player/") || !file.startsWith(publicPlayer + path.sep)) return null;
  let read = files.get(file);
  if (!read) {
    read = fs.readFile(file).catch(() => null);
    files.set(file, read);
  }
  return read;
}

async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const pathname = new URL(request.url ?? "/", "http://loopback").pathname;
  // Where a new job page starts (browser.ts, newPage): a blank document of the render origin, drawn in
  // the process of that origin's earlier pages rather than a new one of its own.
  if (pathname === BLANK_PATH) {
    response.writeHead(200, { "Content-Type": "text/html", "Cache-Control": "no-store" }).end();
    return;
  }
  const body = request.method === "GET" || request.method === "HEAD" ? await readPlayerFile(pathname) : null;
  if (!body) {
    response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
    return;
  }
  response.writeHead(200, {
    "Content-Type": types[path.extname(pathname)] ?? "application/octet-stream",
    "Content-Length": body.length,
    // The files are the build's and do not change while this process runs.
    "Cache-Control": "public, max-age=31536000, immutable",
    // Deck documents are sandboxed (an opaque origin): they load the player in CORS mode.
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "X-Content-Type-Options": "nosniff",
  });
  response.end(request.method === "HEAD" ? undefined : body);
}

// One per process, whichever copy of this module asks (Next bundles it into several chunks): a page opened at
// the origin's blank page by one is drawn at that origin by another (browser.ts).
const holder = globalThis as typeof globalThis & { __deckhandRenderOrigin?: Promise<string> };

/** The render origin, `http://127.0.0.1:<port>`, once its server listens (started on first use). */
export function renderOrigin(): Promise<string> {
  holder.__deckhandRenderOrigin ??= new Promise<string>((resolve, reject) => {
    const server = http.createServer((request, response) => {
      answer(request, response).catch(() => response.destroy());
    });
    server.once("error", (error) => {
      holder.__deckhandRenderOrigin = undefined;
      reject(error);
    });
    server.listen(0, "127.0.0.1", () => {
      server.unref(); // it never keeps the process alive
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
    });
  });
  return holder.__deckhandRenderOrigin;
}
