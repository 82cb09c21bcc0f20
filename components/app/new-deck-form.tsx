"use client";

import { useActionState } from "react";
import { createDeckAction, startFromTemplateAction } from "@/server/actions/decks";
import { Button, Input, Notice, Select } from "@/components/ui";

// A new blank slide deck or webpage.
export function NewDeckForm() {
  const [state, action, pending] = useActionState(createDeckAction, null);
  return (
    <form action={action} className="flex flex-wrap items-end gap-2" aria-label="New deck">
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      <div className="flex flex-col gap-1">
        <label htmlFor="new-deck-title" className="text-xs font-medium text-zinc-600">
          Title
        </label>
        <Input id="new-deck-title" name="title" placeholder="Untitled deck" className="w-56" maxLength={300} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="new-deck-format" className="text-xs font-medium text-zinc-600">
          Format
        </label>
        <Select id="new-deck-format" name="format" className="w-auto" defaultValue="slides">
          <option value="slides">Slide deck</option>
          <option value="webpage">Webpage</option>
        </Select>
      </div>
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
      <label htmlFor={`template-title-${template.id}`} className="block text-xs font-medium text-zinc-600">
        Title for a deck<span className="sr-only"> from {template.title}</span>
      </label>
      <Input id={`template-title-${template.id}`} name="title" placeholder={template.copyTitle} maxLength={300} />
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      <Button variant="secondary" type="submit" disabled={pending} aria-label={`Start from ${template.title}`}>
        {pending ? "Creating…" : "Use template"}
      </Button>
    </form>
  );
}
