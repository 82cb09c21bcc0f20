import { selectAll } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import postcss from "postcss";
import type { Imagery, Palette, Typography, Voice } from "@/lib/brands/brand-book";
import { buildCssModel, type Stylesheet } from "./css-model";
import { discoverInDocument, type LogoCandidate } from "./discover-resources";
import { attribute, parseHtml } from "./html-document";
import { buildImagery } from "./imagery";
import { buildPalette } from "./palette";
import { readColorsInValue } from "./palette-samples";
import { buildTypography } from "./typography";
import { buildVoice } from "./voice";

// The deterministic brand extractor: a page's HTML and the stylesheets it loads in, a brand book's
// palette, typography, voice and imagery out (plus logo candidates for the caller to fetch). No network,
// no model; everything it says is read from the page and carries its source and confidence.

export type ExtractedBrand = {
  name: string;
  palette: Palette;
  typography: Typography;
  voice: Voice;
  imagery: Imagery;
  logoCandidates: LogoCandidate[];
};

export type SiteInput = { url: string; html: string; stylesheets: Stylesheet[] };

export function extractBrand(site: SiteInput): ExtractedBrand {
  const document = parseHtml(site.html);
  const resources = discoverInDocument(document, site.url);
  const model = buildCssModel(document, site.url, site.stylesheets);
  const palette = buildPalette(model, {
    themeColor: readThemeColor(document),
    logoColors: readLogoColors(resources.logoCandidates),
  });
  return {
    name: resources.siteName ?? nameFromHost(site.url),
    palette,
    typography: buildTypography(model, resources.fontStylesheets),
    voice: buildVoice(document),
    imagery: buildImagery(document, model),
    logoCandidates: resources.logoCandidates,
  };
}

function readThemeColor(document: Document): string | null {
  for (const meta of selectAll<AnyNode, Element>('meta[name="theme-color" i]', document)) {
    const media = attribute(meta, "media").toLowerCase().replace(/\s+/g, "");
    // The light-scheme colour is the one a default visitor sees.
    if (media.includes("prefers-color-scheme:dark")) continue;
    const content = attribute(meta, "content").trim();
    if (content) return content;
  }
  return null;
}

function readLogoColors(candidates: readonly LogoCandidate[]): string[] {
  const logo = candidates.find((candidate) => candidate.kind === "svg");
  if (!logo) return [];
  const colors: string[] = [];
  const svg = parseHtml(logo.svg);
  for (const element of selectAll<AnyNode, Element>("[fill], [stroke], [stop-color], [style]", svg)) {
    const values = [attribute(element, "fill"), attribute(element, "stroke"), attribute(element, "stop-color")];
    const style = attribute(element, "style");
    for (const value of values) {
      for (const color of readColorsInValue(value)) if ((color.alpha ?? 1) >= 0.5) colors.push(value.trim());
    }
    if (style) {
      try {
        postcss.parse(`x{${style}}`).walkDecls((declaration) => {
          if (!["fill", "stroke", "stop-color"].includes(declaration.prop.toLowerCase())) return;
          if (readColorsInValue(declaration.value).length) colors.push(declaration.value.trim());
        });
      } catch {
        // an unreadable style attribute adds no colour
      }
    }
  }
  return colors;
}

function nameFromHost(url: string): string {
  try {
    const host = new URL(url).hostname.replace(/^www\./, "");
    const label = host.split(".")[0] ?? host;
    return label ? label[0]!.toUpperCase() + label.slice(1) : host;
  } catch {
    return "Untitled brand";
  }
}
