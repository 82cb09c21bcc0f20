// Marp and Slidev decks: one slide per source slide, in order, with its headings, every bullet, every code
// block, table, image and quote. Slidev layouts map to the vocabulary (cover and center → a centred Title,
// section → a section break, quote → Quote, two-cols and `::right::` → Columns, image-right/left → the
// slide's image on that side); Marp's backgrounds and directives (marp.ts) to the slide's image, its side,
// layout, colours and number; speaker notes come from HTML comments (Marp: every comment that is not a
// directive; Slidev: the last comment of the slide).

import { type Block, toBlocks } from "./blocks";
import { hasMarkup, parseMarkdown } from "./markdown";
import { type MarpDirectives, type MarpLook, readImageAlt } from "./marp";
import { blockNodes, columns, heading, image, joinNotes, quote, stack, text, title } from "./nodes";
import type { ElementNode, SlidePlan } from "./print";
import type { FrontMatter, SourceKind, SourceSlide } from "./split-slides";
import { countWords, labelText, stripQuoteMarks } from "./text";

type Slots = Array<{ name: string; blocks: Block[] }>;

const marpDirective =
  /^_?(?:class|paginate|header|footer|theme|style|size|math|backgroundColor|backgroundImage|backgroundPosition|backgroundRepeat|backgroundSize|color|headingDivider|lang|title|description|author|image|url|marp)\s*:/;

function isMarpDirective(comment: string): boolean {
  const lines = comment
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return comment.trim() === "fit" || (lines.length > 0 && lines.every((line) => marpDirective.test(line)));
}

export function planDeckSlide(
  slide: SourceSlide,
  index: number,
  kind: Exclude<SourceKind, "brief">,
  claim: (label: string) => string,
  marp: MarpDirectives | null = null,
): SlidePlan {
  const slots: Slots = slide.slots.map((slot) => ({
    name: slot.name,
    blocks: toBlocks(parseMarkdown(slot.text), slot.text, slot.line - 1),
  }));
  const all = slots.flatMap((slot) => slot.blocks);
  const comments = all.filter((block) => block.kind === "comment").map((block) => block.text);
  const directives = comments.filter(isMarpDirective);
  const notesFrom = kind === "slidev" ? comments.slice(-1) : comments.filter((comment) => !isMarpDirective(comment));
  const notes = joinNotes(notesFrom);
  for (const slot of slots) slot.blocks = slot.blocks.filter((block) => block.kind !== "comment");

  const layout = readLayout(slide.frontMatter, directives, index, slots);
  const firstHeading = slots.flatMap((slot) => slot.blocks).find((block) => block.kind === "heading");
  const firstText = slots.flatMap((slot) => slot.blocks).find((block) => block.kind === "paragraph" && !block.html);
  const label = claim(
    labelText(firstHeading?.text ?? (firstText?.kind === "paragraph" ? firstText.text : "")) || `Slide ${index + 1}`,
  );
  const base: SlidePlan = { label, notes, children: [] };
  let plan: SlidePlan;
  switch (layout) {
    case "cover":
    case "center":
    case "section":
      plan = { ...base, ...planCentered(slots, layout) };
      break;
    case "quote":
      plan = { ...base, ...planQuote(slots) };
      break;
    default:
      plan = { ...base, ...planContent(slots, layout, slide.frontMatter) };
  }
  return marp ? withLook(plan, marp.next(directives)) : plan;
}

/** Marp's class (lead, invert), colours and page number on a slide's plan. */
function withLook(plan: SlidePlan, look: MarpLook): SlidePlan {
  const styled = { ...plan };
  // "lead" centres whatever the slide holds; a picture running edge to edge stays so.
  if (look.lead && styled.layout === undefined) styled.layout = "center";
  if (look.invert) styled.background = "invert";
  if (look.backgroundColor || look.color) {
    styled.colors = { background: look.backgroundColor ?? undefined, text: look.color ?? undefined };
    // The slide's own colours replace the theme's fill.
    if (look.backgroundColor) delete styled.background;
  }
  if (look.paginate) styled.paginate = true;
  return styled;
}

type Layout =
  "cover" | "center" | "section" | "quote" | "two-cols" | "image-right" | "image-left" | "image" | "content";

function readLayout(frontMatter: FrontMatter, directives: string[], index: number, slots: Slots): Layout {
  const named = typeof frontMatter.layout === "string" ? frontMatter.layout.trim().toLowerCase() : "";
  const blocks = slots.flatMap((slot) => slot.blocks);
  const onlyTitle =
    blocks.length > 0 &&
    blocks.length <= 3 &&
    blocks[0]?.kind === "heading" &&
    blocks.slice(1).every((block) => block.kind === "paragraph" && countWords(block.text) <= 25);
  if (["cover", "intro"].includes(named)) return onlyTitle ? "cover" : "content";
  if (["center", "end", "fact", "statement"].includes(named)) return onlyTitle ? "center" : "content";
  if (named === "section") return onlyTitle ? "section" : "content";
  if (named === "quote") return "quote";
  if (named.startsWith("two-cols")) return "two-cols";
  if (named === "image-right" || named === "image-left" || named === "image") return named;
  if (slots.some((slot) => slot.name !== "default")) return "two-cols";
  const lead = directives.some((directive) => /_?class\s*:.*\blead\b/.test(directive));
  if ((lead || index === 0) && onlyTitle) return index === 0 ? "cover" : "center";
  if (blocks.length === 1 && blocks[0]?.kind === "heading") return "section";
  return "content";
}

