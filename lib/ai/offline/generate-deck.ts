// The offline deck generator: turns a parsed brief into a deck-tsx module without a model. It lays
// out what the brief says rather than inventing content, following the authoring brief's density
// rules (one idea per slide, at most five short bullets, detail in the notes). Output is built as a
// small element tree and printed, so every user string passes through one escaping path.

import { capitalize } from "@/lib/contract/text";
import {
  countWords,
  deriveHeading,
  parseBrief,
  shortenText,
  splitSentences,
  type BriefQuote,
  type BriefSection,
  type BriefStat,
  type ParsedBrief,
} from "@/lib/ai/offline/parse-brief";
import { vocabulary } from "@/lib/deck/vocabulary";
import type { DeckFormat } from "@/lib/contract/deck";

export type GeneratedDeck = { source: string; outline: string[] };

const MAX_BULLETS = 5;
const POINT_WORDS = 12;
const LEAD_WORDS = 40;
const SIDE_WORDS = 30;
const QUOTE_WORDS = 50;
const LABEL_WORDS = 6;
const STATS_PER_SLIDE = 4;
const PRINT_WIDTH = 120;

type PropValue = string | number | string[];
type ElementNode = { tag: string; props: Array<[string, PropValue]>; children: ChildNode[] };
type ChildNode = ElementNode | string;

type SlidePlan = {
  label: string;
  notes: string;
  layout?: "center";
  background?: "primary" | "accent" | "surface";
  height?: "screen";
  children: ElementNode[];
};

type Context = {
  format: DeckFormat;
  /** Slides hide detail in notes; a webpage has no notes, so it shows the full text instead. */
  condense: boolean;
  labels: Set<string>;
};

export function generateOfflineDeck(input: { brief: string; title?: string; format: DeckFormat }): GeneratedDeck {
  const parsed = parseBrief(input.brief);
  const title = pickTitle(input.title, parsed);
  const context: Context = { format: input.format, condense: input.format === "slides", labels: new Set() };

  const body = [...parsed.sections];
  const closingSection = takeClosingSection(body);

  // Reserved first so a section called "Agenda" or "Cover" gets the suffix, not the fixed slides.
  const coverLabel = claimLabel(context, input.format === "slides" ? "Cover" : "Hero");
  const agendaLabel =
    input.format === "slides" && body.length >= 3 && body.length <= 8 ? claimLabel(context, "Agenda") : null;

  const plans: SlidePlan[] = [planCover(parsed, title, coverLabel, context)];
  if (agendaLabel) plans.push(planAgenda(body, agendaLabel));
  for (const section of body) plans.push(...planSection(section, context));
  plans.push(planClosing(closingSection, title, context));

  return { source: printModule(title, plans, input.format), outline: plans.map((plan) => plan.label) };
}

function pickTitle(given: string | undefined, parsed: ParsedBrief): string {
  const explicit = given?.replace(/\s+/g, " ").trim();
  // A deck created without a name carries a placeholder; the brief's own title says more.
  if (explicit && !/^untitled\b/i.test(explicit)) return explicit;
  return parsed.title ?? parsed.sections[0]?.heading ?? explicit ?? "Untitled deck";
}

// ---------------------------------------------------------------------------------------------
// Slide plans.

function planCover(parsed: ParsedBrief, title: string, label: string, context: Context): SlidePlan {
  const kicker = parsed.kicker ?? (parsed.audience ? `For ${parsed.audience}` : undefined);
  const props: Array<[string, PropValue]> = [];
  if (kicker) props.push(["kicker", kicker]);
  if (parsed.subtitle) props.push(["subtitle", parsed.subtitle]);
  props.push(["align", "center"]);
  const notes = [
    `Welcome. This deck is "${title}".`,
    parsed.subtitle,
    parsed.audience && parsed.kicker ? `Audience: ${parsed.audience}` : null,
    ...parsed.notes,
    parsed.sections.length === 0
      ? "Drafted offline from a short brief: add sections (## headings with bullets) to the brief for more slides."
      : null,
  ];
  return {
    label,
    notes: joinNotes(notes),
    layout: "center",
    background: "primary",
    height: context.format === "webpage" ? "screen" : undefined,
    children: [el("Title", props, title)],
  };
}

