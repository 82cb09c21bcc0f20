import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "@/lib/api/operations";
import { decks } from "@/lib/db/schema/decks";
import { allowances } from "@/lib/db/schema/usage";
import type { Database } from "@/lib/db/client";
import { listTools } from "@/lib/mcp/server";
import { createUser, windowWithRoom } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// The MCP endpoint with the SDK's own client over Streamable HTTP on a loopback server: tools for every
// operation, a deck written and exported through tools, API errors as tool errors, the brief and decks as
// prompts and resources.

let database: Database;
let server: AppServer;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
});

afterAll(async () => {
  delete process.env.APP_URL;
  await server.close();
});

afterEach(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  process.env.RATE_LIMIT_SLOW_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "deckhand-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/api/v1/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.find((c) => c.type === "text")?.text ?? "";
  return { isError: result.isError === true, value: JSON.parse(text) };
}

describe("the MCP server", () => {
  it("offers a tool for every API operation, each with an input schema and a description", () => {
    const names = listTools().map((t) => t.name);
    for (const op of operationList) expect(names, `no MCP tool for ${op.id}`).toContain(op.id);
    expect(names).toContain("export_deck");
    for (const tool of listTools()) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(30);
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  it("writes a deck with set_deck_content, exports it to PDF and downloads it", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      listTools()
        .map((t) => t.name)
        .sort(),
    );
    const setContent = tools.find((t) => t.name === "set_deck_content")!;
    expect(setContent.inputSchema.required).toEqual(["id", "source"]);

    const deck = await callTool(client, "create_deck", { title: "Written by an agent" });
    expect(deck.isError).toBe(false);
    const written = await callTool(client, "set_deck_content", {
      id: deck.value.id,
      source: deckSource(["Hello", "World"]),
      prompt: "first draft",
    });
    expect(written).toEqual({ isError: false, value: { id: expect.any(String), version: 1 } });
    const version = await callTool(client, "get_deck_version", { id: deck.value.id, version: 1 });
    expect(version.value.outline).toEqual(["Hello", "World"]);

    const exported = await callTool(client, "export_deck", { id: deck.value.id, format: "pdf" });
    expect(exported.isError, JSON.stringify(exported.value)).toBe(false);
    expect(exported.value.status).toBe("completed");
    const file = await fetch(exported.value.fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // The handout layout is an argument of export_deck too, and refused for PPTX with the API's code.
    const tool = listTools().find((t) => t.name === "export_deck")!;
    expect(tool.inputSchema.properties!.layout).toMatchObject({ enum: ["slides", "notes"] });
    const handout = await callTool(client, "export_deck", { id: deck.value.id, format: "pdf", layout: "notes" });
    expect(handout.isError, JSON.stringify(handout.value)).toBe(false);
    expect(handout.value).toMatchObject({ status: "completed", layout: "notes" });
    expect(handout.value.fileName).toMatch(/-v1-notes\.pdf$/);
    const refused = await callTool(client, "export_deck", { id: deck.value.id, format: "pptx", layout: "notes" });
    expect(refused.isError).toBe(true);
    expect(refused.value.error).toMatchObject({ code: "invalid_request", status: 422 });

    // download_export as a tool answers the link instead of a redirect.
    const link = await callTool(client, "download_export", { id: exported.value.id });
    expect(link.value.url).toMatch(new RegExp(`^${server.origin}/files/`));
    await client.close();
  }, 120_000);

  it("surfaces 402, 403, 404 and 422 as tool errors carrying the API's code", async () => {
    const org = `mcp-${crypto.randomUUID()}`;
    const owner = await createUser({ org });
    const colleague = await createUser({ org });
    const ownerClient = await connect(owner.key);
    const colleagueClient = await connect(colleague.key);

    const missing = await callTool(ownerClient, "get_deck", { id: crypto.randomUUID() });
    expect(missing).toEqual({
      isError: true,
      value: { error: expect.objectContaining({ code: "not_found", status: 404 }) },
    });

    const privateDeck = await callTool(ownerClient, "create_deck", { title: "Private" });
    const forbidden = await callTool(colleagueClient, "get_deck", { id: privateDeck.value.id });
    expect(forbidden.value.error).toMatchObject({ code: "forbidden", status: 403 });

    const invalid = await callTool(ownerClient, "set_deck_content", { id: privateDeck.value.id, source: "" });
    expect(invalid.isError).toBe(true);
    expect(invalid.value.error).toMatchObject({ code: "invalid_request", status: 422 });
    const broken = await callTool(ownerClient, "set_deck_content", {
      id: privateDeck.value.id,
      source: "export default 1 +",
    });
    expect(broken.value.error).toMatchObject({ code: "compile_failed", status: 422 });

    await database.db
      .insert(allowances)
      .values({ organizationId: owner.organizationId, featureId: "version_edits", monthlyLimit: 0 });
    const exhausted = await callTool(ownerClient, "set_deck_content", {
      id: privateDeck.value.id,
      source: deckSource(),
    });
    expect(exhausted.value.error).toMatchObject({
      code: "allowance_exhausted",
      status: 402,
      featureId: "version_edits",
    });
    // Nothing was written by any of the refused calls.
    const after = await callTool(ownerClient, "get_deck", { id: privateDeck.value.id });
    expect(after.value.versionCount).toBe(0);
    await ownerClient.close();
    await colleagueClient.close();
  });

  it("answers get_deck and the deck resource of another organization's locked or expired public deck as unknown", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const ownerClient = await connect(owner.key);
    const outsiderClient = await connect(outsider.key);
    const ids: Record<string, string> = {};
    const links = { open: {}, password: { password: "open sesame" }, expired: { expiresAt: "2020-01-01T00:00:00Z" } };
    for (const [link, controls] of Object.entries(links)) {
      const deck = await callTool(ownerClient, "create_deck", { title: link });
      ids[link] = deck.value.id;
      await callTool(ownerClient, "set_deck_content", { id: deck.value.id, source: deckSource([link]) });
      expect((await callTool(ownerClient, "update_deck", { id: deck.value.id, visibility: "public" })).isError).toBe(
        false,
      );
      const set = await callTool(ownerClient, "set_share_link", { id: deck.value.id, ...controls });
      expect(set.isError, JSON.stringify(set.value)).toBe(false);
    }

    const unknown = await callTool(outsiderClient, "get_deck", { id: crypto.randomUUID() });
    expect(unknown.value.error).toMatchObject({ code: "not_found", status: 404 });
    for (const link of ["password", "expired"]) {
      const refused = await callTool(outsiderClient, "get_deck", { id: ids[link] });
      expect(refused, link).toEqual(unknown);
      await expect(outsiderClient.readResource({ uri: `deckhand://decks/${ids[link]}` }), link).rejects.toThrow(
        /not_found/,
      );
    }
    const open = await callTool(outsiderClient, "get_deck", { id: ids.open });
    expect(open.isError).toBe(false);
    expect(open.value.latestVersion.outline).toEqual(["open"]);
    // The owning organization reads all three.
    for (const link of Object.keys(links)) {
      const read = await callTool(ownerClient, "get_deck", { id: ids[link] });
      expect(read.isError, link).toBe(false);
      expect(read.value.latestVersion.outline, link).toEqual([link]);
    }
    await ownerClient.close();
    await outsiderClient.close();
  });

  it("answers a module nested too deeply as compile_failed, saves nothing, and compiles the next one", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const deck = await callTool(client, "create_deck", { title: "Deep" });
    // 1,500 nested template literals (about 9 KB): the compile worker's "Parse error", a 500, before.
    const nested = `${"`${".repeat(1500)}1${"}`".repeat(1500)}`;
    const source = deckSource(["Deep"]).replace("\nexport default", `const x = ${nested};\nexport default`);
    const refused = await callTool(client, "set_deck_content", {
      id: deck.value.id,
      source: source.replace("<Title>Deep</Title>", "<Title>{String(x)}</Title>"),
    });
    expect(refused).toEqual({
      isError: true,
      value: {
        error: {
          code: "compile_failed",
          status: 422,
          message: expect.stringMatching(/^Line 2:4510: The module nests too deeply: more than 500 levels/),
        },
      },
    });
    expect((await callTool(client, "get_deck", { id: deck.value.id })).value.versionCount).toBe(0);
    const written = await callTool(client, "set_deck_content", { id: deck.value.id, source: deckSource(["After"]) });
    expect(written.isError, JSON.stringify(written.value)).toBe(false);
    expect(written.value.version).toBe(1);
    await client.close();
  });

  it("offers the authoring brief as a prompt and a resource, and decks as resources", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(["authoring_brief", "write_deck"]);
    const prompt = await client.getPrompt({ name: "write_deck", arguments: { topic: "Quarterly review" } });
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    expect(promptText).toContain("@deckhand/player");
    expect(promptText).toContain("Quarterly review");

    const deck = await callTool(client, "create_deck", { title: "Readable" });
    await callTool(client, "set_deck_content", { id: deck.value.id, source: deckSource(["Only"]) });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["deckhand://instructions", `deckhand://decks/${deck.value.id}`]);
    const brief = await client.readResource({ uri: "deckhand://instructions" });
    expect((brief.contents[0] as { text: string }).text).toContain("@deckhand/player");
    const read = await client.readResource({ uri: `deckhand://decks/${deck.value.id}/versions/1` });
    expect(JSON.parse((read.contents[0] as { text: string }).text).outline).toEqual(["Only"]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain("deckhand://decks/{id}");
    await expect(client.readResource({ uri: `deckhand://decks/${crypto.randomUUID()}` })).rejects.toThrow(/not_found/);
    await client.close();
  });

  it("refuses a connection without a valid key with 401", async () => {
    await expect(connect("dk_not_a_real_key")).rejects.toThrow(/401|Unauthorized|API key/i);
  });
});

