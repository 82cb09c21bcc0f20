// First: it teaches Node to load next-auth, which the app's server actions import (see the helper).
import "../helpers/next-request";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  editDeckAction,
  generateDeckAction,
  previewDraftAction,
  saveVersionAction,
  startExportAction,
  updateDeckAction,
} from "@/server/actions/editor";
import { toAppError } from "@/lib/api/handler";
import { compileWorkerRunning } from "@/lib/source/compile-pool";
import { findNul } from "@/lib/api/input";
import { statusOf } from "@/lib/api/status";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { brands } from "@/lib/db/schema/brands";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { createMcpServer } from "@/lib/mcp/server";
import { config as proxyConfig, proxy } from "@/proxy";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// Input PostgreSQL cannot store or Next.js cannot route: a NUL character (U+0000) in any string or field name
// of a request, and a path that is not valid percent-encoding. Each is a 4xx with the spec's error body (a
// 422 invalid_request naming the field), never a 500, and nothing is saved. Covers the REST operations, the
// MCP tools, the editor's server actions and the proxy in front of every route. Also a deck module nested
// deeper than the compiler's checks follow: a 422 compile_failed like any module that does not compile.

const NUL = "\u0000";

let database: Database;
let user: TestUser;
let deckId: string;

beforeAll(async () => {
  database = await setUpTestDatabase();
  user = await createUser();
  deckId = (await createDeck(user, { title: "Target" })).id;
  expect((await setContent(user, deckId, { source: deckSource(["One"]), prompt: "first" })).status).toBe(200);
});

function ctxOf(u: TestUser): Ctx {
  return { db: database.db, caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null } };
}

// Everything a refused request could have written for the test user.
async function snapshot() {
  const ownDecks = await database.db.select().from(decks).where(eq(decks.organizationId, user.organizationId));
  const versions = await database.db.select().from(deckVersions).where(eq(deckVersions.deckId, deckId));
  const drafts = await database.db.select().from(deckDrafts).where(eq(deckDrafts.deckId, deckId));
  const runs = await database.db.select().from(aiRuns).where(eq(aiRuns.deckId, deckId));
  const ownBrands = await database.db.select().from(brands).where(eq(brands.organizationId, user.organizationId));
  return { decks: ownDecks, versions, drafts, runs, brands: ownBrands };
}

function expectNulRefusal(res: { status: number; body: unknown; headers: Headers }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    error: { code: "invalid_request", message: `${field} must not contain a NUL character (\\u0000)` },
  });
}

