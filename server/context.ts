import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type AppUser, findUser, listMemberships, type Membership } from "@/lib/auth/accounts-app";
import type { Ctx } from "@/lib/auth/caller";
import { REQUEST_PATH_HEADER } from "@/lib/app/security-headers";
import { getDb } from "@/lib/db/client";
import { auth } from "./next-auth";
import { safeNextPath } from "./next-path";

// The signed-in person in the browser app, as the same Ctx the API's domain functions take: the user, and
// the organization they are working in (the `dh_org` cookie, checked against their memberships; their
// first organization otherwise). Pages read it here; server actions get it through `defineAction`.

const ORG_COOKIE = "dh_org";

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

/** For pages: the context, or a redirect to sign-in that comes back to this page afterwards. */
export async function requireAppContext(): Promise<AppContext> {
  const context = await getAppContext();
  if (!context) {
    const path = safeNextPath((await headers()).get(REQUEST_PATH_HEADER));
    redirect(path === "/decks" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(path)}`);
  }
  return context;
}

/** The organization the app works in from now on (switching, joining); forgotten when leaving it. */
export async function setCurrentOrganization(organizationId: string | null): Promise<void> {
  const jar = await cookies();
  if (organizationId === null) jar.delete(ORG_COOKIE);
  else jar.set(ORG_COOKIE, organizationId, { httpOnly: true, sameSite: "lax", path: "/" });
}
