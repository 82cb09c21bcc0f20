"use client";

import { useState } from "react";
import { duplicateDeckAction } from "@/server/actions/editor";
import { Button, Notice } from "@/components/ui";

// What a member who may read a deck but not change it sees around the preview of its newest version: why
// nothing is editable, the current slide's speaker notes, and "Duplicate to my decks".

/** The speaker notes of the slide shown (from the newest version's source). */
export function ReaderNotes({ notes, slide }: { notes: string[]; slide: number }) {
  const text = notes[slide - 1] ?? "";
  return (
    <section className="rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-zinc-200" aria-label="Speaker notes">
      <p className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Speaker notes · slide {slide}</p>
      <p className="whitespace-pre-wrap text-zinc-800" data-testid="speaker-notes">
        {text || <span className="text-zinc-400">No notes on this slide.</span>}
      </p>
    </section>
  );
}

export function ReadOnlyNotice() {
  return <Notice tone="info">Only the deck&apos;s owner edits it; you are reading its newest version.</Notice>;
}

/** Makes the reader a deck of their own with this content, and opens it. */
export function DuplicateButton({ deckId }: { deckId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const duplicate = async () => {
    setBusy(true);
    setError(null);
    const result = await duplicateDeckAction({ id: deckId }); // a success redirects to the new deck
    if (!result.ok) {
      setError(result.error.message);
      setBusy(false);
    }
  };
  return (
    <>
      <Button type="button" onClick={() => void duplicate()} disabled={busy}>
        {busy ? "Duplicating…" : "Duplicate to my decks"}
      </Button>
      {error && (
        <span className="text-xs text-red-700" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
