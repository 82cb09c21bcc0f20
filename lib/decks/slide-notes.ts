import type { DeckFormat } from "@/lib/contract/deck";
import { attributeText, findAttribute, locateSlides } from "@/lib/source/transform/tsx-module";

// Each slide's speaker notes as written in the source (<Slide notes="…">), for a reader of a deck who sees
// it without editing: the editor's read-only view lists them beside the preview. Notes written some other
// way (an expression, a mapped slide) are left out rather than guessed.
export function slideNotes(source: string, format: DeckFormat): string[] {
  try {
    return locateSlides(source, format).slides.map((slide) => {
      const value = findAttribute(slide.attributes, "notes")?.value;
      return (value && attributeText(source, value)?.trim()) || "";
    });
  } catch {
    return [];
  }
}
