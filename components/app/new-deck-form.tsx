"use client";

import { useActionState } from "react";
import { createDeckAction } from "@/app/(app)/decks/actions";
import { Button, Input, Notice, Select } from "@/components/ui";

// A new slide deck or webpage, blank or started from a template (the API's fromDeckId).
export function NewDeckForm({ fromTemplate }: { fromTemplate?: { id: string; title: string; format: string } }) {
  const [state, action, pending] = useActionState(createDeckAction, null);
  if (fromTemplate) {
    return (
      <form action={action} className="mt-3 space-y-2">
        <input type="hidden" name="fromDeckId" value={fromTemplate.id} />
        <input type="hidden" name="format" value={fromTemplate.format} />
        <input type="hidden" name="title" value={`${fromTemplate.title} (copy)`} />
        {state?.ok === false && <Notice>{state.error.message}</Notice>}
        <Button variant="secondary" type="submit" disabled={pending} aria-label={`Start from ${fromTemplate.title}`}>
          {pending ? "Creating…" : "Use template"}
        </Button>
      </form>
    );
  }
  return (
    <form action={action} className="flex flex-wrap items-end gap-2" aria-label="New deck">
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      <Input name="title" placeholder="Title of the new deck" aria-label="Title" className="w-56" maxLength={300} />
      <Select name="format" aria-label="Format" className="w-auto" defaultValue="slides">
        <option value="slides">Slide deck</option>
        <option value="webpage">Webpage</option>
      </Select>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "New deck"}
      </Button>
    </form>
  );
}
