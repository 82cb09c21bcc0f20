import { and, asc, eq, isNull } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { parseTokensCss } from "@/lib/source/tokens";
import { decks } from "@/lib/db/schema/decks";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import type { Db } from "@/lib/db/types";
import { appendVersion } from "./append-version";
import { starterTemplates } from "./starter-templates/templates";

// The first run of an organization: its library offers the starter templates (pitch, quarterly review,
// project update, product launch, all-hands, lesson). They are given once per organization, on the first
// library view of anyone in it (a new organization's first page after sign-up; an organization made before
// this existed on its next visit), and the moment is kept on the organization (`starter_templates_at`), so
// templates its people delete or change are never given again. Each is an organization-wide template owned
// by the organization's first owner, with its content as version 1 (no version edit is taken from the
// allowance: nobody wrote it). Organizations made through the API alone get none until someone opens the app.

// Organizations this process has seen given their templates: the library's later views skip the query.
const given = new Set<string>();

// Compiled once per process: the sources never change.
let compiled: Promise<Awaited<ReturnType<typeof compileDeckOffThread>>[]> | undefined;

function compileAll() {
  compiled ??= Promise.all(
    starterTemplates.map((template) => compileDeckOffThread({ source: template.source, format: "slides" })),
  ).catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

/** Gives the caller's organization the starter templates unless it was given them before; true when given now. */
export async function ensureStarterTemplates(ctx: Ctx): Promise<boolean> {
  const organizationId = ctx.caller.organizationId;
  if (given.has(organizationId)) return false;
  const [org] = await ctx.db
    .select({ at: organizations.starterTemplatesAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org || org.at) {
    given.add(organizationId);
    return false;
  }
  const builds = await compileAll();
  const seeded = await ctx.db.transaction(async (tx) => {
    // The claim: of two first views at once, one gives the templates and the other finds them given.
    const [claimed] = await tx
      .update(organizations)
      .set({ starterTemplatesAt: new Date() })
      .where(and(eq(organizations.id, organizationId), isNull(organizations.starterTemplatesAt)))
      .returning({ id: organizations.id });
    if (!claimed) return false;
    const [owner] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")))
      .orderBy(asc(memberships.createdAt))
      .limit(1);
    const inTx: Ctx = {
      ...ctx,
      db: tx as unknown as Db,
      caller: { userId: owner?.userId ?? ctx.caller.userId, organizationId, apiKeyId: null },
    };
    const now = Date.now();
    for (const [index, template] of starterTemplates.entries()) {
      const tokensCss = parseTokensCss(template.tokensCss).css;
      const [deck] = await tx
        .insert(decks)
        .values({
          organizationId,
          ownerId: inTx.caller.userId,
          title: template.title,
          description: template.description,
          kind: "template",
          format: "slides",
          visibility: "org",
          initialTokensCss: tokensCss,
          // Listed in the gallery's order (newest first would reverse it).
          createdAt: new Date(now - index * 1000),
        })
        .returning({ id: decks.id });
      const { compiledJs, outline } = builds[index]!;
      await appendVersion(
        inTx,
        deck!.id,
        { format: "deck-tsx", source: template.source, tokensCss, compiledJs, outline, html: null },
        { prompt: "Starter template", consumesEdit: false },
      );
    }
    return true;
  });
  given.add(organizationId);
  return seeded;
}
