"use client";

import { useActionState } from "react";
import { createInvitationAction } from "@/server/actions/members";
import { Button, Field, Input, Notice, Select } from "@/components/ui";

// An invitation link, shown once: whoever opens it (signed in or after signing up) joins with the role.
export function InviteForm() {
  const [state, action, pending] = useActionState(createInvitationAction, null);
  return (
    <div className="space-y-3">
      <form action={action} className="flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Field label="Role">
            <Select name="role" defaultValue="member">
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </Select>
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          Create invitation link
        </Button>
      </form>
      {state?.ok === false && <Notice>{state.error.message}</Notice>}
      {state?.ok && (
        <div className="space-y-2 rounded-md bg-emerald-50 p-4 ring-1 ring-emerald-200" role="status">
          <p className="text-sm text-emerald-900">Send this link; it works once, for 7 days.</p>
          <label htmlFor="invite-link" className="block text-sm font-medium text-emerald-900">
            Invitation link
          </label>
          <div className="flex gap-2">
            <Input id="invite-link" readOnly value={state.value.link} data-testid="invite-link" />
            <Button
              variant="secondary"
              type="button"
              onClick={() => void navigator.clipboard.writeText(state.value.link)}
            >
              Copy
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
