import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { takeRateLimit } from "@/lib/api/rate-limit";
import { getDb } from "@/lib/db/client";
import { serverSecret } from "@/lib/secret";
import { findOrCreateOAuthUser, verifyCredentials } from "./accounts-app";
import { normalizeEmail } from "./accounts";

// Sessions of the browser app (next-auth v5): email + password always (works offline), GitHub and Google
// when their keys are set (AUTH_GITHUB_ID/SECRET, AUTH_GOOGLE_ID/SECRET). Sessions are signed JWT cookies
// carrying only the user id; everything else is read from the database on each request.

class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}

export const oauthProviders = {
  github: Boolean(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET),
  google: Boolean(process.env.AUTH_GOOGLE_ID && process.env.AUTH_GOOGLE_SECRET),
};

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: serverSecret().toString("base64"),
  trustHost: true,
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(credentials) {
        const email = typeof credentials.email === "string" ? normalizeEmail(credentials.email) : "";
        const password = typeof credentials.password === "string" ? credentials.password : "";
        if (!email || !password) return null;
        const db = await getDb();
        // Guessing passwords is slowed per address, counted in the database like API rate limits.
        if ((await takeRateLimit(db, `signin:${email}`, "slow")).exceeded) throw new TooManyAttempts();
        const user = await verifyCredentials(db, email, password);
        return user && { id: user.id, email: user.email, name: user.name };
      },
    }),
    ...(oauthProviders.github ? [GitHub] : []),
    ...(oauthProviders.google ? [Google] : []),
  ],
  callbacks: {
    async jwt({ token, user, account }) {
      if (user && account?.type === "credentials") token.uid = user.id;
      else if (user?.email && account) {
        token.uid = (await findOrCreateOAuthUser(await getDb(), { email: user.email, name: user.name })).id;
      }
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return session;
    },
  },
}));
