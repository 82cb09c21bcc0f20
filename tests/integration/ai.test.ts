import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAuthoring } from "@/lib/ai/author";
import { AppError } from "@/lib/core/errors";
import { closeRenderBrowser } from "@/lib/render/browser";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { brands } from "@/lib/db/schema/brands";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { allowances, usage } from "@/lib/db/schema/usage";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";
import { type ImageHost, serveImageHost, solidPng } from "../helpers/image-fixtures";
import { statusOf } from "@/lib/api/status";

// generate and edit with the AI SDK's mock model (the real provider is chosen by OPENAI_API_KEY, unset
// here), and the offline generator and editor through the API.

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

afterEach(() => {
  delete process.env.AI_TIMEOUT_MS;
});

// The deck check draws each module that compiles in the export renderer.
afterAll(() => closeRenderBrowser());

type Answer = string | ((prompt: unknown) => Promise<string> | string);

function mockModel(answers: Answer[], tokens = { input: 1000, output: 400 }) {
  let index = 0;
  return new MockLanguageModelV3({
    modelId: "mock-model",
    doGenerate: async (options) => {
      const answer = answers[Math.min(index++, answers.length - 1)]!;
      const text = typeof answer === "function" ? await answer(options.prompt) : answer;
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

function ctxOf(user: TestUser): Ctx {
  return { db: database.db, caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null } };
}

async function usedEdits(user: TestUser): Promise<number> {
  const rows = await database.db.select().from(usage).where(eq(usage.organizationId, user.organizationId));
  return rows.filter((row) => row.featureId === "version_edits").reduce((sum, row) => sum + row.used, 0);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

const fence = (source: string) => `Here is the deck:\n\`\`\`tsx\n${source}\`\`\`\n`;

// A module that compiles but cannot be drawn well: forty bullets overflow their slide (a deck check error).
const points = Array.from({ length: 40 }, (_, i) => `"Point ${i + 1} says far more than a slide can hold"`);
const crowded = `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";
export default function Plan() {
  return (
    <Deck>
      <Slide label="Cover" layout="center"><Title>The plan</Title></Slide>
      <Slide label="Everything"><Heading>Everything at once</Heading><Bullets items={[${points.join(", ")}]} /></Slide>
    </Deck>
  );
}
`;

describe("generate with a model", () => {
  it("repairs a module that does not compile, then saves it with the brief and the token usage", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    const good = deckSource(["Cover", "Plan", "Close"]);
    const model = mockModel([fence(good.replace("</Deck>", "</Dek>")), fence(good)]);
    const result = await runAuthoring(
      ctxOf(user),
      { kind: "generate", deckId: deck.id, brief: "A three-slide plan", mode: "create" },
      model,
    );
    expect(result.version).toBe(1);

    expect(model.doGenerateCalls).toHaveLength(2);
    const repair = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(repair).toContain("does not compile");
    expect(repair).toMatch(/Line \d+:\d+/);
    const system = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    expect(system).toContain("DECKHAND AUTHORING BRIEF");

    const [version] = await database.db.select().from(deckVersions).where(eq(deckVersions.id, result.id));
    expect(version).toMatchObject({ source: good, prompt: "A three-slide plan", outline: ["Cover", "Plan", "Close"] });
    expect(version!.usage).toEqual({
      model: "mock-model",
      calls: [
        { step: "draft", inputTokens: 1000, outputTokens: 400 },
        { step: "repair-1", inputTokens: 1000, outputTokens: 400 },
      ],
      inputTokens: 2000,
      outputTokens: 800,
    });
    // Creating the first version is not an edit.
    expect(await usedEdits(user)).toBe(0);
  });

  it("sends the deck check's errors back, and saves the module that draws cleanly", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    const fixed = crowded.replace(points.join(", "), points.slice(0, 4).join(", "));
    const model = mockModel([fence(crowded), fence(fixed)]);
    const result = await runAuthoring(
      ctxOf(user),
      { kind: "generate", deckId: deck.id, brief: "The plan", mode: "create" },
      model,
    );
    expect(model.doGenerateCalls).toHaveLength(2);
    const repair = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(repair).toContain("the deck check found");
    expect(repair).toMatch(/Slide 2 “Everything”: the Bullets .* runs \d+ px past/);
    const [version] = await database.db.select().from(deckVersions).where(eq(deckVersions.id, result.id));
    expect(version!.source).toBe(fixed);
  }, 60_000);

  it("keeps the best module when the repairs still leave a check error, and holds an edit only to what it adds", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    const model = mockModel([fence(crowded)]);
    await runAuthoring(ctxOf(user), { kind: "generate", deckId: deck.id, brief: "The plan", mode: "create" }, model);
    // Three attempts, each with the same overflow: the module is saved all the same (it compiles).
    expect(model.doGenerateCalls).toHaveLength(3);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(1);

    // An edit of the cover is not asked to fix the crowded slide it did not touch.
    const hunk = `<<<<<<< SEARCH\n<Title>The plan</Title>\n=======\n<Title>The plan for Q3</Title>\n>>>>>>> REPLACE`;
    const editor = mockModel([hunk]);
    await runAuthoring(ctxOf(user), { kind: "edit", deckId: deck.id, instruction: "Rename the cover" }, editor);
    expect(editor.doGenerateCalls).toHaveLength(1);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(2);
  }, 60_000);

  it("checks a module with its remote images drawn, and stores only the images of the module it saves", async () => {
    const host: ImageHost = await serveImageHost({
      "/team.png": { body: await solidPng(320, 180, "#336699"), type: "image/png" },
      "/draft.png": { body: await solidPng(320, 180, "#993366"), type: "image/png" },
    });
    process.env.FETCH_ALLOW_HOSTS = "localhost";
    try {
      const user = await createUser();
      const deck = await createDeck(user);
      const withImage = (
        src: string,
        more = "",
      ) => `import { Deck, Slide, Title, Heading, Image, Bullets } from "@deckhand/player";
export default function Team() {
  return (
    <Deck>
      <Slide label="Cover" layout="center"><Title>The team</Title></Slide>
      <Slide label="Photo"><Heading>Who we are</Heading><Image src="${src}" alt="The team at the offsite" /></Slide>${more}
    </Deck>
  );
}
`;
      const crowdedSlide = `<Slide label="Everything"><Heading>Everything at once</Heading><Bullets items={[${points.join(", ")}]} /></Slide>`;
      // 1: an image that cannot be fetched (the model is told which URL); 2: an image that draws, on a deck
      // with a slide that overflows (the check's error goes back); 3: another image, clean.
      const model = mockModel([
        fence(withImage(`${host.origin}/missing.png`)),
        fence(withImage(`${host.origin}/draft.png`, crowdedSlide)),
        fence(withImage(`${host.origin}/team.png`)),
      ]);
      const result = await runAuthoring(
        ctxOf(user),
        { kind: "generate", deckId: deck.id, brief: "The team", mode: "create" },
        model,
      );
      expect(model.doGenerateCalls).toHaveLength(3);
      expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain(`${host.origin}/missing.png`);
      // The second draft's image was drawn (no image-failed error), only its overflow was reported.
      const second = JSON.stringify(model.doGenerateCalls[2]!.prompt);
      expect(second).toMatch(/Slide 3 “Everything”: the Bullets .* runs \d+ px past/);
      expect(second).not.toMatch(/Slide 2 “Photo”/);
      const [version] = await database.db.select().from(deckVersions).where(eq(deckVersions.id, result.id));
      expect(version!.source).toContain(`${host.origin}/team.png`);
      expect(version!.compiledJs).toMatch(/\/assets\/[0-9a-f]{64}\.png/);
      expect(version!.compiledJs).not.toContain(host.origin);
      // Stored: the saved module's image alone, not the thrown-away draft's.
      const assets = (await call("GET", "/assets", { key: user.key })).body as { url: string }[];
      expect(assets).toHaveLength(1);
      expect(version!.compiledJs).toContain(new URL(assets[0]!.url).pathname);
      expect(host.requests.filter((path) => path === "/draft.png")).toHaveLength(1);
    } finally {
      delete process.env.FETCH_ALLOW_HOSTS;
      await host.close();
    }
  }, 90_000);

  it("saves nothing and consumes nothing when the model never compiles", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await setContent(user, deck.id);
    const model = mockModel(["export default oops("]);
    const error = await rejection(
      runAuthoring(ctxOf(user), { kind: "generate", deckId: deck.id, brief: "Rewrite", mode: "revise" }, model),
    );
    expect(error.code).toBe("ai_failed");
    expect(statusOf(error)).toBe(500);
    expect(error.message).toMatch(/after 3 attempts/);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(1);
    expect(await usedEdits(user)).toBe(1); // the setContent above, nothing more
  });

  it("revise consumes exactly one version edit per success and sends the brand and the template", async () => {
    const user = await createUser();
    const [brand] = await database.db
      .insert(brands)
      .values({ organizationId: user.organizationId, name: "Nebula", sourceUrl: "https://nebula.test", data: {} })
      .returning();
    const template = await createDeck(user, { kind: "template" });
    await setContent(user, template.id, { source: deckSource(["Template cover", "Template body"]) });
    const deck = await createDeck(user, { fromDeckId: template.id, brandId: brand!.id });
    await setContent(user, deck.id);
    const before = await usedEdits(user);
    const model = mockModel([fence(deckSource(["Revised"]))]);
    const result = await runAuthoring(
      ctxOf(user),
      { kind: "generate", deckId: deck.id, brief: "Shorter", mode: "revise" },
      model,
    );
    expect(result.version).toBe(2);
    expect(await usedEdits(user)).toBe(before + 1);
    const prompt = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain("Template cover");
    expect(prompt).toContain("CURRENT MODULE");
  });

  it("answers ai_timeout when the model does not answer in time", async () => {
    process.env.AI_TIMEOUT_MS = "200";
    const user = await createUser();
    const deck = await createDeck(user);
    const slow = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal!.reason));
        }),
    });
    const error = await rejection(
      runAuthoring(ctxOf(user), { kind: "generate", deckId: deck.id, brief: "x", mode: "create" }, slow),
    );
    expect(error.code).toBe("ai_timeout");
    expect(statusOf(error)).toBe(500);
  });
});

