// One brief section → one slide (two when it really holds two things, e.g. risks and the success metrics,
// or more bullets than a slide takes). The section's shape picks the component: a table → Table (with a
// Chart when the brief asks for one, and the section's list or code beside it or after it: plan-table.ts),
// dated items → Timeline, a numbered procedure → Steps, "X vs Y" → two cards side by side, stated metrics
// → Stats, a quote → Quote, a series → cards, else a heading with a lead and bullets (plan-text.ts). The
// full text always goes to the notes.

import type { Block } from "./blocks";
import type { Section } from "./brief";
import { findMetrics, type Metric, shownByStats } from "./metrics";
import {
  BODY_WORDS,
  box,
  bullets,
  columns,
  grid,
  heading,
  itemText,
  joinNotes,
  notesOf,
  quote,
  stat,
  text,
} from "./nodes";
import { planTables } from "./plan-table";
import { planText } from "./plan-text";
import { el, type ElementNode, type PropValue, type SlidePlan } from "./print";
import { chartRequest, comparison, datedList, datedSentences, inlineQuote, procedure } from "./shapes";
import { capitalize, countWords, labelText, leadSentences, shorten, splitSentences, splitSeries, squash } from "./text";

type Claim = (label: string) => string;

/** Stats on one slide: two rows of three at most. */
const MAX_STATS = 6;

