import type { DeckOutline } from "@/lib/source/transform/edit";

// What the slide rail's thumbnails are keyed by (rail-thumbnails.tsx). A slide draws the same picture as
// long as its own text, the code around the slides (imports, helper components, constants) and the theme
// tokens are the same, so its version is a hash of those three: typing in slide 3 changes slide 3's
// version only, moving a slide changes none. A deck whose slides are made in code cannot be cut into
// slides offline; there every slide's version is the whole module's and its place.

/** cyrb53: a fast 53-bit string hash (not cryptographic; a collision would only keep a stale picture). */
function hashText(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** One version per slide of `outline` (null: the slides are not written directly inside <Deck>). */
export function slideVersions(source: string, tokens: string, outline: DeckOutline | null, count: number): string[] {
  const theme = hashText(tokens);
  if (!outline?.editable) {
    const whole = `${hashText(source)}.${theme}`;
    return Array.from({ length: count }, (_, index) => `${whole}.${index}`);
  }
  // The code around the slides, without the blank space between them (one more or less when a slide is
  // added or deleted).
  let around = "";
  let cursor = 0;
  for (const slide of outline.slides) {
    const gap = source.slice(cursor, slide.start);
    around += cursor === 0 ? gap : gap.trim();
    cursor = slide.end;
  }
  const shared = `${hashText(`${around}\u0000${source.slice(cursor)}`)}.${theme}`;
  return outline.slides.map((slide) => `${shared}.${hashText(source.slice(slide.start, slide.end))}`);
}

export type ThumbnailIdentity = { id: number; version: string };

/**
 * Gives each slide of `versions` the identity of a thumbnail it had before, so a thumbnail follows its
 * slide: the same version at the same place, then the same version elsewhere (a move, a slide added or
 * deleted before it), then whatever stood at the same place (the slide was edited: the old picture stays
 * until the new one is drawn); a slide matching nothing is new.
 */
export function matchIdentities(
  before: ThumbnailIdentity[],
  versions: string[],
  newId: () => number,
): ThumbnailIdentity[] {
  const ids: Array<number | undefined> = versions.map(() => undefined);
  const used = new Set<number>();
  versions.forEach((version, index) => {
    const there = before[index];
    if (there?.version === version) {
      ids[index] = there.id;
      used.add(index);
    }
  });
  const unused = new Map<string, number[]>();
  before.forEach((entry, index) => {
    if (!used.has(index)) unused.set(entry.version, [...(unused.get(entry.version) ?? []), index]);
  });
  versions.forEach((version, index) => {
    if (ids[index] !== undefined) return;
    const found = unused.get(version)?.shift();
    if (found === undefined) return;
    ids[index] = before[found]!.id;
    used.add(found);
  });
  versions.forEach((_, index) => {
    if (ids[index] !== undefined || index >= before.length || used.has(index)) return;
    ids[index] = before[index]!.id;
    used.add(index);
  });
  return versions.map((version, index) => ({ id: ids[index] ?? newId(), version }));
}
