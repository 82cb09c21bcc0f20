"use server";

import { z } from "zod";
import { defineAction } from "@/server/action";
import { compareSlides, newestVersion } from "@/lib/decks/live-versions";
import { deckParams, setContentBody } from "@/lib/decks/schemas";

// The editor's live saves (components/app/editor/use-live-versions.ts, live-save-notice.tsx, slide-changes.tsx):
// whether the deck gained a version past the one the editor knows, and the slides that changed between two
// contents as pictures.

const versionNumber = z.number().int().min(0).max(2_147_483_647);

/** The deck's newest version when it is newer than `known` (null otherwise): who saved it, when, its note. */
export const newestVersionAction = defineAction({
  input: z.strictObject({ ...deckParams.shape, known: versionNumber }),
  run: (ctx, { id, known }) => newestVersion(ctx, id, known),
});

/** The slides that differ from version `before` to version `after`, or to the caller's draft (its typed source). */
export const compareSlidesAction = defineAction({
  input: z.strictObject({
    ...deckParams.shape,
    before: versionNumber.min(1),
    after: versionNumber.min(1).optional(),
    draftSource: setContentBody.shape.source.optional(),
  }),
  run: (ctx, { id, before, after, draftSource }) =>
    compareSlides(ctx, id, before, after !== undefined ? { version: after } : { draftSource: draftSource ?? "" }),
});