export function planSection(section: Section, claim: Claim): SlidePlan[] {
  const notes = joinNotes([notesOf(section.blocks), ...commentsOf(section.blocks)]);
  const content = section.blocks.filter((block) => block.kind !== "comment");
  const paragraphs = content.filter((block) => block.kind === "paragraph");
  // Text from raw HTML is shown and kept in the notes, but never heads a slide, asks for a chart, states a
  // metric or a quote: only the other paragraphs are read for those.
  const prose = content.filter((block) => block.kind !== "paragraph" || !block.html);
  let sentences = prose.flatMap((block) => (block.kind === "paragraph" ? splitSentences(block.text) : []));
  const fromHtml = content.flatMap((block) =>
    block.kind === "paragraph" && block.html ? splitSentences(block.text) : [],
  );

  // "Show this as a chart: every region grew" asks for a chart and states the takeaway.
  let chartAsked = false;
  let takeaway: string | null = null;
  sentences = sentences.filter((sentence) => {
    const request = chartRequest(sentence);
    if (!request) return true;
    chartAsked = true;
    takeaway ??= request.takeaway;
    return false;
  });
  const derived = section.heading ? null : deriveHeading(sentences);
  const points = derived?.points ?? [];
  const firstItem = content.find((block) => block.kind === "list");
  const fallback = firstItem?.kind === "list" ? shorten(firstItem.items[0]?.text ?? "", 8) : "";
  const topic = section.heading || derived?.heading || fallback || "Overview";
  if (derived) sentences = derived.rest;
  const label = () => claim(labelText(topic) || "Slide");
  const headingNode = (lead?: string | null) =>
    lead && section.heading && countWords(section.heading) <= 5
      ? heading(lead, { kicker: section.heading })
      : heading(lead ?? topic);
  const slide = (children: ElementNode[], extra: Partial<SlidePlan> = {}): SlidePlan => ({
    label: label(),
    notes,
    children,
    ...extra,
  });

  if (content.some((block) => block.kind === "table")) {
    return planTables({
      content,
      sentences: [...sentences, ...fromHtml],
      chartAsked,
      takeaway,
      comments: commentsOf(section.blocks),
      topic,
      label,
      headingNode,
    });
  }

  for (const block of content) {
    const milestones = datedList(block);
    if (milestones) {
      const intro = leadSentences(sentences.join(" "), 20);
      return [slide([headingNode(intro && countWords(intro) <= 12 ? intro : null), timeline(milestones)])];
    }
  }
  const phases = content.every((block) => block.kind === "paragraph") ? datedSentences(sentences) : null;
  if (phases) {
    const intro = phases.others[0]?.replace(/[.!]$/, "");
    return [slide([headingNode(intro && countWords(intro) <= 10 ? intro : null), timeline(phases.milestones)])];
  }

  const versus = comparison(section.heading, prose);
  if (versus) {
    const cards = versus.sides.map((side) =>
      box(heading(side.name, { level: 3 }), bullets(side.points, { shorten: true })),
    );
    const rest = versus.rest.join(" ");
    return [
      slide([heading(topic), columns(cards, "1:1"), ...(rest ? [text(leadSentences(rest, 25), { size: "lg" })] : [])]),
    ];
  }

  const list = content.find((block) => block.kind === "list");
  const steps = list ? procedure(list) : null;
  if (steps && content.filter((block) => block.kind === "list").length === 1) {
    const long = steps.some((step) => countWords(step.title) > 6 || countWords(step.detail ?? "") > 12);
    return [
      slide([
        headingNode(null),
        el("Steps", [
          ["direction", long ? "vertical" : undefined],
          [
            "items",
            steps.map((step): PropValue =>
              step.detail ? { title: step.title, detail: step.detail } : { title: step.title },
            ),
          ],
        ]),
      ]),
    ];
  }

  const quotes = content.filter((block) => block.kind === "quote");
  const inline = quotes.length === 0 && paragraphs.length > 0 ? inlineQuote(sentences.join(" ")) : null;
  if (inline) quotes.push({ kind: "quote", text: inline.text, by: inline.by, role: inline.role, line: 0 });
  const others = content.filter((block) => block.kind !== "quote" && block.kind !== "paragraph");
  if (quotes.length > 0 && others.length === 0 && (inline ? countWords(inline.rest) <= 12 : sentences.length === 0)) {
    const [first, ...more] = quotes;
    return [first, ...more].map((block) =>
      slide([quote(block as Extract<Block, { kind: "quote" }>)], {
        layout: "center",
        background: "surface",
        label: claim(quoteLabel(section, block)),
      }),
    );
  }

  // Every figure the section states is a Stat with its comparison: in its sentences and in its bullets.
  const items = content.flatMap((block) => (block.kind === "list" ? block.items.map(itemText) : []));
  const metrics = [...sentences, ...items].flatMap(findMetrics).slice(0, MAX_STATS);
  // A list whose every point is a figure is shown by its Stats.
  const listLeft = list !== undefined && items.some((item) => !shownByStats(item, metrics));
  if (metrics.length >= 2 && !listLeft) {
    const used = new Set(sentences.filter((sentence) => shownByStats(sentence, metrics)));
    const other = sentences.filter((sentence) => !used.has(sentence));
    const twoThings =
      other.some((sentence) => /:\s/.test(sentence) && splitSeries(sentence.split(/:\s/)[1] ?? "")) ||
      countWords(other.join(" ")) > 25;
    if (!twoThings)
      return planMetrics([...sentences, ...fromHtml], metrics, section, topic, label(), notes, headingNode);
    // The section says two things (e.g. its risks, then how success is measured): a slide for each.
    const first = planText({
      content,
      sentences: other,
      htmlSentences: fromHtml,
      metrics: [],
      quotes,
      topic,
      label,
      notes: other.join(" "),
      headingNode,
      explicit: section.heading !== null,
    });
    const sentence = metrics[0]?.sentence ?? "";
    const lead = metricsHeading(sentence);
    const metricSentences = [sentence, ...[...used].filter((other) => other !== sentence)];
    return [
      ...first,
      ...planMetrics(
        metricSentences,
        metrics,
        { heading: null, blocks: [] },
        lead,
        claim(labelText(lead)),
        metricSentences.join(" "),
        () => heading(lead),
      ),
    ];
  }

  return planText({
    content,
    sentences,
    htmlSentences: fromHtml,
    metrics,
    quotes,
    topic,
    label,
    notes,
    headingNode,
    explicit: section.heading !== null,
    points,
  });
}

