import { config } from "@/lib/core/config";
import type { exports } from "@/lib/db/schema/exports";
import { exportSchema } from "./schemas";

export type ExportRow = typeof exports.$inferSelect;

export function presentExport(row: ExportRow) {
  return exportSchema.parse({
    ...row,
    downloadUrl: row.status === "completed" ? `${config.appUrl}/api/v1/exports/${row.id}/download` : null,
  });
}

// "<deck title>-v<version>.<ext>" ("-notes" before the extension for a handout), safe on every file system
// and still readable.
export function exportFileName(
  title: string,
  version: number,
  format: "pdf" | "pptx",
  layout: "slides" | "notes" = "slides",
): string {
  const base =
    title
      .normalize("NFC")
      // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^\.+/, "")
      .slice(0, 120)
      .trim() || "deck";
  return `${base}-v${version}${layout === "notes" ? "-notes" : ""}.${format}`;
}
