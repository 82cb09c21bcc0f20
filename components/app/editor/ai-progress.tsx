"use client";

import { useEffect, useState } from "react";

// What the AI dialogs (the editor's "Write with AI", the library's "New deck with AI") say about who writes:
// the configured model by name, or, without one, Deckhand's offline generator (outlines and quoted edits,
// answered in about a second); and, while a run is going, a progress line with the seconds since it began.

export function aiWriterNote(model: string | null): string {
  return model
    ? `Written by the AI model ${model}; a deck takes about half a minute to a few minutes.`
    : "No AI model is set up, so Deckhand's offline generator writes: it turns an outline (headings and bullets) into slides and applies quoted edits, in about a second.";
}

export function AiWorking({ model }: { model: string | null }) {
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.round((now - startedAt) / 1000);
  return (
    <span className="flex items-center gap-2 text-sm text-zinc-600" role="status">
      <span
        role="progressbar"
        aria-label={model ? "The model is writing" : "The offline generator is writing"}
        className="inline-block size-4 animate-spin rounded-full border-2 border-zinc-300 border-t-accent"
      />
      {model
        ? `The model is writing (${seconds} s); the deck is saved as a new version when it compiles.`
        : `The offline generator is writing (${seconds} s).`}
    </span>
  );
}
