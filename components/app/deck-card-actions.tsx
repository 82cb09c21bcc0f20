"use client";

import { useState } from "react";
import { deleteLibraryDeckAction, duplicateDeckAction, renameDeckAction } from "@/server/actions/decks";
import type { ActionResult } from "@/server/action";
import { Button, Field, Input, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { ConfirmDialog } from "./confirm-dialog";

// A library card's own actions, under its link: rename (a dialog with the title field), duplicate (a copy
// with the newest content as version 1, "<title> (copy)") and delete (after a confirmation). Rename and
// delete are for the deck's owner; anyone who sees the card may duplicate it into their own decks. The
// library is drawn again by the actions; a refusal is shown on the card.
export function DeckCardActions({
  deck,
  titleMaxLength,
}: {
  deck: { id: string; title: string; canEdit: boolean };
  titleMaxLength: number;
}) {
  const [open, setOpen] = useState<"rename" | "delete" | null>(null);
  const [title, setTitle] = useState(deck.title);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = async <T,>(work: () => Promise<ActionResult<T>>, success: (value: T) => string | null) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await work();
      // A refused rename stays in its dialog to be corrected; other refusals are shown on the card.
      if (!result.ok) {
        setOpen((now) => (now === "rename" ? now : null));
        return setError(result.error.message);
      }
      setOpen(null);
      setDone(success(result.value));
    } catch {
      setError("That did not reach the server; try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-2 border-t border-zinc-100 px-4 py-2">
      <div className="flex flex-wrap gap-1">
        {deck.canEdit && (
          <Button
            variant="ghost"
            type="button"
            className="px-2 py-1 text-xs"
            aria-label={`Rename ${deck.title}`}
            onClick={() => {
              setTitle(deck.title);
              setError(null);
              setOpen("rename");
            }}
          >
            Rename
          </Button>
        )}
        <Button
          variant="ghost"
          type="button"
          className="px-2 py-1 text-xs"
          aria-label={`Duplicate ${deck.title}`}
          disabled={busy}
          onClick={() =>
            void run(
              () => duplicateDeckAction({ id: deck.id }),
              (copy) => `Duplicated as “${copy.title}”`,
            )
          }
        >
          Duplicate
        </Button>
        {deck.canEdit && (
          <Button
            variant="ghost"
            type="button"
            className="px-2 py-1 text-xs text-red-700 hover:bg-red-50"
            aria-label={`Delete ${deck.title}`}
            onClick={() => {
              setError(null);
              setOpen("delete");
            }}
          >
            Delete
          </Button>
        )}
      </div>
      {error && open !== "rename" && <Notice>{error}</Notice>}
      {done && (
        <p role="status" className="text-xs text-zinc-600">
          {done}
        </p>
      )}

      {open === "rename" && (
        <Dialog label={`Rename “${deck.title}”`} open onClose={() => setOpen(null)}>
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              void run(
                () => renameDeckAction({ id: deck.id, title }),
                () => null,
              );
            }}
          >
            <Field label="New title" hint={`1 to ${titleMaxLength} characters.`}>
              <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={titleMaxLength} required />
            </Field>
            {error && <Notice>{error}</Notice>}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" type="button" onClick={() => setOpen(null)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy || !title.trim()}>
                Save title
              </Button>
            </div>
          </form>
        </Dialog>
      )}
      {open === "delete" && (
        <ConfirmDialog
          open
          title={`Delete “${deck.title}”?`}
          message="The deck and all its versions, exports and share link are deleted. This cannot be undone."
          confirmLabel="Delete deck"
          busy={busy}
          onCancel={() => setOpen(null)}
          onConfirm={() =>
            void run(
              () => deleteLibraryDeckAction({ id: deck.id }),
              () => null,
            )
          }
        />
      )}
    </div>
  );
}
