"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(auth)/actions";
import { Button, Field, Input, Notice } from "@/components/ui";

// The sign-in and sign-up form: fields keep what was typed when the server answers with an error.
export function AuthForm({
  mode,
  action,
  next,
}: {
  mode: "sign-in" | "sign-up";
  action: (state: FormState, form: FormData) => Promise<FormState>;
  next?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {state.error && <Notice>{state.error}</Notice>}
      {next && <input type="hidden" name="next" value={next} />}
      {mode === "sign-up" && (
        <Field label="Name">
          <Input name="name" autoComplete="name" required defaultValue={state.values?.name} autoFocus />
        </Field>
      )}
      <Field label="Email">
        <Input
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email}
          autoFocus={mode === "sign-in"}
        />
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
