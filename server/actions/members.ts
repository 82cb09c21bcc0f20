"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/server/action";
import { setCurrentOrganization } from "@/server/context";
import { createInvitation, removeMember, revokeInvitation, setMemberRole } from "@/lib/auth/organizations";
import { config } from "@/lib/core/config";
import { uuid } from "@/lib/core/fields";

// Settings → Members: invitations by link, roles, removing a member (or leaving the organization).

const role = z.enum(["owner", "member"], { message: "must be 'owner' or 'member'" });
const refresh = () => revalidatePath("/settings/members");

export const createInvitationAction = defineAction({
  input: z.strictObject({ role }),
  run: async (ctx, input) => ({ link: `${config.appUrl}/invite/${(await createInvitation(ctx, input.role)).token}` }),
  onSuccess: refresh,
});

export const revokeInvitationAction = defineAction({
  input: z.strictObject({ invitationId: uuid }),
  run: (ctx, { invitationId }) => revokeInvitation(ctx, invitationId),
  onSuccess: refresh,
});

export const setMemberRoleAction = defineAction({
  input: z.strictObject({ userId: uuid, role }),
  run: (ctx, input) => setMemberRole(ctx, input.userId, input.role),
  onSuccess: refresh,
});

export const removeMemberAction = defineAction({
  input: z.strictObject({ userId: uuid }),
  run: async (ctx, { userId }) => {
    await removeMember(ctx, userId);
    return { left: userId === ctx.caller.userId };
  },
  // Leaving an organization returns to another one.
  onSuccess: async ({ left }) => {
    if (!left) return refresh();
    await setCurrentOrganization(null);
    redirect("/decks");
  },
});