function planCentered(slots: Slots, layout: "cover" | "center" | "section"): Partial<SlidePlan> {
  const blocks = slots.flatMap((slot) => slot.blocks);
  const [head, ...rest] = blocks;
  const paragraphs = rest.filter((block) => block.kind === "paragraph");
  // The first line under the title is its subtitle; one with markup (bold, code, a link) is a line of text
  // of its own instead, since a subtitle is a plain string.
  const first = paragraphs[0]?.kind === "paragraph" ? paragraphs[0] : undefined;
  const subtitle = first && !hasMarkup(first.runs) ? first.text : undefined;
  const more = paragraphs
    .slice(subtitle === undefined ? 0 : 1)
    .map((block) =>
      block.kind === "paragraph" ? text(block.runs, { tone: subtitle === undefined ? undefined : "muted" }) : null,
    );
  return {
    layout: "center",
    background: layout === "cover" ? "primary" : layout === "section" ? "surface" : undefined,
    children: [
      title(head?.kind === "heading" ? head.text : "", { subtitle }),
      ...more.filter((node): node is ElementNode => node !== null),
    ],
  };
}

function planQuote(slots: Slots): Partial<SlidePlan> {
  const blocks = slots.flatMap((slot) => slot.blocks);
  const quoted = blocks.find((block) => block.kind === "quote");
  if (quoted?.kind === "quote" && !quoted.by) {
    const after = blocks.find((block) => block.kind === "paragraph");
    if (after?.kind === "paragraph") quoted.by = after.text;
  }
  if (quoted?.kind === "quote") return { layout: "center", background: "surface", children: [quote(quoted)] };
  const texts = blocks.filter((block) => block.kind === "heading" || block.kind === "paragraph");
  const [words, who] = texts.map((block) => (block.kind === "heading" || block.kind === "paragraph" ? block.text : ""));
  return {
    layout: "center",
    background: "surface",
    children: [quote({ text: stripQuoteMarks(words ?? ""), by: who ?? null, role: null })],
  };
}

function planContent(slots: Slots, layout: Layout, frontMatter: FrontMatter): Partial<SlidePlan> {
  const main = slots.find((slot) => slot.name === "default")?.blocks ?? [];
  const others = slots.filter((slot) => slot.name !== "default");
  const children: ElementNode[] = [];
  const fmImage = typeof frontMatter.image === "string" ? frontMatter.image.trim() : "";

  if (layout === "two-cols" && others.length > 0) {
    // two-cols-header: a heading before the first slot marker heads the slide; otherwise each column has its own.
    const header = typeof frontMatter.layout === "string" && frontMatter.layout.includes("header");
    const leftSlot = others.find((slot) => slot.name === "left");
    const left = header && leftSlot ? leftSlot.blocks : main;
    if (header)
      children.push(
        ...blockNodes(main, { headingLevel: 2 }).map((node, i) =>
          i === 0 && node.tag === "Heading" ? withLevel(node, undefined) : node,
        ),
      );
    const columnSlots = [left, ...others.filter((slot) => slot !== leftSlot).map((slot) => slot.blocks)];
    children.push(columns(columnSlots.map((blocks) => stack(...blockNodes(blocks, { headingLevel: 2 })))));
    return { children };
  }

  // Marp's backgrounds (`bg`) belong to the slide wherever they stand among its blocks: one behind the
  // content, one beside it (`bg left`, `bg right:40%`); an image's `w:`/`h:` is its size.
  let background: { src: string; alt: string; fit: "cover" | "contain" | null } | null = null;
  let side: NonNullable<SlidePlan["imageSide"]> | null = null;
  let sideSrc = "";
  const kept = main.filter((block) => {
    if (block.kind !== "image") return true;
    const read = readImageAlt(block.alt);
    block.alt = read.alt;
    block.width = read.width ?? undefined;
    block.height = read.height ?? undefined;
    const bg = read.background;
    if (bg?.side && !side) {
      side = {
        side: bg.side,
        ...(bg.width ? { width: bg.width } : {}),
        ...(bg.fit === "contain" ? { fit: "contain" } : {}),
      };
      if (read.alt) side.alt = read.alt;
      sideSrc = block.src;
      return false;
    }
    if (bg && !bg.side && !background) {
      background = { src: block.src, alt: read.alt, fit: bg.fit };
      return false;
    }
    return true;
  });
  const [first, ...rest] = kept;
  const body = first?.kind === "heading" ? rest : kept;
  if (first?.kind === "heading") children.push(heading(first.runs));

  if (fmImage && (layout === "image-right" || layout === "image-left")) {
    side = { side: layout === "image-left" ? "left" : "right" };
    if (first?.kind === "heading") side.alt = first.text;
    sideSrc = fmImage;
  }
  if (fmImage && layout === "image") background = { src: fmImage, alt: "", fit: null };

  const nodes = blockNodes(body);
  const images = body.filter((block) => block.kind === "image");
  if (images.length === 1 && nodes.length > 1 && nodes.some((node) => node.tag === "Image") && !side) {
    const picture = nodes.find((node) => node.tag === "Image") as ElementNode;
    children.push(columns([stack(...nodes.filter((node) => node !== picture)), picture], "1:1", "center"));
  } else {
    children.push(...nodes);
  }
  const split = side as NonNullable<SlidePlan["imageSide"]> | null;
  if (split) return { children, image: sideSrc, imageSide: split };
  const behind = background as { src: string; alt: string; fit: "cover" | "contain" | null } | null;
  // A slide that is only its background is the picture itself, edge to edge, under no scrim.
  if (behind && children.length === 0) {
    const fit = behind.fit === "contain" ? "contain" : "cover";
    return { layout: "full-bleed", children: [image(behind.src, behind.alt, { fit })] };
  }
  return { children, image: behind?.src };
}

function withLevel(node: ElementNode, level: 2 | 3 | undefined): ElementNode {
  return { ...node, props: node.props.map(([name, value]) => [name, name === "level" ? level : value]) };
}
