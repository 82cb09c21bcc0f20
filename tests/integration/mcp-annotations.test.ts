import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { assets } from "@/lib/db/schema/assets";
import { brands } from "@/lib/db/schema/brands";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { exports } from "@/lib/db/schema/exports";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// Every MCP tool's annotations against what it does (issue 38, item 3): each tool is called twice with the
// same arguments, and the organization's decks, versions, exports, brands and images are read before and
// after each call. A read-only tool changes none of them; an idempotent one changes nothing more the second
// time, and one that is not changes something again; a tool that is not destructive only adds (every row
// there before is still there, unchanged), and a destructive one changes or removes one.

let database: Database;
let server: AppServer;
let user: TestUser;
let client: Client;

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  user = await createUser();
  client = new Client({ name: "deckhand-annotations", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/api/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${user.key}` } },
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  stopLocalRunner();
  await closeRenderBrowser();
  delete process.env.APP_URL;
  await server?.close();
});

const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

// The organization's state as rows keyed by table and id; what changes by itself (timestamps, an export's
// progress, a deck's counter of the versions listed anyway) and a salted hash (the same password) are left out.
async function snapshot(): Promise<Map<string, string>> {
  const org = user.organizationId;
  const rows = new Map<string, string>();
  const deckRows = await database.db.select().from(decks).where(eq(decks.organizationId, org));
  for (const { updatedAt: _u, versionCount: _v, sharePasswordHash, ...deck } of deckRows) {
    rows.set(`deck:${deck.id}`, digest({ ...deck, password: sharePasswordHash !== null }));
  }
  const ids = deckRows.map((d) => d.id);
  if (ids.length > 0) {
    for (const v of await database.db.select().from(deckVersions).where(inArray(deckVersions.deckId, ids))) {
      rows.set(`version:${v.id}`, digest([v.deckId, v.version, v.source, v.tokensCss]));
    }
  }
  for (const e of await database.db.select().from(exports).where(eq(exports.organizationId, org))) {
    rows.set(`export:${e.id}`, digest([e.deckId, e.version, e.format, e.layout]));
  }
  for (const b of await database.db.select().from(brands).where(eq(brands.organizationId, org))) {
    rows.set(`brand:${b.id}`, digest([b.name, b.data]));
  }
  for (const a of await database.db.select().from(assets).where(eq(assets.organizationId, org))) {
    rows.set(`asset:${a.id}`, digest([a.sha256, a.alt]));
  }
  return rows;
}

const same = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
const keeps = (before: Map<string, string>, after: Map<string, string>) =>
  [...before].every(([key, value]) => after.get(key) === value);

async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallToolResult;
}

describe("MCP tool annotations", () => {
  it("match what every tool does to the organization's data, called twice", async () => {
    const deck = await createDeck(user, { title: "Annotated" });
    expect((await setContent(user, deck.id, { source: deckSource(["One", "Two"]) })).status).toBe(200);
    const doomed = await createDeck(user, { title: "To delete" });
    const [brand] = await database.db
      .insert(brands)
      .values({ organizationId: user.organizationId, name: "Acme", sourceUrl: "https://acme.test", data: {} })
      .returning();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const image = await sharp({ create: { width: 9, height: 9, channels: 3, background: "#993366" } })
      .png()
      .toBuffer();
    const stored = await callTool("upload_asset", { data: image.toString("base64") });
    const storedId = (stored.structuredContent as { id: string }).id;
    const queued = await callTool("export_deck", { id: deck.id, format: "pdf" });
    expect(queued.isError, JSON.stringify(queued.structuredContent)).toBeFalsy();
    const exportId = (queued.structuredContent as { id: string }).id;

    // The arguments of each tool, in an order where each finds what it needs (deletions last).
    const calls: [string, Record<string, unknown>][] = [
      ["get_authoring_instructions", {}],
      ["list_decks", {}],
      ["get_deck", { id: deck.id }],
      ["list_deck_versions", { id: deck.id }],
      ["get_deck_version", { id: deck.id, version: 1 }],
      ["check_deck", { id: deck.id }],
      ["get_slide_image", { id: deck.id, n: 1, width: 64 }],
      ["get_deck_analytics", { id: deck.id }],
      ["get_share_link", { id: deck.id }],
      ["get_export", { id: exportId }],
      ["download_export", { id: exportId }],
      ["list_brands", {}],
      ["get_brand", { id: brand!.id }],
      ["list_assets", {}],
      ["create_deck", { title: "Made twice" }],
      ["import_deck", { markdown: "# Imported\n\n## A section\n\n- a point" }],
      ["set_deck_content", { id: deck.id, source: deckSource(["One", "Two", "Three"]) }],
      ["generate_deck", { id: deck.id, brief: 'Add a slide about "Four" with "A" and "B"' }],
      ["edit_deck", { id: deck.id, instruction: "duplicate slide 1" }],
      ["revert_deck_version", { id: deck.id, version: 1 }],
      ["list_slides", { id: deck.id }],
      ["replace_slide", { id: deck.id, n: 1, source: `<Slide label="One"><Title>Uno</Title></Slide>` }],
      ["insert_slide", { id: deck.id, after: 0, source: `<Slide label="Zero"><Title>Zero</Title></Slide>` }],
      ["move_slide", { id: deck.id, n: 1, to: 2 }],
      ["delete_slide", { id: deck.id, n: 1 }],
      ["update_deck", { id: deck.id, title: "Renamed", visibility: "public" }],
      ["set_share_link", { id: deck.id, password: "correct horse battery" }],
      ["revoke_share_link", { id: deck.id }],
      ["create_export", { id: deck.id, format: "pptx" }],
      ["export_deck", { id: deck.id, format: "pdf", layout: "notes" }],
      ["upload_asset", { data: png.toString("base64"), alt: "A square" }],
      ["delete_asset", { id: storedId }],
      ["delete_brand", { id: brand!.id }],
      ["delete_deck", { id: doomed.id }],
    ];
    const tools = new Map<string, Tool>((await client.listTools()).tools.map((t) => [t.name, t]));
    // create_brand_from_url fetches a public website, which a test may not reach (loopback only): it is the
    // one tool left out, annotated as what it does (adds a brand per call, reaches outside).
    expect(tools.get("create_brand_from_url")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(new Set([...calls.map(([name]) => name), "create_brand_from_url"])).toEqual(new Set(tools.keys()));

    for (const [name, args] of calls) {
      const hints = tools.get(name)!.annotations!;
      const before = await snapshot();
      const first = await callTool(name, args);
      expect(first.isError, `${name}: ${JSON.stringify(first.structuredContent)}`).toBeFalsy();
      const once = await snapshot();
      await callTool(name, args);
      const twice = await snapshot();
      if (hints.readOnlyHint) {
        expect(same(before, once), `${name} is read-only, yet changed data`).toBe(true);
        continue;
      }
      expect(same(before, once), `${name} writes, yet changed nothing`).toBe(false);
      expect(same(once, twice), `${name}: idempotentHint ${hints.idempotentHint}`).toBe(hints.idempotentHint);
      expect(!keeps(before, once), `${name}: destructiveHint ${hints.destructiveHint}`).toBe(hints.destructiveHint);
    }
  }, 600_000);
});