function planAgenda(sections: BriefSection[], label: string): SlidePlan {
  const items = sections.map((section) => shortenText(section.heading, 8).text);
  return {
    label,
    notes: joinNotes(["What we will cover:", ...items.map((item, index) => `${index + 1}. ${item}`)]),
    children: [
      el("Heading", [["kicker", "Agenda"]], "What we will cover"),
      el("Bullets", [
        ["marker", "number"],
        ["items", items],
      ]),
    ],
  };
}

const closingHeading =
  /\b(?:next steps?|what'?s next|the ask|our ask|call to action|decisions?|recommendations?|conclusions?|summary|wrap[- ]?up|takeaways?|closing|thank you|thanks|questions|q&a|get started|join us|contact us)\b/i;

/** The last section becomes the ending when it reads like one and fits on a closing slide. */
function takeClosingSection(sections: BriefSection[]): BriefSection | null {
  const last = sections[sections.length - 1];
  if (!last || !closingHeading.test(last.heading)) return null;
  const fits =
    last.points.length <= MAX_BULLETS &&
    last.paragraphs.length <= 1 &&
    last.quotes.length === 0 &&
    (last.points.length === 0 || last.paragraphs.length === 0);
  if (!fits) return null;
  sections.pop();
  return last;
}

function planClosing(section: BriefSection | null, title: string, context: Context): SlidePlan {
  const base = { layout: "center" as const, background: context.condense ? ("accent" as const) : ("surface" as const) };
  if (!section) {
    return {
      ...base,
      label: claimLabel(context, "Thank you"),
      notes: joinNotes([`Thank the audience for their time and open the floor for questions on "${title}".`]),
      children: [
        el(
          "Title",
          [
            ["kicker", "Questions and discussion"],
            ["subtitle", title],
            ["align", "center"],
          ],
          "Thank you",
        ),
      ],
    };
  }
  const label = claimLabel(context, labelFrom(section.heading));
  const notes = describeSection(section);
  if (section.points.length > 0) {
    const kicker = /next steps?/i.test(section.heading) ? [] : ([["kicker", "Next steps"]] as Array<[string, string]>);
    return {
      ...base,
      label,
      notes,
      children: [
        el("Heading", [...kicker, ["align", "center"]], section.heading),
        el("Bullets", [
          ["marker", section.numbered ? "number" : "arrow"],
          ["items", section.points.map((point) => formatPoint(point, context))],
        ]),
      ],
    };
  }
  const paragraph = section.paragraphs[0];
  const props: Array<[string, PropValue]> = [];
  if (paragraph) props.push(["subtitle", leadText(paragraph, section.heading, 20, context) || paragraph]);
  props.push(["align", "center"]);
  return { ...base, label, notes, children: [el("Title", props, section.heading)] };
}

function planSection(section: BriefSection, context: Context): SlidePlan[] {
  const { heading, points, paragraphs, stats, quotes } = section;
  const notes = describeSection(section);
  const base = labelFrom(heading);

  if (points.length + paragraphs.length + stats.length + quotes.length === 0) {
    return [
      {
        label: claimLabel(context, base),
        notes,
        layout: "center",
        children: [el("Title", [["align", "center"]], heading)],
      },
    ];
  }

  if (points.length === 0 && paragraphs.length === 0 && stats.length === 0) {
    return planQuotes(quotes, base, notes, context, true);
  }

  const sentences = [...paragraphs.flatMap(splitSentences), ...points];
  const unstated = sentences.filter((sentence) => !stats.some((stat) => stat.source === sentence));
  if (stats.length >= 2 && unstated.length <= 1) {
    return [...planStats(section, unstated[0], base, notes, context), ...planQuotes(quotes, base, notes, context)];
  }

  if (points.length > MAX_BULLETS) {
    return [
      ...planBulletRun(section, base, notes, context),
      ...(stats.length >= 2 ? planStats(section, undefined, base, notes, context) : []),
      ...planQuotes(quotes, base, notes, context),
    ];
  }

  const plan = planComposite(section, base, notes, context);
  const usedQuote = stats.length === 0 && quotes.length > 0 && (points.length > 0 || paragraphs.length > 0);
  return [plan, ...planQuotes(usedQuote ? quotes.slice(1) : quotes, base, notes, context)];
}

/** One slide with a heading, the section's text and, beside it, its numbers or its quote. */
function planComposite(section: BriefSection, base: string, notes: string, context: Context): SlidePlan {
  const { heading, points, paragraphs, stats, quotes } = section;
  const bullets = points.length > 0 ? bulletsNode(points, section.numbered === true, context) : null;
  const firstParagraph = paragraphs[0];

  let visual: ElementNode | null = null;
  if (stats.length === 1 && stats[0]) visual = statNode(stats[0]);
  else if (stats.length > 1) visual = el("Stack", [["gap", "lg"]], ...stats.slice(0, 2).map(statNode));
  else if (quotes[0])
    visual = el(
      "Box",
      [
        ["tone", "surface"],
        ["padding", "lg"],
      ],
      quoteNode(quotes[0], context, "md"),
    );

  const main: ElementNode[] = [];
  if (context.condense) {
    if (firstParagraph !== undefined) {
      const words = bullets || visual ? (bullets && visual ? 20 : SIDE_WORDS) : LEAD_WORDS;
      const lead = leadText(firstParagraph, heading, words, context);
      if (lead && !(bullets && !visual)) main.push(el("Text", [["size", "lg"]], lead));
      if (lead && bullets && !visual) {
        visual = el(
          "Box",
          [
            ["tone", "surface"],
            ["padding", "lg"],
          ],
          el("Text", [], lead),
        );
      }
    }
    const second = paragraphs[1];
    if (second !== undefined && !bullets && !visual) {
      const side = leadText(second, heading, SIDE_WORDS, context);
      if (side)
        visual = el(
          "Box",
          [
            ["tone", "surface"],
            ["padding", "lg"],
          ],
          el("Text", [], side),
        );
    }
  } else {
    paragraphs.forEach((paragraph, index) => {
      const text = index === 0 ? leadText(paragraph, heading, Infinity, context) : paragraph;
      if (text) main.push(el("Text", index === 0 ? [["size", "lg"]] : [], text));
    });
  }
  if (bullets) main.push(bullets);

  const children: ElementNode[] = [el("Heading", [], heading)];
  if (visual && main.length > 0) {
    const left = main.length === 1 && main[0] ? main[0] : el("Stack", [["gap", "lg"]], ...main);
    children.push(
      el(
        "Columns",
        [
          ["ratio", "3:2"],
          ["gap", "xl"],
          ["align", "center"],
        ],
        left,
        visual,
      ),
    );
  } else {
    children.push(...main);
    if (visual) children.push(visual);
  }
  return { label: claimLabel(context, base), notes, children };
}

function planBulletRun(section: BriefSection, base: string, notes: string, context: Context): SlidePlan[] {
  const chunks = chunkEvenly(section.points, MAX_BULLETS);
  const firstParagraph = section.paragraphs[0];
  return chunks.map((chunk, index) => {
    const part = `(${index + 1}/${chunks.length})`;
    const children: ElementNode[] = [
      el("Heading", index === 0 ? [] : [["kicker", `Continued, ${index + 1} of ${chunks.length}`]], section.heading),
    ];
    if (index === 0 && firstParagraph !== undefined) {
      const lead = leadText(firstParagraph, section.heading, context.condense ? 25 : Infinity, context);
      if (lead) children.push(el("Text", [["size", "lg"]], lead));
    }
    children.push(bulletsNode(chunk, section.numbered === true, context));
    return { label: claimLabel(context, `${base} ${part}`), notes, children };
  });
}

function planStats(
  section: BriefSection,
  caption: string | undefined,
  base: string,
  notes: string,
  context: Context,
): SlidePlan[] {
  const chunks = chunkEvenly(section.stats, STATS_PER_SLIDE);
  return chunks.map((chunk, index) => {
    const children: ElementNode[] = [
      el("Heading", [], section.heading),
      el(
        "Grid",
        [
          ["columns", Math.max(2, chunk.length)],
          ["gap", "lg"],
        ],
        ...chunk.map(statNode),
      ),
    ];
    if (caption && index === 0) {
      const text = context.condense ? shortenText(caption, 25, { ellipsis: true }).text : caption;
      children.push(el("Text", [["tone", "muted"]], text));
    }
    const label = chunks.length > 1 ? `${base} (${index + 1}/${chunks.length})` : base;
    return { label: claimLabel(context, label), notes, children };
  });
}

function planQuotes(
  quotes: BriefQuote[],
  base: string,
  notes: string,
  context: Context,
  standalone = false,
): SlidePlan[] {
  const labelFor = (index: number) => {
    if (quotes.length === 1) return standalone ? base : `${base} (quote)`;
    return standalone ? `${base} (${index + 1}/${quotes.length})` : `${base} (quote ${index + 1})`;
  };
  return quotes.map((quote, index) => ({
    label: claimLabel(context, labelFor(index)),
    notes,
    layout: "center" as const,
    background: "surface" as const,
    children: [quoteNode(quote, context, countWords(quote.text) > 25 ? "md" : "lg")],
  }));
}

function quoteNode(quote: BriefQuote, context: Context, size: "md" | "lg"): ElementNode {
  const props: Array<[string, PropValue]> = [];
  if (quote.by) props.push(["by", quote.by]);
  if (quote.role) props.push(["role", quote.role]);
  props.push(["size", size]);
  const text = context.condense ? condense(quote.text, QUOTE_WORDS) : quote.text;
  return el("Quote", props, text);
}

function statNode(stat: BriefStat): ElementNode {
  return el("Stat", [
    ["value", stat.value],
    ["label", shortenText(stat.label, 6).text],
  ]);
}

function bulletsNode(points: string[], numbered: boolean, context: Context): ElementNode {
  const props: Array<[string, PropValue]> = [];
  if (numbered) props.push(["marker", "number"]);
  props.push(["items", points.map((point) => formatPoint(point, context))]);
  return el("Bullets", props);
}

function formatPoint(point: string, context: Context): string {
  const single = splitSentences(point).length <= 1;
  const text = single ? point.replace(/(?<![.])\.$/, "") : point;
  return context.condense ? shortenText(text, POINT_WORDS, { ellipsis: true }).text : text;
}

/**
 * The paragraph as a lead: whole sentences up to `maxWords`, skipping a first sentence the heading
 * already says in full.
 */
function leadText(paragraph: string, heading: string, maxWords: number, context: Context): string {
  let sentences = splitSentences(paragraph);
  const first = sentences[0];
  if (first !== undefined && sameText(deriveHeading(first), heading) && countWords(first) <= countWords(heading) + 1) {
    sentences = sentences.slice(1);
  }
  const text = sentences.join(" ");
  if (!context.condense || !Number.isFinite(maxWords)) return text;
  return condense(text, maxWords);
}

function condense(text: string, maxWords: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const sentence of splitSentences(text)) {
    const count = countWords(sentence);
    if (words + count > maxWords) break;
    kept.push(sentence);
    words += count;
  }
  if (kept.length > 0) return kept.join(" ");
  return shortenText(text, maxWords, { ellipsis: true }).text;
}

