import { and, asc, eq, gt, lte } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import { sessions } from "@/lib/db/schema/sessions";
import { users } from "@/lib/db/schema/users";
import type { Db, Queryable } from "@/lib/db/types";
import { isPlausibleEmail, normalizeEmail } from "./accounts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "./passwords";

// Accounts of the browser app: sign-up with email and password (a personal organization comes with it),
// password sign-in, users who arrive through GitHub or Google, the organizations a user belongs to, and
// the sessions of their sign-ins.

export const signUpInput = z.strictObject({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters for your name."),
  email: z
    .string()
    .trim()
    .transform(normalizeEmail)
    .refine(isPlausibleEmail, "Enter an email address such as you@example.com."),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`)
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`),
});

export type AppUser = { id: string; email: string; name: string | null };

async function createPersonalOrganization(tx: Queryable, userId: string, name: string) {
  const [org] = await tx
    .insert(organizations)
    .values({ name: `${name}'s workspace` })
    .returning({ id: organizations.id });
  await tx.insert(memberships).values({ organizationId: org!.id, userId, role: "owner" });
  return org!.id;
}

export async function signUp(db: Db, input: z.output<typeof signUpInput>): Promise<AppUser> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, name: input.name, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email, name: users.name });
    if (!user) throw new AppError("conflict", "An account with this email already exists. Sign in instead.");
    await createPersonalOrganization(tx, user.id, input.name);
    return user;
  });
}

export async function verifyCredentials(db: Db, email: string, password: string): Promise<AppUser | null> {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  return ok && user ? { id: user.id, email: user.email, name: user.name } : null;
}

// A user signing in with GitHub or Google: the account of that (provider-verified) email, or a new one
// with a personal organization.
export async function findOrCreateOAuthUser(
  db: Db,
  profile: { email: string; name?: string | null },
): Promise<AppUser> {
  const email = normalizeEmail(profile.email);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.email, email));
    if (existing) return existing;
    const name = profile.name?.trim() || email.split("@")[0]!;
    const [user] = await tx
      .insert(users)
      .values({ email, name })
      .returning({ id: users.id, email: users.email, name: users.name });
    await createPersonalOrganization(tx, user!.id, name);
    return user!;
  });
}

export type Membership = { organizationId: string; name: string; role: "owner" | "member" };

export async function listMemberships(db: Queryable, userId: string): Promise<Membership[]> {
  return db
    .select({ organizationId: organizations.id, name: organizations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}

export async function findUser(db: Queryable, userId: string): Promise<AppUser | null> {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return user ?? null;
}

// Sessions: one row per sign-in, whose id the session cookie carries. A cookie is a session only while its
// row exists and has not expired; signing out deletes the row.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new session of `userId` lasting `seconds`; its id. Also forgets the user's sessions that expired. */
export async function startSession(db: Db, userId: string, seconds: number): Promise<string> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, new Date())));
  const [session] = await db
    .insert(sessions)
    .values({ userId, expiresAt: new Date(Date.now() + seconds * 1000) })
    .returning({ id: sessions.id });
  return session!.id;
}

/** Whether the session `sessionId` of `userId` is still going: not signed out, not expired. */
export async function isSessionLive(db: Queryable, sessionId: string, userId: string): Promise<boolean> {
  if (!UUID.test(sessionId) || !UUID.test(userId)) return false;
  const [session] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())));
  return Boolean(session);
}

/** Ends one session (sign-out); ending a session that is already over does nothing. */
export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  if (UUID.test(sessionId)) await db.delete(sessions).where(eq(sessions.id, sessionId));
}
