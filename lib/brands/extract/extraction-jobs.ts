import postcss from "postcss";
import { readImportUrl } from "./css-model";
import { type DiscoveredResources, discoverResources } from "./discover-resources";
import { type ExtractedBrand, extractBrand, type SiteInput } from "./extract-brand";

// The CPU-bound steps of a brand extraction, as messages a worker thread can run: what the page links,
// what its stylesheets @import, and the brand itself. The fetching between them stays with the caller.

export type ExtractionJob =
  | { kind: "discover"; html: string; url: string }
  | { kind: "imports"; sheets: { url: string; css: string }[] }
  | { kind: "extract"; site: SiteInput };

export type ExtractionResult<J extends ExtractionJob> = J extends { kind: "discover" }
  ? DiscoveredResources
  : J extends { kind: "imports" }
    ? string[]
    : ExtractedBrand;

export function runExtractionJob(job: ExtractionJob): DiscoveredResources | string[] | ExtractedBrand {
  if (job.kind === "discover") return discoverResources(job.html, job.url);
  if (job.kind === "extract") return extractBrand(job.site);
  const imports: string[] = [];
  for (const sheet of job.sheets) {
    try {
      postcss.parse(sheet.css).walkAtRules("import", (rule) => {
        const target = readImportUrl(rule.params, sheet.url);
        if (target) imports.push(target);
      });
    } catch {
      // unparsable stylesheet: its colours are lost, the brand is not
    }
  }
  return imports;
}
