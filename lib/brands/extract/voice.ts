import { selectAll } from "css-select";
import { type AnyNode, type Document, type Element, isTag, isText } from "domhandler";
import { textContent } from "domutils";
import type { Voice } from "@/lib/brands/brand-book";
import { ancestors, attribute } from "./html-document";

// Voice from the words on the page: reading level (Flesch–Kincaid), and tone descriptors that each
// stand on a measured signal (second person, "we", exclamation marks, sentence length, long and
// technical words, imperative calls to action), turned into rules a writer can follow.

const skippedTags = new Set(["script", "style", "noscript", "template", "svg", "nav", "footer", "iframe", "select"]);
const blockTags = new Set([
  "p",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "dd",
  "dt",
  "td",
  "th",
  "figcaption",
  "summary",
  "div",
  "section",
  "article",
  "header",
  "main",
]);
const proseTags = new Set(["p", "li", "blockquote", "dd", "figcaption", "td"]);

const ctaVerbs = new Set([
  "get",
  "start",
  "try",
  "book",
  "join",
  "sign",
  "create",
  "build",
  "download",
  "learn",
  "discover",
  "explore",
  "see",
  "shop",
  "buy",
  "request",
  "contact",
  "subscribe",
  "read",
  "watch",
  "view",
  "talk",
  "schedule",
  "deploy",
  "launch",
  "find",
  "order",
  "register",
  "apply",
  "begin",
  "claim",
  "upgrade",
  "browse",
  "meet",
  "reserve",
  "donate",
  "visit",
  "make",
  "ship",
  "choose",
  "compare",
]);

const technicalWords = new Set([
  "api",
  "apis",
  "sdk",
  "cli",
  "deploy",
  "deploys",
  "deployment",
  "latency",
  "pipeline",
  "pipelines",
  "infrastructure",
  "kubernetes",
  "database",
  "databases",
  "query",
  "queries",
  "integration",
  "integrations",
  "workflow",
  "workflows",
  "analytics",
  "automation",
  "scalable",
  "compliance",
  "endpoint",
  "endpoints",
  "webhook",
  "webhooks",
  "runtime",
  "edge",
  "serverless",
  "cluster",
  "schema",
  "typescript",
  "encryption",
  "observability",
  "uptime",
  "throughput",
  "p99",
  "ci",
  "repository",
]);

type Block = { tag: string; text: string };

const MAX_SAMPLE_CHARS = 20_000;

