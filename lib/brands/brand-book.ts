import { z } from "zod";

// The brand book: what a brand is, as extracted from a website (and refined by a model when one is
// configured). Stored as the brand's `data`; `schemaVersion` changes whenever a field's meaning does.
// Every section says where it came from and how sure the extractor is (0..1).

export const BRAND_BOOK_SCHEMA_VERSION = 1;

const hex = z.string().regex(/^#[0-9a-f]{6}$/, "lower-case #rrggbb");
const confidence = z.number().min(0).max(1);

const colorRoles = ["primary", "secondary", "accent", "background", "surface", "text", "muted"] as const;
export type ColorRole = (typeof colorRoles)[number];

export const paletteSchema = z.object({
  /** Every role is always filled, derived when the site does not show one. */
  roles: z.record(z.enum(colorRoles), z.object({ hex, source: z.string(), confidence })),
  /** The site's colours after clustering near-identical shades, heaviest first. */
  colors: z.array(z.object({ hex, weight: z.number().min(0), usage: z.array(z.string()) })),
  /** WCAG contrast ratios of the pairs decks will draw. */
  contrast: z.object({
    textOnBackground: z.number(),
    textOnSurface: z.number(),
    onPrimary: z.object({ hex, ratio: z.number() }),
    onAccent: z.object({ hex, ratio: z.number() }),
  }),
  confidence,
});

const fontRoleSchema = z.object({
  family: z.string(),
  /** CSS generic family the face belongs to. */
  category: z.enum(["sans-serif", "serif", "monospace", "display"]),
  weights: z.array(z.number().int()),
  source: z.string(),
  confidence,
});

export const typographySchema = z.object({
  heading: fontRoleSchema,
  body: fontRoleSchema,
  mono: fontRoleSchema.nullable(),
  /** Body size in CSS px and the ratio between heading steps, from the site's own sizes. */
  scale: z.object({ basePx: z.number(), ratio: z.number() }),
  /** Font files and font stylesheets the site loads. */
  fontSources: z.array(z.string()),
});

const logoSchema = z.object({
  kind: z.enum(["svg", "image"]),
  /** Where it was found on the site. */
  source: z.enum(["inline-svg", "header-image", "icon", "og-image", "apple-touch-icon"]),
  sourceUrl: z.string().nullable(),
  /** Key of the stored copy in the file store; null when it could not be fetched. */
  storedKey: z.string().nullable(),
  contentType: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  confidence,
  /**
   * The organization's image (lib/assets) the logo is stored as: sanitised and rasterised like any image,
   * listed with the organization's images, kept while the brand uses it. Absent in books stored before.
   */
  assetId: z.string().nullable().optional(),
});

export const voiceSchema = z.object({
  tone: z.array(z.string()),
  readingLevel: z.object({ grade: z.number(), label: z.string() }),
  samplePhrases: z.array(z.string()),
  /** Short rules a writer (or a model) can follow. */
  guidelines: z.array(z.string()),
  confidence,
});

export const imagerySchema = z.object({
  style: z.enum(["photography", "illustration", "mixed", "minimal"]),
  shapes: z.enum(["sharp", "rounded", "pill"]),
  cornerRadiusPx: z.number(),
  guidelines: z.array(z.string()),
  confidence,
});

export const brandBookSchema = z.object({
  schemaVersion: z.literal(BRAND_BOOK_SCHEMA_VERSION),
  name: z.string(),
  sourceUrl: z.string(),
  palette: paletteSchema,
  typography: typographySchema,
  logo: logoSchema.nullable(),
  voice: voiceSchema,
  imagery: imagerySchema,
  /** The `:root` tokens a deck gets from this brand (see lib/source/theme-tokens.ts). */
  tokensCss: z.string(),
  sources: z.object({ pages: z.array(z.string()), stylesheets: z.array(z.string()), fetchedAt: z.string() }),
  extraction: z.object({ model: z.string().nullable(), durationMs: z.number() }),
});

export type BrandBook = z.infer<typeof brandBookSchema>;
export type Palette = z.infer<typeof paletteSchema>;
export type Typography = z.infer<typeof typographySchema>;
export type Logo = z.infer<typeof logoSchema>;
export type Voice = z.infer<typeof voiceSchema>;
export type Imagery = z.infer<typeof imagerySchema>;
