import { sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { config } from "@/lib/core/config";
import { compileDeckOffThread } from "@/lib/deck/compile-pool";
import { parseTokensCss } from "@/lib/deck/tokens";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getOwnedDeck } from "./access";
import { setContentBody } from "./schemas";

// The editor's live preview: compile what the author is typing, keep it as their draft of the deck, and
// answer a short-lived preview link of it. Nothing here is a version and nothing is consumed.

export type CompileProblem = { line: number; column: number; message: string };

export type DraftResult =
  { ok: true; url: string; outline: string[] } | { ok: false; message: string; problems: CompileProblem[] };

// The compiler reports "Line L:C: message" (one per line); tokens errors have no position.
export function compileProblems(message: string): CompileProblem[] {
  return message
    .split("\n")
    .map((line) => /^Line (\d+):(\d+): (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, line, column, text]) => ({ line: Number(line), column: Number(column), message: text! }));
}

export async function compileDraft(
  ctx: Ctx,
  deckId: string,
  input: { source: string; tokensCss: string },
): Promise<DraftResult> {
  const deck = await getOwnedDeck(ctx, deckId);
  const { source, tokensCss } = setContentBody.parse({ source: input.source, tokensCss: input.tokensCss });
  let compiled: { compiledJs: string; outline: string[] };
  let tokens: string;
  try {
    compiled = await compileDeckOffThread({ source, format: deck.format });
    tokens = parseTokensCss(tokensCss ?? "").css;
  } catch (error) {
    if (error instanceof AppError && error.code === "compile_failed") {
      return { ok: false, message: error.message, problems: compileProblems(error.message) };
    }
    throw error;
  }
  await ctx.db
    .insert(deckDrafts)
    .values({ deckId: deck.id, userId: ctx.caller.userId, tokensCss: tokens, compiledJs: compiled.compiledJs })
    .onConflictDoUpdate({
      target: [deckDrafts.deckId, deckDrafts.userId],
      set: { tokensCss: tokens, compiledJs: compiled.compiledJs, updatedAt: sql`now()` },
    });
  const token = mintPreviewToken({ deckId: deck.id, version: 0, draftOf: ctx.caller.userId });
  const origin = config.deckContentOrigin ?? config.appUrl;
  return { ok: true, url: `${origin}/preview/${token}/frame`, outline: compiled.outline };
}
