"use client";

import { useEffect, useState } from "react";
import { mergeWithNewestAction, readNewestVersionAction } from "@/server/actions/editor";
import { Button, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { SlideChanges } from "./slide-changes";

// The save conflict: the deck gained a version since the one this editor was based on (another tab, a
// colleague's AI edit, an API write). Shows the slides that differ between their newest version and mine as
// pictures side by side (the code's difference one click away), and offers: merge, offered when the two
// edits touch different slides (a three-way merge by slides, base being the version the editor was based
// on; the default then), take theirs (mine discarded, after asking), and keep mine as a new version (saved
// on top of theirs, replacing their changes: never the default). Nothing is saved until one is chosen.

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
              The slides that differ between their version {theirs.version} and yours
              {theirs.tokensCss !== mine.tokensCss ? " (the theme tokens differ too)" : ""}
            </p>
            <SlideChanges
              deckId={deckId}
              before={{ version: theirs.version, name: `their version ${theirs.version}` }}
              after={{ draft: { ...mine, basedOnVersion: base }, name: "yours" }}
              code={{ from: theirs.source, to: mine.source }}
            />
          </>
        )}
        {merge && !merge.merged && (
          <p className="text-xs text-zinc-600" data-testid="merge-refused">
            No merge: {merge.reason}
          </p>
        )}
        {/* The first choice keeps both: a merge when the edits touch different slides, else their version
            (after asking before mine is discarded). Keeping mine replaces theirs, so it is never the default. */}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant={merge?.merged ? "primary" : "secondary"}
            disabled={!theirs || !merge?.merged}
            title={merge && !merge.merged ? merge.reason : undefined}
            onClick={() => theirs && merge?.merged && onMerge(theirs.version, merge.content)}
          >
            Merge
          </Button>
          <Button variant="secondary" type="button" disabled={!theirs} onClick={takeTheirs}>
            Take theirs
          </Button>
          <Button
            variant="secondary"
            type="button"
            disabled={!theirs}
            onClick={() => theirs && onKeepMine(theirs.version)}
          >
            Keep mine as a new version
          </Button>
        </div>
        {theirs && (
          <p className="text-xs text-zinc-600">
            Keep mine saves your content on top of version {theirs.version}: the changes made there are replaced (they
            stay in the history).
          </p>
        )}
      </div>
    </Dialog>
  );
}
