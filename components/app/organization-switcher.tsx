import { switchOrganizationAction } from "@/app/(app)/actions";
import type { Membership } from "@/lib/auth/accounts-app";

// Which organization the app works in; a plain form, so it works with the keyboard and without script.
export function OrganizationSwitcher({ current, memberships }: { current: string; memberships: Membership[] }) {
  if (memberships.length < 2) {
    return <span className="text-sm font-medium text-zinc-800">{memberships[0]?.name}</span>;
  }
  return (
    <form action={switchOrganizationAction} className="flex items-center gap-2">
      <label className="sr-only" htmlFor="organization">
        Organization
      </label>
      <select
        id="organization"
        name="organizationId"
        defaultValue={current}
        className="rounded-md border-0 py-1.5 pr-8 pl-2 text-sm ring-1 ring-zinc-300"
      >
        {memberships.map((m) => (
          <option key={m.organizationId} value={m.organizationId}>
            {m.name}
          </option>
        ))}
      </select>
      <button type="submit" className="text-sm font-medium text-accent hover:underline">
        Switch
      </button>
    </form>
  );
}
