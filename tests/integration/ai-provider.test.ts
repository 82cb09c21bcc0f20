import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { call, createUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource } from "../helpers/decks";

// The configured-provider path end to end: OPENAI_API_KEY + OPENAI_BASE_URL pointing at an
// OpenAI-compatible server (as Ollama or vLLM would be), here a small one on loopback.

let server: http.Server;
let database: Database;
const requests: { path: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];

beforeAll(async () => {
  database = await setUpTestDatabase();
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw);
      requests.push({ path: req.url ?? "", body });
      const content = "```tsx\n" + deckSource(["From the model", "Second"]) + "```";
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 4321, completion_tokens: 210, total_tokens: 4531 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.OPENAI_API_KEY = "test-key";
  process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  process.env.AI_MODEL = "local-model";
});

afterAll(async () => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  delete process.env.AI_MODEL;
  await new Promise((resolve) => server.close(resolve));
});

describe("an OpenAI-compatible provider", () => {
  it("writes the deck through the configured server and records its token usage", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    const res = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief: "Two slides", mode: "create" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe("/v1/chat/completions");
    expect(requests[0]!.body.model).toBe("local-model");
    expect(requests[0]!.body.messages[0]!.content).toContain("DECKHAND AUTHORING BRIEF");
    const version = await call("GET", `/decks/${deck.id}/versions/1`, { key: user.key });
    expect(version.body.outline).toEqual(["From the model", "Second"]);
    const [row] = await database.db
      .select({ usage: deckVersions.usage })
      .from(deckVersions)
      .where(eq(deckVersions.id, version.body.id));
    expect(row!.usage).toMatchObject({ model: "local-model", inputTokens: 4321, outputTokens: 210 });
  });
});
