import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/app/auth-form";
import { OAuthButtons } from "@/components/app/oauth-buttons";
import { Card } from "@/components/ui";
import { getAppContext } from "@/server/context";
import { safeNextPath } from "@/server/next-path";
import { signInAction } from "@/server/actions/auth";

export const metadata: Metadata = { title: "Sign in · Deckhand" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await getAppContext()) redirect(safeNextPath(next));
  return (
    <Card className="space-y-6">
      <div>
        <h1 className="text-lg font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-zinc-600">Welcome back.</p>
      </div>
      <AuthForm mode="sign-in" action={signInAction} next={next} />
      <OAuthButtons />
      <p className="text-center text-sm text-zinc-600">
        New to Deckhand?{" "}
        <a
          className="font-medium text-accent hover:underline"
          href={next ? `/sign-up?next=${encodeURIComponent(next)}` : "/sign-up"}
        >
          Create an account
        </a>
      </p>
    </Card>
  );
}
