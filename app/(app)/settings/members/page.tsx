import type { Metadata } from "next";
import { ActionButton } from "@/components/app/action-button";
import { InviteForm } from "@/components/app/invite-form";
import { Badge, Card } from "@/components/ui";
import { requireAppContext } from "@/server/context";
import { listMembers, listPendingInvitations } from "@/lib/auth/organizations";
import { removeMemberAction, revokeInvitationAction, setMemberRoleAction } from "@/server/actions/members";

export const metadata: Metadata = { title: "Members · Deckhand" };

// Settings → Members: who belongs to the organization, their roles, and invitations by link.
export default async function MembersPage() {
  const { ctx, organization, user } = await requireAppContext();
  const isOwner = organization.role === "owner";
  const [members, invitations] = await Promise.all([listMembers(ctx), isOwner ? listPendingInvitations(ctx) : []]);
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Members of {organization.name}</h1>
        <p className="mt-1 text-sm text-zinc-600">
          Owners invite people, change roles and remove members. Members see the organization&apos;s shared decks,
          templates and brands.
        </p>
      </div>

      {isOwner && (
        <Card className="space-y-3">
          <h2 className="text-base font-semibold">Invite someone</h2>
          <InviteForm />
          {invitations.length > 0 && (
            <ul className="divide-y divide-zinc-100 text-sm" aria-label="Pending invitations">
              {invitations.map((invitation) => (
                <li key={invitation.id} className="flex items-center justify-between py-2">
                  <span>
                    Link for a {invitation.role}, expires{" "}
                    {invitation.expiresAt.toLocaleDateString("en", { dateStyle: "medium", timeZone: "UTC" })}
                  </span>
                  <ActionButton
                    action={revokeInvitationAction}
                    fields={{ invitationId: invitation.id }}
                    label="Revoke"
                    variant="ghost"
                    confirm="Revoke this invitation link? Whoever has it can no longer join."
                  />
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}

      <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-zinc-200 text-zinc-500">
            <tr>
              <th className="px-4 py-2.5 font-medium">Name</th>
              <th className="px-4 py-2.5 font-medium">Email</th>
              <th className="px-4 py-2.5 font-medium">Role</th>
              <th className="px-4 py-2.5" />
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {members.map((member) => (
              <tr key={member.userId}>
                <td className="px-4 py-3 font-medium">
                  {member.name ?? "—"} {member.userId === user.id && <Badge>you</Badge>}
                </td>
                <td className="px-4 py-3">{member.email}</td>
                <td className="px-4 py-3">
                  <Badge tone={member.role === "owner" ? "accent" : "neutral"}>{member.role}</Badge>
                </td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-2">
                    {isOwner && (
                      <ActionButton
                        action={setMemberRoleAction}
                        fields={{ userId: member.userId, role: member.role === "owner" ? "member" : "owner" }}
                        label={member.role === "owner" ? "Make member" : "Make owner"}
                        confirm={
                          member.role === "owner"
                            ? `Make ${member.name ?? member.email} a member? They will no longer manage members or keys.`
                            : `Make ${member.name ?? member.email} an owner? They will manage members, roles and every key.`
                        }
                      />
                    )}
                    {(isOwner || member.userId === user.id) && (
                      <ActionButton
                        action={removeMemberAction}
                        fields={{ userId: member.userId }}
                        label={member.userId === user.id ? "Leave" : "Remove"}
                        variant="danger"
                        confirm={
                          member.userId === user.id
                            ? `Leave ${organization.name}? You lose access to its decks until someone invites you again.`
                            : `Remove ${member.name ?? member.email} from ${organization.name}? They lose access to its decks at once.`
                        }
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
