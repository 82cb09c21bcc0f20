import { generateText, type LanguageModel, type ModelMessage } from "ai";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { brandBookSchema } from "@/lib/brands/brand-book";
import { describeBrandBook } from "@/lib/brands/describe-brand";
import { type AssetOwner, ownerOf } from "@/lib/assets/assets";
import { resolveDeckImages } from "@/lib/assets/deck-images";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { brands } from "@/lib/db/schema/brands";
import type { AuthoringUsage } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { canReadDeck, getOwnedDeck } from "@/lib/decks/access";
import { appendVersion } from "@/lib/decks/append-version";
import { checkViewable } from "@/lib/render/check-deck";
import type { Finding } from "@/lib/render/check-findings";
import { assertAllowanceLeft } from "@/lib/usage/consume-allowance";
import { currentTokensCss, getLatestVersion } from "@/lib/decks/latest-version";
import { editOfflineDeck } from "./offline/edit-deck";
import { generateOfflineDeckOffThread } from "./offline/off-thread";
import { reviseOfflineDeck } from "./offline/revise-deck";
import { applyHunks, extractModule, HunkError, parseHunks } from "./hunks";
import {
  editSystemPrompt,
  editUserPrompt,
  generateSystemPrompt,
  generateUserPrompt,
  layoutRepairPrompt,
  type PromptContext,
  repairPrompt,
} from "./prompts";
import { aiTimeoutMs } from "./provider";
import { logger } from "@/lib/core/log";

const log = logger("ai");

// generate and edit as steps: prepare the context → call the model → compile and draw it with the deck
// check (sending the compiler's message, or the check's errors, back for a bounded number of repairs) →
// save. The AI-run job (ai-run-job.ts) runs it on the
// in-process runner with plain steps, or inside an Inngest function, which passes a step runner that makes
// each step durable.

export type AuthoringRequest =
  | { kind: "generate"; deckId: string; brief: string; mode: "create" | "revise" }
  | { kind: "edit"; deckId: string; instruction: string };

export type StepRunner = <T>(name: string, run: () => Promise<T>) => Promise<T>;
const inline: StepRunner = (_name, run) => run();

const MAX_REPAIRS = 2;

type Prepared = PromptContext & { deckId: string; organizationId: string; basedOnVersion: number };
type Draft = { text: string; model: string; inputTokens: number; outputTokens: number };
type Check = { ok: true; source: string; errors: Finding[] } | { ok: false; error: string };
/** Errors the deck already had before an edit: an edit is not asked to fix slides it did not touch. */
type Baseline = string[];

