"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/server/action";
import { authorDeck } from "@/lib/ai/author-deck";
import { listAssets, ownerOf, presentAsset, storeImage } from "@/lib/assets/assets";
import { uploadAssetBody, uploadAssetQuery } from "@/lib/assets/schemas";
import { editDeckBody, generateDeckBody } from "@/lib/ai/schemas";
import { uuid } from "@/lib/core/fields";
import { getDeckVersion, revertDeckVersion } from "@/lib/decks/deck-versions";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { getDeck } from "@/lib/decks/get-deck";
import { clearTypedDraft, compileDraft, discardDraft, presentDraft } from "@/lib/decks/drafts";
import { duplicateDeck } from "@/lib/decks/duplicate-deck";
import { mergeWithNewest } from "@/lib/decks/merge-with-newest";
import { beatPresence, leavePresence } from "@/lib/decks/presence";
import { deckParams, setContentBody, updateDeckBody, versionParams } from "@/lib/decks/schemas";
import { setDeckBrand } from "@/lib/decks/set-brand";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeck } from "@/lib/decks/update-deck";
import { createExport } from "@/lib/exports/create-export";
import { getExport, getExportDownloadUrl } from "@/lib/exports/get-export";
import { createExportBody, exportParams } from "@/lib/exports/schemas";
import { checkDraft } from "@/lib/render/check-deck";

// The editor's server actions: the live preview, saving a version, reading one for a diff, reverting, the
// deck's settings, exports, the AI and the brand. Each takes the deck's id (`id`, as the API's path does)
// and the API operation's body, validated with the operation's own schemas.

const refresh = ({ id }: { id: string }) => revalidatePath(`/decks/${id}`);

const versionNumber = z.number().int().min(0).max(2_147_483_647);

// What the editor shows: its source and tokens, the version they are based on, and whether they differ from it.
const draftInput = setContentBody
  .pick({ source: true, tokensCss: true })
  .extend(deckParams.shape)
  .extend({ basedOnVersion: versionNumber.optional(), unsaved: z.boolean().optional() });

export type DeckSettings = Required<z.output<typeof updateDeckBody>>;

/** The live preview and the autosave: compiles what is typed into the author's draft; a module that does
 * not compile is refused as compile_failed, with the compiler's "Line L:C: …" messages, and is kept as typed
 * all the same. `unsaved` (it differs from what the editor opened or saved) keeps it to restore, based on
 * `basedOnVersion`. */
export const previewDraftAction = defineAction({
  input: draftInput,
  run: (ctx, { id, source, tokensCss, basedOnVersion, unsaved }) =>
    compileDraft(ctx, id, { source, tokensCss: tokensCss ?? "", basedOnVersion, unsaved }),
});

/** Present: what the editor shows (its source and tokens, as the preview's compile takes them) compiled into
 * the author's draft, and the present-mode page of that draft. */
export const presentDraftAction = defineAction({
  input: draftInput,
  run: (ctx, { id, source, tokensCss, basedOnVersion, unsaved }) =>
    presentDraft(ctx, id, { source, tokensCss: tokensCss ?? "", basedOnVersion, unsaved }),
});

/** "Discard" on the restored-draft notice: the author's draft is deleted. */
export const discardDraftAction = defineAction({
  input: deckParams.strict(),
  run: (ctx, { id }) => discardDraft(ctx, id),
});

/** "Merge" in the save-conflict dialog: the author's content merged with the newest version by slides
 * (base: the version the editor was based on); nothing is saved. */
export const mergeWithNewestAction = defineAction({
  input: setContentBody
    .pick({ source: true, tokensCss: true })
    .extend(deckParams.shape)
    .extend({ basedOnVersion: versionNumber }),
  run: (ctx, { id, source, tokensCss, basedOnVersion }) =>
    mergeWithNewest(ctx, id, { source, tokensCss: tokensCss ?? "", basedOnVersion }),
});

/** "Duplicate to my decks": a deck of the caller's own with this deck's newest content; opens it. */
export const duplicateDeckAction = defineAction({
  input: deckParams.strict(),
  run: async (ctx, { id }) => ({ id: (await duplicateDeck(ctx, { id })).id }),
  onSuccess: (deck) => {
    revalidatePath("/decks");
    redirect(`/decks/${deck.id}`);
  },
});

/** The editor's heartbeat: marks the caller as having the deck open, answers who else has (by name). With
 * `leaving` the caller is taken off the list at once. */
export const presenceAction = defineAction({
  input: z.strictObject({ ...deckParams.shape, leaving: z.boolean().optional() }),
  run: async (ctx, { id, leaving }) => {
    if (!leaving) return beatPresence(ctx, id);
    await leavePresence(ctx, id);
    return { others: [] };
  },
});

