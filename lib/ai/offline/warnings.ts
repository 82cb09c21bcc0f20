// What the offline generator tells the one who imported a document about it: the images that could not be
// imported (left out, a placeholder in their place) and the text that is in the speaker notes only because
// it did not fit on its slide. The import answers them as its warnings (lib/ai/import-deck.ts).

import type { Block } from "./blocks";
import { figuresOf } from "./metrics";
import { type ElementNode, Jsx, type SlidePlan } from "./print";
import { chartRequest } from "./shapes";
import { shorten, splitSentences } from "./text";

/** Something of the input the deck does not show as written, for the one who imported it. */
export type GeneratorWarning = {
  kind: "image-not-imported" | "text-in-notes";
  /** The label of the slide it concerns. */
  slide: string;
  message: string;
};

/**
 * The plans without the images that cannot be imported: an <Image> (or a picture beside the content) keeps
 * its place and alt text with no address, so the player draws its placeholder; a picture behind a slide's
 * content is left out.
 */
export function withoutImages(
  plans: SlidePlan[],
  missing: Array<{ url: string; message: string }>,
  warnings: GeneratorWarning[],
): SlidePlan[] {
  const reasons = new Map(missing.map((image) => [image.url, image.message]));
  return plans.map((plan) => {
    const warn = (url: string, shown: string) =>
      warnings.push({ kind: "image-not-imported", slide: plan.label, message: `${reasons.get(url)} ${shown}` });
    const strip = (node: ElementNode): ElementNode => ({
      ...node,
      props: node.props.map(([name, value]) => {
        if (node.tag !== "Image" || name !== "src" || typeof value !== "string" || !reasons.has(value))
          return [name, value];
        warn(value, "The slide shows a placeholder with its alt text instead.");
        return [name, ""];
      }),
      children: node.children.map((child) => (typeof child === "string" ? child : strip(child))),
    });
    const children = plan.children.map(strip);
    if (plan.image === undefined || !reasons.has(plan.image)) return { ...plan, children };
    warn(
      plan.image,
      plan.imageSide
        ? "The slide shows a placeholder where it stood."
        : "The slide is drawn without its background picture.",
    );
    return { ...plan, image: plan.imageSide ? "" : undefined, children };
  });
}

/**
 * What a section says that its slides do not show (a sentence cut for length, a bullet past the budget):
 * it is in the speaker notes, and the import says so. A sentence counts as shown when nearly all its words
 * of substance are on the slides, in any component, or when it states figures and the slides show each
 * (a Stat says it in its own words). A request for a chart is an instruction, not content.
 */
export function notesOnly(blocks: Block[], plans: SlidePlan[]): GeneratorWarning[] {
  const visible = plans.map((plan) => visibleText(plan.children)).join(" ");
  const shown = new Set(words(visible));
  const said = blocks.flatMap((block) =>
    block.kind === "paragraph"
      ? splitSentences(block.text)
      : block.kind === "list"
        ? block.items.map((item) => item.text)
        : block.kind === "quote"
          ? [block.text]
          : [],
  );
  return said
    .filter((sentence) => {
      if (chartRequest(sentence)) return false;
      const figures = figuresOf(sentence);
      if (figures.length > 0 && figures.every((figure) => visible.includes(figure))) return false;
      const own = words(sentence);
      return own.length >= 2 && own.filter((word) => shown.has(word)).length / own.length < 0.8;
    })
    .map((sentence) => ({
      kind: "text-in-notes" as const,
      slide: plans[0]?.label ?? "",
      message: `"${shorten(sentence, 14, { ellipsis: true })}" is in the speaker notes only: it did not fit on the slide.`,
    }));
}

/** Words of substance, lower case: what a reader would miss. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’.,$%-]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu) ?? [])
    .map((word) => word.replace(/[.,]+$/, ""))
    .filter((word) => word.length > 3 || /\d/.test(word));
}

/** Every text an element tree shows: its children and its props' strings (items, details, subtitles). */
function visibleText(nodes: Array<ElementNode | string>): string {
  const values = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : value instanceof Jsx
        ? [visibleText(value.children)]
        : Array.isArray(value)
          ? value.flatMap(values)
          : value && typeof value === "object" && !("children" in value)
            ? Object.values(value).flatMap(values)
            : [];
  return nodes
    .map((node) =>
      typeof node === "string"
        ? node
        : [...node.props.flatMap(([, value]) => values(value)), visibleText(node.children)].join(" "),
    )
    .join(" ");
}
