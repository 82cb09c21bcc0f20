import { setting } from "@/lib/core/config";

// Metered features: each has a monthly allowance per organization, defaulted from the environment and
// overridable per organization (the `allowances` table). A 402 names the feature in `error.featureId`.
export const meteredFeatures = {
  version_edits: {
    label: "version edits",
    setting: "VERSION_EDIT_ALLOWANCE",
  },
  // generate and edit runs answered by an AI model (the offline generator and editor are not metered).
  ai_generations: {
    label: "AI generations",
    setting: "AI_GENERATION_ALLOWANCE",
  },
  brand_extractions: {
    label: "brand extractions",
    setting: "BRAND_EXTRACTION_ALLOWANCE",
  },
} as const;

export function isFeatureId(value: string): value is FeatureId {
  return value in meteredFeatures;
}

export type FeatureId = keyof typeof meteredFeatures;

export function defaultMonthlyLimit(featureId: FeatureId): number {
  return setting(meteredFeatures[featureId].setting);
}

// Allowances run per calendar month in UTC.
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export function nextPeriodStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}
