import { generateText, type LanguageModel, type ModelMessage } from "ai";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { brandBookSchema } from "@/lib/brands/brand-book";
import { describeBrandBook } from "@/lib/brands/describe-brand";
import { compileDeckOffThread } from "@/lib/deck/compile-pool";
import { brands } from "@/lib/db/schema/brands";
import type { AuthoringUsage } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { canReadDeck, getOwnedDeck } from "@/lib/decks/access";
import { appendVersion } from "@/lib/decks/append-version";
import { assertAllowanceLeft } from "@/lib/usage/consume-allowance";
import { currentTokensCss, getLatestVersion } from "@/lib/decks/latest-version";
import { editOfflineDeck } from "./offline/edit-deck";
import { generateOfflineDeck } from "./offline/generate-deck";
import { applyHunks, extractModule, HunkError, parseHunks } from "./hunks";
import {
  editSystemPrompt,
  editUserPrompt,
  generateSystemPrompt,
  generateUserPrompt,
  type PromptContext,
  repairPrompt,
} from "./prompts";
import { aiTimeoutMs } from "./provider";

// generate and edit as steps: prepare the context → call the model → compile (and send the compiler's
// message back for a bounded number of repairs) → save. The AI-run job (ai-run-job.ts) runs it on the
// in-process runner with plain steps, or inside an Inngest function, which passes a step runner that makes
// each step durable.

export type AuthoringRequest =
  | { kind: "generate"; deckId: string; brief: string; mode: "create" | "revise" }
  | { kind: "edit"; deckId: string; instruction: string };

export type StepRunner = <T>(name: string, run: () => Promise<T>) => Promise<T>;
const inline: StepRunner = (_name, run) => run();

export const MAX_REPAIRS = 2;

type Prepared = PromptContext & { deckId: string; basedOnVersion: number };
type Draft = { text: string; model: string; inputTokens: number; outputTokens: number };
type Check = { ok: true; source: string } | { ok: false; error: string };

export async function prepareAuthoring(ctx: Ctx, request: AuthoringRequest): Promise<Prepared> {
  const deck = await getOwnedDeck(ctx, request.deckId);
  const latest = await getLatestVersion(ctx.db, deck);
  if (request.kind === "generate" && request.mode === "create" && latest) {
    throw new AppError(
      "invalid_request",
      "This deck already has content; use mode 'revise' to rewrite it, or edit it.",
    );
  }
  if ((request.kind === "edit" || request.mode === "revise") && !latest) {
    throw new AppError("invalid_request", "This deck has no content yet; generate it first with mode 'create'.");
  }
  if (latest && latest.format !== "deck-tsx" && request.kind === "edit") {
    throw new AppError(
      "invalid_request",
      "The newest version is a legacy HTML document; regenerate the deck instead of editing it.",
    );
  }

  let brand: string | null = null;
  if (deck.brandId) {
    const [row] = await ctx.db.select({ data: brands.data }).from(brands).where(eq(brands.id, deck.brandId));
    const book = brandBookSchema.safeParse(row?.data);
    if (book.success) brand = describeBrandBook(book.data);
  }
  let templateSource: string | null = null;
  if (deck.startedFromDeckId) {
    const [template] = await ctx.db
      .select({
        id: decks.id,
        versionCount: decks.versionCount,
        organizationId: decks.organizationId,
        ownerId: decks.ownerId,
        visibility: decks.visibility,
      })
      .from(decks)
      .where(eq(decks.id, deck.startedFromDeckId));
    // The template may have become private since; only a template the caller can still read is shown.
    const version = template && canReadDeck(template, ctx.caller) ? await getLatestVersion(ctx.db, template) : null;
    templateSource = version?.source ?? null;
  }
  return {
    deckId: deck.id,
    basedOnVersion: deck.versionCount,
    format: deck.format,
    title: deck.title,
    tokensCss: await currentTokensCss(ctx.db, deck),
    brand,
    templateSource,
    currentSource: latest?.format === "deck-tsx" ? latest.source : null,
  };
}

async function callModel(model: LanguageModel, system: string, messages: ModelMessage[]): Promise<Draft> {
  let result;
  try {
    result = await generateText({
      model,
      system,
      messages,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(aiTimeoutMs()),
    });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new AppError(
        "ai_timeout",
        `The AI model did not answer within ${Math.round(aiTimeoutMs() / 1000)} s; nothing was saved. Try again.`,
      );
    }
    // The provider's own text can name accounts, URLs or key fragments: it goes to the log, not the caller.
    console.error(
      JSON.stringify({ level: "error", component: "ai", message: (error as Error)?.message ?? String(error) }),
    );
    throw new AppError(
      "ai_failed",
      "The AI model could not answer (provider error); nothing was saved. Try again later.",
    );
  }
  if (result.finishReason === "content-filter") {
    throw new AppError("ai_failed", "The AI model refused this request (content filter); nothing was saved.");
  }
  if (!result.text.trim()) throw new AppError("ai_failed", "The AI model answered with nothing; nothing was saved.");
  const modelId = typeof model === "string" ? model : model.modelId;
  return {
    text: result.text,
    model: modelId,
    inputTokens: result.usage.inputTokens ?? 0,
    outputTokens: result.usage.outputTokens ?? 0,
  };
}

