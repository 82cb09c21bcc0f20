// A brief section as text: a heading, a lead and its bullets (five to a slide, more on slides marked
// "continued"), a series after a colon as a row of cards, with a single metric, a quote or the section's
// code, formulas, images and callouts beside the text (those under it when a metric or a quote is beside).

import type { Block } from "./blocks";
import { type Metric, shownByStats } from "./metrics";
import {
  BODY_WORDS,
  box,
  bullets,
  codeOrDiagram,
  columns,
  formula,
  grid,
  heading,
  image,
  itemText,
  MAX_BULLETS,
  quote,
  stack,
  stat,
  text,
} from "./nodes";
import type { ElementNode, SlidePlan } from "./print";
import { inlineQuote } from "./shapes";
import { countWords, leadSentences, shorten, splitSentences, splitSeries } from "./text";

export type TextSection = {
  content: Block[];
  /** The sentences of the section's paragraphs, read for a series and shown as the lead. */
  sentences: string[];
  /** Sentences from raw HTML: shown after the lead, never read for a series or a heading. */
  htmlSentences?: string[];
  metrics: Metric[];
  quotes: Block[];
  topic: string;
  label: () => string;
  notes: string;
  headingNode: (lead?: string | null) => ElementNode;
  /** The section has a heading of its own (else the topic was derived and is shown as the heading). */
  explicit: boolean;
  /** Points read from the opening sentence, shown before the bullets. */
  points?: string[];
  /** The slides continue one before them: "<label> (continued)", under a "Continued" kicker. */
  continued?: boolean;
};

