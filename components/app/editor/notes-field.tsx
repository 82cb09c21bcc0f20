"use client";

import { useId, useState } from "react";

// Speaker notes of the slide on screen, under the preview: what the presenter window shows beside the slide.
// What is typed is written to the slide's `notes` when the field is left (one change in the code's history,
// undone as one), not on every key; notes written as code are shown and left to the code editor.
export function NotesField({
  slide,
  notes,
  onCommit,
}: {
  /** 1-based, the slide on screen. */
  slide: number;
  /** The slide's notes as written; null when they are written as code. */
  notes: string | null;
  onCommit: (notes: string) => void;
}) {
  const id = useId();
  // What is being typed, until the field is left; null: the field shows the source's notes.
  const [typed, setTyped] = useState<string | null>(null);
  const commit = () => {
    if (typed !== null && typed.trim() !== (notes ?? "").trim()) onCommit(typed);
    setTyped(null);
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Speaker notes · slide {slide}
      </label>
      <textarea
        id={id}
        value={typed ?? notes ?? ""}
        readOnly={notes === null}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={commit}
        rows={2}
        placeholder={notes === null ? "Written as code: edit them in the source" : "What you will say on this slide"}
        className="block w-full resize-y rounded-md bg-white px-2.5 py-1.5 text-sm shadow-sm ring-1 ring-zinc-200 focus:ring-2 focus:ring-zinc-400 focus:outline-none"
        data-testid="notes-field"
      />
    </div>
  );
}