describe("edit with a model", () => {
  const original = deckSource(["Intro", "Plan", "Numbers", "Team", "Close"]);

  it("applies the hunks, leaves untouched slides byte-identical and consumes one edit", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await setContent(user, deck.id, { source: original });
    const before = await usedEdits(user);
    const hunk = `<<<<<<< SEARCH\n        <Title>Plan</Title>\n=======\n        <Title>The plan for Q3</Title>\n>>>>>>> REPLACE\n`;
    const model = mockModel([hunk], { input: 900, output: 40 });
    const result = await runAuthoring(
      ctxOf(user),
      { kind: "edit", deckId: deck.id, instruction: 'On "Plan", change the title to "The plan for Q3"' },
      model,
    );
    expect(result.version).toBe(2);
    const [version] = await database.db.select().from(deckVersions).where(eq(deckVersions.id, result.id));
    expect(version!.source).toBe(original.replace("<Title>Plan</Title>", "<Title>The plan for Q3</Title>"));
    expect(version!.usage?.outputTokens).toBe(40);
    expect(await usedEdits(user)).toBe(before + 1);
  });

  it("repairs hunks that do not match", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await setContent(user, deck.id, { source: original });
    const wrong = `<<<<<<< SEARCH\n<Title>Plans</Title>\n=======\n<Title>X</Title>\n>>>>>>> REPLACE`;
    const right = `<<<<<<< SEARCH\n<Title>Team</Title>\n=======\n<Title>Our team</Title>\n>>>>>>> REPLACE`;
    const model = mockModel([wrong, right]);
    await runAuthoring(ctxOf(user), { kind: "edit", deckId: deck.id, instruction: "Rename the team title" }, model);
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain("does not occur in the module");
  });

  it("answers 409 and saves nothing when the deck changed while the edit was prepared", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await setContent(user, deck.id, { source: original });
    const hunk = `<<<<<<< SEARCH\n<Title>Intro</Title>\n=======\n<Title>Hello</Title>\n>>>>>>> REPLACE`;
    const model = mockModel([
      async () => {
        // Someone saves a version while the model is thinking.
        expect((await setContent(user, deck.id, { source: deckSource(["Meanwhile"]) })).status).toBe(200);
        return hunk;
      },
    ]);
    const before = await usedEdits(user);
    const error = await rejection(
      runAuthoring(ctxOf(user), { kind: "edit", deckId: deck.id, instruction: "Say hello" }, model),
    );
    expect(error.code).toBe("conflict");
    expect(statusOf(error)).toBe(409);
    const detail = await call("GET", `/decks/${deck.id}`, { key: user.key });
    expect(detail.body.versionCount).toBe(2);
    expect(detail.body.latestVersion.outline).toEqual(["Meanwhile"]);
    // Only the concurrent write consumed an edit; the failed edit gave its unit back.
    expect(await usedEdits(user)).toBe(before + 1);
  });

  it("does not charge an edit when the allowance is out, and answers 402", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await setContent(user, deck.id, { source: original });
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "version_edits", monthlyLimit: 1 });
    const hunk = `<<<<<<< SEARCH\n<Title>Intro</Title>\n=======\n<Title>Hello</Title>\n>>>>>>> REPLACE`;
    const error = await rejection(
      runAuthoring(ctxOf(user), { kind: "edit", deckId: deck.id, instruction: "Say hello" }, mockModel([hunk])),
    );
    expect(error.code).toBe("allowance_exhausted");
    expect(error.featureId).toBe("version_edits");
  });
});