export function planText(section: TextSection): SlidePlan[] {
  const { content, sentences, metrics, quotes, topic, label, notes, headingNode, explicit } = section;
  const points = section.points ?? [];
  const lists = content.filter((block) => block.kind === "list");
  // Points and sentences whose figures the Stats show are not said twice.
  const items = [
    ...points,
    ...lists.flatMap((block) => (block.kind === "list" ? block.items.map(itemText) : [])),
  ].filter((item) => !shownByStats(item, metrics));
  const numbered = lists.some((block) => block.kind === "list" && block.ordered);
  const visuals = visualNodes(content);
  const stats = metrics.slice(0, 4).map((metric) => stat(metric.value, metric.label, metric.detail));
  const quoteBlock = quotes[0];
  let sentencesLeft = sentences.filter((sentence) => !shownByStats(sentence, metrics));
  if (quoteBlock && quotes.length === 1 && quoteBlock.kind === "quote") {
    const inline = inlineQuote(sentencesLeft.join(" "));
    if (inline) sentencesLeft = splitSentences(inline.rest);
  }
  // Beside the text: the metrics as Stats (one above the other), else a quote, else the code, formulas and
  // images. When Stats or a quote take that place, the visuals go under the text: nothing of the section is
  // left out.
  const aside =
    stats.length > 0
      ? stack(...stats)
      : quoteBlock?.kind === "quote"
        ? box(quote({ ...quoteBlock, text: shorten(quoteBlock.text, 40, { ellipsis: true }) }))
        : null;
  const beside = aside ?? (visuals.length > 0 ? stack(...visuals) : null);
  const under = aside ? visuals : [];

  // A series after a colon ("three pillars: one thread per job, offline first, and …") is a row of cards,
  // when the section has no bullets and no visuals to show.
  let series: string[] | null = null;
  let seriesLead: string | null = null;
  if (items.length === 0 && visuals.length === 0 && sentencesLeft.length > 0) {
    const found = sentencesLeft.findIndex(
      (sentence) => /:\s/.test(sentence) && splitSeries(sentence.split(/:\s/)[1] ?? ""),
    );
    const sentence = sentencesLeft[found];
    if (sentence !== undefined) {
      const [before = "", after = ""] = sentence.split(/:\s(.*)/s);
      series = splitSeries(after);
      seriesLead = before;
      sentencesLeft = sentencesLeft.filter((_, index) => index !== found);
    }
  }

  const headingText = !explicit ? topic : seriesLead && countWords(seriesLead) <= 10 ? seriesLead : null;
  const shownHeading = headingNode(headingText && headingText !== topic ? headingText : null);
  const chunks = chunk(items, MAX_BULLETS);
  const plans: SlidePlan[] = [];
  const shownText = [...sentencesLeft, ...(section.htmlSentences ?? [])].join(" ");
  const lead = leadSentences(shownText, items.length > 0 || series ? 20 : BODY_WORDS);
  const offset = section.continued ? 1 : 0;
  const headingAt = (slide: number) => (slide === 0 ? shownHeading : heading(topic, { kicker: "Continued" }));
  const labelAt = (base: string, slide: number) =>
    slide === 0 ? base : `${base} (continued${slide > 1 ? ` ${slide}` : ""})`;
  const firstLabel = chunks.length > 0 ? label() : "";
  chunks.forEach((part, index) => {
    const main: ElementNode[] = [];
    const leadNode = index === 0 && lead ? text(lead, points.length > 0 ? { tone: "muted" } : { size: "lg" }) : null;
    if (leadNode && points.length === 0) main.push(leadNode);
    main.push(bullets(part, { numbered, shorten: true }));
    // Points read from the opening sentence come first; the sentences after them follow.
    if (leadNode && points.length > 0) main.push(leadNode);
    if (index === 0) main.push(...under);
    plans.push({
      label: labelAt(firstLabel, index + offset),
      notes,
      children: [headingAt(index + offset), ...withSide(main, index === 0 ? beside : null)],
    });
  });
  if (plans.length > 0) return plans;

  const main: ElementNode[] = [];
  if (series) {
    const cards = series.map((item) => box(text(shorten(item, 14, { ellipsis: true }), { size: "lg" })));
    main.push(grid(cards));
    if (lead) main.push(text(lead, { tone: "muted" }));
    return [{ label: label(), notes, children: [shownHeading, ...main] }];
  }
  if (lead) main.push(text(lead, { size: "lg" }));
  main.push(...under);
  if (main.length === 0 && !beside)
    return [{ label: label(), notes, layout: "center", children: [heading(topic, { align: "center" })] }];
  return [{ label: labelAt(label(), offset), notes, children: [headingAt(offset), ...withSide(main, beside)] }];
}

/** The section's code, formulas, images and callouts, in order: what goes beside its text. */
export function visualNodes(blocks: Block[]): ElementNode[] {
  return blocks.flatMap((block): ElementNode[] => {
    if (block.kind === "code") return [codeOrDiagram(block)];
    if (block.kind === "math") return [formula(block.tex)];
    if (block.kind === "image") return [image(block.src, block.alt, { fit: "contain" })];
    if (block.kind === "callout") return [box(...blockText(block.blocks))];
    return [];
  });
}

/** The main column with a visual beside it (a Stat takes the narrower column). */
function withSide(main: ElementNode[], extra: ElementNode | null): ElementNode[] {
  if (!extra) return main;
  if (main.length === 0) return [extra];
  const stats =
    extra.tag === "Stat" ||
    (extra.tag === "Stack" && extra.children.every((child) => typeof child !== "string" && child.tag === "Stat"));
  return [columns([stack(...main), extra], stats ? "3:2" : "1:1", "center")];
}

function blockText(blocks: Block[]): ElementNode[] {
  return blocks.flatMap((block) =>
    block.kind === "heading"
      ? [heading(block.text, { level: 3 })]
      : block.kind === "paragraph"
        ? [text(leadSentences(block.text, 25))]
        : [],
  );
}

function chunk<T>(items: T[], max: number): T[][] {
  if (items.length === 0) return [];
  const count = Math.ceil(items.length / max);
  const size = Math.ceil(items.length / count);
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