function describeSection(section: BriefSection): string {
  return joinNotes([
    section.heading,
    ...section.paragraphs,
    ...section.points.map((point) => `- ${point}`),
    ...section.quotes.map(
      (quote) => `"${quote.text}"${quote.by ? ` (${[quote.by, quote.role].filter(Boolean).join(", ")})` : ""}`,
    ),
    section.notes,
  ]);
}

function joinNotes(lines: Array<string | null | undefined>): string {
  return lines.filter((line): line is string => typeof line === "string" && line.trim().length > 0).join("\n");
}

function sameText(a: string, b: string): boolean {
  const normalize = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  return normalize(a) === normalize(b);
}

function labelFrom(heading: string): string {
  const short = shortenText(heading.replace(/[.!?:;]+$/, ""), LABEL_WORDS).text;
  return capitalize(short || heading);
}

/** Labels name slides in the outline and in edit requests, so each one must be unique. */
function claimLabel(context: Context, wanted: string): string {
  const base = wanted.replace(/\s+/g, " ").trim() || "Slide";
  let label = base;
  for (let suffix = 2; context.labels.has(label.toLowerCase()); suffix++) label = `${base} (${suffix})`;
  context.labels.add(label.toLowerCase());
  return label;
}

function chunkEvenly<T>(items: T[], max: number): T[][] {
  const count = Math.ceil(items.length / max);
  const size = Math.ceil(items.length / count);
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

function el(tag: string, props: Array<[string, PropValue]>, ...children: ChildNode[]): ElementNode {
  return { tag, props, children };
}

// ---------------------------------------------------------------------------------------------
// Printing.

function printModule(title: string, plans: SlidePlan[], format: DeckFormat): string {
  const section = format === "slides" ? "Slide" : "Beat";
  const slides = plans.map((plan) => {
    const props: Array<[string, PropValue]> = [["label", plan.label]];
    if (plan.layout) props.push(["layout", plan.layout]);
    if (format === "webpage" && plan.height) props.push(["height", plan.height]);
    if (plan.background) props.push(["background", plan.background]);
    // <Beat> has no notes; a webpage shows the full text instead.
    if (format === "slides" && plan.notes) props.push(["notes", plan.notes]);
    return el(section, props, ...plan.children);
  });
  const deck = el("Deck", [["title", title]], ...slides);

  const used = new Set<string>();
  const collect = (node: ElementNode) => {
    used.add(node.tag);
    for (const child of node.children) if (typeof child !== "string") collect(child);
  };
  collect(deck);
  const names = vocabulary.map((component) => component.name).filter((name) => used.has(name));

  const deckLines = printElement(deck, 4);
  // A blank line between slides, as people write them.
  const spaced = deckLines.flatMap((line, index) =>
    index > 1 && /^ {6}<(?:Slide|Beat)\b/.test(line) ? ["", line] : [line],
  );
  return [
    printImport(names),
    "",
    `export default function ${componentName(title)}() {`,
    "  return (",
    ...spaced,
    "  );",
    "}",
    "",
  ].join("\n");
}

function printImport(names: string[]): string {
  const line = `import { ${names.join(", ")} } from "@deckhand/player";`;
  if (line.length <= PRINT_WIDTH) return line;
  return ["import {", ...names.map((name) => `  ${name},`), '} from "@deckhand/player";'].join("\n");
}

function componentName(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 4)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  const joined = words.join("").replace(/^\d+/, "");
  if (!joined) return "GeneratedDeck";
  return joined.endsWith("Deck") && joined !== "Deck" ? joined : `${joined}Deck`;
}

