"use client";

import { useActionState, useState } from "react";
import { newDeckWithAiAction } from "@/server/actions/decks";
import { Button, Field, Input, Notice } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { AiWorking, aiWriterNote } from "./editor/ai-progress";

// The library's "New deck with AI": a title and a brief in a dialog; the deck is written (by the model, or
// without one by the offline generator, which the dialog says) and opened in the editor.
export function NewDeckWithAi({ model }: { model: string | null }) {
  const [open, setOpen] = useState(false);
  const [state, action, pending] = useActionState(newDeckWithAiAction, null);
  return (
    <>
      <Button variant="secondary" type="button" onClick={() => setOpen(true)}>
        New deck with AI
      </Button>
      <Dialog label="New deck with AI" open={open} onClose={() => setOpen(false)}>
        {open && (
          <form action={action} className="space-y-4">
            <p className="text-sm text-zinc-600">{aiWriterNote(model)}</p>
            <Field label="Title">
              <Input name="title" placeholder="Untitled deck" maxLength={300} />
            </Field>
            <Field label="Brief" hint="An outline, notes or prose: what the deck should say (up to 10,000 characters).">
              <textarea
                name="brief"
                required
                rows={8}
                maxLength={10_000}
                className="w-full rounded-md p-2 text-sm ring-1 ring-zinc-300 focus:ring-2 focus:ring-accent focus:outline-none"
              />
            </Field>
            {state?.ok === false && <Notice>{state.error.message}</Notice>}
            <div className="flex items-center gap-3">
              <Button type="submit" disabled={pending}>
                {pending ? "Writing…" : "Write the deck"}
              </Button>
              {pending && <AiWorking model={model} />}
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
