"use client";

import { useState } from "react";
import { importDeckAction } from "@/server/actions/decks";
import { Button, Field, Input, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";

const MAX_BYTES = 1024 * 1024;

// "Import Markdown" in the library: a Marp or Slidev deck, an outline or a brief, from a file or pasted,
// becomes a new slides deck (import_deck), opened in the editor. A refusal ("Line 3: …") stays in the
// dialog with the text, so nothing typed is lost; the fields exist only while the dialog is open (the text
// is kept when it closes).
export function ImportDeckForm() {
  const [open, setOpen] = useState(false);
  const [markdown, setMarkdown] = useState("");
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_BYTES) return setError(`${file.name} is larger than 1 MB; import a smaller file.`);
    setError(null);
    setMarkdown(await file.text());
  };

  const submit = async () => {
    setPending(true);
    setError(null);
    const result = await importDeckAction({ markdown, ...(title.trim() ? { title: title.trim() } : {}) });
    // On success the action redirects to the editor; only a refusal comes back.
    if (result && !result.ok) setError(result.error.message);
    setPending(false);
  };

  return (
    <>
      <Button variant="secondary" type="button" onClick={() => setOpen(true)}>
        Import Markdown
      </Button>
      <Dialog label="Import Markdown" open={open} onClose={() => setOpen(false)}>
        {open && (
          <>
            <p className="text-sm text-zinc-600">
              A Marp or Slidev deck (slides separated by <code>---</code>, comments become speaker notes), or an outline
              or brief: each heading becomes a slide. Made without a model; up to 1 MB.
            </p>
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
            <Field label="Title" hint="Optional; the first heading otherwise.">
              <Input
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                maxLength={300}
                aria-label="Import title"
              />
            </Field>
            {error && <Notice>{error}</Notice>}
            <div className="flex justify-end">
              <Button type="button" onClick={() => void submit()} disabled={pending || markdown.trim() === ""}>
                {pending ? "Importing…" : "Import"}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}