describe("the AI generation allowance", () => {
  it("counts model-backed runs and answers 402 ai_generations before calling the model", async () => {
    const user = await createUser();
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "ai_generations", monthlyLimit: 1 });
    const deck = await createDeck(user);
    const model = mockModel([fence(deckSource(["One"]))]);
    await runAuthoring(ctxOf(user), { kind: "generate", deckId: deck.id, brief: "One", mode: "create" }, model);
    const second = mockModel([fence(deckSource(["Two"]))]);
    const error = await rejection(
      runAuthoring(ctxOf(user), { kind: "generate", deckId: deck.id, brief: "Two", mode: "revise" }, second),
    );
    expect(error.code).toBe("allowance_exhausted");
    expect(error.featureId).toBe("ai_generations");
    expect(second.doGenerateCalls).toHaveLength(0);
    // The offline generator is not metered: a revise it can follow is saved without the AI allowance.
    const offline = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief: 'Add a slide about "Three" with "A" and "B"' },
    });
    expect(offline.status, JSON.stringify(offline.body)).toBe(200);
  });
});

describe("generate and edit through the API, offline", () => {
  it("creates a deck from a Markdown brief, edits it exactly, and refuses what needs a model", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Offline" });
    const brief =
      "# Launch plan\n\n## Goals\n- Ship v1\n- Ten customers\n\n## Numbers\nRevenue grew 42% to $3.1M.\n\n## Risks\n- Hiring\n- Scope";
    const created = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief, mode: "create" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), version: 1 });
    const v1 = (await call("GET", `/decks/${deck.id}/versions/1`, { key: user.key })).body;
    expect(v1.prompt).toBe(brief);
    expect(v1.outline.length).toBeGreaterThanOrEqual(4);

    const again = await call("POST", `/decks/${deck.id}/generate`, { key: user.key, body: { brief, mode: "create" } });
    expect(again.status).toBe(422);

    const edited = await call("POST", `/decks/${deck.id}/edit`, {
      key: user.key,
      body: { instruction: '"Ship v1" → "Ship version one"' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const v2 = (await call("GET", `/decks/${deck.id}/versions/2`, { key: user.key })).body;
    expect(v2.source).toContain("Ship version one");
    expect(v2.source).not.toContain('"Ship v1"');

    const vague = await call("POST", `/decks/${deck.id}/edit`, {
      key: user.key,
      body: { instruction: "Make slide 2 more persuasive" },
    });
    expect(vague.status).toBe(422);
    expect(vague.body.error.message).toMatch(/OPENAI_API_KEY/);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(2);
  });

  it("revises offline only with instructions it recognises: otherwise 422, nothing saved, no edit used", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Six slides" });
    expect((await setContent(user, deck.id, { source: deckSource(["A", "B", "C", "D", "E", "F"]) })).status).toBe(200);
    const before = await usedEdits(user);
    const refused = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief: "Make this deck about our Q3 results, with a thank-you at the end", mode: "revise" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/Without an AI model, revising a deck applies only instructions/);
    expect(refused.body.error.message).toMatch(/OPENAI_API_KEY/);
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(1);
    expect(await usedEdits(user)).toBe(before);

    const added = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief: 'Add a slide about "Pricing" after "B" with "Free tier" and "Team plan"', mode: "revise" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const v2 = (await call("GET", `/decks/${deck.id}/versions/2`, { key: user.key })).body;
    expect(v2.outline).toEqual(["A", "B", "Pricing", "C", "D", "E", "F"]);
    expect(await usedEdits(user)).toBe(before + 1);
  });

  it.each([
    ["generate", {}, /brief/],
    ["generate", { brief: "" }, /brief/],
    ["generate", { brief: "   " }, /brief/],
    ["generate", { brief: "x".repeat(10_001) }, /10000/],
    ["generate", { brief: "ok", mode: "rewrite" }, /mode/],
    ["generate", { brief: "ok", tone: "fun" }, /unknown field/],
    ["edit", {}, /instruction/],
    ["edit", { instruction: "x".repeat(10_001) }, /10000/],
  ])("%s refuses %j with 422", async (action, body, message) => {
    const user = await createUser();
    const deck = await createDeck(user);
    const res = await call("POST", `/decks/${deck.id}/${action}`, { key: user.key, body });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(message);
  });

  it("refuses to revise or edit a deck without content, and 403s a deck of someone else", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    expect((await call("POST", `/decks/${deck.id}/generate`, { key: user.key, body: { brief: "x" } })).status).toBe(
      422,
    );
    expect((await call("POST", `/decks/${deck.id}/edit`, { key: user.key, body: { instruction: "x" } })).status).toBe(
      422,
    );
    const stranger = await createUser();
    expect(
      (await call("POST", `/decks/${deck.id}/generate`, { key: stranger.key, body: { brief: "x", mode: "create" } }))
        .status,
    ).toBe(404);
  });
});