/** The deck check of the author's draft (what the preview shows): findings per slide, as check_deck. */
export const checkDraftAction = defineAction({
  input: deckParams.strict(),
  run: (ctx, { id }) => checkDraft(ctx, id),
});

/** set_deck_content: source, tokensCss and the version's note (`prompt`) within the API's limits. With
 * `basedOnVersion` (the version the editor opened or last saved) a deck saved elsewhere since is a 409
 * `conflict` and nothing is saved, so two tabs never silently overwrite each other. */
export const saveVersionAction = defineAction({
  input: setContentBody.extend(deckParams.shape).extend({ basedOnVersion: versionNumber.optional() }),
  run: async (ctx, { id, basedOnVersion, ...content }) => {
    const { version } = await setDeckContent(ctx, id, content, { basedOnVersion });
    // What was typed is a version now: nothing left to restore.
    await clearTypedDraft(ctx, id);
    return { version };
  },
  onSuccess: (_saved, input) => refresh(input),
});

export const readVersionAction = defineAction({
  input: versionParams.strict(),
  run: async (ctx, { id, version }) => {
    const v = await getDeckVersion(ctx, id, version);
    return { version: v.version, source: v.source ?? "", tokensCss: v.tokensCss ?? "" };
  },
});

/** The deck's newest version (the save-conflict dialog's "theirs"). */
export const readNewestVersionAction = defineAction({
  input: deckParams.strict(),
  run: async (ctx, { id }) => {
    const latest = (await getDeck(ctx, id)).latestVersion;
    return latest && { version: latest.version, source: latest.source ?? "", tokensCss: latest.tokensCss ?? "" };
  },
});

export const revertAction = defineAction({
  input: versionParams.strict(),
  run: async (ctx, { id, version }) => ({ version: (await revertDeckVersion(ctx, id, version)).version }),
  onSuccess: (_saved, input) => refresh(input),
});

export const updateDeckAction = defineAction({
  input: updateDeckBody.extend(deckParams.shape),
  run: async (ctx, { id, ...changes }) => ({ publicUrl: (await updateDeck(ctx, id, changes)).publicUrl }),
  onSuccess: (_deck, input) => refresh(input),
});

export const deleteDeckAction = defineAction({
  input: deckParams.strict(),
  run: (ctx, { id }) => deleteDeck(ctx, id),
  onSuccess: () => redirect("/decks"),
});

export const startExportAction = defineAction({
  input: createExportBody.extend(deckParams.shape),
  run: async (ctx, { id, ...body }) => {
    const queued = await createExport(ctx, id, body);
    return { id: queued.id, status: queued.status };
  },
});

export const exportStatusAction = defineAction({
  input: exportParams.strict(),
  run: async (ctx, { id }) => {
    const current = await getExport(ctx, id);
    return {
      status: current.status,
      error: current.error,
      fileName: current.fileName,
      downloadUrl: current.status === "completed" ? await getExportDownloadUrl(ctx, id) : null,
    };
  },
});

/** generate_deck: the brief within the API's limits; slow, like the operation. */
export const generateDeckAction = defineAction({
  input: generateDeckBody.extend(deckParams.shape),
  rateLimit: "slow",
  run: async (ctx, { id, ...body }) => ({
    version: (await authorDeck(ctx, { kind: "generate", deckId: id, ...body })).version,
  }),
  onSuccess: (_saved, input) => refresh(input),
});

/** edit_deck: the instruction within the API's limits; slow, like the operation. */
export const editDeckAction = defineAction({
  input: editDeckBody.extend(deckParams.shape),
  rateLimit: "slow",
  run: async (ctx, { id, ...body }) => ({
    version: (await authorDeck(ctx, { kind: "edit", deckId: id, ...body })).version,
  }),
  onSuccess: (_saved, input) => refresh(input),
});

/** The brand picker: the deck names this brand (or none); its tokens come back for the editor. */
export const setBrandAction = defineAction({
  input: z.strictObject({ ...deckParams.shape, brandId: uuid.nullable() }),
  run: (ctx, { id, brandId }) => setDeckBrand(ctx, id, brandId),
  onSuccess: (_result, input) => refresh(input),
});

/** upload_asset for the editor (a pasted, dropped or picked image): the bytes in base64, the alt text. */
export const uploadAssetAction = defineAction({
  input: uploadAssetBody.extend(uploadAssetQuery.shape),
  run: async (ctx, { data, alt }) =>
    presentAsset(await storeImage(ownerOf(ctx), Buffer.from(data, "base64"), { alt: alt ?? null, what: "The image" })),
});

/** list_assets: the picker's images, newest first. */
export const listAssetsAction = defineAction({
  input: z.strictObject({}),
  run: (ctx) => listAssets(ctx),
});
