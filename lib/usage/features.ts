// Metered features: each has a monthly allowance per organization, defaulted from the environment and
// overridable per organization (the `allowances` table). A 402 names the feature in `error.featureId`.
export const meteredFeatures = {
  version_edits: {
    label: "version edits",
    envVar: "VERSION_EDIT_ALLOWANCE",
    defaultLimit: 1000,
  },
  // generate and edit runs answered by an AI model (the offline generator and editor are not metered).
  ai_generations: {
    label: "AI generations",
    envVar: "AI_GENERATION_ALLOWANCE",
    defaultLimit: 200,
  },
  brand_extractions: {
    label: "brand extractions",
    envVar: "BRAND_EXTRACTION_ALLOWANCE",
    defaultLimit: 50,
  },
} as const;

export function isFeatureId(value: string): value is FeatureId {
  return value in meteredFeatures;
}

export type FeatureId = keyof typeof meteredFeatures;

export function defaultMonthlyLimit(featureId: FeatureId): number {
  const feature = meteredFeatures[featureId];
  const raw = process.env[feature.envVar];
  if (raw === undefined || raw === "") return feature.defaultLimit;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${feature.envVar} must be a non-negative integer, got "${raw}"`);
  return value;
}

// Allowances run per calendar month in UTC.
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export function nextPeriodStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}
