import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "@/lib/api/operations";
import { allowances } from "@/lib/db/schema/usage";
import type { Database } from "@/lib/db/client";
import { listTools } from "@/lib/mcp/server";
import { createUser } from "../helpers/api";
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
