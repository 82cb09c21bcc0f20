"use client";

import { useActionState, useRef, useState } from "react";
import type { FormAction } from "@/server/action";
import { Button, Notice } from "@/components/ui";
import { ConfirmDialog } from "./confirm-dialog";

// A one-button form for a server action (revoke, remove, change a role, sign in with a provider, sign out):
// the refusal, if any, is shown next to it as a message rather than as an error page. `block` stretches the
// button to the width of its container; `confirm` asks that question first in a dialog (what cannot be
// undone), whose confirming button repeats the action's label.
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
  const form = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <form
        ref={form}
        action={formAction}
        onSubmit={(event) => {
          if (!confirm || confirmed.current) return;
          event.preventDefault();
          setAsking(true);
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
      {confirm && asking && (
        <ConfirmDialog
          open
          title={`${ariaLabel ?? label}?`}
          message={confirm}
          confirmLabel={label}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            confirmed.current = true;
            form.current?.requestSubmit();
            confirmed.current = false;
          }}
        />
      )}
    </>
  );
}
