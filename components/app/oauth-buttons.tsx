import { oauthSignInAction } from "@/app/(auth)/actions";
import { Button } from "@/components/ui";
import { oauthProviders } from "@/lib/auth/next-auth";

// GitHub and Google sign-in, shown only for the providers whose keys are configured.
export function OAuthButtons() {
  if (!oauthProviders.github && !oauthProviders.google) return null;
  return (
    <div className="space-y-2 border-t border-zinc-200 pt-4">
      {oauthProviders.github && (
        <form action={oauthSignInAction.bind(null, "github")}>
          <Button variant="secondary" className="w-full" type="submit">
            Continue with GitHub
          </Button>
        </form>
      )}
      {oauthProviders.google && (
        <form action={oauthSignInAction.bind(null, "google")}>
          <Button variant="secondary" className="w-full" type="submit">
            Continue with Google
          </Button>
        </form>
      )}
    </div>
  );
}
