"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { nulRefusedByDatabase, refuseNul } from "@/lib/api/input";
import { actionErrorMessage } from "@/lib/app/action-error";
import { actionContext } from "@/lib/app/context";
import { getDeckVersion, revertDeckVersion } from "@/lib/decks/deck-versions";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { compileDraft, compileProblems, type DraftResult } from "@/lib/decks/drafts";
import { setDeckBrand } from "@/lib/decks/set-brand";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeckBody } from "@/lib/decks/schemas";
import { updateDeck } from "@/lib/decks/update-deck";
import { authorDeck } from "@/lib/ai/author-deck";
import { editDeckBody, generateDeckBody } from "@/lib/ai/schemas";
import { createExport } from "@/lib/exports/create-export";
import { getExport, getExportDownloadUrl } from "@/lib/exports/get-export";

// The editor's server actions: the live preview, saving a version, reading one for a diff, reverting.
// Each runs as the signed-in author through the API's domain functions; failures come back as messages.
// Text is checked for NUL characters first (refuseNul, as the API does): PostgreSQL cannot store them.

export type SaveResult =
  | { ok: true; version: number }
  | { ok: false; message: string; problems: { line: number; column: number; message: string }[] };

function failure(error: unknown) {
  const message = actionErrorMessage(nulRefusedByDatabase(error) ?? error);
  return { ok: false as const, message, problems: compileProblems(message) };
}

export async function previewDraftAction(deckId: string, source: string, tokensCss: string): Promise<DraftResult> {
  try {
    const { ctx } = await actionContext();
    refuseNul({ deckId, source, tokensCss }, "");
    return await compileDraft(ctx, deckId, { source, tokensCss });
  } catch (error) {
    return failure(error);
  }
}

export async function saveVersionAction(
  deckId: string,
  input: { source: string; tokensCss: string; note: string },
): Promise<SaveResult> {
  try {
    const { ctx } = await actionContext();
    refuseNul({ deckId, source: input.source, tokensCss: input.tokensCss, note: input.note }, "");
    const saved = await setDeckContent(ctx, deckId, {
      source: input.source,
      tokensCss: input.tokensCss,
      prompt: input.note.trim() ? input.note.trim().slice(0, 2000) : null,
    });
    revalidatePath(`/decks/${deckId}`);
    return { ok: true, version: saved.version };
  } catch (error) {
    return failure(error);
  }
}

export async function readVersionAction(deckId: string, version: number) {
  const { ctx } = await actionContext();
  const v = await getDeckVersion(ctx, deckId, version);
  return { version: v.version, source: v.source ?? "", tokensCss: v.tokensCss ?? "" };
}

export async function revertAction(deckId: string, version: number): Promise<SaveResult> {
  try {
    const { ctx } = await actionContext();
    const saved = await revertDeckVersion(ctx, deckId, version);
    revalidatePath(`/decks/${deckId}`);
    return { ok: true, version: saved.version };
  } catch (error) {
    return failure(error);
  }
}

export type DeckSettings = {
  title: string;
  kind: "deck" | "template";
  description: string;
  archived: boolean;
  visibility: "private" | "org" | "public";
};

export async function updateDeckAction(
  deckId: string,
  changes: Partial<DeckSettings>,
): Promise<{ ok: true; publicUrl: string | null } | { ok: false; message: string }> {
  try {
    const { ctx } = await actionContext();
    refuseNul({ deckId, ...changes }, "");
    const deck = await updateDeck(ctx, deckId, updateDeckBody.parse(changes));
    revalidatePath(`/decks/${deckId}`);
    return { ok: true, publicUrl: deck.publicUrl };
  } catch (error) {
    return failure(error);
  }
}

export async function startExportAction(deckId: string, format: "pdf" | "pptx") {
  try {
    const { ctx } = await actionContext();
    refuseNul({ deckId, format }, "");
    const queued = await createExport(ctx, deckId, { format });
    return { ok: true as const, id: queued.id, status: queued.status };
  } catch (error) {
    return failure(error);
  }
}

export async function exportStatusAction(exportId: string) {
  const { ctx } = await actionContext();
  const current = await getExport(ctx, exportId);
  return {
    status: current.status,
    error: current.error,
    fileName: current.fileName,
    downloadUrl: current.status === "completed" ? await getExportDownloadUrl(ctx, exportId) : null,
  };
}

export async function authorAction(
  deckId: string,
  request: { kind: "generate"; brief: string; mode: "create" | "revise" } | { kind: "edit"; instruction: string },
): Promise<SaveResult> {
  try {
    const { ctx } = await actionContext("slow");
    refuseNul({ deckId, ...request }, "");
    const saved = await authorDeck(
      ctx,
      request.kind === "generate"
        ? { kind: "generate", deckId, ...generateDeckBody.parse({ brief: request.brief, mode: request.mode }) }
        : { kind: "edit", deckId, ...editDeckBody.parse({ instruction: request.instruction }) },
    );
    revalidatePath(`/decks/${deckId}`);
    return { ok: true, version: saved.version };
  } catch (error) {
    return failure(error);
  }
}

export async function setBrandAction(deckId: string, brandId: string | null) {
  try {
    const { ctx } = await actionContext();
    const result = await setDeckBrand(ctx, deckId, brandId ? z.guid().parse(brandId) : null);
    revalidatePath(`/decks/${deckId}`);
    return { ok: true as const, tokensCss: result.tokensCss };
  } catch (error) {
    return failure(error);
  }
}

export async function deleteDeckAction(deckId: string) {
  const { ctx } = await actionContext();
  await deleteDeck(ctx, deckId);
  redirect("/decks");
}
