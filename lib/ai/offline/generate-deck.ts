// The offline deck generator: Markdown, Marp and Slidev decks, outlines and prose briefs turned into a
// deck-tsx module without a model. The text goes through remark (markdown.ts), slide decks keep their
// slides (plan-deck.ts) and briefs are laid out section by section (brief.ts, plan-section.ts) following
// the authoring brief's density rules. `markdownToDeck` is the import's entry: it takes any size the
// caller allows and refuses only input it cannot read, as a 422 naming the line.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { toBlocks } from "./blocks";
import { type Brief, readBrief, type Section } from "./brief";
import { parseMarkdown } from "./markdown";
import { MarpDirectives } from "./marp";
import { joinNotes, notesOf, text, title as titleNode } from "./nodes";
import { planDeckSlide } from "./plan-deck";
import { deriveHeading, planSection } from "./plan-section";
import { printModule, type SlidePlan } from "./print";
import { normalizeSource, splitSource } from "./split-slides";
import { capitalize, countWords, labelText, leadSentences, splitSentences, squash } from "./text";
import { type GeneratorWarning, notesOnly, withoutImages } from "./warnings";

export type GeneratedDeck = { title: string; source: string; outline: string[]; warnings: GeneratorWarning[] };

/** Markdown (a Marp or Slidev deck, an outline, a brief) → a slides deck's title and module. */
export function markdownToDeck(markdown: string, options: { title?: string } = {}): { title: string; source: string } {
  const { title, source } = generateOfflineDeck({ brief: markdown, format: "slides", title: options.title });
  return { title, source };
}

export type OfflineInput = {
  brief: string;
  title?: string;
  format: DeckFormat;
  /** Images that cannot be imported, and why: each is left out, an Image showing its placeholder in its place. */
  missingImages?: Array<{ url: string; message: string }>;
};

export function generateOfflineDeck(input: OfflineInput): GeneratedDeck {
  const text = normalizeSource(input.brief);
  if (text.trim().length === 0)
    throw new AppError("invalid_request", "Line 1: the text is empty; there is nothing to make slides from.");
  const split = splitSource(text);
  const labels = new Set<string>();
  const claim = (wanted: string): string => {
    const base = squash(wanted) || "Slide";
    let label = base;
    for (let suffix = 2; labels.has(label.toLowerCase()); suffix++) label = `${base} (${suffix})`;
    labels.add(label.toLowerCase());
    return label;
  };

  let plans: SlidePlan[];
  let found: string | null;
  const warnings: GeneratorWarning[] = [];
  if (split.kind !== "brief") {
    // A slide with nothing to show (only a comment, only front matter) is left out.
    const marp = split.kind === "marp" ? new MarpDirectives(split.frontMatter) : null;
    plans = split.slides
      .map((slide, index) => planDeckSlide(slide, index, split.kind as "marp", claim, marp))
      .filter((plan) => plan.children.length > 0 || plan.image !== undefined);
    const fromHead = typeof split.frontMatter.title === "string" ? squash(split.frontMatter.title) : null;
    const firstTitle = plans[0]?.children.find((node) => node.tag === "Title" || node.tag === "Heading")?.children[0];
    found = fromHead || (typeof firstTitle === "string" ? firstTitle : null);
  } else {
    const brief = readBrief(toBlocks(parseMarkdown(split.body), split.body, split.bodyLine - 1), split.frontMatter);
    // Without a title line or H1, the first section's heading (or the gist of the first sentence not from
    // raw HTML) names the deck.
    const first = brief.sections[0];
    const firstText = brief.sections
      .flatMap((section) => section.blocks)
      .find((block) => block.kind === "paragraph" && !block.html);
    found =
      brief.title ??
      first?.heading ??
      (firstText?.kind === "paragraph" ? deriveHeading(splitSentences(firstText.text)).heading : null);
    // The cover says what the brief calls itself; a name the deck was given stays the deck's name.
    const shownTitle = brief.title ?? pickTitle(input.title, found);
    plans = brief.title || brief.sections.length > 0 ? planBrief(brief, shownTitle, claim, warnings) : [];
  }
  if (plans.length === 0) {
    // Front matter that ends on the last line leaves a body that starts past the end: name the last line.
    const line = Math.min(split.bodyLine, text.split("\n").length);
    throw new AppError(
      "invalid_request",
      `Line ${line}: the text has no slide content (only front matter or empty slides).`,
    );
  }
  const title = pickTitle(input.title, found);
  const shown = input.missingImages?.length ? withoutImages(plans, input.missingImages, warnings) : plans;
  return {
    title,
    source: printModule(title, shown, input.format),
    outline: plans.map((plan) => plan.label),
    warnings,
  };
}

function pickTitle(given: string | undefined, found: string | null): string {
  const explicit = given ? squash(given) : "";
  // A deck created without a name carries a placeholder; the text's own title says more.
  if (explicit && !/^untitled\b/i.test(explicit)) return explicit;
  return squash(found ?? "") || explicit || "Untitled deck";
}