// Raw JSON-RPC over HTTP, as a client that does not use the SDK would send it.
async function postMcp(key: string, message: unknown) {
  const res = await fetch(`${server.origin}/api/v1/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("MCP and the rate limit", () => {
  const WINDOW_SECONDS = 10;
  const startOfWindow = () => windowWithRoom(WINDOW_SECONDS, 7);

  it("refuses a JSON-RPC batch, so a batch cannot do more than its calls sent one by one", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "5";
    process.env.RATE_LIMIT_WINDOW_SECONDS = String(WINDOW_SECONDS);
    const user = await createUser();
    await startOfWindow();

    const batch = Array.from({ length: 20 }, (_, i) => toolCall(i + 1, "create_deck", { title: `batched ${i}` }));
    const refused = await postMcp(user.key, batch);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(refused.body.error.message).toMatch(/batch/i);
    expect(refused.headers.get("ratelimit-limit")).toBe("5");
    expect(refused.headers.get("ratelimit-remaining")).toBe("4");
    // None of the batch's calls ran.
    const made = await database.db.select().from(decks).where(eq(decks.organizationId, user.organizationId));
    expect(made).toHaveLength(0);

    // One call per request: each takes one from the window, and the limit holds.
    for (let i = 1; i <= 4; i++) {
      const res = await postMcp(user.key, toolCall(i, "create_deck", { title: `single ${i}` }));
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBeUndefined();
      expect(res.headers.get("ratelimit-remaining")).toBe(String(4 - i));
    }
    const limited = await postMcp(user.key, toolCall(9, "create_deck", { title: "one too many" }));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const after = await database.db.select().from(decks).where(eq(decks.organizationId, user.organizationId));
    expect(after).toHaveLength(4);
  }, 60_000);

  it("refuses a batch of notifications and a batch of one as well", async () => {
    const user = await createUser();
    for (const batch of [[toolCall(1, "list_decks", {})], [{ jsonrpc: "2.0", method: "notifications/initialized" }]]) {
      const res = await postMcp(user.key, batch);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32600);
    }
    // A single message still works without the SDK's client.
    const single = await postMcp(user.key, toolCall(1, "list_decks", {}));
    expect(single.status).toBe(200);
    expect(JSON.parse(single.body.result.content[0].text)).toEqual({ items: [], nextCursor: null });
    expect(single.body.result.structuredContent).toEqual({ items: [], nextCursor: null });
  });

  it("counts a slow tool against the slow class, call by call", async () => {
    process.env.RATE_LIMIT_SLOW_PER_MINUTE = "1";
    process.env.RATE_LIMIT_WINDOW_SECONDS = String(WINDOW_SECONDS);
    const user = await createUser();
    await startOfWindow();
    const client = await connect(user.key);
    const first = await callTool(client, "create_brand_from_url", { url: "not a url" });
    expect(first.value.error).toMatchObject({ code: "invalid_request", status: 422 });
    const second = await callTool(client, "create_brand_from_url", { url: "not a url" });
    expect(second.value.error).toMatchObject({ code: "rate_limited", status: 429 });
    // The wait is a field of the structured error, not only words in the text.
    const raw = (await client.callTool({
      name: "create_brand_from_url",
      arguments: { url: "not a url" },
    })) as CallToolResult;
    expect(raw.isError).toBe(true);
    expect(raw.structuredContent).toEqual({
      error: {
        code: "rate_limited",
        status: 429,
        message: expect.any(String),
        retryAfterSeconds: expect.any(Number),
      },
    });
    const wait = (raw.structuredContent as { error: { retryAfterSeconds: number } }).error.retryAfterSeconds;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(WINDOW_SECONDS);
    await client.close();
  }, 60_000);
});

describe("MCP and another organization's public deck", () => {
  it("reads the deck with get_deck, but not its versions, as tools or resources", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const ownerClient = await connect(owner.key);
    const outsiderClient = await connect(outsider.key);
    const deck = await callTool(ownerClient, "create_deck", { title: "Public" });
    const id = deck.value.id;
    await callTool(ownerClient, "set_deck_content", { id, source: deckSource(["Draft"]), prompt: "private note" });
    await callTool(ownerClient, "set_deck_content", { id, source: deckSource(["Final"]) });
    await callTool(ownerClient, "update_deck", { id, visibility: "public" });

    const read = await callTool(outsiderClient, "get_deck", { id });
    expect(read.isError).toBe(false);
    expect(read.value.latestVersion).toMatchObject({ version: 2, outline: ["Final"] });
    const resource = await outsiderClient.readResource({ uri: `deckhand://decks/${id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).latestVersion.version).toBe(2);

    for (const [name, args] of [
      ["list_deck_versions", { id }],
      ["get_deck_version", { id, version: 1 }],
      ["get_deck_version", { id, version: 2 }],
      ["revert_deck_version", { id, version: 1 }],
    ] as const) {
      const res = await callTool(outsiderClient, name, args);
      expect(res.isError, name).toBe(true);
      expect(res.value.error, name).toMatchObject({ code: "not_found", status: 404 });
      expect(JSON.stringify(res.value)).not.toContain("private note");
    }
    for (const version of [1, 2]) {
      await expect(outsiderClient.readResource({ uri: `deckhand://decks/${id}/versions/${version}` })).rejects.toThrow(
        /not_found/,
      );
    }
    // The owner's own history is untouched.
    const history = await callTool(ownerClient, "list_deck_versions", { id });
    expect(history.value.items.map((v: { prompt: string | null }) => v.prompt)).toEqual([null, "private note"]);
    await ownerClient.close();
    await outsiderClient.close();
  });
});

