import type { Metadata } from "next";
import { ActionButton } from "@/components/app/action-button";
import { CreateKeyForm } from "@/components/app/create-key-form";
import { Badge, Card, EmptyState } from "@/components/ui";
import { requireAppContext } from "@/server/context";
import { listOrganizationKeys, usageThisMonth } from "@/lib/auth/key-management";
import { revokeKeyAction } from "@/server/actions/keys";

export const metadata: Metadata = { title: "API keys · Deckhand" };

const when = (date: Date | null) =>
  date ? date.toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "Never";

// Settings → API keys: the organization's keys (a key acts as its creator), and this month's usage.
export default async function KeysPage() {
  const { ctx, organization, user } = await requireAppContext();
  const [keys, usage] = await Promise.all([listOrganizationKeys(ctx), usageThisMonth(ctx)]);
  const live = keys.filter((key) => !key.revokedAt);
  const revoked = keys.filter((key) => key.revokedAt);

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600">
          Keys belong to {organization.name}. A key acts as the person who created it: it reads and writes what they
          may. Send it as <code className="rounded bg-zinc-100 px-1">Authorization: Bearer dk_…</code>; the API is
          described at{" "}
          <a className="text-accent hover:underline" href="/docs/api">
            /docs/api
          </a>
          .
        </p>
      </div>

      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Create a key</h2>
        <CreateKeyForm />
      </Card>

      <section aria-labelledby="keys-title" className="space-y-3">
        <h2 id="keys-title" className="text-base font-semibold">
          Keys of this organization
        </h2>
        {live.length === 0 ? (
          <EmptyState title="No keys yet">Create one above to call the API or connect an agent over MCP.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-200 text-zinc-500">
                <tr>
                  <th className="px-4 py-2.5 font-medium">Name</th>
                  <th className="px-4 py-2.5 font-medium">Key</th>
                  <th className="px-4 py-2.5 font-medium">Created by</th>
                  <th className="px-4 py-2.5 font-medium">Last used</th>
                  <th className="px-4 py-2.5" />
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {live.map((key) => (
                  <tr key={key.id}>
                    <td className="px-4 py-3 font-medium">{key.name}</td>
                    <td className="px-4 py-3 font-mono text-xs">{key.prefix}…</td>
                    <td className="px-4 py-3">{key.creatorName ?? key.creatorEmail}</td>
                    <td className="px-4 py-3 text-zinc-600">{when(key.lastUsedAt)}</td>
                    <td className="px-4 py-3 text-right">
                      {(key.creatorId === user.id || organization.role === "owner") && (
                        <ActionButton
                          action={revokeKeyAction}
                          fields={{ id: key.id }}
                          label="Revoke"
                          ariaLabel={`Revoke ${key.name}`}
                          variant="danger"
                          confirm={`Revoke the key “${key.name}”? Every program using it stops working at once; this cannot be undone.`}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {revoked.length > 0 && (
          <p className="text-sm text-zinc-500">
            {revoked.length} revoked key{revoked.length > 1 ? "s" : ""}:{" "}
            {revoked.map((key) => `${key.name} (${key.prefix}…)`).join(", ")}
          </p>
        )}
      </section>

      <section aria-labelledby="usage-title" className="space-y-3">
        <h2 id="usage-title" className="text-base font-semibold">
          Usage this month
        </h2>
        <div className="grid gap-4 sm:grid-cols-3">
          {usage.map((feature) => (
            <Card key={feature.featureId} className="space-y-2">
              <p className="text-sm text-zinc-600">{feature.label[0]!.toUpperCase() + feature.label.slice(1)}</p>
              <p className="text-2xl font-semibold" data-feature={feature.featureId}>
                {feature.used} <span className="text-base font-normal text-zinc-500">of {feature.limit}</span>
              </p>
              <div className="h-1.5 overflow-hidden rounded-full bg-zinc-100" aria-hidden>
                <div
                  className="h-full rounded-full bg-accent"
                  style={{ width: `${Math.min(100, (feature.used / Math.max(1, feature.limit)) * 100)}%` }}
                />
              </div>
              {feature.used >= feature.limit && <Badge tone="amber">Used up until next month</Badge>}
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
