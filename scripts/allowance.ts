// Monthly allowances per organization, overriding the environment's defaults:
//   npm run --silent allowance -- set --org <name or id> --feature <feature> --limit <n>
//   npm run --silent allowance -- unset --org <name or id> --feature <feature>
//   npm run --silent allowance -- show --org <name or id>
// Features: version_edits, ai_generations, brand_extractions.
import { parseArgs } from "node:util";
import { and, asc, eq, or } from "drizzle-orm";
import { getDatabase } from "@/lib/db/client";
import { organizations } from "@/lib/db/schema/organizations";
import { allowances, usage } from "@/lib/db/schema/usage";
import { getMonthlyLimit } from "@/lib/usage/consume-allowance";
import { currentPeriod, type FeatureId, isFeatureId, meteredFeatures } from "@/lib/usage/features";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const usageText = "Usage: allowance set|unset|show --org <name or id> [--feature <feature>] [--limit <n>]";

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { org: { type: "string" }, feature: { type: "string" }, limit: { type: "string" } },
    strict: true,
  });
  if (!command || !["set", "unset", "show"].includes(command) || !values.org) fail(usageText);
  const features = Object.keys(meteredFeatures).join(", ");
  if (command !== "show" && (!values.feature || !isFeatureId(values.feature)))
    fail(`--feature must be one of: ${features}`);
  const limit = Number(values.limit);
  if (command === "set" && (!Number.isInteger(limit) || limit < 0)) fail("--limit must be a whole number ≥ 0");

  const database = await getDatabase();
  const { db } = database;
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
  if (!org) fail(`No organization named or with the id "${values.org}".`);

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
    process.stdout.write(
      `${org.name}\t${id}\t${row?.used ?? 0}/${await getMonthlyLimit(db, org.id, id)}\t${currentPeriod()}\n`,
    );
  }
  await database.close();
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
