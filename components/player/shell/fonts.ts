import { isGenericFamily, parseFontFamilyList } from "@/lib/contract/fonts";

// The deck's primary families (first of each --font-* token) that have no shipped face or whose face
// failed to load: the browser fell back along the stack, so the export will not match the design.
export function findMissingFonts(): string[] {
  const style = getComputedStyle(document.documentElement);
  const primary = new Set<string>();
  for (const token of ["--font-heading", "--font-body", "--font-mono"]) {
    const first = parseFontFamilyList(style.getPropertyValue(token))[0];
    if (first && !isGenericFamily(first)) primary.add(first);
  }
  const faces = new Map<string, string[]>();
  for (const face of document.fonts) {
    const family = parseFontFamilyList(face.family)[0]?.toLowerCase() ?? "";
    faces.set(family, [...(faces.get(family) ?? []), face.status]);
  }
  return [...primary].filter((family) => {
    const statuses = faces.get(family.toLowerCase());
    return !statuses || statuses.every((status) => status === "error");
  });
}

// The weights the vocabulary draws its families in (vocabulary CSS; code is rare and loads when drawn).
const DRAWN_WEIGHTS: Record<string, number[]> = { "--font-body": [400, 500, 600, 700], "--font-heading": [600] };

/**
 * Starts fetching the deck's fonts as the player starts, alongside its module, instead of after the first
 * layout asks for them: a round trip less before the deck is drawn with its own type (and in the export
 * renderer, whose every request is answered by the server, one fewer wait on a busy machine).
 */
export function fetchDeckFonts(): void {
  const style = getComputedStyle(document.documentElement);
  for (const [token, weights] of Object.entries(DRAWN_WEIGHTS)) {
    const families = style.getPropertyValue(token).trim();
    if (!families) continue;
    // Latin letters: the faces of the latin subset, which every deck draws; other subsets load when drawn.
    for (const weight of weights) document.fonts.load(`${weight} 16px ${families}`, "Aa").catch(() => {});
  }
}
