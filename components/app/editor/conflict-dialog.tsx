"use client";

import { diffLines } from "diff";
import { useEffect, useState } from "react";
import { mergeWithNewestAction, readNewestVersionAction } from "@/app/(app)/decks/[id]/actions";
import { Button, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";

// The save conflict: the deck gained a version since the one this editor was based on (another tab, a
// colleague's AI edit, an API write). Shows the difference between their newest version and mine, and
// offers: keep mine as a new version (saved on top of theirs), take theirs (mine discarded, after asking),
// and merge, offered when the two edits touch different slides (a three-way merge by slides, base being the
// version the editor was based on). Nothing is saved until one is chosen.

export type Content = { source: string; tokensCss: string };

type Theirs = Content & { version: number };
type Merge = { merged: true; content: Content } | { merged: false; reason: string };

export function ConflictDialog({
  deckId,
  open,
  base,
  mine,
  onKeepMine,
  onTakeTheirs,
  onMerge,
  onClose,
}: {
  deckId: string;
  open: boolean;
  /** The version the editor's content was based on. */
  base: number;
  mine: Content;
  onKeepMine: (theirsVersion: number) => void;
  onTakeTheirs: (version: number, content: Content) => void;
  onMerge: (theirsVersion: number, content: Content) => void;
  onClose: () => void;
}) {
  const [theirs, setTheirs] = useState<Theirs | null>(null);
  const [merge, setMerge] = useState<Merge | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Opening reads their newest version and tries the merge, so the dialog says at once whether it can
  // (the editor mounts the dialog for each conflict, so each starts afresh).
  const { source: mineSource, tokensCss: mineTokens } = mine;
  useEffect(() => {
    if (!open) return;
    let current = true;
    void (async () => {
      const newest = await readNewestVersionAction({ id: deckId });
      if (!current) return;
      if (!newest.ok || !newest.value) return setError(newest.ok ? "The deck has no version." : newest.error.message);
      setTheirs(newest.value);
      const merged = await mergeWithNewestAction({
        id: deckId,
        basedOnVersion: base,
        source: mineSource,
        tokensCss: mineTokens,
      });
      if (!current) return;
      if (!merged.ok) return setMerge({ merged: false, reason: merged.error.message });
      // Merged against a newer version than the one shown: show that one.
      if (merged.value.theirsVersion !== newest.value.version)
        return setError("The deck changed again; close and save once more.");
      setMerge(
        merged.value.merged
          ? { merged: true, content: { source: merged.value.source, tokensCss: merged.value.tokensCss } }
          : { merged: false, reason: merged.value.reason },
      );
    })();
    return () => {
      current = false;
    };
  }, [open, deckId, base, mineSource, mineTokens]);

  const takeTheirs = () => {
    if (!theirs) return;
    if (
      !window.confirm(
        `Load version ${theirs.version} into the editor? What you typed since version ${base} is discarded.`,
      )
    )
      return;
    onTakeTheirs(theirs.version, theirs);
  };

  return (
    <Dialog label="This deck changed since you opened it" open={open} onClose={onClose}>
      <div className="space-y-3 text-sm" data-testid="save-conflict">
        <p className="text-zinc-700">
          {theirs
            ? `Version ${theirs.version} was saved elsewhere (another tab, a colleague, the AI or the API) after version ${base}, which you were editing. Nothing of yours was saved, and nothing is lost.`
            : "Reading the newest version…"}
        </p>
        {error && <Notice>{error}</Notice>}
        {theirs && (
          <>
            <p className="text-xs font-medium text-zinc-600">
              Changes from their version {theirs.version} to yours
              {theirs.tokensCss !== mine.tokensCss ? " (the theme tokens differ too)" : ""}
            </p>
            <pre
              className="max-h-64 overflow-auto rounded bg-zinc-50 p-3 text-xs"
              data-testid="conflict-diff"
              aria-label={`Changes from version ${theirs.version} to yours`}
            >
              {diffLines(theirs.source, mine.source).map((part, i) =>
                part.added || part.removed ? (
                  <span
                    key={i}
                    className={part.added ? "block bg-emerald-100 text-emerald-900" : "block bg-red-100 text-red-900"}
                  >
                    {part.value
                      .replace(/\n$/, "")
                      .split("\n")
                      .map((line) => `${part.added ? "+" : "-"} ${line}`)
                      .join("\n")}
                  </span>
                ) : null,
              )}
            </pre>
          </>
        )}
        {merge && !merge.merged && (
          <p className="text-xs text-zinc-600" data-testid="merge-refused">
            No merge: {merge.reason}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="button" disabled={!theirs} onClick={() => theirs && onKeepMine(theirs.version)}>
            Keep mine as a new version
          </Button>
          <Button variant="secondary" type="button" disabled={!theirs} onClick={takeTheirs}>
            Take theirs
          </Button>
          <Button
            variant="secondary"
            type="button"
            disabled={!theirs || !merge?.merged}
            title={merge && !merge.merged ? merge.reason : undefined}
            onClick={() => theirs && merge?.merged && onMerge(theirs.version, merge.content)}
          >
            Merge
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
