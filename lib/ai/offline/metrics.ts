// Metrics stated in sentences, for <Stat>. Only a few sentence shapes count, because only they name what
// the number measures: "<metric> reached|was|fell to <value>", "we signed <value> <things>", "<metric>
// (target <value>)" and "<things> are <value> faster". Any other number stays in the text: a Stat whose
// label is half a sentence is worse than none.

import { capitalize, countWords, shorten, squash } from "./text";

export type Metric = { value: string; label: string; detail: string | null; sentence: string };

const VALUE = String.raw`[$€£¥]?\d{1,3}(?:,\d{3})+(?:\.\d+)?[%x×]?(?:\s?(?:K|k|M|B|bn|million|billion|pp))?|[$€£¥]?\d+(?:\.\d+)?(?:%|x\b|×|\s?(?:K|k|M|B|bn|million|billion|pp)\b)?`;
const valuePattern = new RegExp(`(?<![\\w.$€£¥-])(?:${VALUE})(?![\\w])`, "g");

const levelVerb = String.raw`reached|was|is|were|are|hit|hits|stood at|stands at|totall?ed|totals|came in at|averaged|sits at|takes|take|took|lasts|lasted`;
const moveVerb = String.raw`grew|rose|increased|climbed|jumped|fell|dropped|declined|decreased|improved|shrank|went|moved`;
const countVerb = String.raw`signed|added|won|hired|onboarded|served|closed|acquired|gained|welcomed|shipped|processed|now have|have|reached`;
const subjectWords = String.raw`[A-Za-z][\w'’&/-]*(?:\s+[A-Za-z0-9][\w'’&/-]*){0,4}`;
const boundary = String.raw`(?:^|[,;:(—]\s*|\b(?:and|but|while|whereas)\s+)`;

