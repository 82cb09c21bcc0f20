"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { z } from "zod";
import { definePublicAction } from "@/server/action";
import { endCurrentSession, signIn, signOut } from "@/server/next-auth";
import { safeNextPath } from "@/server/next-path";
import { signUp, signUpInput } from "@/lib/auth/accounts-app";
import { PASSWORD_MAX_LENGTH } from "@/lib/auth/passwords";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";

// Server actions of the sign-in and sign-up forms. They answer a refusal a person can act on, or redirect
// (a successful sign-in's redirect passes through the action wrapper untouched).

const next = z.string().max(2048).optional();

export const signUpAction = definePublicAction({
  input: signUpInput.extend({ next }),
  run: async ({ next: target, ...account }) => {
    await signUp(await getDb(), account);
    await signInWithPassword(account.email, account.password, target);
  },
});

export const signInAction = definePublicAction({
  input: z.strictObject({
    email: z.string().max(320),
    password: z.string().max(PASSWORD_MAX_LENGTH),
    next,
  }),
  run: ({ email, password, next: target }) => signInWithPassword(email, password, target),
});

export const oauthSignInAction = definePublicAction({
  input: z.strictObject({ provider: z.enum(["github", "google"]) }),
  run: async ({ provider }) => {
    await signIn(provider, { redirectTo: "/decks" });
  },
});

// Ends the session in the database first (a copied cookie stops working), then clears the cookie.
export const signOutAction = definePublicAction({
  input: z.strictObject({}),
  run: async () => {
    await endCurrentSession();
    await signOut({ redirect: false });
  },
  onSuccess: () => redirect("/sign-in"),
});

// Signs in and redirects to `next` (a path of this app) or the library; a refusal is a message.
async function signInWithPassword(email: string, password: string, target: string | undefined): Promise<void> {
  try {
    await signIn("credentials", { email, password, redirectTo: safeNextPath(target) });
  } catch (error) {
    if (!(error instanceof AuthError)) throw error; // the redirect of a successful sign-in
    const code = (error as AuthError & { code?: string }).code;
    if (code === "rate_limited")
      throw new AppError("rate_limited", "Too many attempts for this address. Wait a minute and try again.");
    if (code === "busy")
      throw new AppError("rate_limited", "Too many sign-ins are being checked right now. Try again in a few seconds.");
    throw new AppError("unauthorized", "That email and password do not match an account.");
  }
}
