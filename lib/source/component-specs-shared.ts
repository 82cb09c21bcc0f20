// What the vocabulary's component files (lib/source/component-specs-*.ts) share: props that take one of a list,
// and the props that mean the same on every component.

import { aligns, gaps } from "@/lib/contract/prop-values";
import type { PropSpec } from "./component-specs";

/** A prop that takes one of a list: its type text is the list's values as TypeScript literals. */
export function choice(values: readonly (string | number)[]): Pick<PropSpec, "type" | "values"> {
  return { type: values.map((value) => JSON.stringify(value)).join(" | "), values };
}

// Shared props: the same word means the same thing on every component, so a model that learned `tone`
// on Box can use it on Text without looking it up again.
// Without align, text is aligned to its own start: each text element takes its direction from its first
// letters (dir="auto"), so English starts on the left and Arabic or Hebrew on the right. An explicit
// "left" or "right" is physical: it stays as written in any script.
export const alignProp: PropSpec = {
  name: "align",
  ...choice(aligns),
  doc: 'Horizontal text alignment. Default: where the text starts, left for English, right for Arabic or Hebrew. "left" and "right" are physical in any script.',
};
export const gapProp: PropSpec = {
  name: "gap",
  ...choice(gaps),
  doc: 'Space between children, in multiples of --space. Default "md".',
};
