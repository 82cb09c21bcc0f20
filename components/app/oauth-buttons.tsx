import { oauthSignInAction } from "@/server/actions/auth";
import { oauthProviders } from "@/server/next-auth";
import { ActionButton } from "@/components/app/action-button";

// GitHub and Google sign-in, shown only for the providers whose keys are configured.
export function OAuthButtons() {
  if (!oauthProviders.github && !oauthProviders.google) return null;
  return (
    <div className="space-y-2 border-t border-zinc-200 pt-4">
      {oauthProviders.github && (
        <ActionButton
          action={oauthSignInAction}
          fields={{ provider: "github" }}
          label="Continue with GitHub"
          variant="secondary"
          block
        />
      )}
      {oauthProviders.google && (
        <ActionButton
          action={oauthSignInAction}
          fields={{ provider: "google" }}
          label="Continue with Google"
          variant="secondary"
          block
        />
      )}
    </div>
  );
}
