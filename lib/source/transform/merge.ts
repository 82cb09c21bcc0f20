import { diffArrays } from "diff";
import type { DeckFormat } from "@/lib/contract/deck";
import { type LocatedSlide, locateSlides } from "./tsx-module";

// A three-way merge of two edits of one deck at slide granularity: base is the version both started from,
// mine and theirs the two edits. The module is read with @babel/parser positions (locateSlides): the text
// before the first <Slide> (imports, constants), each top-level <Slide>/<Beat> element, and the text after
// the last. Slides are lined up by their text (an LCS diff against base, as diff3 does); where only one
// side changed a stretch, that side's slides are taken; where both changed the same stretch differently,
// the merge is refused and names the slides. Slides added, removed or reordered by one side merge too.

export type SlideMerge = { ok: true; source: string } | { ok: false; reason: string };

type Split = { head: string; slides: LocatedSlide[]; tail: string; separator: string | null };

function split(source: string, format: DeckFormat): Split | null {
  let located;
  try {
    located = locateSlides(source, format);
  } catch {
    return null; // does not parse
  }
  if (located.hiddenSlides || located.slides.length === 0) return null;
  const slides = located.slides;
  return {
    head: source.slice(0, slides[0]!.start),
    slides,
    tail: source.slice(slides.at(-1)!.end),
    separator: slides.length > 1 ? source.slice(slides[0]!.end, slides[1]!.start) : null,
  };
}

// For each base index kept unchanged in `other`, its index there.
function keptIndexes(base: string[], other: string[]): Map<number, number> {
  const kept = new Map<number, number>();
  let b = 0;
  let o = 0;
  for (const part of diffArrays(base, other)) {
    const count = part.count ?? part.value.length;
    if (part.added) o += count;
    else if (part.removed) b += count;
    else for (let k = 0; k < count; k++) kept.set(b++, o++);
  }
  return kept;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Both sides' changes, where they touch different slides (and not the same text around them). */
export function mergeSlides(base: string, mine: string, theirs: string, format: DeckFormat): SlideMerge {
  if (mine === base || mine === theirs) return { ok: true, source: theirs };
  if (theirs === base) return { ok: true, source: mine };
  const [b, m, t] = [split(base, format), split(mine, format), split(theirs, format)];
  if (!b || !m || !t) {
    return {
      ok: false,
      reason: "One of the versions has slides that are not plain top-level elements, or does not parse.",
    };
  }
  const texts = (s: Split) => s.slides.map((slide) => slide.text);
  const [bt, mt, tt] = [texts(b), texts(m), texts(t)];
  const labelOf = (s: Split, i: number) => s.slides[i]?.label ?? `slide ${i + 1}`;
  const mineKept = keptIndexes(bt, mt);
  const theirsKept = keptIndexes(bt, tt);

  const merged: string[] = [];
  const clashes: string[] = [];
  let [pb, pm, pt] = [0, 0, 0];
  const settle = (eb: number, em: number, et: number) => {
    const [cb, cm, ct] = [bt.slice(pb, eb), mt.slice(pm, em), tt.slice(pt, et)];
    if (same(cm, cb)) merged.push(...ct);
    else if (same(ct, cb) || same(cm, ct)) merged.push(...cm);
    else if (cb.length === cm.length && cb.length === ct.length) {
      // As many slides on every side (edited in place): slide by slide.
      cb.forEach((slide, i) => {
        if (cm[i] === slide || cm[i] === ct[i]) merged.push(ct[i]!);
        else if (ct[i] === slide) merged.push(cm[i]!);
        else clashes.push(`“${labelOf(m, pm + i)}”`);
      });
    } else {
      const names = [...new Set([...cm.map((_, i) => labelOf(m, pm + i)), ...ct.map((_, i) => labelOf(t, pt + i))])];
      clashes.push(names.map((n) => `“${n}”`).join(", ") || `slide ${pb + 1}`);
    }
  };
  for (let i = 0; i < bt.length; i++) {
    const im = mineKept.get(i);
    const it = theirsKept.get(i);
    if (im === undefined || it === undefined || im < pm || it < pt) continue;
    settle(i, im, it);
    merged.push(bt[i]!);
    [pb, pm, pt] = [i + 1, im + 1, it + 1];
  }
  settle(bt.length, mt.length, tt.length);

  const around = (pick: (s: Split) => string, what: string) => {
    const [vb, vm, vt] = [pick(b), pick(m), pick(t)];
    if (vm === vb || vm === vt) return vt;
    if (vt === vb) return vm;
    clashes.push(what);
    return vt;
  };
  const head = around((s) => s.head, "the code before the first slide");
  const tail = around((s) => s.tail, "the code after the last slide");
  if (clashes.length > 0) {
    return { ok: false, reason: `Both versions changed the same part: ${clashes.join("; ")}.` };
  }
  const separator = t.separator ?? m.separator ?? b.separator ?? "\n";
  return { ok: true, source: `${head}${merged.join(separator)}${tail}` };
}

/** Theme tokens merge whole: whichever side changed them (both alike is fine). */
export function mergeTokens(base: string, mine: string, theirs: string): string | null {
  if (mine === base || mine === theirs) return theirs;
  if (theirs === base) return mine;
  return null;
}
