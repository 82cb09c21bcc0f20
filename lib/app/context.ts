import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { rateLimitError, takeRateLimit, type LimitClass } from "@/lib/limits/rate-limit";
import { type AppUser, findUser, listMemberships, type Membership } from "@/lib/auth/accounts-app";
import type { Ctx } from "@/lib/auth/caller";
import { auth } from "@/lib/auth/next-auth";
import { getDb } from "@/lib/db/client";

// The signed-in person in the browser app, as the same Ctx the API's domain functions take: the user, and
// the organization they are working in (the `dh_org` cookie, checked against their memberships; their
// first organization otherwise).

export const ORG_COOKIE = "dh_org";

export type AppContext = { ctx: Ctx; user: AppUser; organization: Membership; memberships: Membership[] };

// Memoised per request: the layout and the page of one request share one session lookup.
export const getAppContext = cache(async (): Promise<AppContext | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return null;
  const db = await getDb();
  const user = await findUser(db, userId);
  if (!user) return null;
  const all = await listMemberships(db, userId);
  if (all.length === 0) return null;
  const wanted = (await cookies()).get(ORG_COOKIE)?.value;
  const organization = all.find((m) => m.organizationId === wanted) ?? all[0]!;
  return {
    ctx: { db, caller: { userId, organizationId: organization.organizationId, apiKeyId: null } },
    user,
    organization,
    memberships: all,
  };
});

/** For pages: the context, or a redirect to sign-in. */
export async function requireAppContext(): Promise<AppContext> {
  const context = await getAppContext();
  if (!context) redirect("/sign-in");
  return context;
}

/** For server actions: the context (or an error a form can show), rate-limited per user like a key. */
export async function actionContext(limit: LimitClass = "default"): Promise<AppContext> {
  const context = await getAppContext();
  if (!context) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  const rate = await takeRateLimit(context.ctx.db, `user:${context.user.id}`, limit);
  if (rate.exceeded) throw rateLimitError(rate);
  return context;
}
