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
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Title
        <Input name="title" placeholder="Untitled deck" className="w-56" maxLength={300} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Format
        <Select name="format" className="w-auto" defaultValue="slides">
          <option value="slides">Slide deck</option>
          <option value="webpage">Webpage</option>
        </Select>
      </label>
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
      <label className="block space-y-1 text-xs font-medium text-zinc-600">
        <span>
          Title for a deck<span className="sr-only"> from {template.title}</span>
        </span>
        <Input name="title" placeholder={template.copyTitle} maxLength={300} />
      </label>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      <Button variant="secondary" type="submit" disabled={pending} aria-label={`Start from ${template.title}`}>
        {pending ? "Creating…" : "Use template"}
      </Button>
    </form>
  );
}
