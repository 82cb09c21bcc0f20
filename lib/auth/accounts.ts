import { and, asc, eq } from "drizzle-orm";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import { users } from "@/lib/db/schema/users";
import type { Db } from "@/lib/db/types";
import { insertApiKey } from "./api-keys";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isPlausibleEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 320;
}

// The CLI's `keys:create`: finds or creates the user and the organization (joining an existing
// organization of that name, the oldest when several share it), then issues a key acting as the user.
export async function createKeyForEmail(
  db: Db,
  input: { email: string; orgName?: string; keyName?: string },
): Promise<{ key: string; prefix: string; userId: string; organizationId: string; createdOrganization: boolean }> {
  const email = normalizeEmail(input.email);
  return db.transaction(async (tx) => {
    await tx.insert(users).values({ email }).onConflictDoNothing({ target: users.email });
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));

    const orgName = input.orgName?.trim() || `${email.split("@")[0]}'s workspace`;
    let [org] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.name, orgName))
      .orderBy(asc(organizations.createdAt))
      .limit(1);
    const createdOrganization = !org;
    if (!org) [org] = await tx.insert(organizations).values({ name: orgName }).returning({ id: organizations.id });

    const [membership] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, org!.id), eq(memberships.userId, user!.id)));
    if (!membership) {
      await tx
        .insert(memberships)
        .values({ organizationId: org!.id, userId: user!.id, role: createdOrganization ? "owner" : "member" });
    }

    const { key, prefix } = await insertApiKey(tx, {
      organizationId: org!.id,
      userId: user!.id,
      name: input.keyName?.trim() || "CLI key",
    });
    return { key, prefix, userId: user!.id, organizationId: org!.id, createdOrganization };
  });
}
