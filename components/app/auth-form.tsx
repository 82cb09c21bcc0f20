"use client";

import { useActionState } from "react";
import type { FormAction } from "@/server/action";
import { Button, Field, Input, Notice } from "@/components/ui";
import { submitKeepingFields } from "./keep-fields";

// The sign-in and sign-up form: fields keep what was typed, before the page's script ran and when the
// server answers with a refusal (uncontrolled, submitted without React's reset: keep-fields.ts).
export function AuthForm({
  mode,
  action,
  next,
}: {
  mode: "sign-in" | "sign-up";
  action: FormAction<void>;
  next?: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} onSubmit={submitKeepingFields(formAction)} className="space-y-4" noValidate>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      {next && <input type="hidden" name="next" value={next} />}
      {mode === "sign-up" && (
        <Field label="Name">
          <Input name="name" autoComplete="name" required autoFocus />
        </Field>
      )}
      <Field label="Email">
        <Input name="email" type="email" autoComplete="email" required autoFocus={mode === "sign-in"} />
      </Field>
      <Field label="Password" hint={mode === "sign-up" ? "At least 10 characters." : undefined}>
        <Input
          name="password"
          type="password"
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          required
          minLength={mode === "sign-up" ? 10 : undefined}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "One moment…" : mode === "sign-up" ? "Create account" : "Sign in"}
      </Button>
    </form>
  );
}