describe("upload_asset over MCP", () => {
  it("stores an image sent as base64 with its alt text, and refuses bytes that are not an image", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0ea5e9" } })
      .png()
      .toBuffer();
    const stored = await callTool(client, "upload_asset", { data: png.toString("base64"), alt: "A small blue box" });
    expect(stored.isError, JSON.stringify(stored.value)).toBe(false);
    expect(stored.value).toMatchObject({
      url: expect.stringMatching(/\/assets\/[0-9a-f]{64}\.png$/),
      width: 64,
      height: 48,
      contentType: "image/png",
      alt: "A small blue box",
    });
    const listed = await callTool(client, "list_assets", {});
    expect(listed.value.items.map((asset: { id: string }) => asset.id)).toEqual([stored.value.id]);
    const refused = await callTool(client, "upload_asset", { data: Buffer.from("not a picture").toString("base64") });
    expect(refused.isError).toBe(true);
    expect(refused.value.error.code).toBe("invalid_request");
    await client.close();
  });
});

describe("list_decks over MCP, a page at a time", () => {
  it("answers nextCursor with a limit and takes it back as cursor until the last page", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    for (let i = 0; i < 7; i++) await callTool(client, "create_deck", { title: `Deck ${i}` });
    const whole = await callTool(client, "list_decks", {});
    expect(whole.value.nextCursor).toBeNull();
    expect(whole.value.items).toHaveLength(7);

    // The SDK's client checks each answer against list_decks' outputSchema.
    const pages: string[][] = [];
    let args: Record<string, unknown> = { limit: 3 };
    for (;;) {
      const page = (await client.callTool({ name: "list_decks", arguments: args })) as CallToolResult;
      const { items, nextCursor } = page.structuredContent as { items: { id: string }[]; nextCursor: string | null };
      pages.push(items.map((deck) => deck.id));
      if (!nextCursor) break;
      args = { limit: "3", cursor: nextCursor }; // an integer as its text, as in every tool
    }
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(whole.value.items.map((deck: { id: string }) => deck.id));

    const tool = (await client.listTools()).tools.find((t) => t.name === "list_decks")!;
    expect(tool.inputSchema.properties).toMatchObject({
      limit: { type: "integer", minimum: 1, maximum: 100 },
      cursor: { type: "string" },
    });
    const refused = await callTool(client, "list_decks", { cursor: "nonsense" });
    expect(refused.isError).toBe(true);
    expect(refused.value.error).toMatchObject({ code: "invalid_request", status: 422 });
    expect(refused.value.error.message).toContain("cursor");
  });
});

