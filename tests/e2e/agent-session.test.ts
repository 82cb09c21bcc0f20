import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeRenderBrowser } from "@/lib/render/browser";
import { createUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";

// An agent's session through MCP, scripted (issue 38): write a deck with a slide that overflows, check it,
// look at that slide, replace only that slide, check it clean. Counts the calls and the bytes of arguments
// sent, against fixing the same slide by writing the whole module again.

let server: AppServer;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
}, 120_000);

afterAll(async () => {
  await closeRenderBrowser();
  delete process.env.APP_URL;
  await server?.close();
});

const slide = (label: string, body: string) =>
  `      <Slide label="${label}">\n        <Heading>${label}</Heading>\n        ${body}\n      </Slide>`;
const points = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => `Point ${i + 1}: a finding the team wants every reader to see`));
const module = (third: string) => `import { Deck, Slide, Heading, Text, Bullets } from "@deckhand/player";

export default function Review() {
  return (
    <Deck>
${[
  slide("Why now", "<Text>Three markets opened this quarter.</Text>"),
  slide("What changed", "<Text>Support moved to one queue.</Text>"),
  third,
  slide("Risks", "<Text>Hiring is slower than planned.</Text>"),
  slide("Next", "<Text>Decide on the second region by May.</Text>"),
].join("\n")}
    </Deck>
  );
}
`;
const overflowing = slide("Findings", `<Bullets items={${points(40)}} />`);
const fixed = slide("Findings", `<Bullets items={${points(4)}} />`).trim();

describe("an agent's session through MCP", () => {
  it("finds an overflowing slide, looks at it, replaces only it and checks clean", async () => {
    const user = await createUser();
    const client = new Client({ name: "agent-session", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}/api/v1/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${user.key}` } },
      }),
    );
    const log: { tool: string; bytes: number }[] = [];
    const callTool = async (name: string, args: Record<string, unknown>) => {
      log.push({ tool: name, bytes: Buffer.byteLength(JSON.stringify(args)) });
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
      return result;
    };
    type Check = { errors: number; findings: { slide: number; kind: string; severity: string; message: string }[] };

    const { id } = (await callTool("create_deck", { title: "Quarterly review" })).structuredContent as { id: string };
    await callTool("set_deck_content", { id, source: module(overflowing) });
    const first = (await callTool("check_deck", { id })).structuredContent as Check;
    const broken = first.findings.filter((f) => f.severity === "error");
    expect(broken.map((f) => [f.slide, f.kind])).toEqual([[3, "overflow"]]);
    // The same check with the pictures of the slides it names attached (not counted as a step of the session).
    const withImages = (await client.callTool({
      name: "check_deck",
      arguments: { id, attach: "images" },
    })) as CallToolResult;
    const attached = withImages.content.filter((c) => c.type === "image") as { data: string }[];
    const named = new Set(first.findings.map((f) => f.slide));
    expect(attached).toHaveLength(Math.min(5, named.size));
    expect(await sharp(Buffer.from(attached[0]!.data, "base64")).metadata()).toMatchObject({ width: 960, height: 540 });
    expect(withImages.content.some((c) => c.type === "text" && c.text.startsWith("Slide 3 as drawn"))).toBe(true);

    const before = await callTool("get_slide_image", { id, n: 3, width: 640 });
    const picture = before.content.find((c) => c.type === "image") as { data: string; mimeType: string };
    expect(await sharp(Buffer.from(picture.data, "base64")).metadata()).toMatchObject({ width: 640, height: 360 });

    await callTool("replace_slide", { id, n: 3, source: fixed, basedOnVersion: 1 });
    const second = (await callTool("check_deck", { id })).structuredContent as Check;
    expect(second.errors).toBe(0);
    const after = await callTool("get_slide_image", { id, n: 3, width: 640 });
    const hash = (result: CallToolResult) => (result.structuredContent as { renderHash: string }).renderHash;
    expect(hash(after)).not.toBe(hash(before));

    // Only the slide changed: the module is the one the whole-source fix would have written.
    const detail = (await client.callTool({ name: "get_deck", arguments: { id } })) as CallToolResult;
    const written = (detail.structuredContent as { latestVersion: { source: string; version: number } }).latestVersion;
    expect(written.version).toBe(2);
    expect(written.source).toBe(module(`      ${fixed}`));
    await client.close();

    const fix = log.find((entry) => entry.tool === "replace_slide")!.bytes;
    const rewrite = Buffer.byteLength(JSON.stringify({ id, source: module(`      ${fixed}`) }));
    const sent = log.reduce((sum, entry) => sum + entry.bytes, 0);
    console.log(
      JSON.stringify({
        calls: log.length,
        argumentBytes: sent,
        fixBytes: { replace_slide: fix, set_deck_content: rewrite },
        sequence: log.map((entry) => entry.tool),
      }),
    );
    expect(fix * 2).toBeLessThan(rewrite);
  }, 180_000);
});
