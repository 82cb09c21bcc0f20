import NextAuth, { CredentialsSignin } from "next-auth";
import { getToken } from "next-auth/jwt";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { headers } from "next/headers";
import { takeRateLimit } from "@/lib/limits/rate-limit";
import { getDb } from "@/lib/db/client";
import { serverSecret } from "@/lib/core/secret";
import {
  endSession,
  findOrCreateOAuthUser,
  isSessionLive,
  startSession,
  verifyCredentials,
} from "@/lib/auth/accounts-app";
import { normalizeEmail } from "@/lib/auth/accounts";
import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";

// Sessions of the browser app (next-auth v5): email + password always (works offline), GitHub and Google
// when their keys are set (AUTH_GITHUB_ID/SECRET, AUTH_GOOGLE_ID/SECRET). Sessions are sealed JWT cookies
// carrying the user id and the id of a row in `sessions`, made at sign-in. Each read of the session checks
// that row: signing out deletes it, so a copied cookie stops working with the sign-out. Everything else
// is read from the database on each request.

const SESSION_SECONDS = 30 * 24 * 60 * 60;
const secret = () => serverSecret().toString("base64");

class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}

// More passwords being checked at once than the server takes (lib/auth/passwords.ts): retry in a moment.
class PasswordChecksBusy extends CredentialsSignin {
  override code = "busy";
}

export const oauthProviders = config.oauth;

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: secret(),
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_SECONDS },
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
        const user = await verifyCredentials(db, email, password).catch((error: unknown) => {
          throw error instanceof AppError && error.code === "rate_limited" ? new PasswordChecksBusy() : error;
        });
        return user && { id: user.id, email: user.email, name: user.name };
      },
    }),
    ...(oauthProviders.github ? [GitHub] : []),
    ...(oauthProviders.google ? [Google] : []),
  ],
  callbacks: {
    async jwt({ token, user, account }) {
      if (user && account) {
        // A sign-in: a new session of the account (made on the first sign-in with GitHub or Google).
        const db = await getDb();
        let userId: string | undefined;
        if (account.type === "credentials") userId = user.id;
        else if (user.email) userId = (await findOrCreateOAuthUser(db, { email: user.email, name: user.name })).id;
        if (!userId) return null;
        return { ...token, uid: userId, sid: await startSession(db, userId, SESSION_SECONDS) };
      }
      // Every read of the session: a cookie whose session was signed out or expired (or one from before
      // sessions were recorded) is no session. next-auth answers "no session" when this returns null, and
      // also when it throws (a database failure fails closed).
      const { uid, sid } = token;
      if (typeof uid !== "string" || typeof sid !== "string") return null;
      return (await isSessionLive(await getDb(), sid, uid)) ? token : null;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return session;
    },
  },
  events: {
    // next-auth's own sign-out endpoint (POST /api/auth/signout) ends the session too. next-auth clears the
    // cookie even when this throws, which is why the app's sign-out action calls endCurrentSession first.
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await endSession(await getDb(), sid);
    },
  },
}));

/**
 * Ends the session of the request's session cookie, before the cookie is cleared: if this fails, the
 * person is still signed in and told so, rather than signed out in appearance only. A cookie that does not
 * decode ends nothing (it is no session anyway).
 */
export async function endCurrentSession(): Promise<void> {
  // Only the cookie counts (getToken would also read an Authorization header). Its name has the __Secure-
  // prefix when the app is served over https.
  const request = { headers: { cookie: (await headers()).get("cookie") ?? "" } };
  for (const secureCookie of [true, false]) {
    const token = await getToken({ req: request, secret: secret(), secureCookie });
    if (typeof token?.sid === "string") await endSession(await getDb(), token.sid);
  }
}
