"use client";

import { useActionState } from "react";
import type { FormAction } from "@/app/_server/action";
import { Button, Notice } from "@/components/ui";

// A one-button form for a server action (revoke, remove, change a role, sign in with a provider, sign out):
// the refusal, if any, is shown next to it as a message rather than as an error page. `block` stretches the
// button to the width of its container; `confirm` asks that question first (what cannot be undone).
export function ActionButton<T>({
  action,
  fields = {},
  label,
  ariaLabel,
  variant = "secondary",
  block = false,
  confirm,
}: {
  action: FormAction<T>;
  fields?: Record<string, string>;
  label: string;
  ariaLabel?: string;
  variant?: "primary" | "secondary" | "danger" | "ghost";
  block?: boolean;
  confirm?: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
      className={block ? "space-y-2" : "inline-flex flex-col items-end gap-1"}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button
        variant={variant}
        type="submit"
        disabled={pending}
        aria-label={ariaLabel}
        className={block ? "w-full" : undefined}
      >
        {label}
      </Button>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
    </form>
  );
}
