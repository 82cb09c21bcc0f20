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
