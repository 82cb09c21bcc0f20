"use client";

import { useActionState, useState } from "react";
import { createKeyAction } from "@/server/actions/keys";
import { Button, Field, Input, Notice } from "@/components/ui";

// Issues a key and shows it once, with a copy button; only its prefix is kept in view afterwards.
export function CreateKeyForm() {
  const [state, action, pending] = useActionState(createKeyAction, null);
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-4">
      <form action={action} className="flex flex-wrap items-end gap-3">
        <div className="w-72">
          <Field label="Name" hint="Where the key will be used, such as “CI” or “laptop”.">
            <Input name="name" required maxLength={100} />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      {state?.ok && (
        <div className="space-y-2 rounded-md bg-emerald-50 p-4 ring-1 ring-emerald-200" role="status">
          <p className="text-sm font-medium text-emerald-900">
            Copy the key “{state.value.name}” now: it is shown only once.
          </p>
          <div className="flex items-center gap-2">
            <code data-testid="new-key" className="flex-1 overflow-x-auto rounded bg-white px-3 py-2 font-mono text-sm">
              {state.value.key}
            </code>
            <Button
              variant="secondary"
              type="button"
              onClick={async () => {
                await navigator.clipboard.writeText(state.value.key);
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
