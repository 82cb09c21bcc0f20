"use client";

import { useState } from "react";
import { Field } from "@/components/ui";
import { ImportDialog } from "./import-dialog";

const MAX_BYTES = 1024 * 1024;

// "Import Markdown" in the library: a Marp or Slidev deck, an outline or a brief, from a file or pasted,
// becomes a new slides deck (import_deck), opened in the editor. A refusal keeps the text (./import-dialog.tsx).
export function ImportDeckForm() {
  const [markdown, setMarkdown] = useState("");
  const [error, setError] = useState<string | null>(null);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_BYTES) return setError(`${file.name} is larger than 1 MB; import a smaller file.`);
    setError(null);
    setMarkdown(await file.text());
  };

  return (
    <ImportDialog
      label="Import Markdown"
      intro={
        <>
          A Marp or Slidev deck (slides separated by <code>---</code>, comments become speaker notes), or an outline or
          brief: each heading becomes a slide. Made without a model; up to 1 MB.
        </>
      }
      titleHint="Optional; the first heading otherwise."
      titleLabel="Import title"
      ready={markdown.trim() !== ""}
      request={async () => ({ markdown })}
      error={error}
      onError={setError}
    >
      <Field label="File">
        <input
          type="file"
          accept=".md,.markdown,.txt,text/markdown,text/plain"
          aria-label="Markdown file"
          className="block w-full text-sm"
          onChange={(event) => void readFile(event.target.files?.[0])}
        />
      </Field>
      <Field label="Or paste it">
        <textarea
          aria-label="Markdown"
          value={markdown}
          onChange={(event) => setMarkdown(event.target.value)}
          rows={10}
          className="block w-full rounded-md border border-zinc-300 p-2 font-mono text-xs"
          placeholder={"# Launch plan\n\n## Goals\n- Ship v1\n- Ten customers"}
        />
      </Field>
    </ImportDialog>
  );
}