describe("import_deck over MCP", () => {
  it("imports a PowerPoint file sent as base64 and answers its import report", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const file = fs.readFileSync("tests/fixtures/pptx/poi-table-with-theme.pptx").toString("base64");
    const imported = await callTool(client, "import_deck", { file, title: "From MCP" });
    expect(imported.isError, JSON.stringify(imported.value)).toBe(false);
    expect(imported.value).toMatchObject({ title: "From MCP", importReport: { slides: 1, mode: "faithful" } });
    const refused = await callTool(client, "import_deck", { file: Buffer.from("not a deck").toString("base64") });
    expect(refused.isError).toBe(true);
    expect(refused.value.error.message).toMatch(/not a ZIP archive/);
    await client.close();
  });
});

describe("MCP for clients that read schemas (issue 20)", () => {
  it("declares an output schema on every tool and answers structured content the SDK client validates", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.outputSchema!.type, tool.name).toBe("object");
    }
    // The SDK's client checks structuredContent against the tool's outputSchema on every call (it throws on a
    // mismatch), so each successful call below is also a check of the schema.
    const deck = (await client.callTool({ name: "create_deck", arguments: { title: "Structured" } })) as CallToolResult;
    expect(deck.isError).toBeFalsy();
    const id = (deck.structuredContent as { id: string }).id;
    expect(JSON.parse((deck.content[0] as { text: string }).text)).toEqual(deck.structuredContent);
    await client.callTool({ name: "set_deck_content", arguments: { id, source: deckSource(["A", "B"]) } });
    await client.callTool({ name: "set_deck_content", arguments: { id, source: deckSource(["C"]) } });

    // get_deck and get_deck_version over MCP leave the compiled module out; the REST API keeps it.
    const detail = (await client.callTool({ name: "get_deck", arguments: { id } })) as CallToolResult;
    const latest = (detail.structuredContent as { latestVersion: Record<string, unknown> }).latestVersion;
    expect(latest).toMatchObject({ version: 2, outline: ["C"], source: expect.any(String) });
    expect(latest).not.toHaveProperty("compiledJs");
    expect((detail.content[0] as { text: string }).text).not.toContain("compiledJs");
    const resource = await client.readResource({ uri: `deckhand://decks/${id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).latestVersion).not.toHaveProperty("compiledJs");
    const rest = await fetch(`${server.origin}/api/v1/decks/${id}`, {
      headers: { authorization: `Bearer ${user.key}` },
    });
    expect(((await rest.json()) as { latestVersion: { compiledJs: string } }).latestVersion.compiledJs).toEqual(
      expect.any(String),
    );

    // Lists are { items } (structured content is an object).
    const versions = (await client.callTool({ name: "list_deck_versions", arguments: { id } })) as CallToolResult;
    expect((versions.structuredContent as { items: { version: number }[] }).items.map((v) => v.version)).toEqual([
      2, 1,
    ]);

    // One rule for numbers: an integer given as its decimal text is read as the integer, in every tool.
    const version = (await client.callTool({
      name: "get_deck_version",
      arguments: { id, version: "1" },
    })) as CallToolResult;
    expect(version.structuredContent).toMatchObject({ version: 1, outline: ["A", "B"] });
    expect(version.structuredContent).not.toHaveProperty("compiledJs");
    const queued = (await client.callTool({
      name: "create_export",
      arguments: { id, format: "pdf", version: "1" },
    })) as CallToolResult;
    expect(queued.isError, JSON.stringify(queued.structuredContent)).toBeFalsy();
    expect(queued.structuredContent).toMatchObject({ version: 1, format: "pdf" });
    const bad = (await client.callTool({
      name: "get_deck_version",
      arguments: { id, version: "one" },
    })) as CallToolResult;
    expect(bad.structuredContent).toMatchObject({ error: { code: "invalid_request", status: 422 } });

    // Errors are structured too, and name the tool to call next.
    const early = (await client.callTool({
      name: "download_export",
      arguments: { id: (queued.structuredContent as { id: string }).id },
    })) as CallToolResult;
    if (early.isError) {
      expect(early.structuredContent).toMatchObject({ error: { code: "conflict", status: 409 } });
      expect((early.structuredContent as { error: { message: string } }).error.message).toContain("call get_export");
    }
    const missing = (await client.callTool({
      name: "get_deck",
      arguments: { id: crypto.randomUUID() },
    })) as CallToolResult;
    expect(missing).toMatchObject({ isError: true, structuredContent: { error: { code: "not_found", status: 404 } } });
    await client.close();
  }, 60_000);

  it("labels the brief text/plain and answers an unknown resource with -32002", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === "deckhand://instructions")!.mimeType).toBe("text/plain");
    const brief = await client.readResource({ uri: "deckhand://instructions" });
    expect(brief.contents[0]!.mimeType).toBe("text/plain");
    for (const uri of ["deckhand://nothing", `deckhand://decks/${crypto.randomUUID()}`]) {
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e as { code: number; data?: unknown },
      );
      expect(error?.code, uri).toBe(-32002);
    }
    await client.close();
  });
});