async function prepareAuthoring(ctx: Ctx, request: AuthoringRequest): Promise<Prepared> {
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
        sharePasswordHash: decks.sharePasswordHash,
        shareExpiresAt: decks.shareExpiresAt,
      })
      .from(decks)
      .where(eq(decks.id, deck.startedFromDeckId));
    // The template may have become private since, or be another organization's deck whose link has since
    // been locked or has expired; only a template the caller can still read is shown.
    const version = template && canReadDeck(template, ctx.caller) ? await getLatestVersion(ctx.db, template) : null;
    templateSource = version?.source ?? null;
  }
  return {
    deckId: deck.id,
    organizationId: deck.organizationId,
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
    log.error("the AI provider failed", { error });
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

async function checkCandidate(
  owner: AssetOwner,
  prepared: Prepared,
  request: AuthoringRequest,
  answer: string,
  baseline: Baseline,
): Promise<Check> {
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
  let compiledJs: string;
  try {
    ({ compiledJs } = await compileWithImages(owner, source, prepared.format));
  } catch (error) {
    // A module that does not compile, or an image URL that cannot be imported: the model is told and repairs.
    if (error instanceof AppError && repairable.has(error.code)) {
      return { ok: false, error: error.message };
    }
    throw error;
  }
  const errors = (await layoutErrors(prepared, compiledJs)).filter(
    (finding) => !baseline.includes(findingKey(finding)),
  );
  return { ok: true, source, errors };
}

// Compiled with its remote images fetched and checked as the save will (the frame refuses a remote URL, so
// the check could not draw it otherwise), a URL that cannot be imported being a 422. Only the save stores
// them (`store`): nothing is kept for a draft the loop throws away or a run that fails.
async function compileWithImages(owner: AssetOwner, source: string, format: Prepared["format"], store = false) {
  return resolveDeckImages(owner, await compileDeckOffThread({ source, format }), { fetchRemote: true, store });
}

// What a model can fix by writing its module again: a compile error, an image URL that cannot be imported,
// an image too large.
const repairable = new Set(["compile_failed", "invalid_request", "payload_too_large"]);

const findingKey = (finding: Finding) => `${finding.kind}|${finding.label}|${finding.component}|${finding.text}`;

// The deck check's errors for a module that compiles, drawn as the exporter draws it. A slides deck
// only (webpages have no fixed canvas); a renderer that cannot start does not stop the generation.
async function layoutErrors(prepared: Prepared, compiledJs: string): Promise<Finding[]> {
  if (prepared.format !== "slides") return [];
  try {
    const result = await checkViewable({
      deck: {
        id: prepared.deckId,
        organizationId: prepared.organizationId,
        title: prepared.title,
        description: "",
        format: prepared.format,
        organization: "",
      },
      version: { version: 0, format: "deck-tsx", tokensCss: prepared.tokensCss, compiledJs, html: null },
    });
    return result.findings.filter((finding) => finding.severity === "error");
  } catch (error) {
    log.error("the deck check could not run", { error });
    return [];
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
    // A revise never replaces the deck: it applies what it recognises in the brief, else a 422.
    source = await step("offline", async () =>
      request.kind === "generate" && request.mode === "revise"
        ? reviseOfflineDeck({ source: prepared.currentSource ?? "", brief: request.brief, format: prepared.format })
            .source
        : request.kind === "generate"
          ? (
              await generateOfflineDeckOffThread({
                brief: request.brief,
                title: prepared.title,
                format: prepared.format,
              })
            ).source
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
    // An edit is held to the errors it adds: what the deck already had is the baseline.
    const current = prepared.currentSource;
    const baseline: Baseline =
      request.kind === "edit" && current
        ? await step("check-base", async () => {
            const { compiledJs } = await compileWithImages(ownerOf(ctx), current, prepared.format);
            return (await layoutErrors(prepared, compiledJs)).map(findingKey);
          })
        : [];
    let lastError = "";
    // The module that compiles with the fewest check errors: the last repair may still leave one.
    let best: { source: string; errors: number } | null = null;
    for (let attempt = 0; attempt <= MAX_REPAIRS; attempt++) {
      const draft = await step(attempt === 0 ? "draft" : `repair-${attempt}`, () => callModel(model, system, messages));
      usage ??= { model: draft.model, calls: [], inputTokens: 0, outputTokens: 0 };
      usage.calls.push({
        step: attempt === 0 ? "draft" : `repair-${attempt}`,
        inputTokens: draft.inputTokens,
        outputTokens: draft.outputTokens,
      });
      usage.inputTokens += draft.inputTokens;
      usage.outputTokens += draft.outputTokens;
      const check = await step(`compile-${attempt}`, () =>
        checkCandidate(ownerOf(ctx), prepared, request, draft.text, baseline),
      );
      if (check.ok && (best === null || check.errors.length < best.errors)) {
        best = { source: check.source, errors: check.errors.length };
      }
      if (!check.ok) lastError = check.error;
      if (check.ok && check.errors.length === 0) break;
      messages.push(
        { role: "assistant", content: draft.text },
        {
          role: "user",
          content: check.ok ? layoutRepairPrompt(request.kind, check.errors) : repairPrompt(request.kind, check.error),
        },
      );
    }
    if (best === null) {
      throw new AppError(
        "ai_failed",
        `The AI model did not produce a module that compiles after ${MAX_REPAIRS + 1} attempts; nothing was saved. Last error: ${lastError}`,
      );
    }
    source = best.source;
  }

  const finalSource = source;
  const finalUsage = usage;
  return step("save", async () => {
    // The module's remote images are imported as the version is written (a 422 naming the URL otherwise).
    const { compiledJs, outline } = await compileWithImages(ownerOf(ctx), finalSource, prepared.format, true);
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
