import type { Metadata } from "next";
import { ActionButton } from "@/components/app/action-button";
import { ButtonLink, Card } from "@/components/ui";
import { getAppContext } from "@/server/context";
import { findInvitation } from "@/lib/auth/organizations";
import { getDb } from "@/lib/db/client";
import { acceptInvitationAction } from "@/server/actions/invitation";

export const metadata: Metadata = { title: "Invitation · Deckhand" };

// An invitation link: join the organization (after signing in or creating an account).
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitation(await getDb(), token);
  if (!invitation) {
    return (
      <Card className="space-y-2">
        <h1 className="text-lg font-semibold">This invitation cannot be used</h1>
        <p className="text-sm text-zinc-600">It was already used, revoked or has expired. Ask for a new link.</p>
      </Card>
    );
  }
  const context = await getAppContext();
  const next = encodeURIComponent(`/invite/${token}`);
  return (
    <Card className="space-y-4">
      <h1 className="text-lg font-semibold">Join {invitation.organizationName}</h1>
      <p className="text-sm text-zinc-600">
        You are invited as {invitation.role === "owner" ? "an owner" : "a member"}.
      </p>
      {context ? (
        <ActionButton
          action={acceptInvitationAction}
          fields={{ token }}
          label={`Join as ${context.user.name ?? context.user.email}`}
          variant="primary"
          block
        />
      ) : (
        <div className="flex gap-2">
          <ButtonLink className="flex-1" href={`/sign-up?next=${next}`}>
            Create an account
          </ButtonLink>
          <ButtonLink variant="secondary" className="flex-1" href={`/sign-in?next=${next}`}>
            Sign in
          </ButtonLink>
        </div>
      )}
    </Card>
  );
}