describe("a NUL character in a request", () => {
  const cases: { name: string; method: string; path: () => string; body?: unknown; field: string }[] = [
    {
      name: "create_deck title",
      method: "POST",
      path: () => "/decks",
      body: { title: `a${NUL}b` },
      field: "body.title",
    },
    {
      name: "create_deck description",
      method: "POST",
      path: () => "/decks",
      body: { title: "ok", description: `x${NUL}` },
      field: "body.description",
    },
    {
      name: "update_deck title",
      method: "PATCH",
      path: () => `/decks/${deckId}`,
      body: { title: `Renamed${NUL}` },
      field: "body.title",
    },
    {
      name: "update_deck description",
      method: "PATCH",
      path: () => `/decks/${deckId}`,
      body: { description: `${NUL}` },
      field: "body.description",
    },
    {
      name: "set_deck_content source",
      method: "PUT",
      path: () => `/decks/${deckId}/content`,
      body: { source: deckSource([`Two${NUL}`]) },
      field: "body.source",
    },
    {
      name: "set_deck_content source (a NUL outside any string literal)",
      method: "PUT",
      path: () => `/decks/${deckId}/content`,
      body: { source: `${deckSource(["Two"])}${NUL}` },
      field: "body.source",
    },
    {
      name: "set_deck_content prompt",
      method: "PUT",
      path: () => `/decks/${deckId}/content`,
      body: { source: deckSource(["Two"]), prompt: `note${NUL}` },
      field: "body.prompt",
    },
    {
      name: "set_deck_content tokensCss",
      method: "PUT",
      path: () => `/decks/${deckId}/content`,
      body: { source: deckSource(["Two"]), tokensCss: `:root { --dh-color-bg: #fff; } /*${NUL}*/` },
      field: "body.tokensCss",
    },
    {
      name: "generate_deck brief",
      method: "POST",
      path: () => `/decks/${deckId}/generate`,
      body: { brief: `A deck about ${NUL} bytes`, mode: "revise" },
      field: "body.brief",
    },
    {
      name: "edit_deck instruction",
      method: "POST",
      path: () => `/decks/${deckId}/edit`,
      body: { instruction: `replace "One" with "O${NUL}ne"` },
      field: "body.instruction",
    },
    {
      name: "create_brand_from_url url",
      method: "POST",
      path: () => "/brands",
      body: { url: `http://127.0.0.1:9/${NUL}` },
      field: "body.url",
    },
    {
      name: "create_export format",
      method: "POST",
      path: () => `/decks/${deckId}/exports`,
      body: { format: `pdf${NUL}` },
      field: "body.format",
    },
    { name: "a query parameter's value", method: "GET", path: () => `/decks?scope=mine%00`, field: "query.scope" },
    { name: "a path parameter", method: "GET", path: () => `/decks/${deckId}%00`, field: "path.id" },
    {
      name: "a path parameter of a write",
      method: "PUT",
      path: () => `/decks/%00${deckId}/content`,
      body: { source: deckSource(["Two"]) },
      field: "path.id",
    },
  ];

  for (const c of cases) {
    it(`is a 422 naming the field, and saves nothing: ${c.name}`, async () => {
      const before = await snapshot();
      const res = await call(c.method, c.path(), { key: user.key, body: c.body });
      expectNulRefusal(res, c.field);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("is refused in a query parameter's name and in a JSON field name, named by where it is", async () => {
    const before = await snapshot();
    const query = await call("GET", "/decks?sc%00ope=mine", { key: user.key });
    expect(query.status).toBe(422);
    expect(query.body.error).toEqual({
      code: "invalid_request",
      message: 'query has a field name "sc\\u0000ope" that contains a NUL character (\\u0000)',
    });
    const key = await call("POST", "/decks", { key: user.key, body: { title: "ok", [`ti${NUL}tle`]: "x" } });
    expect(key.status).toBe(422);
    expect(key.body.error).toEqual({
      code: "invalid_request",
      message: 'body has a field name "ti\\u0000tle" that contains a NUL character (\\u0000)',
    });
    expect(await snapshot()).toEqual(before);
  });

  it("is refused as an escaped \\u0000 in the JSON text (what clients send)", async () => {
    const before = await snapshot();
    const rawBody = `{"source": ${JSON.stringify(deckSource(["Two"]))}, "prompt": "a\\u0000b"}`;
    expect(rawBody).not.toContain(NUL);
    const res = await call("PUT", `/decks/${deckId}/content`, {
      key: user.key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expectNulRefusal(res, "body.prompt");
    expect(await snapshot()).toEqual(before);
  });

  it("is a 422 when the NUL comes from an escape the compiler decodes (a slide label), and saves nothing", async () => {
    const before = await snapshot();
    for (const label of ['{"a\\u0000b"}', '{"a\\0b"}', "{`a\\x00b`}"]) {
      const source = deckSource(["Two"]).replace('label="Two"', `label=${label}`);
      expect(source).not.toContain(NUL);
      const res = await call("PUT", `/decks/${deckId}/content`, { key: user.key, body: { source } });
      expect(res.status, label).toBe(422);
      expect(res.body.error).toEqual({ code: "invalid_request", message: expect.stringContaining("NUL character") });
      // The editor's save, as the same user (the server action without its session lookup).
      const saved = await saveVersionAction.runAs(ctxOf(user), {
        id: deckId,
        source,
        tokensCss: ":root { --dh-color-bg: #fff; }",
      });
      expect(saved).toEqual({ ok: false, error: { code: "invalid_request", message: res.body.error.message } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("still accepts the same requests without the NUL", async () => {
    const saved = await call("PUT", `/decks/${deckId}/content`, {
      key: user.key,
      body: { source: deckSource(["One", "Two"]), prompt: "a note with \\u0000 as text, not a NUL" },
    });
    expect(saved.status).toBe(200);
    const renamed = await call("PATCH", `/decks/${deckId}`, { key: user.key, body: { title: "Target" } });
    expect(renamed.status).toBe(200);
  });

  it("answers a deeply nested body without overflowing (the check walks without recursion)", async () => {
    const depth = 200_000;
    const rawBody = `{"title": ${"[".repeat(depth)}"x${"\\u0000"}"${"]".repeat(depth)}}`;
    const res = await call("POST", "/decks", {
      key: user.key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error).toEqual({
      code: "invalid_request",
      message: "body.title.0.0.0.0.0.0.… must not contain a NUL character (\\u0000)",
    });
  });

  it("finds the first NUL with its path, in strings and in field names", () => {
    expect(findNul({ a: ["ok", { b: `x${NUL}` }] })).toEqual({ path: ["a", 1, "b"] });
    expect(findNul({ a: { [`k${NUL}`]: 1 } })).toEqual({ path: ["a"], key: `k${NUL}` });
    expect(findNul(`${NUL}`)).toEqual({ path: [] });
    expect(findNul({ a: ["ok", 1, null, true, { b: "fine" }] })).toBeNull();
  });

  it("maps PostgreSQL's refusal of a NUL (text or jsonb) that got past validation to 422, not 500", () => {
    const text = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
    const jsonb = Object.assign(new Error("unsupported Unicode escape sequence"), {
      code: "22P05",
      detail: "\\u0000 cannot be converted to text.",
    });
    const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      for (const cause of [text, jsonb]) {
        const wrapped = new Error("Failed query: insert into …", { cause });
        const refusal = toAppError(wrapped, "req-1");
        expect([refusal.code, statusOf(refusal)]).toEqual(["invalid_request", 422]);
      }
      const other = toAppError(new Error("something else"), "req-2");
      expect([other.code, statusOf(other)]).toEqual(["internal", 500]);
    } finally {
      spy.mockRestore();
    }
  });
});

// One MCP tool call of the suite's user, over an in-memory transport.
async function tool(name: string, args: Record<string, unknown>) {
  const server = createMcpServer(ctxOf(user), "mcp-test");
  const client = new Client({ name: "bad-input-test", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.find((c) => c.type === "text")?.text ?? "";
    return { isError: result.isError === true, value: JSON.parse(text) };
  } finally {
    await client.close();
    await server.close();
  }
}

describe("a NUL character in an MCP tool call", () => {
  it("is a tool error with the API's code and status naming the argument, and saves nothing", async () => {
    const before = await snapshot();
    const calls: [string, Record<string, unknown>, string][] = [
      ["set_deck_content", { id: deckId, source: deckSource(["Three"]), prompt: `p${NUL}` }, "arguments.prompt"],
      ["set_deck_content", { id: deckId, source: `${deckSource(["Three"])}${NUL}` }, "arguments.source"],
      ["update_deck", { id: deckId, title: `t${NUL}` }, "arguments.title"],
      ["create_deck", { title: `t${NUL}` }, "arguments.title"],
      ["generate_deck", { id: deckId, brief: `b${NUL}` }, "arguments.brief"],
      ["edit_deck", { id: deckId, instruction: `i${NUL}` }, "arguments.instruction"],
      ["list_decks", { scope: `mine${NUL}` }, "arguments.scope"],
      ["get_deck", { id: `${deckId}${NUL}` }, "arguments.id"],
    ];
    for (const [name, args, field] of calls) {
      const result = await tool(name, args);
      expect(result, name).toEqual({
        isError: true,
        value: {
          error: {
            code: "invalid_request",
            status: 422,
            message: `${field} must not contain a NUL character (\\u0000)`,
          },
        },
      });
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("a NUL character in the editor's server actions", () => {
  const refused = (field: string) => ({
    ok: false,
    error: { code: "invalid_request", message: `${field} must not contain a NUL character (\\u0000)` },
  });

  it("is refused by save, preview, author, settings and export with a message naming the field", async () => {
    const before = await snapshot();
    const ctx = ctxOf(user);
    const id = deckId;
    const source = deckSource(["Four"]);
    const tokensCss = ":root { --dh-color-bg: #fff; }";

    expect(await saveVersionAction.runAs(ctx, { id, source: `${source}${NUL}`, tokensCss })).toEqual(refused("source"));
    expect(await saveVersionAction.runAs(ctx, { id, source, tokensCss: `${tokensCss}${NUL}` })).toEqual(
      refused("tokensCss"),
    );
    expect(await saveVersionAction.runAs(ctx, { id, source, tokensCss, prompt: `note${NUL}` })).toEqual(
      refused("prompt"),
    );
    expect(await saveVersionAction.runAs(ctx, { id: `${id}${NUL}`, source, tokensCss })).toEqual(refused("id"));
    expect(await previewDraftAction.runAs(ctx, { id, source: `${source}${NUL}`, tokensCss })).toEqual(
      refused("source"),
    );
    expect(await previewDraftAction.runAs(ctx, { id, source, tokensCss: `${tokensCss}${NUL}` })).toEqual(
      refused("tokensCss"),
    );
    expect(await generateDeckAction.runAs(ctx, { id, brief: `b${NUL}`, mode: "revise" })).toEqual(refused("brief"));
    expect(await editDeckAction.runAs(ctx, { id, instruction: `i${NUL}` })).toEqual(refused("instruction"));
    expect(await updateDeckAction.runAs(ctx, { id, title: `t${NUL}` })).toEqual(refused("title"));
    expect(await updateDeckAction.runAs(ctx, { id, description: `d${NUL}` })).toEqual(refused("description"));
    expect(await startExportAction.runAs(ctx, { id, format: `pdf${NUL}` })).toEqual(refused("format"));

    expect(await snapshot()).toEqual(before);

    // The same calls without the NUL go through.
    expect(await previewDraftAction.runAs(ctx, { id, source, tokensCss })).toMatchObject({ ok: true });
    expect(await saveVersionAction.runAs(ctx, { id, source, tokensCss, prompt: "fine" })).toMatchObject({ ok: true });
  });
});

// A deck whose module nests `depth` levels deep at the constant `x` (line 2 of the module).
function deeplyNested(kind: "brackets" | "templates", depth: number): string {
  const value =
    kind === "brackets" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${"`${".repeat(depth)}1${"}`".repeat(depth)}`;
  return deckSource(["Deep"])
    .replace("\nexport default", `const x = ${value};\nexport default`)
    .replace("<Title>Deep</Title>", "<Title>{String(x)}</Title>");
}

describe("a deck module nested too deeply", () => {
  // The security report's cases: 3,000 nested [ and 1,500 nested template literals (about 9 KB), which the
  // compile worker failed with es-module-lexer's "Parse error" (a 500).
  const cases = [
    { name: "3,000 nested [", source: () => deeplyNested("brackets", 3000), column: 3010 },
    { name: "1,500 nested template literals", source: () => deeplyNested("templates", 1500), column: 4510 },
  ];
  const refusal = (column: number) => ({
    code: "compile_failed",
    message: expect.stringMatching(new RegExp(`^Line 2:${column}: The module nests too deeply`)),
  });

  for (const c of cases) {
    it(`is a 422 compile_failed with the compiler's message on every path, and saves nothing: ${c.name}`, async () => {
      const source = c.source();
      const before = await snapshot();
      const res = await call("PUT", `/decks/${deckId}/content`, { key: user.key, body: { source } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toEqual(refusal(c.column));

      expect(await tool("set_deck_content", { id: deckId, source })).toEqual({
        isError: true,
        value: { error: { ...refusal(c.column), status: 422 } },
      });

      const ctx = ctxOf(user);
      const tokensCss = ":root { --dh-color-bg: #fff; }";
      expect(await saveVersionAction.runAs(ctx, { id: deckId, source, tokensCss })).toEqual({
        ok: false,
        error: { code: "compile_failed", message: res.body.error.message },
      });
      expect(await previewDraftAction.runAs(ctx, { id: deckId, source, tokensCss })).toEqual({
        ok: false,
        error: { code: "compile_failed", message: res.body.error.message },
      });
      // The preview keeps what was typed as the draft (it always does); no version, deck or run is written.
      const after = await snapshot();
      expect({ ...after, drafts: [] }).toEqual({ ...before, drafts: [] });
    });
  }

  it("leaves the compile worker running: the next module compiles", async () => {
    await call("PUT", `/decks/${deckId}/content`, { key: user.key, body: { source: deeplyNested("templates", 1500) } });
    expect(compileWorkerRunning()).toBe(true);
    const res = await call("PUT", `/decks/${deckId}/content`, {
      key: user.key,
      body: { source: deeplyNested("brackets", 100) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), version: expect.any(Number) });
    expect(compileWorkerRunning()).toBe(true);
  });
});

describe("a path that is not valid percent-encoding", () => {
  const request = (path: string, method = "GET") => new Request(`http://localhost${path}`, { method });

  it("is answered by the proxy with the API's JSON error body under /api/", async () => {
    for (const path of [
      "/api/v1/decks/%E0%A4%A",
      "/api/v1/decks/%E0%A4%A/content",
      "/api/v1/nope/%zz",
      "/api/v1/decks/100%",
    ]) {
      for (const method of ["GET", "PUT", "POST", "PATCH", "DELETE"]) {
        const res = proxy(request(path, method));
        expect(res.status, `${method} ${path}`).toBe(422);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(res.headers.get("x-request-id")).toBeTruthy();
        const body = await res.json();
        expect(body).toEqual({
          error: { code: "invalid_request", message: expect.stringContaining("percent-encoding") },
        });
      }
    }
  });

  it("is a plain 400 page on the app's routes", async () => {
    for (const path of ["/decks/%E0%A4%A", "/d/%E0%A4%A", "/d/%E0%A4%A/frame", "/brands/%C3", "/preview/%/frame"]) {
      const res = proxy(request(path));
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await res.text()).toMatch(/not valid percent-encoding/);
    }
  });

  it("lets well-formed paths through, and runs only for paths holding a % and for the app's pages", () => {
    // The matcher as Next.js compiles it (what next/experimental/testing/server's unstable_doesMiddlewareMatch
    // does; that module is not imported because it patches console.error for the rest of the file).
    const { getMiddlewareMatchers } = pageStaticInfo as unknown as {
      getMiddlewareMatchers: (matcher: unknown, nextConfig: object) => pageStaticInfo.ProxyMatcher[];
    };
    const matches = (path: string) =>
      getMiddlewareRouteMatcher(getMiddlewareMatchers(proxyConfig.matcher, {}))(
        path,
        new Request(`http://localhost${path}`) as never,
        {},
      );
    for (const path of ["/api/v1/decks/%C3%A9", "/d/abc%20def", "/decks/%2F"]) {
      expect(proxy(request(path)).headers.get("x-middleware-next"), path).toBe("1");
    }
    for (const path of ["/api/v1/decks/%E0%A4%A", "/decks/%E0%A4%A", "/d/100%", "/%zz"]) {
      expect(matches(path), path).toBe(true);
    }
    for (const path of ["/decks", "/", "/brands/x", "/sign-in"]) expect(matches(path), path).toBe(true);
    for (const path of ["/api/health", "/api/v1/decks", "/d/abcdef/frame", "/player/boot.js", "/favicon.svg"]) {
      expect(matches(path), path).toBe(false);
    }
  });
});
