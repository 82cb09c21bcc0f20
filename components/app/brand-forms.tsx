"use client";

import { useActionState, useEffect, useState } from "react";
import { createBrandAction, deleteBrandAction } from "@/server/actions/brands";
import { Button, Field, Input, Notice } from "@/components/ui";
import { ActionButton } from "./action-button";
import { submitKeepingFields } from "./keep-fields";

// Adding a brand takes seconds to a minute (the site and its stylesheets are fetched): show progress.
export function AddBrandForm() {
  const [state, action, pending] = useActionState(createBrandAction, null);
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [pending]);
  return (
    // The address stays in the field when it is refused (keep-fields.ts).
    <form
      action={action}
      className="space-y-3"
      onSubmit={(event) => {
        setSeconds(0);
        submitKeepingFields(action)(event);
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-96">
          <Field label="Website" hint="Its colours, type, logo and voice become a brand book.">
            <Input name="url" type="url" required placeholder="https://example.com" />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Reading the site…" : "Add brand"}
        </Button>
      </div>
      {pending && (
        <p className="text-sm text-zinc-600" role="status">
          Fetching the page and its stylesheets, then extracting the palette, type and voice ({seconds} s).
        </p>
      )}
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
    </form>
  );
}

export function DeleteBrandForm({ id, name }: { id: string; name: string }) {
  return (
    <ActionButton
      action={deleteBrandAction}
      fields={{ id }}
      label="Delete brand"
      variant="danger"
      confirm={`Delete the brand “${name}”? Its book and logo are removed; this cannot be undone.`}
    />
  );
}