const levelBefore = new RegExp(
  `${boundary}(${subjectWords})\\s+(?:(?:${levelVerb})|(?:${moveVerb})(?:\\s+(?:by\\s+)?(?:${VALUE}))?(?:\\s+from\\s+(${VALUE}))?\\s+to)\\s+$`,
  "i",
);
const moveBefore = new RegExp(`${boundary}(${subjectWords})\\s+(${moveVerb})\\s+(?:by\\s+)?$`, "i");
const countBefore = new RegExp(
  `(?:^|[,;:]\\s*|\\band\\s+)(?:we|our team|the team|i|they)\\s+(?:${countVerb})\\s+$`,
  "i",
);
const targetBefore = /\(\s*(?:a\s+)?target(?:\s+of)?\s+$/i;
const comparativeAfter =
  /^\s+(faster|cheaper|more|less|fewer|better|higher|lower|bigger|smaller|quicker|larger|greater|slower)\b/i;

const pronoun = /^(?:we|they|i|you|he|she|it|this|that|these|those|there|which|who)$/i;
const determiners = /^(?:our|the|a|an|its|their|your|my|this|that|total|overall)\s+/i;
const nounStops =
  /^(?:in|by|from|across|since|this|last|over|during|for|with|including|to|at|on|per|than|and|or|but|while|which|who|so|because|as|after|before|until|within|compared|versus|vs)$/i;

// A unit that is part of the figure ("14 minutes"), and a rate that is part of what it measures ("per month").
const unitAfter =
  /^\s+(ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|GB|TB|MB|points?)\b/i;
const rateAfter = /^\s+(per\s+(?:month|week|day|year|quarter|hour|user|customer|seat|account|request))\b/i;
// Words before a value that make it a comparison of another value, not a metric of its own.
const comparisonBefore =
  /\b(?:from|compared\s+(?:with|to)|versus|vs\.?|against|instead\s+of|than|target(?:\s+of)?|of|by|in|to)\s+$/i;

function isYear(value: string): boolean {
  return /^\d{4}$/.test(value) && Number(value) >= 1900 && Number(value) <= 2100;
}

/** The metrics a sentence states, in the order they appear. */
export function findMetrics(sentence: string): Metric[] {
  const metrics: Metric[] = [];
  valuePattern.lastIndex = 0;
  for (let match = valuePattern.exec(sentence); match; match = valuePattern.exec(sentence)) {
    let value = squash(match[0]);
    if (isYear(value)) continue;
    const before = sentence.slice(0, match.index);
    let after = sentence.slice(match.index + match[0].length);
    const unit = unitAfter.exec(after);
    if (unit && !/[%$€£¥x×]|[KkMB]$/.test(value)) {
      value = `${value} ${unit[1]}`;
      after = after.slice(unit[0].length);
    }
    const rate = rateAfter.exec(after);
    const metric = readMetric(value, before, rate ? after.slice(rate[0].length) : after);
    if (metric && rate) metric.label = `${metric.label} ${rate[1]!.toLowerCase()}`;
    if (metric && isCleanLabel(metric.label)) metrics.push({ ...metric, value: normalizeValue(value), sentence });
  }
  return dedupe(metrics);
}

/**
 * Whether Stats show everything a sentence says in figures: each of its numbers is one of the metrics'
 * values or in one of their details. A sentence with a figure no Stat shows stays on the slide as text.
 */
export function shownByStats(sentence: string, metrics: Metric[]): boolean {
  const own = metrics.filter((metric) => metric.sentence === sentence);
  if (own.length === 0) return false;
  const shown = own.map((metric) => `${metric.value} ${metric.detail ?? ""}`).join(" ");
  valuePattern.lastIndex = 0;
  for (let match = valuePattern.exec(sentence); match; match = valuePattern.exec(sentence)) {
    const value = normalizeValue(squash(match[0]));
    if (!isYear(value) && !shown.includes(value)) return false;
  }
  return true;
}

/** The figures a text states (years aside), as a Stat writes them. */
export function figuresOf(text: string): string[] {
  return [...text.matchAll(new RegExp(valuePattern.source, "g"))]
    .map((match) => normalizeValue(squash(match[0])))
    .filter((value) => !isYear(value));
}

/** The part of the text after a value that is about it: up to the next value that is not a comparison's. */
function ownClause(after: string): string {
  const end = after.search(/;/);
  const clause = end >= 0 ? after.slice(0, end) : after;
  const pattern = new RegExp(valuePattern.source, "g");
  for (let match = pattern.exec(clause); match; match = pattern.exec(clause)) {
    if (isYear(squash(match[0])) || comparisonBefore.test(clause.slice(0, match.index))) continue;
    // The next figure's clause starts at the last comma or conjunction before it.
    const head = clause.slice(0, match.index);
    const cut = Math.max(
      head.lastIndexOf(","),
      head.search(/\s(?:and|while|but|whereas)\s(?!.*\s(?:and|while|but|whereas)\s)/),
    );
    return cut > 0 ? head.slice(0, cut) : "";
  }
  return clause.replace(/[.!?]+\s*$/, "");
}

function readMetric(value: string, before: string, after: string): Omit<Metric, "sentence"> | null {
  const comparative = comparativeAfter.exec(after);
  if (comparative && /x|×/.test(value)) {
    const subject =
      /(?:^|[,;:]\s*|\b(?:and|but|while|whereas)\s+)([A-Za-z][\w'’-]*(?:\s+[\w'’-]+){0,2})\s+(?:are|is|run|runs|got|get|became)\s+$/i.exec(
        before,
      );
    const noun = subject ? tidySubject(subject[1] ?? "") : null;
    if (!noun) return null;
    return { value, label: `${capitalize(comparative[1] ?? "")} ${noun.toLowerCase()}`, detail: null };
  }
  const level = levelBefore.exec(before);
  if (level) {
    const subject = tidySubject(level[1] ?? "");
    if (!subject) return null;
    const from = level[2] ?? new RegExp(`^\\s+from\\s+(${VALUE})`).exec(after)?.[1] ?? null;
    return { value, label: subject, detail: readDetail(value, from, after) };
  }
  const move = moveBefore.exec(before);
  if (move && /%|pp/.test(value)) {
    const subject = tidySubject(move[1] ?? "");
    if (!subject) return null;
    const down = /fell|dropped|declined|decreased|shrank/i.test(move[2] ?? "");
    return { value, label: `${subject} ${down ? "decline" : "growth"}`, detail: null };
  }
  if (countBefore.test(before)) {
    const noun = nounPhrase(after);
    if (!noun) return null;
    // "…, including three enterprise logos: Globex, Initech and Umbrella": the names are what to show.
    const including = /^[^,.;]*,\s*((?:including|with|of which)\s+[^.;:]+)(?::\s*([^.;]+))?/i.exec(after);
    const named = including?.[2] ? `${/^\S+/.exec(including[1] ?? "")?.[0] ?? ""} ${including[2]}` : including?.[1];
    return {
      value,
      label: capitalize(noun),
      detail: named && countWords(named) <= 10 ? capitalize(squash(named)) : null,
    };
  }
  if (targetBefore.test(before)) {
    const clause =
      before
        .slice(0, before.lastIndexOf("("))
        .split(/[)(;:]/)
        .at(-1) ?? "";
    const phrase = (clause.split(/\bby\s+/i).at(-1) ?? "")
      .replace(/^\s*(?:and\s+)?/i, "")
      .replace(/^(?:the\s+)?(?:share|number|percentage|count|rate)\s+of\s+/i, "");
    const label = countWords(phrase) <= 14 ? tidySubject(shorten(phrase, 6)) : null;
    if (!label) return null;
    const when = /^\s+(by\s+[^)]+)\)/.exec(after)?.[1];
    return { value, label, detail: when ? `Target ${when}` : "Target" };
  }
  return null;
}

