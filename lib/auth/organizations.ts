import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import { invitations } from "@/lib/db/schema/invitations";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import { users } from "@/lib/db/schema/users";
import { forgetApiKeys } from "./api-keys";
import type { Ctx } from "./caller";

// Organizations in the app: members and their roles, and invitations by link. Owners manage members and
// invitations; an organization always keeps at least one owner.

export type Role = "owner" | "member";
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The caller's role in their current organization (null when not a member). */
export async function roleOf(ctx: Ctx): Promise<Role | null> {
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, ctx.caller.userId), eq(memberships.organizationId, ctx.caller.organizationId)));
  return row?.role ?? null;
}

async function requireOwner(ctx: Ctx) {
  if ((await roleOf(ctx)) !== "owner")
    throw new AppError("forbidden", "Only an owner of the organization can do this.");
}

export async function listMembers(ctx: Ctx) {
  return ctx.db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      since: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, ctx.caller.organizationId))
    .orderBy(asc(memberships.createdAt));
}

async function ownerCount(ctx: Ctx): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, ctx.caller.organizationId), eq(memberships.role, "owner")));
  return row?.n ?? 0;
}

export async function setMemberRole(ctx: Ctx, userId: string, role: Role): Promise<void> {
  await requireOwner(ctx);
  const where = and(eq(memberships.organizationId, ctx.caller.organizationId), eq(memberships.userId, userId));
  const [member] = await ctx.db.select({ role: memberships.role }).from(memberships).where(where);
  if (!member) throw new AppError("not_found", "That person is not a member of this organization.");
  if (member.role === "owner" && role !== "owner" && (await ownerCount(ctx)) === 1) {
    throw new AppError("conflict", "The organization needs at least one owner: make someone else an owner first.");
  }
  await ctx.db.update(memberships).set({ role }).where(where);
}

// Removing a member also stops their API keys for this organization (a key acts as its creator).
export async function removeMember(ctx: Ctx, userId: string): Promise<void> {
  if (userId !== ctx.caller.userId) await requireOwner(ctx);
  const where = and(eq(memberships.organizationId, ctx.caller.organizationId), eq(memberships.userId, userId));
  const [member] = await ctx.db.select({ role: memberships.role }).from(memberships).where(where);
  if (!member) throw new AppError("not_found", "That person is not a member of this organization.");
  if (member.role === "owner" && (await ownerCount(ctx)) === 1) {
    throw new AppError("conflict", "The organization needs at least one owner: make someone else an owner first.");
  }
  await ctx.db.delete(memberships).where(where);
  forgetApiKeys({ userId, organizationId: ctx.caller.organizationId });
}

export async function createInvitation(ctx: Ctx, role: Role): Promise<{ token: string; expiresAt: Date }> {
  await requireOwner(ctx);
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  await ctx.db.insert(invitations).values({
    organizationId: ctx.caller.organizationId,
    role,
    tokenHash: hashToken(token),
    createdBy: ctx.caller.userId,
    expiresAt,
  });
  return { token, expiresAt };
}

export async function listPendingInvitations(ctx: Ctx) {
  return ctx.db
    .select({
      id: invitations.id,
      role: invitations.role,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, ctx.caller.organizationId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .orderBy(asc(invitations.createdAt));
}

export async function revokeInvitation(ctx: Ctx, id: string): Promise<void> {
  await requireOwner(ctx);
  await ctx.db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, id), eq(invitations.organizationId, ctx.caller.organizationId)));
}

/** What an invitation link offers, or null when it is unknown, used, revoked or expired. */
export async function findInvitation(db: Ctx["db"], token: string) {
  if (!/^[\w-]{20,64}$/.test(token)) return null;
  const [row] = await db
    .select({
      id: invitations.id,
      organizationId: invitations.organizationId,
      organizationName: organizations.name,
      role: invitations.role,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(
      and(
        eq(invitations.tokenHash, hashToken(token)),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

// Accepting marks the invitation used in the same statement that checks it, so a link works once.
export async function acceptInvitation(db: Ctx["db"], token: string, userId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: userId })
      .where(
        and(
          eq(invitations.tokenHash, hashToken(token)),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, new Date()),
        ),
      )
      .returning({ organizationId: invitations.organizationId, role: invitations.role });
    if (!invitation)
      throw new AppError("not_found", "This invitation link is invalid, used or expired. Ask for a new one.");
    await tx
      .insert(memberships)
      .values({ organizationId: invitation.organizationId, userId, role: invitation.role })
      .onConflictDoNothing();
    return invitation.organizationId;
  });
}
