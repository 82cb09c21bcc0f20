import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUser, windowWithRoom, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// The OpenAPI document as served, checked by tools nobody here wrote: Redocly's `recommended` rules and
// swagger-parser validate it, and every operation (error cases too) goes through Prism as a validating
// proxy in front of the app, which fails on any request or response the document does not describe. A
// second Prism in front of a stub that answers a wrong shape shows the check is real. Loopback only:
// Redocly runs with its telemetry and update check off.

const execFileAsync = promisify(execFile);
const bin = (name: string) => path.resolve("node_modules/.bin", name);

let server: AppServer;
let user: TestUser;
let tmp: string;
let docFile: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  // The document's servers, and the links the app hands out, point at this server.
  process.env.APP_URL = server.origin;
  user = await createUser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-openapi-"));
  const res = await fetch(`${server.origin}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  docFile = path.join(tmp, "openapi.json");
  fs.writeFileSync(docFile, await res.text());
});

afterAll(async () => {
  for (const child of children) child.kill();
  delete process.env.APP_URL;
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

afterEach(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
});

describe("the served OpenAPI document", () => {
  it("has absolute servers built from APP_URL", () => {
    const doc = JSON.parse(fs.readFileSync(docFile, "utf8"));
    expect(doc.servers).toEqual([{ url: `${server.origin}/api/v1` }]);
    expect(doc.jsonSchemaDialect).toBeUndefined();
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const { stdout } = await execFileAsync(
      bin("redocly"),
      ["lint", "--extends", "recommended", "--format", "json", docFile],
      {
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          CI: "true",
          NODE_ENV: "test",
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it("validates with swagger-parser", async () => {
    const api = await SwaggerParser.validate(docFile);
    expect(api.info.license).toBeDefined();
  });
});

type Prism = { origin: string };

// Prism as a validating proxy (--errors: a request or response the document does not allow is answered with
// Prism's own error), on a free loopback port; ready when it says it is listening.
async function startPrism(upstream: string): Promise<Prism> {
  const child = spawn(bin("prism"), ["proxy", docFile, upstream, "--errors", "-p", "0", "-h", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const origin = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return { origin };
}

type Sent = { status: number; headers: Headers; body: unknown };

async function send(
  prism: Prism,
  method: string,
  pathname: string,
  options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? user.key : options.key;
  if (key) headers.set("authorization", `Bearer ${key}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const res = await fetch(`${prism.origin}${pathname}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, headers: res.headers, body: type.includes("json") && text ? JSON.parse(text) : text };
}

/** A request through Prism that neither side of which Prism found anything wrong with. */
function clean(sent: Sent, label: string): Sent {
  expect(sent.headers.get("sl-violations"), `${label}: ${sent.headers.get("sl-violations")}`).toBeNull();
  expect(sent.headers.get("content-type") ?? "", `${label}: ${JSON.stringify(sent.body).slice(0, 2000)}`).not.toContain(
    "application/problem+json",
  );
  return sent;
}

describe("every operation through Prism as a validating proxy", () => {
  let prism: Prism;
  let broken: Prism;
  let stub: http.Server;

  beforeAll(async () => {
    // An upstream that answers a list of decks in the wrong shape, whatever is asked.
    stub = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify([{ id: 5, title: null }]));
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    const stubOrigin = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    [prism, broken] = await Promise.all([startPrism(`${server.origin}/api/v1`), startPrism(`${stubOrigin}/api/v1`)]);
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => stub.close(resolve));
  });

  it("flags a response that breaks the document", async () => {
    const res = await send(broken, "GET", "/decks");
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const violations = JSON.parse(res.headers.get("sl-violations") ?? "[]") as { location: string[] }[];
    expect(violations.some((v) => v.location[0] === "response")).toBe(true);
  });

  it("finds nothing wrong with any operation, success or error", async () => {
    const go = async (expected: number, method: string, pathname: string, options?: Parameters<typeof send>[3]) => {
      const label = `${method} ${pathname} → ${expected}`;
      const res = clean(await send(prism, method, pathname, options), label);
      expect(res.status, `${label}: ${JSON.stringify(res.body).slice(0, 500)}`).toBe(expected);
      return res;
    };
    const seen = new Set<string>();
    const op = (id: string) => seen.add(id);

    await go(200, "GET", "/instructions");
    op("get_authoring_instructions");
    const unauthorized = await go(401, "GET", "/instructions", { key: "dk_not_a_key" });
    expect(unauthorized.headers.get("www-authenticate")).toBe("Bearer");
    await go(200, "GET", "/decks");
    await go(200, "GET", "/decks?scope=org&kind=template&includeArchived=true");
    op("list_decks");

    const deck = (await go(201, "POST", "/decks", { body: { title: "Through Prism" } })).body as { id: string };
    op("create_deck");
    await go(201, "POST", "/decks/import", { body: { markdown: "# Imported\n\n- one\n- two" } });
    op("import_deck");
    const id = deck.id;
    await go(200, "GET", `/decks/${id}`);
    await go(404, "GET", `/decks/${crypto.randomUUID()}`);
    op("get_deck");
    await go(200, "PATCH", `/decks/${id}`, { body: { description: "Checked by Prism", visibility: "public" } });
    op("update_deck");

    await go(200, "PUT", `/decks/${id}/content`, { body: { source: deckSource(["One", "Two"]), prompt: "v1" } });
    await go(422, "PUT", `/decks/${id}/content`, { body: { source: "export default 1 +" } });
    // Within maxLength (characters) yet over the 1 MB the server counts in UTF-8 bytes (x-maxBytes).
    await go(422, "PUT", `/decks/${id}/content`, { body: { source: "é".repeat(600_000) } });
    op("set_deck_content");
    await go(200, "GET", `/decks/${id}`);
    await go(200, "POST", `/decks/${id}/generate`, { body: { brief: 'Add a slide about "Three" with "A" and "B"' } });
    op("generate_deck");
    await go(200, "POST", `/decks/${id}/edit`, { body: { instruction: '"One" → "Uno"' } });
    op("edit_deck");
    await go(200, "GET", `/decks/${id}/check?version=1`);
    op("check_deck");
    const picture = await go(200, "GET", `/decks/${id}/slides/1/image?version=1&width=64&format=webp`);
    expect(picture.headers.get("content-type")).toBe("image/webp");
    await go(304, "GET", `/decks/${id}/slides/1/image?version=1&width=64&format=webp`, {
      headers: { "if-none-match": picture.headers.get("etag")! },
    });
    await go(404, "GET", `/decks/${id}/slides/99/image?version=1`);
    op("get_slide_image");
    await go(200, "GET", `/decks/${id}/versions`);
    op("list_deck_versions");
    await go(200, "GET", `/decks/${id}/versions/1`);
    await go(404, "GET", `/decks/${id}/versions/99`);
    op("get_deck_version");
    await go(200, "POST", `/decks/${id}/versions/1/revert`);
    op("revert_deck_version");
    const slides = (await go(200, "GET", `/decks/${id}/slides`)).body as { version: number };
    op("list_slides");
    const slide = `<Slide label="Added"><Title>Added</Title></Slide>`;
    await go(201, "POST", `/decks/${id}/slides`, { body: { after: 0, source: slide, basedOnVersion: slides.version } });
    op("insert_slide");
    await go(409, "PUT", `/decks/${id}/slides/1`, { body: { source: slide, basedOnVersion: slides.version } });
    await go(200, "PUT", `/decks/${id}/slides/1`, { body: { source: slide } });
    op("replace_slide");
    await go(200, "POST", `/decks/${id}/slides/1/move`, { body: { to: 2 } });
    op("move_slide");
    await go(200, "DELETE", `/decks/${id}/slides/2`);
    op("delete_slide");

    const queued = (await go(202, "POST", `/decks/${id}/exports`, { body: { format: "pdf" } })).body as { id: string };
    op("create_export");
    const early = await send(prism, "GET", `/exports/${queued.id}/download`);
    clean(early, "download_export before completion");
    expect([200, 409]).toContain(early.status);
    let status = "pending";
    while (status === "pending" || status === "running") {
      status = ((await go(200, "GET", `/exports/${queued.id}`)).body as { status: string }).status;
      if (status === "pending" || status === "running") await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe("completed");
    op("get_export");
    // Prism follows the 302 upstream, so what it checks is the documented 200: the file a following client gets.
    const download = await go(200, "GET", `/exports/${queued.id}/download`);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    await go(404, "GET", `/exports/${crypto.randomUUID()}/download`);
    op("download_export");

    await go(200, "GET", "/brands");
    op("list_brands");
    // A literal loopback address is refused before any connection is made.
    await go(422, "POST", "/brands", { body: { url: "http://127.0.0.1:1/" } });
    op("create_brand_from_url");
    await go(404, "GET", `/brands/${crypto.randomUUID()}`);
    op("get_brand");
    await go(404, "DELETE", `/brands/${crypto.randomUUID()}`);
    op("delete_brand");

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const asset = (await go(201, "POST", "/assets?alt=A%20square", { body: { data: png.toString("base64") } }))
      .body as { id: string };
    op("upload_asset");
    await go(200, "GET", "/assets");
    op("list_assets");
    await go(200, "DELETE", `/assets/${asset.id}`);
    op("delete_asset");

    await go(200, "GET", `/decks/${id}/analytics?from=2026-01-01&to=2026-01-31`);
    await go(422, "GET", `/decks/${id}/analytics?from=2026-02-01&to=2026-01-01`);
    op("get_deck_analytics");
    await go(200, "GET", `/decks/${id}/link`);
    op("get_share_link");
    await go(200, "PATCH", `/decks/${id}/link`, {
      body: { password: "open sesame", expiresAt: "2099-01-01T00:00:00Z" },
    });
    op("set_share_link");
    await go(200, "POST", `/decks/${id}/link/revoke`);
    op("revoke_share_link");

    await go(200, "DELETE", `/decks/${id}`);
    op("delete_deck");

    // The MCP endpoint: a JSON-RPC answer, and the transport's refusals the document lists.
    const accept = { accept: "application/json, text/event-stream" };
    await go(200, "POST", "/mcp", {
      headers: accept,
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "prism-test", version: "1" } },
      },
    });
    await go(400, "POST", "/mcp", { headers: accept, body: [{ jsonrpc: "2.0", id: 1, method: "tools/list" }] });
    await go(406, "POST", "/mcp", {
      headers: { accept: "text/html" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    await go(401, "POST", "/mcp", {
      key: "dk_not_a_key",
      headers: accept,
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    op("mcp");

    // 429 with Retry-After: one request per window for a fresh key.
    process.env.RATE_LIMIT_PER_MINUTE = "1";
    process.env.RATE_LIMIT_WINDOW_SECONDS = "10";
    const limited = await createUser();
    await windowWithRoom(10, 5);
    await go(200, "GET", "/decks", { key: limited.key });
    const refused = await go(429, "GET", "/decks", { key: limited.key });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    const doc = JSON.parse(fs.readFileSync(docFile, "utf8")) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const all = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect([...seen].sort()).toEqual(all.sort());
  }, 240_000);
});

describe("a JSON body", () => {
  it("must be sent as JSON: text/plain is the spec's 422 naming the Content-Type", async () => {
    const res = await fetch(`${server.origin}/api/v1/decks`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.key}` },
      body: JSON.stringify({ title: "Plain text" }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("Content-Type: application/json");
    expect(body.error.message).toContain("text/plain");
  });
});