describe("MCP as third-party clients found it (issue 38, item 3)", () => {
  it("advertises only arguments its calls accept: no header parameter such as If-None-Match", async () => {
    for (const op of operationList) {
      const tool = listTools().find((t) => t.name === op.id)!;
      const accepted = [
        ...Object.keys((op.params as z.ZodObject).shape),
        ...Object.keys((op.query as z.ZodObject).shape),
        ...(op.body ? Object.keys((op.body as z.ZodObject).shape) : []),
      ];
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), op.id).toEqual([...new Set(accepted)].sort());
    }
    const user = await createUser();
    const client = await connect(user.key);
    const deck = await callTool(client, "create_deck", { title: "Conditional" });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "get_deck")!.inputSchema.properties).not.toHaveProperty("If-None-Match");
    expect(await callTool(client, "get_deck", { id: deck.value.id })).toMatchObject({ isError: false });
    await client.close();
  });

  it("walks write_deck through write, check, fix one slide at a time, and export or publish", async () => {
    const user = await createUser();
    const client = await connect(user.key);
    const prompt = await client.getPrompt({ name: "write_deck", arguments: { topic: "Quarterly review" } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const steps = text.slice(text.indexOf("Write a deck about: Quarterly review"));
    const order = ["set_deck_content", "check_deck", "one slide at a time", "export_deck", "update_deck"];
    const at = order.map((needle) => steps.indexOf(needle));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(steps).toContain("publicUrl (null until the deck is public)");
    expect(steps).not.toMatch(/share get_deck/);
    const instructions = client.getInstructions() ?? "";
    for (const needle of ["check_deck", "one slide at a time", "export_deck"]) expect(instructions).toContain(needle);
    await client.close();
  });

  it("types every value of every tool's output schema, brand tools included", () => {
    // A schema node that is neither typed nor a union, reference or constant says nothing to a client.
    const untyped = (node: unknown, path: string): string[] => {
      if (!node || typeof node !== "object") return [];
      const schema = node as Record<string, unknown>;
      const own = ["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not"].some((k) => k in schema)
        ? []
        : [path];
      const children: [string, unknown][] = [
        ...Object.entries((schema.properties as Record<string, unknown>) ?? {}).map(
          ([k, v]) => [`${path}.${k}`, v] as [string, unknown],
        ),
        ...(["anyOf", "oneOf", "allOf"] as const).flatMap((k) =>
          ((schema[k] as unknown[]) ?? []).map((v, i) => [`${path}|${i}`, v] as [string, unknown]),
        ),
        ...(schema.items ? [[`${path}[]`, schema.items] as [string, unknown]] : []),
      ];
      return [...own, ...children.flatMap(([p, v]) => untyped(v, p))];
    };
    for (const tool of listTools()) expect(untyped(tool.outputSchema, tool.name), tool.name).toEqual([]);
    const brand = listTools().find((t) => t.name === "get_brand")!.outputSchema as unknown as {
      anyOf: { properties: { data: { type: string; properties: object } } }[];
    };
    expect(brand.anyOf[0]!.properties.data).toMatchObject({
      type: "object",
      properties: { palette: { type: "object" }, voice: { type: "object" } },
    });
  });
});
