"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/server/action";
import { setCurrentOrganization } from "@/server/context";
import { listMemberships } from "@/lib/auth/accounts-app";
import { AppError } from "@/lib/core/errors";
import { uuid } from "@/lib/core/fields";

// The signed-in app's frame (the layout's organization switcher): which organization the app works in.

export const switchOrganizationAction = defineAction({
  input: z.strictObject({ organizationId: uuid }),
  run: async (ctx, { organizationId }) => {
    const memberships = await listMemberships(ctx.db, ctx.caller.userId);
    if (!memberships.some((m) => m.organizationId === organizationId)) {
      throw new AppError("forbidden", "You are not a member of that organization.");
    }
    return { organizationId };
  },
  onSuccess: async ({ organizationId }) => {
    await setCurrentOrganization(organizationId);
    redirect("/decks");
  },
});
