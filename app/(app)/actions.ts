"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { actionErrorMessage } from "@/lib/app/action-error";
import { actionContext, ORG_COOKIE } from "@/lib/app/context";
import { createKey, revokeKey } from "@/lib/auth/key-management";
import {
  acceptInvitation,
  createInvitation,
  removeMember,
  revokeInvitation,
  setMemberRole,
} from "@/lib/auth/organizations";
import { config } from "@/lib/core/config";
import { createDeck } from "@/lib/decks/create-deck";
import { z } from "zod";
import { deckFormats } from "@/lib/contract/deck";

// Server actions of the signed-in app. Each runs as the signed-in user in their current organization,
// through the same domain functions as the API, and answers errors as messages a form can show.

export type ActionState = { error?: string; key?: string; keyName?: string };

export async function switchOrganizationAction(form: FormData) {
  const { memberships } = await actionContext();
  const organizationId = String(form.get("organizationId") ?? "");
  if (!memberships.some((m) => m.organizationId === organizationId)) {
    throw new AppError("forbidden", "You are not a member of that organization.");
  }
  (await cookies()).set(ORG_COOKIE, organizationId, { httpOnly: true, sameSite: "lax", path: "/" });
  redirect("/decks");
}

const newDeckInput = z.object({
  title: z.string().trim().min(1, "Give the deck a title.").max(300, "Use at most 300 characters for the title."),
  format: z.enum(deckFormats),
  fromDeckId: z.guid().optional(),
});

export async function createDeckAction(_state: ActionState, form: FormData): Promise<ActionState> {
  let id: string;
  try {
    const { ctx } = await actionContext();
    const input = newDeckInput.parse({
      title: form.get("title") || "Untitled deck",
      format: form.get("format") || "slides",
      fromDeckId: form.get("fromDeckId") || undefined,
    });
    const deck = await createDeck(ctx, { ...input, kind: "deck", description: "" });
    id = deck.id;
  } catch (error) {
    return { error: actionErrorMessage(error) };
  }
  redirect(`/decks/${id}`);
}

export async function createKeyAction(_state: ActionState, form: FormData): Promise<ActionState> {
  try {
    const { ctx } = await actionContext();
    const name = String(form.get("name") ?? "");
    const { key } = await createKey(ctx, name);
    revalidatePath("/settings/keys");
    return { key, keyName: name.trim() };
  } catch (error) {
    return { error: actionErrorMessage(error) };
  }
}

export async function revokeKeyAction(_state: ActionState, form: FormData): Promise<ActionState> {
  try {
    const { ctx } = await actionContext();
    await revokeKey(ctx, String(form.get("id") ?? ""));
  } catch (error) {
    return { error: actionErrorMessage(error) };
  }
  revalidatePath("/settings/keys");
  return {};
}

export type InviteState = { error?: string; link?: string };

export async function createInvitationAction(_state: InviteState, form: FormData): Promise<InviteState> {
  try {
    const { ctx } = await actionContext();
    const role = form.get("role") === "owner" ? "owner" : "member";
    const { token } = await createInvitation(ctx, role);
    revalidatePath("/settings/members");
    return { link: `${config.appUrl}/invite/${token}` };
  } catch (error) {
    return { error: actionErrorMessage(error) };
  }
}

export async function memberAction(_state: ActionState, form: FormData): Promise<ActionState> {
  const userId = String(form.get("userId") ?? "");
  const action = String(form.get("action") ?? "");
  let leaving: boolean;
  try {
    const { ctx } = await actionContext();
    if (action === "remove") await removeMember(ctx, userId);
    else if (action === "owner" || action === "member") await setMemberRole(ctx, userId, action);
    else if (action === "revoke-invitation") await revokeInvitation(ctx, String(form.get("invitationId") ?? ""));
    leaving = action === "remove" && userId === ctx.caller.userId;
  } catch (error) {
    return { error: actionErrorMessage(error) };
  }
  // Leaving an organization returns to another one.
  if (leaving) {
    (await cookies()).delete(ORG_COOKIE);
    redirect("/decks");
  }
  revalidatePath("/settings/members");
  return {};
}

export async function acceptInvitationAction(token: string) {
  const { ctx } = await actionContext();
  const organizationId = await acceptInvitation(ctx.db, token, ctx.caller.userId);
  (await cookies()).set(ORG_COOKIE, organizationId, { httpOnly: true, sameSite: "lax", path: "/" });
  redirect("/decks");
}