function readDetail(value: string, from: string | null, after: string): string | null {
  const clause = ownClause(after);
  // "…, the lowest in 14 months": a remark about the figure, kept with its comparison.
  const remark = /,\s+((?:the|a|an|our)\s+[^,]{3,60})$/i.exec(clause)?.[1];
  const withRemark = (detail: string) => {
    const joined = remark && !detail.includes(remark) ? `${detail}, ${remark}` : detail;
    return countWords(joined) <= 12 ? joined : detail;
  };
  // The comparison as the brief states it: "up from 41,500", "compared with 11 in Q1", "instead of 40".
  const stated = new RegExp(
    `\\b((?:up|down)\\s+from|compared\\s+(?:with|to)|versus|vs\\.?|against|instead\\s+of|than)\\s+((?:${VALUE})(?:\\s+[^,;]+?)?)\\s*(?:,|$)`,
    "i",
  ).exec(clause);
  if (stated && !(from && /^from$/i.test(stated[1] ?? ""))) {
    const words = squash(`${stated[1]} ${stated[2]}`).replace(/^than\b/i, "compared with");
    if (countWords(words) <= 10) return withRemark(capitalize(words));
  }
  if (!from) return remark ? capitalize(remark) : null;
  const rest =
    new RegExp(`^\\s+from\\s+(?:${VALUE})((?:\\s+(?:in|at|since|by)\\s+[^,.;]+)?)`, "i").exec(after)?.[1] ?? "";
  const direction = amount(value) >= amount(from) ? "Up" : "Down";
  const detail = squash(`${direction} from ${from}${rest}`);
  return withRemark(countWords(detail) <= 10 ? detail : `${direction} from ${from}`);
}

function amount(value: string): number {
  return Number.parseFloat(value.replace(/[^\d.]/g, "")) || 0;
}

function nounPhrase(after: string): string | null {
  const words = after.trim().split(/\s+/);
  const taken: string[] = [];
  for (const word of words) {
    const bare = word.replace(/[,.;:!?)]+$/, "");
    if (nounStops.test(bare) || !/^[A-Za-z][\w'’-]*$/.test(bare)) break;
    taken.push(bare);
    if (bare !== word || taken.length >= 4) break;
  }
  return taken.length > 0 ? taken.join(" ") : null;
}

function tidySubject(text: string): string | null {
  let subject = squash(text).replace(/^(?:and|but|while|whereas|so)\s+/i, "");
  while (determiners.test(subject)) subject = subject.replace(determiners, "");
  const first = subject.split(" ")[0] ?? "";
  if (!subject || pronoun.test(first) || countWords(subject) > 6) return null;
  return capitalize(subject);
}

/** A label is words: no markup, pipes, URLs or stray digits-only fragments. */
function isCleanLabel(label: string): boolean {
  return /^[\p{L}][\p{L}\p{N}'’&/ -]*$/u.test(label) && countWords(label) <= 6;
}

function normalizeValue(value: string): string {
  return value
    .replace(/\s?million\b/i, "M")
    .replace(/\s?billion\b/i, "B")
    .replace(/\s?bn\b/i, "B")
    .replace(/×/, "x");
}

function dedupe(metrics: Metric[]): Metric[] {
  const seen = new Set<string>();
  return metrics.filter((metric) => {
    const key = metric.label.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