function printElement(node: ElementNode, indent: number): string[] {
  const pad = " ".repeat(indent);
  const inlineProps = node.props.map(([name, value]) => ` ${name}=${printValue(value)}`).join("");
  const openInline = `${pad}<${node.tag}${inlineProps}`;
  const fitsInline = !inlineProps.includes("\n") && openInline.length + 2 <= PRINT_WIDTH;
  const multilineProps = () =>
    node.props.flatMap(([name, value]) => printProp(name, value, indent + 2).map((line) => line));

  if (node.children.length === 0) {
    if (fitsInline) return [`${openInline} />`];
    return [`${pad}<${node.tag}`, ...multilineProps(), `${pad}/>`];
  }
  const open = fitsInline ? [`${openInline}>`] : [`${pad}<${node.tag}`, ...multilineProps(), `${pad}>`];
  const close = `${pad}</${node.tag}>`;
  const only = node.children[0];
  if (node.children.length === 1 && typeof only === "string") {
    const text = printText(only);
    const single = `${open[0] ?? ""}${text}</${node.tag}>`;
    if (open.length === 1 && single.length <= PRINT_WIDTH) return [single];
    return [...open, `${pad}  ${text}`, close];
  }
  const inner = node.children.flatMap((child) =>
    typeof child === "string" ? [`${pad}  ${printText(child)}`] : printElement(child, indent + 2),
  );
  return [...open, ...inner, close];
}

function printProp(name: string, value: PropValue, indent: number): string[] {
  const pad = " ".repeat(indent);
  const inline = `${pad}${name}=${printValue(value)}`;
  if (!Array.isArray(value) || inline.length <= PRINT_WIDTH) return [inline];
  return [`${pad}${name}={[`, ...value.map((item) => `${pad}  ${JSON.stringify(item)},`), `${pad}]}`];
}

// Text that needs no escaping is written as people write it; anything else goes through a JSON
// string literal, whose escapes JSX expressions and string props both understand.
function printValue(value: PropValue): string {
  if (typeof value === "number") return `{${value}}`;
  if (Array.isArray(value)) return `{[${value.map((item) => JSON.stringify(item)).join(", ")}]}`;
  return /^[^"&\\\n\r{}<>]*$/.test(value) ? `"${value}"` : `{${JSON.stringify(value)}}`;
}

function printText(text: string): string {
  const plain = /^[^{}<>&\\\n\r`]+$/.test(text) && text === text.trim() && !text.includes("  ");
  return plain ? text : `{${JSON.stringify(text)}}`;
}
