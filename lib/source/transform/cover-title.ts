import type * as t from "@babel/types";
import type { DeckFormat } from "@/lib/contract/deck";
import { locateSlides, parseModule } from "./tsx-module";

// "Use template" with a typed title: the new deck's cover (its first slide or beat) says that title. The
// text inside the cover's first <Title> is replaced by the typed one, written as JSX text when it can be and
// as a string expression otherwise; every other byte of the module stays. A module whose cover has no
// <Title> with text inside (or that does not parse) is returned unchanged.

type Node = t.Node & Record<string, unknown>;

function firstTitle(node: unknown, from: number, to: number): t.JSXElement | null {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = firstTitle(child, from, to);
      if (found) return found;
    }
    return null;
  }
  if (!node || typeof node !== "object" || typeof (node as { type?: unknown }).type !== "string") return null;
  const current = node as Node;
  if ((current.end ?? 0) <= from || (current.start ?? 0) >= to) return null;
  if (current.type === "JSXElement") {
    const element = current as unknown as t.JSXElement;
    const name = element.openingElement.name;
    if (name.type === "JSXIdentifier" && name.name === "Title" && element.closingElement) return element;
  }
  for (const [key, value] of Object.entries(current)) {
    if (key === "loc" || key === "leadingComments" || key === "trailingComments") continue;
    const found = firstTitle(value, from, to);
    if (found) return found;
  }
  return null;
}

/** The module with `title` as the text of its cover's first <Title>. */
export function retitleCover(source: string, format: DeckFormat, title: string): string {
  try {
    const cover = locateSlides(source, format).slides[0];
    if (!cover) return source;
    const element = firstTitle(parseModule(source).program, cover.start, cover.end);
    if (!element?.closingElement || element.children.length === 0) return source;
    const from = element.openingElement.end!;
    const to = element.closingElement.start!;
    const plain = /^[^{}<>&\n]*$/.test(title) && title.trim() === title;
    const text = plain ? title : `{${JSON.stringify(title)}}`;
    return `${source.slice(0, from)}${text}${source.slice(to)}`;
  } catch {
    return source;
  }
}
