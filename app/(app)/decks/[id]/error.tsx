"use client";

import { Button, Notice } from "@/components/ui";

// What the editor's page shows when loading the deck failed on the server (the database out of reach, say):
// the failure said plainly with the reference the server logged, and a way to try again, instead of an
// editor that quietly lacks part of the deck (its brand).
export default function EditorError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-12 sm:px-6">
      <h1 className="text-xl font-semibold">This deck could not be opened</h1>
      <Notice>
        The server failed while loading it; nothing was changed.
        {error.digest ? ` Reference: ${error.digest}.` : ""}
      </Notice>
      <Button variant="primary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
