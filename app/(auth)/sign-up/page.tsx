import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/app/auth-form";
import { OAuthButtons } from "@/components/app/oauth-buttons";
import { Card } from "@/components/ui";
import { getAppContext } from "@/server/context";
import { safeNextPath } from "@/server/next-path";
import { signUpAction } from "@/server/actions/auth";

export const metadata: Metadata = { title: "Create an account · Deckhand" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await getAppContext()) redirect(safeNextPath(next));
  return (
    <Card className="space-y-6">
      <div>
        <h1 className="text-lg font-semibold">Create your account</h1>
        <p className="mt-1 text-sm text-zinc-600">You get a workspace of your own; invite your team later.</p>
      </div>
      <AuthForm mode="sign-up" action={signUpAction} next={next} />
      <OAuthButtons />
      <p className="text-center text-sm text-zinc-600">
        Already have an account?{" "}
        <a className="font-medium text-accent hover:underline" href="/sign-in">
          Sign in
        </a>
      </p>
    </Card>
  );
}