async function checkCandidate(prepared: Prepared, request: AuthoringRequest, answer: string): Promise<Check> {
  let source: string;
  try {
    source =
      request.kind === "generate"
        ? extractModule(answer)
        : applyHunks(prepared.currentSource ?? "", parseHunks(answer));
  } catch (error) {
    if (error instanceof HunkError) return { ok: false, error: error.message };
    throw error;
  }
  try {
    await compileDeckOffThread({ source, format: prepared.format });
    return { ok: true, source };
  } catch (error) {
    if (error instanceof AppError && error.code === "compile_failed") return { ok: false, error: error.message };
    throw error;
  }
}

export async function runAuthoring(
  ctx: Ctx,
  request: AuthoringRequest,
  model: LanguageModel | null,
  step: StepRunner = inline,
): Promise<{ id: string; version: number }> {
  const prepared = await step("prepare", async () => {
    const context = await prepareAuthoring(ctx, request);
    // A model costs money: refuse before calling it when the month's generations are used up.
    if (model) {
      await assertAllowanceLeft(ctx.db, ctx.caller.organizationId, "ai_generations");
      if (!(request.kind === "generate" && request.mode === "create")) {
        await assertAllowanceLeft(ctx.db, ctx.caller.organizationId, "version_edits");
      }
    }
    return context;
  });
  let source: string;
  let usage: AuthoringUsage | null = null;

  if (!model) {
    // The offline generator and editor: deterministic, no model; an instruction they cannot follow is a 422.
    source = await step("offline", async () =>
      request.kind === "generate"
        ? generateOfflineDeck({ brief: request.brief, title: prepared.title, format: prepared.format }).source
        : editOfflineDeck({
            source: prepared.currentSource ?? "",
            instruction: request.instruction,
            format: prepared.format,
          }).source,
    );
  } else {
    const system = request.kind === "generate" ? generateSystemPrompt(prepared) : editSystemPrompt(prepared);
    const messages: ModelMessage[] = [
      {
        role: "user",
        content:
          request.kind === "generate"
            ? generateUserPrompt(request.brief, prepared)
            : editUserPrompt(request.instruction, prepared.currentSource ?? ""),
      },
    ];
    let lastError = "";
    let accepted: string | null = null;
    for (let attempt = 0; attempt <= MAX_REPAIRS && accepted === null; attempt++) {
      const draft = await step(attempt === 0 ? "draft" : `repair-${attempt}`, () => callModel(model, system, messages));
      usage ??= { model: draft.model, calls: [], inputTokens: 0, outputTokens: 0 };
      usage.calls.push({
        step: attempt === 0 ? "draft" : `repair-${attempt}`,
        inputTokens: draft.inputTokens,
        outputTokens: draft.outputTokens,
      });
      usage.inputTokens += draft.inputTokens;
      usage.outputTokens += draft.outputTokens;
      const check = await step(`compile-${attempt}`, () => checkCandidate(prepared, request, draft.text));
      if (check.ok) accepted = check.source;
      else {
        lastError = check.error;
        messages.push(
          { role: "assistant", content: draft.text },
          { role: "user", content: repairPrompt(request.kind, check.error) },
        );
      }
    }
    if (accepted === null) {
      throw new AppError(
        "ai_failed",
        `The AI model did not produce a module that compiles after ${MAX_REPAIRS + 1} attempts; nothing was saved. Last error: ${lastError}`,
      );
    }
    source = accepted;
  }

  const finalSource = source;
  const finalUsage = usage;
  return step("save", async () => {
    const { compiledJs, outline } = await compileDeckOffThread({ source: finalSource, format: prepared.format });
    return appendVersion(
      ctx,
      prepared.deckId,
      { format: "deck-tsx", source: finalSource, tokensCss: prepared.tokensCss, compiledJs, outline, html: null },
      {
        prompt: request.kind === "generate" ? request.brief : request.instruction,
        consumesEdit: !(request.kind === "generate" && request.mode === "create"),
        // Only an edit is conditional on the version it started from (409 is in edit_deck's statuses);
        // a generation that raced another write is appended after it.
        basedOnVersion: request.kind === "edit" ? prepared.basedOnVersion : undefined,
        usage: finalUsage,
        alsoConsumes: finalUsage ? ["ai_generations"] : [],
      },
    );
  });
}