/** "We will measure success by weekly active technicians (target…)" → "We will measure success". */
function metricsHeading(sentence: string): string {
  const clause = (sentence.split(/[(:;]/)[0] ?? sentence).trim();
  const by = /^(.{8,}?)\s+by\s+/i.exec(clause);
  const text = by && countWords(by[1] ?? "") >= 3 ? (by[1] ?? "") : shorten(clause, 8);
  return capitalize(text.replace(/[.,]$/, ""));
}

function quoteLabel(section: Section, block: Block | undefined): string {
  if (section.heading) return labelText(section.heading);
  return block?.kind === "quote" && block.by ? labelText(block.by) : "Quote";
}

function planMetrics(
  sentences: string[],
  metrics: Metric[],
  section: Section,
  topic: string,
  label: string,
  notes: string,
  headingNode: (lead?: string | null) => ElementNode,
): SlidePlan[] {
  const used = new Set(sentences.filter((sentence) => shownByStats(sentence, metrics)));
  const first = sentences[0] ?? "";
  // "Q3 was our best quarter: revenue reached…": the clause before the colon is the takeaway.
  const head = /^([^:;]{3,60}?):\s/.exec(first)?.[1];
  const lead = head && countWords(head) <= 8 && findMetrics(head).length === 0 ? head : null;
  const rest = sentences.filter((sentence) => !used.has(sentence)).join(" ");
  const title = lead ?? (section.heading ? null : shorten(topic, 8));
  return [
    {
      label,
      notes,
      children: [
        headingNode(title),
        grid(metrics.map((metric) => stat(metric.value, metric.label, metric.detail))),
        ...(rest ? [text(leadSentences(rest, BODY_WORDS), { tone: "muted" })] : []),
      ],
    },
  ];
}

function timeline(milestones: Array<{ date: string; title: string; detail?: string }>): ElementNode {
  const long = milestones.length > 5 || milestones.some((item) => countWords(item.title) > 6);
  return el("Timeline", [
    ["direction", long ? "vertical" : undefined],
    [
      "items",
      milestones.map((item): PropValue =>
        item.detail
          ? { date: item.date, title: item.title, detail: shorten(item.detail, 10, { ellipsis: true }) }
          : { date: item.date, title: item.title },
      ),
    ],
  ]);
}

/** A heading for a section without one, from its first sentence; the sentences left for the body. */
export function deriveHeading(sentences: string[]): { heading: string; rest: string[]; points?: string[] } {
  const [first = "", ...rest] = sentences;
  // "Tidewater puts A, works B, and hands C": the first clause heads, the others are its points.
  const parts = splitSeries(first);
  if (
    parts &&
    parts.length >= 3 &&
    countWords(parts[0] ?? "") <= 14 &&
    parts.slice(1).every((part) => /^[A-Z][a-z]+s\b/.test(part))
  ) {
    return { heading: parts[0] ?? "", rest, points: parts.slice(1) };
  }
  const clause = /^(.{8,90}?)(?:;\s+|:\s+|\s+[—–]\s+)(.+)$/.exec(first);
  if (clause && countWords(clause[1] ?? "") <= 12 && countWords(clause[1] ?? "") >= 3) {
    // A clause that announces a series keeps its sentence, so the series still reads as one.
    if (first.includes(":") && splitSeries(clause[2] ?? ""))
      return { heading: capitalize(squash(clause[1] ?? "")), rest: sentences };
    return { heading: capitalize(squash(clause[1] ?? "")), rest: [capitalize(squash(clause[2] ?? "")), ...rest] };
  }
  const clean = first.replace(/[.!?]$/, "");
  if (countWords(clean) <= 10) return { heading: capitalize(clean), rest };
  return { heading: capitalize(shorten(clean, 9)), rest: sentences };
}

function commentsOf(blocks: Block[]): string[] {
  return blocks
    .filter((block) => block.kind === "comment")
    .map((block) => (block.kind === "comment" ? block.text : ""));
}
