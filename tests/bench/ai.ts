import { randomUUID } from "node:crypto";
import { MockLanguageModelV3 } from "ai/test";
import { runAuthoring } from "@/lib/ai/author";
import { generateOfflineDeck } from "@/lib/ai/offline/generate-deck";
import { createKeyForEmail } from "@/lib/auth/accounts";
import type { Ctx } from "@/lib/auth/caller";
import { openPglite, adoptDatabase } from "@/lib/db/client";
import { decks } from "@/lib/db/schema/decks";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { twentySlideModule } from "./api";
import { type BenchRow, percentile } from "./server";

// The offline generator on a 2,000-word brief (in-process, median of 20), and the tokens an edit costs
// against a full rewrite of the same 20-slide deck, with a mock model that counts ~4 characters a token.

function twoThousandWordBrief(): string {
  const sentence = (i: number) =>
    `Our team shipped feature ${i} to ${120 + i} customers, and retention rose ${(i % 9) + 2}% while support tickets fell in every region.`;
  const sections = Array.from({ length: 10 }, (_, s) => {
    const prose = Array.from({ length: 9 }, (_, i) => sentence(s * 10 + i)).join(" ");
    return `## Section ${s + 1}: what changed\n\n${prose}\n\n- First takeaway for section ${s + 1}\n- Second takeaway with a number: ${s * 7 + 3}%\n- Third takeaway about customers`;
  });
  return `# Annual review\n\n${sections.join("\n\n")}`;
}

const tokens = (text: string) => Math.ceil(text.length / 4);

function countingModel(answer: (prompt: string) => string) {
  return new MockLanguageModelV3({
    modelId: "token-counter",
    doGenerate: async (options) => {
      const prompt = JSON.stringify(options.prompt);
      const text = answer(prompt);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: tokens(prompt), noCache: tokens(prompt), cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: tokens(text), text: tokens(text), reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

export async function benchAi(): Promise<BenchRow[]> {
  const brief = twoThousandWordBrief();
  const samples: number[] = [];
  for (let i = 0; i < 25; i++) {
    const start = performance.now();
    generateOfflineDeck({ brief, title: "Annual review", format: "slides" });
    if (i >= 5) samples.push(performance.now() - start);
  }
  const words = brief.split(/\s+/).length;

  const database = await openPglite(undefined);
  adoptDatabase(database);
  const account = await createKeyForEmail(database.db, { email: `bench-${randomUUID()}@example.test` });
  const ctx: Ctx = {
    db: database.db,
    caller: { userId: account.userId, organizationId: account.organizationId, apiKeyId: null },
  };
  const [deck] = await database.db
    .insert(decks)
    .values({ organizationId: account.organizationId, ownerId: account.userId, title: "Token bench" })
    .returning();
  const source = twentySlideModule(1);
  await setDeckContent(ctx, deck!.id, { source });
  const changed = source.replace("Section 7: what we learned", "Section 7: what we changed");

  const rewrite = await runAuthoring(
    ctx,
    {
      kind: "generate",
      deckId: deck!.id,
      brief: 'Change the heading of slide 7 to "Section 7: what we changed".',
      mode: "revise",
    },
    countingModel(() => `\`\`\`tsx\n${changed}\`\`\``),
  );
  const edit = await runAuthoring(
    ctx,
    { kind: "edit", deckId: deck!.id, instruction: 'On slide 7 change "what we changed" to "what we learned"' },
    countingModel(
      () => "<<<<<<< SEARCH\nSection 7: what we changed\n=======\nSection 7: what we learned\n>>>>>>> REPLACE",
    ),
  );
  const usageOf = async (id: string) => {
    const { deckVersions } = await import("@/lib/db/schema/deck-versions");
    const { eq } = await import("drizzle-orm");
    const [row] = await database.db
      .select({ usage: deckVersions.usage })
      .from(deckVersions)
      .where(eq(deckVersions.id, id));
    return row!.usage!;
  };
  const full = await usageOf(rewrite.id);
  const targeted = await usageOf(edit.id);
  await database.close();

  const total = (u: { inputTokens: number; outputTokens: number }) => u.inputTokens + u.outputTokens;
  return [
    {
      label: `offline generator, ${words}-word brief`,
      n: samples.length,
      median: percentile(samples, 50),
      p95: percentile(samples, 95),
    },
    {
      label: "full rewrite (generate revise): input tokens",
      n: 1,
      median: full.inputTokens,
      p95: full.inputTokens,
      unit: "tok",
    },
    {
      label: "full rewrite (generate revise): output tokens",
      n: 1,
      median: full.outputTokens,
      p95: full.outputTokens,
      unit: "tok",
    },
    {
      label: "edit (one hunk): input tokens",
      n: 1,
      median: targeted.inputTokens,
      p95: targeted.inputTokens,
      unit: "tok",
    },
    {
      label: "edit (one hunk): output tokens",
      n: 1,
      median: targeted.outputTokens,
      p95: targeted.outputTokens,
      unit: "tok",
    },
    {
      label: "rewrite ÷ edit, output tokens",
      n: 1,
      median: full.outputTokens / targeted.outputTokens,
      p95: full.outputTokens / targeted.outputTokens,
      unit: "x",
    },
    {
      label: "rewrite ÷ edit, all tokens",
      n: 1,
      median: total(full) / total(targeted),
      p95: total(full) / total(targeted),
      unit: "x",
    },
  ];
}
