"use client";

import { useActionState } from "react";
import type { ActionState } from "@/app/(app)/actions";
import { Button, Notice } from "@/components/ui";

// A one-button form for a server action (revoke, remove, change a role): the refusal, if any, is shown
// next to it as a message rather than as an error page.
export function ActionButton({
  action,
  fields,
  label,
  ariaLabel,
  variant = "secondary",
}: {
  action: (state: ActionState, form: FormData) => Promise<ActionState>;
  fields: Record<string, string>;
  label: string;
  ariaLabel?: string;
  variant?: "primary" | "secondary" | "danger" | "ghost";
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="inline-flex flex-col items-end gap-1">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button variant={variant} type="submit" disabled={pending} aria-label={ariaLabel}>
        {label}
      </Button>
      {state.error && <Notice>{state.error}</Notice>}
    </form>
  );
}
