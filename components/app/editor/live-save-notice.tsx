"use client";

import { useEffect, useRef, useState } from "react";
import { readVersionAction } from "@/server/actions/editor";
import { Button } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import type { NewestVersion } from "@/lib/decks/live-versions";
import { SlideChanges } from "./slide-changes";
import { useLiveVersions } from "./use-live-versions";

// Live saves in the editor's top bar: when the deck gains a version past the one on screen (another tab,
// a colleague, the API, the AI), "Ada saved version 5 — Review / Load" within seconds. Review shows the
// changed slides as pictures (what is on screen → the new version; with unsaved work, the save-conflict
// dialog, which merges or asks first); Load puts the new version on screen, offered only when nothing typed
// would be lost (with unsaved work, loading is the conflict dialog's "Take theirs", which asks). Whether
// there is unsaved work is asked again when the version has been read: typing meanwhile is never replaced.

type Content = { source: string; tokensCss: string };

export function LiveSaveNotice({
  deckId,
  known,
  knownSource,
  dirty,
  onLoad,
  onResolve,
}: {
  deckId: string;
  /** The version on screen. */
  known: number;
  /** Its source, for the code's difference. */
  knownSource: string;
  /** Whether the editor holds work not saved as a version. */
  dirty: boolean;
  /** Puts the version on screen. */
  onLoad: (version: number, content: Content) => void;
  /** With unsaved work: opens the save-conflict dialog. */
  onResolve: () => void;
}) {
  const { newer } = useLiveVersions(deckId, known);
  const [review, setReview] = useState<{ version: number; source: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The newest `dirty` and `known`, read after a round trip (the props of the click's render are old by then).
  const now = useRef({ dirty, known });
  useEffect(() => {
    now.current = { dirty, known };
  }, [dirty, known]);
  if (!newer) return null;

  const read = async () => {
    const result = await readVersionAction({ id: deckId, version: String(newer.version) });
    if (!result.ok) {
      setError(result.error.message);
      return null;
    }
    return result.value;
  };
  // Typed while the version was read: loading would replace it, so the conflict dialog asks. Saved
  // meanwhile: the editor is on another version now, and the notice follows it.
  const stillClean = () => {
    if (now.current.dirty) onResolve();
    return !now.current.dirty && now.current.known === known;
  };
  const load = async () => {
    const content = await read();
    if (!content) return;
    setReview(null);
    if (stillClean()) onLoad(newer.version, content);
  };
  const openReview = async () => {
    if (dirty) return onResolve();
    const content = await read();
    if (content && stillClean()) setReview({ version: newer.version, source: content.source });
  };

  return (
    <span
      className="flex items-center gap-2 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 ring-1 ring-amber-200"
      role="status"
      data-testid="live-save"
    >
      <span>{describe(newer)}</span>
      {error && <span className="text-red-700">{error}</span>}
      <Button variant="secondary" type="button" onClick={() => void openReview()}>
        Review
      </Button>
      {!dirty && (
        <Button variant="secondary" type="button" onClick={() => void load()}>
          Load
        </Button>
      )}
      {review && (
        <Dialog label={`Version ${review.version}`} open onClose={() => setReview(null)}>
          <p className="text-sm text-zinc-700">{describe(newer)}. The slides it changed:</p>
          <SlideChanges
            deckId={deckId}
            before={{ version: known, name: `version ${known}` }}
            after={{ version: review.version, name: `version ${review.version}` }}
            code={{ from: knownSource, to: review.source }}
          />
          <div className="flex gap-2">
            <Button type="button" onClick={() => void load()}>
              Load version {review.version}
            </Button>
            <Button variant="secondary" type="button" onClick={() => setReview(null)}>
              Not now
            </Button>
          </div>
        </Dialog>
      )}
    </span>
  );
}

function describe(newer: NewestVersion): string {
  const who = newer.byCaller ? "You" : newer.author;
  const where = newer.byCaller ? " elsewhere (another tab, the API or the AI)" : "";
  return `${who} saved version ${newer.version}${where}${newer.note ? ` — “${newer.note}”` : ""}`;
}
