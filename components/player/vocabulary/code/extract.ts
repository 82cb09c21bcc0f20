// What the PPTX export makes of a <Code> block: one text box keeping every line, leading space, syntax
// colour and highlighted line.

import { type SlideItem } from "@/lib/contract/slide-model";
import { contentBox, pushBoxShapes, px, relative, size } from "@/components/player/export/extract-box";
import { collectRuns, isInline, lineHeightOf, textDirection } from "@/components/player/export/extract-text";

// Preformatted text (a Code block): the bands of its highlighted lines, then one text box with every
// line, every leading space and every colour of the browser's.
export function pushPreformatted(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
  for (const line of element.querySelectorAll("*")) {
    const lineStyle = getComputedStyle(line);
    if (isInline(line) || lineStyle.display === "none" || lineStyle.visibility !== "visible") continue;
    pushBoxShapes(line, lineStyle, relative(line.getBoundingClientRect(), origin), items);
  }
  const runs = collectRuns(element, { blocks: true });
  if (runs.every((run) => !run.text.trim())) return;
  const { align, rtl } = textDirection(style);
  // Lines that wrap hang under the first (a negative text-indent, as the Code lines have).
  const indents = [...element.querySelectorAll("*")]
    .filter((child) => !isInline(child))
    .map((child) => -px(getComputedStyle(child).textIndent));
  const hanging = Math.max(0, ...indents);
  items.push({
    kind: "text",
    rect: contentBox(element, style, origin),
    runs,
    align,
    ...(rtl ? { rtl } : {}),
    lineHeight: lineHeightOf(style),
    singleLine: false,
    preformatted: { hangingIndent: size(hanging) },
  });
}