export function buildVoice(document: Document): Voice {
  const blocks = readBlocks(document);
  const prose = blocks.filter((block) => proseTags.has(block.tag) && countWords(block.text) >= 4);
  const proseText = prose.map((block) => block.text).join(" ");
  const sample = countWords(proseText) >= 20 ? proseText : blocks.map((block) => terminate(block.text)).join(" ");
  // A few thousand words say as much about a voice as the whole of a very long page.
  const stats = measure(sample.slice(0, MAX_SAMPLE_CHARS));
  const ctas = readCallsToAction(document);
  const imperative = ctas.filter((label) => ctaVerbs.has(label.split(/\s+/)[0]?.toLowerCase() ?? ""));

  const grade = stats.words ? round1(Math.min(20, Math.max(0, fleschKincaid(stats)))) : 0;
  const signals = {
    youRate: rate(stats.you, stats.words),
    weRate: rate(stats.we, stats.words),
    exclamationRate: rate(stats.exclamations, stats.sentences),
    averageSentence: stats.sentences ? stats.words / stats.sentences : 0,
    longWordRate: rate(stats.longWords, stats.words),
    technicalRate: rate(stats.technical, stats.words),
    imperativeRate: ctas.length ? imperative.length / ctas.length : 0,
    hedgeRate: rate(stats.hedges, stats.words),
  };

  const tone: string[] = [];
  if (signals.technicalRate >= 0.015 || signals.longWordRate >= 0.2) tone.push("technical");
  if (signals.youRate >= 0.02) tone.push("friendly");
  if (signals.exclamationRate >= 0.15) tone.push("enthusiastic");
  if (signals.averageSentence > 0 && signals.averageSentence <= 16 && signals.hedgeRate < 0.01) tone.push("confident");
  if (signals.imperativeRate >= 0.5 && imperative.length >= 2) tone.push("action-oriented");
  if (signals.weRate >= 0.02) tone.push("personal");
  if (signals.averageSentence >= 22 || grade >= 13) tone.push(signals.youRate < 0.01 ? "formal" : "considered");
  if (!tone.length) tone.push("neutral");

  const guidelines: string[] = [];
  if (signals.youRate >= 0.015) guidelines.push("Address the reader directly as “you”.");
  else if (signals.weRate >= 0.015) guidelines.push("Speak as “we”: the company talks in the first person plural.");
  if (signals.averageSentence > 0) {
    const limit = signals.averageSentence <= 14 ? 15 : signals.averageSentence <= 20 ? 20 : 25;
    guidelines.push(`Keep sentences under ${limit} words (the site averages ${Math.round(signals.averageSentence)}).`);
  }
  const example = imperative[0];
  if (example && signals.imperativeRate >= 0.5) {
    guidelines.push(`Start calls to action with a verb, as in “${example}”.`);
  }
  if (stats.exclamations === 0 && stats.sentences >= 5) guidelines.push("Avoid exclamation marks.");
  else if (signals.exclamationRate >= 0.15)
    guidelines.push("Exclamation marks are on-brand; use one per section at most.");
  if (signals.technicalRate >= 0.015) guidelines.push("Use precise technical terms; the audience knows them.");
  else if (grade <= 9) guidelines.push("Prefer plain, everyday words over jargon.");

  return {
    tone: tone.slice(0, 4),
    readingLevel: { grade, label: `${gradeLabel(grade)} (grade ${Math.round(grade)})` },
    samplePhrases: pickSamplePhrases(document, ctas),
    guidelines: guidelines.slice(0, 4),
    confidence: stats.words < 50 ? 0.25 : stats.words < 150 ? 0.45 : stats.words < 400 ? 0.6 : 0.75,
  };
}

function gradeLabel(grade: number): string {
  if (grade <= 6) return "very plain";
  if (grade <= 8) return "plain";
  if (grade <= 10) return "conversational";
  if (grade <= 12) return "standard";
  if (grade <= 14) return "advanced";
  return "specialist";
}

function readBlocks(document: Document): Block[] {
  const body = selectAll<AnyNode, Element>("body", document)[0];
  const blocks: Block[] = [];
  const visit = (element: Element, current: Block | null) => {
    for (const child of element.children) {
      if (isText(child)) {
        if (current) current.text += child.data;
        continue;
      }
      if (!isTag(child) || skippedTags.has(child.name) || isHidden(child)) continue;
      if (blockTags.has(child.name)) {
        const block = { tag: child.name, text: "" };
        blocks.push(block);
        visit(child, block);
      } else {
        visit(child, current);
      }
    }
  };
  if (body) visit(body, { tag: "body", text: "" });
  return blocks
    .map((block) => ({ tag: block.tag, text: block.text.replace(/\s+/g, " ").trim() }))
    .filter((block) => block.text);
}

function isHidden(element: Element): boolean {
  return (
    element.attribs.hidden !== undefined ||
    attribute(element, "aria-hidden") === "true" ||
    /(^|\s)(sr-only|visually-hidden)(\s|$)/.test(attribute(element, "class"))
  );
}

