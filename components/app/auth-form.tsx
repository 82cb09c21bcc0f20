"use client";

import { useActionState, useState } from "react";
import type { FormAction } from "@/app/_server/action";
import { Button, Field, Input, Notice } from "@/components/ui";

// The sign-in and sign-up form: fields keep what was typed when the server answers with a refusal (they
// are controlled, so React's reset of the form after the action leaves them as typed).
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
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      {next && <input type="hidden" name="next" value={next} />}
      {mode === "sign-up" && (
        <Field label="Name">
          <Input
            name="name"
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoFocus
          />
        </Field>
      )}
      <Field label="Email">
        <Input
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
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
