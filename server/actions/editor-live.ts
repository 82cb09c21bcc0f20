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

/** The slides that differ from version `before` (0: the empty deck, before its first version) to version
 * `after`, or to the caller's `draft` (what the editor shows, compiled into their draft first so its
 * pictures are of that content). Exactly one of `after` and `draft`. */
export const compareSlidesAction = defineAction({
  input: z
    .strictObject({
      ...deckParams.shape,
      before: versionNumber,
      after: versionNumber.min(1).optional(),
      draft: z
        .strictObject({
          source: setContentBody.shape.source,
          tokensCss: setContentBody.shape.tokensCss,
          basedOnVersion: versionNumber,
        })
        .optional(),
    })
    .superRefine((input, issues) => {
      if ((input.after === undefined) === (input.draft === undefined))
        issues.addIssue({
          code: "custom",
          path: ["after"],
          message: "Give exactly one of after (a version) and draft (the editor's content) to compare with.",
        });
    }),
  run: (ctx, { id, before, after, draft }) =>
    compareSlides(ctx, id, before, after !== undefined ? { version: after } : { draft: draft! }),
});