// Headings and buttons rarely end in punctuation; without one they would run into the next sentence.
function terminate(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

type Stats = {
  words: number;
  sentences: number;
  syllables: number;
  longWords: number;
  technical: number;
  you: number;
  we: number;
  exclamations: number;
  hedges: number;
};

const youWords = new Set(["you", "your", "yours", "yourself", "you're", "you'll", "you've", "you'd"]);
const weWords = new Set(["we", "our", "ours", "us", "we're", "we'll", "we've", "ourselves"]);
const hedgeWords = new Set(["maybe", "perhaps", "might", "possibly", "somewhat", "fairly", "arguably"]);

function measure(text: string): Stats {
  const stats: Stats = {
    words: 0,
    sentences: 0,
    syllables: 0,
    longWords: 0,
    technical: 0,
    you: 0,
    we: 0,
    exclamations: 0,
    hedges: 0,
  };
  const sentences = new Intl.Segmenter("en", { granularity: "sentence" });
  const words = new Intl.Segmenter("en", { granularity: "word" });
  for (const { segment } of sentences.segment(text)) {
    let wordsInSentence = 0;
    for (const item of words.segment(segment)) {
      if (!item.isWordLike) continue;
      const word = item.segment.toLowerCase().replace(/[’]/g, "'");
      if (!/[a-z]/.test(word)) continue;
      wordsInSentence++;
      const syllables = countSyllables(word);
      stats.syllables += syllables;
      if (syllables >= 3) stats.longWords++;
      if (technicalWords.has(word) || /^[A-Z]{2,5}s?$/.test(item.segment)) stats.technical++;
      if (youWords.has(word)) stats.you++;
      if (weWords.has(word)) stats.we++;
      if (hedgeWords.has(word)) stats.hedges++;
    }
    if (!wordsInSentence) continue;
    stats.words += wordsInSentence;
    stats.sentences++;
    if (segment.trim().endsWith("!")) stats.exclamations++;
  }
  return stats;
}

function countSyllables(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!letters) return 0;
  if (letters.length <= 3) return 1;
  const trimmed = letters.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = trimmed.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[a-z]/i.test(word)).length;
}

function fleschKincaid(stats: { words: number; sentences: number; syllables: number }): number {
  if (!stats.words || !stats.sentences) return 0;
  return 0.39 * (stats.words / stats.sentences) + 11.8 * (stats.syllables / stats.words) - 15.59;
}

const utilityLabels = new Set(["log in", "login", "sign in", "signin", "menu", "search", "close", "open menu"]);

function readCallsToAction(document: Document): string[] {
  const labels: string[] = [];
  const elements = selectAll<AnyNode, Element>(
    'button, [role="button"], input[type="submit"], a[class*="btn"], a[class*="button"], a[class*="cta"]',
    document,
  );
  const chrome: string[] = [];
  for (const element of elements) {
    const label = (element.name === "input" ? attribute(element, "value") : textContent(element))
      .replace(/\s+/g, " ")
      .trim();
    if (!label || label.length > 40 || labels.includes(label) || chrome.includes(label)) continue;
    if (utilityLabels.has(label.toLowerCase())) continue;
    // Buttons in the header and nav are mostly "Log in"; the page's own calls to action speak for it first.
    const inChrome = ancestors(element).some((parent) => parent.name === "nav" || parent.name === "header");
    (inChrome ? chrome : labels).push(label);
  }
  return [...labels, ...chrome];
}

function pickSamplePhrases(document: Document, ctas: string[]): string[] {
  const phrases: string[] = [];
  const add = (text: string | undefined) => {
    const clean = (text ?? "").replace(/\s+/g, " ").trim();
    if (!clean || clean.length < 3 || phrases.includes(clean)) return;
    phrases.push(clean.length > 120 ? `${firstSentence(clean).slice(0, 117)}...` : clean);
  };
  const h1 = selectAll<AnyNode, Element>("h1", document)[0];
  if (h1) {
    add(textContent(h1));
    // The hero subtitle: the first paragraph after the h1.
    const all = selectAll<AnyNode, Element>("h1, p", document);
    const next = all
      .slice(all.indexOf(h1) + 1)
      .find((element) => element.name === "p" && countWords(textContent(element)) >= 6);
    if (next) add(firstSentence(textContent(next).replace(/\s+/g, " ").trim()));
  }
  for (const label of ctas.slice(0, 2)) add(label);
  for (const heading of selectAll<AnyNode, Element>("h2", document)) {
    if (phrases.length >= 5) break;
    add(textContent(heading));
  }
  return phrases.slice(0, 5);
}

function firstSentence(text: string): string {
  const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  for (const { segment } of segmenter.segment(text)) return segment.trim();
  return text;
}

function rate(count: number, total: number): number {
  return total ? count / total : 0;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
