"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { actionErrorMessage } from "@/lib/app/action-error";
import { safeNextPath } from "@/lib/app/next-path";
import { signUp, signUpInput } from "@/lib/auth/accounts-app";
import { endCurrentSession, signIn, signOut } from "@/lib/auth/next-auth";
import { getDb } from "@/lib/db/client";

// Server actions of the sign-in and sign-up forms. They answer a message a person can act on, or redirect.

export type FormState = { error?: string; values?: Record<string, string> };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function signUpAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { name: text(form, "name"), email: text(form, "email") };
  const parsed = signUpInput.safeParse({ ...values, password: text(form, "password") });
  if (!parsed.success) return { error: parsed.error.issues[0]!.message, values };
  try {
    await signUp(await getDb(), parsed.data);
  } catch (error) {
    return { error: actionErrorMessage(error), values };
  }
  await signIn("credentials", {
    email: parsed.data.email,
    password: parsed.data.password,
    redirectTo: safeNextPath(text(form, "next")),
  });
  return {};
}

export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: text(form, "email") };
  try {
    await signIn("credentials", {
      email: values.email,
      password: text(form, "password"),
      redirectTo: safeNextPath(text(form, "next")),
    });
  } catch (error) {
    if (error instanceof AuthError) {
      const message =
        (error as AuthError & { code?: string }).code === "rate_limited"
          ? "Too many attempts for this address. Wait a minute and try again."
          : "That email and password do not match an account.";
      return { error: message, values };
    }
    throw error; // the redirect of a successful sign-in
  }
  return {};
}

export async function oauthSignInAction(provider: "github" | "google") {
  await signIn(provider, { redirectTo: "/decks" });
}

// Ends the session in the database first (a copied cookie stops working), then clears the cookie.
export async function signOutAction() {
  await endCurrentSession();
  await signOut({ redirect: false });
  redirect("/sign-in");
}