const closingHeading =
  /\b(?:next steps?|what'?s next|the ask|our ask|asks?|call to action|decisions?|recommendations?|conclusions?|summary|wrap[- ]?up|takeaways?|closing|thank you|thanks|questions|q&a|get started|join us|contact us)\b/i;
const askSentence =
  /^(?:we\s+(?:need|ask|request|want|propose|recommend)|please\s+|approve|fund|decide|join|sign\s+up|help\s+us|our\s+ask)\b/i;

function planBrief(
  brief: Brief,
  title: string,
  claim: (label: string) => string,
  warnings: GeneratorWarning[],
): SlidePlan[] {
  const sections = [...brief.sections];
  const closing = takeClosing(sections);
  const plans: SlidePlan[] = [planCover(brief, title, claim)];
  for (const section of sections) {
    const planned = planSection(section, claim);
    warnings.push(...notesOnly(section.blocks, planned));
    plans.push(...planned);
  }
  const end = planClosing(closing, title, claim);
  if (closing) warnings.push(...notesOnly(closing.blocks, [end]));
  plans.push(end);
  return plans;
}

function planCover(brief: Brief, title: string, claim: (label: string) => string): SlidePlan {
  // "Launching Tidewater, the shared inbox for field teams": the apposition reads as the subtitle.
  let shown = title;
  let subtitle = brief.subtitle;
  const apposition = /^(.{6,60}?),\s+((?:the|a|an|our)\s+.{6,80})$/i.exec(title);
  if (!subtitle && apposition && countWords(title) > 5) {
    shown = apposition[1] ?? title;
    subtitle = capitalize(apposition[2] ?? "");
  }
  let kicker = brief.kicker ? shortKicker(brief.kicker) : undefined;
  // "Northwind Analytics — Q3 Business Review": the name above, the occasion as the title.
  const dash = /^(.{3,40}?)\s+[—–]\s+(.{3,60})$/.exec(shown);
  if (dash && !kicker) {
    kicker = dash[1];
    shown = dash[2] ?? shown;
  }
  return {
    label: claim("Cover"),
    notes: joinNotes([
      `Welcome. This deck is "${title}".`,
      subtitle ? `${subtitle.replace(/\.$/, "")}.` : null,
      brief.byline ? `Presented by ${brief.byline.replace(/\.$/, "")}.` : null,
      ...brief.notes,
    ]),
    layout: "center",
    background: "primary",
    children: [
      titleNode(shown, { kicker, subtitle: subtitle ?? undefined }),
      // Who presents it stays on the cover, under the title.
      ...(brief.byline ? [text(brief.byline.replace(/\.$/, ""))] : []),
    ],
  };
}

function shortKicker(kicker: string): string {
  return capitalize(kicker.replace(/^(?:the|a|an)\s+/i, "")).replace(/[.]$/, "");
}

/** The last section becomes the ending when it reads like one: "The ask", "Next steps", or an ask in prose. */
function takeClosing(sections: Section[]): Section | null {
  const last = sections.at(-1);
  if (!last || sections.length < 2) return null;
  const words = countWords(notesOf(last.blocks));
  const heads = last.heading !== null && closingHeading.test(last.heading);
  const first = last.blocks.find((block) => block.kind === "paragraph");
  const asks = last.heading === null && first?.kind === "paragraph" && askSentence.test(first.text);
  const onlyText = last.blocks.every(
    (block) => block.kind === "paragraph" || block.kind === "list" || block.kind === "comment",
  );
  if (!(heads || asks) || !onlyText || words > 60) return null;
  sections.pop();
  return last;
}

function planClosing(section: Section | null, title: string, claim: (label: string) => string): SlidePlan {
  const base = { layout: "center" as const, background: "accent" as const };
  if (!section) {
    return {
      ...base,
      label: claim("Thank you"),
      notes: `Thank the audience for their time and open the floor for questions on "${title}".`,
      children: [titleNode("Thank you", { kicker: "Questions and discussion", subtitle: title })],
    };
  }
  const heading = section.heading ?? "The ask";
  const notes = notesOf(section.blocks);
  const list = section.blocks.find((block) => block.kind === "list");
  const paragraph = section.blocks
    .filter((block) => block.kind === "paragraph")
    .map((block) => (block.kind === "paragraph" ? block.text : ""))
    .join(" ");
  const children = [];
  if (list?.kind === "list" && list.items.length <= 5) {
    children.push(titleNode(heading, { subtitle: paragraph ? leadSentences(paragraph, 20) : undefined }));
    children.push(text(list.items.map((item) => item.text.replace(/\.$/, "")).join(" · "), { size: "lg" }));
  } else {
    const sentences = splitSentences(paragraph);
    const subtitle = leadSentences(sentences.join(" "), 35);
    children.push(titleNode(heading, { subtitle: subtitle || undefined }));
  }
  return { ...base, label: claim(labelText(heading)), notes, children };
}
