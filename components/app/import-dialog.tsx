"use client";

import { type ReactNode, useState } from "react";
import { importDeckAction } from "@/server/actions/decks";
import { Button, Field, Input, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";

type ImportRequest = Parameters<typeof importDeckAction>[0];

// The library's import dialogs (Markdown, PowerPoint): a button that opens it, the body the kind of import
// gives (its file, its text, its options), an optional title, and Import. The request goes to import_deck
// (server/actions/decks.ts); on success the action opens the new deck in the editor, and a refusal ("Line 3:
// …", "a legacy .ppt file…") stays in the dialog with what was given, so nothing is lost. The fields exist only
// while the dialog is open (their values are kept when it closes).
export function ImportDialog({
  label,
  intro,
  titleHint,
  titleLabel,
  ready,
  request,
  error,
  onError,
  children,
}: {
  /** The button's and the dialog's name. */
  label: string;
  intro: ReactNode;
  titleHint: string;
  /** The title field's accessible name. */
  titleLabel: string;
  /** Whether there is something to import yet (a file chosen, text pasted). */
  ready: boolean;
  /** The request to send, without the title. */
  request: () => Promise<Omit<ImportRequest, "title">>;
  /** A refusal found before sending (a file too large), shown like the server's. */
  error: string | null;
  onError: (message: string | null) => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [pending, setPending] = useState(false);

  const submit = async () => {
    setPending(true);
    onError(null);
    try {
      const result = await importDeckAction({ ...(await request()), ...(title.trim() ? { title: title.trim() } : {}) });
      // On success the action redirects to the editor; only a refusal comes back.
      if (result && !result.ok) onError(result.error.message);
    } catch {
      onError("The import did not reach the server (the connection dropped or the page was reloaded); try again.");
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button variant="secondary" type="button" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog label={label} open={open} onClose={() => setOpen(false)}>
        {open && (
          <>
            <p className="text-sm text-zinc-600">{intro}</p>
            {children}
            <Field label="Title" hint={titleHint}>
              <Input
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                maxLength={300}
                aria-label={titleLabel}
              />
            </Field>
            {error && <Notice>{error}</Notice>}
            <div className="flex justify-end">
              <Button type="button" onClick={() => void submit()} disabled={pending || !ready}>
                {pending ? "Importing…" : "Import"}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}
