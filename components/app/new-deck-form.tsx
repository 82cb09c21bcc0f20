"use client";

import { useActionState } from "react";
import { createDeckAction, startFromTemplateAction } from "@/app/(app)/decks/actions";
import { Button, Input, Notice, Select } from "@/components/ui";

// A new blank slide deck or webpage.
export function NewDeckForm() {
  const [state, action, pending] = useActionState(createDeckAction, null);
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

// "Use template" on a template's card: a new deck with its design and content, under the title typed here
// (or "<template> (copy)").
export function UseTemplateForm({ template }: { template: { id: string; title: string; copyTitle: string } }) {
  const [state, action, pending] = useActionState(startFromTemplateAction, null);
  return (
    <form action={action} className="mt-3 space-y-2">
      <input type="hidden" name="fromDeckId" value={template.id} />
      <Input
        name="title"
        placeholder={template.copyTitle}
        aria-label={`Title for a deck from ${template.title}`}
        maxLength={300}
      />
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      <Button variant="secondary" type="submit" disabled={pending} aria-label={`Start from ${template.title}`}>
        {pending ? "Creating…" : "Use template"}
      </Button>
    </form>
  );
}
