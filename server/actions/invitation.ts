"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/server/action";
import { setCurrentOrganization } from "@/server/context";
import { acceptInvitation } from "@/lib/auth/organizations";

// An invitation link: the signed-in person joins the organization and works in it from now on.

export const acceptInvitationAction = defineAction({
  input: z.strictObject({ token: z.string().regex(/^[\w-]{20,64}$/, "is not an invitation link's token") }),
  run: (ctx, { token }) => acceptInvitation(ctx.db, token, ctx.caller.userId),
  onSuccess: async (organizationId) => {
    await setCurrentOrganization(organizationId);
    redirect("/decks");
  },
});
