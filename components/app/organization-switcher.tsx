"use client";

import { useActionState } from "react";
import { switchOrganizationAction } from "@/server/actions/organization";
import { Notice } from "@/components/ui";
import type { Membership } from "@/lib/auth/accounts-app";

// Which organization the app works in: choosing one switches at once (a plain form underneath, with a
// Switch button where scripts do not run), with the refusal shown next to it.
export function OrganizationSwitcher({ current, memberships }: { current: string; memberships: Membership[] }) {
  const [state, formAction] = useActionState(switchOrganizationAction, null);
  if (memberships.length < 2) {
    return <span className="text-sm font-medium text-zinc-800">{memberships[0]?.name}</span>;
  }
  return (
    <form action={formAction} className="flex items-center gap-2">
      <label className="text-sm text-zinc-600" htmlFor="organization">
        Organization
      </label>
      <select
        id="organization"
        name="organizationId"
        defaultValue={current}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="rounded-md border-0 py-1.5 pr-8 pl-2 text-sm ring-1 ring-zinc-300"
      >
        {memberships.map((m) => (
          <option key={m.organizationId} value={m.organizationId}>
            {m.name}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="text-sm font-medium text-accent hover:underline">
          Switch
        </button>
      </noscript>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
    </form>
  );
}
