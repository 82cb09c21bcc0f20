// The allowance command (scripts/allowance.ts): sets, unsets or shows an organization's monthly allowances,
// overriding the environment's defaults; prints one line per metered feature: org, feature, used/limit, month.
import { parseArgs } from "node:util";
import { and, asc, eq, or } from "drizzle-orm";
import { organizations } from "@/lib/db/schema/organizations";
import { allowances, usage } from "@/lib/db/schema/usage";
import { getMonthlyLimit } from "@/lib/usage/consume-allowance";
import { currentPeriod, type FeatureId, isFeatureId, meteredFeatures } from "@/lib/usage/features";
import { CliError, type CliIo } from "./run";

const usageText = "Usage: allowance set|unset|show --org <name or id> [--feature <feature>] [--limit <n>]";

export async function allowance(args: string[], io: CliIo): Promise<void> {
  const [command, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { org: { type: "string" }, feature: { type: "string" }, limit: { type: "string" } },
    strict: true,
  });
  if (!command || !["set", "unset", "show"].includes(command) || !values.org) throw new CliError(usageText);
  const features = Object.keys(meteredFeatures).join(", ");
  if (command !== "show" && (!values.feature || !isFeatureId(values.feature))) {
    throw new CliError(`--feature must be one of: ${features}`);
  }
  const limit = Number(values.limit);
  if (command === "set" && (!Number.isInteger(limit) || limit < 0)) {
    throw new CliError("--limit must be a whole number ≥ 0");
  }

  const db = await io.db();
  const isUuid = /^[0-9a-f-]{36}$/i.test(values.org);
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(
      isUuid
        ? or(eq(organizations.id, values.org), eq(organizations.name, values.org))
        : eq(organizations.name, values.org),
    )
    .orderBy(asc(organizations.createdAt))
    .limit(1);
  if (!org) throw new CliError(`No organization named or with the id "${values.org}".`);

  const feature = values.feature as FeatureId;
  if (command === "set") {
    await db
      .insert(allowances)
      .values({ organizationId: org.id, featureId: feature, monthlyLimit: limit })
      .onConflictDoUpdate({ target: [allowances.organizationId, allowances.featureId], set: { monthlyLimit: limit } });
  } else if (command === "unset") {
    await db.delete(allowances).where(and(eq(allowances.organizationId, org.id), eq(allowances.featureId, feature)));
  }
  for (const id of Object.keys(meteredFeatures) as FeatureId[]) {
    const [row] = await db
      .select({ used: usage.used })
      .from(usage)
      .where(and(eq(usage.organizationId, org.id), eq(usage.featureId, id), eq(usage.period, currentPeriod())));
    io.out(`${org.name}\t${id}\t${row?.used ?? 0}/${await getMonthlyLimit(db, org.id, id)}\t${currentPeriod()}`);
  }
}
