// The offline editor's instructions: quoted replacements, renaming, removing, duplicating, reordering and
// adding slides, read with patterns after quoted strings are swapped for placeholders. Anything else is
// refused with a 422 that says what works offline and that the rest needs a model.

import { AppError } from "@/lib/core/errors";

export type SlideRef = { kind: "number"; number: number } | { kind: "label"; label: string } | { kind: "last" };

export type MoveTarget =
  | { kind: "position"; position: number }
  | { kind: "before"; ref: SlideRef }
  | { kind: "after"; ref: SlideRef }
  | { kind: "start" }
  | { kind: "end" };

export type Command =
  | { kind: "replace"; from: string; to: string }
  | { kind: "rename"; ref: SlideRef; label: string }
  | { kind: "remove"; refs: SlideRef[] }
  | { kind: "duplicate"; ref: SlideRef }
  | { kind: "move"; ref: SlideRef; target: MoveTarget }
  | { kind: "swap"; a: SlideRef; b: SlideRef }
  | { kind: "add"; topic: string; points: string[]; position: MoveTarget };

const capabilities =
  'Offline, without an AI model, Deckhand can only replace quoted text ("old" → "new", replace "old" with "new"), rename a slide (rename slide 3 to "Results"), remove or duplicate a slide, reorder slides (move slide 5 to position 2, move "Pricing" before "Team", swap slides 2 and 4) and add a slide (add a slide about "Pricing" after "Team" with "Free tier", "Team plan").';

export function refuse(detail: string): never {
  throw new AppError(
    "invalid_request",
    `${detail} ${capabilities} This instruction needs an AI model (set OPENAI_API_KEY).`,
  );
}

const quotePairs: Record<string, string[]> = {
  '"': ['"', "”", "“"],
  "“": ["”", '"', "“"],
  "”": ["”", '"'],
  "„": ["“", "”", '"'],
  "‘": ["’", "'"],
  "'": ["'", "’"],
  "«": ["»"],
};

const Q = "\u0001";

/** Swaps quoted strings for placeholders so the rest of the instruction can be read with patterns. */
function extractQuoted(instruction: string): { text: string; quoted: string[] } {
  const quoted: string[] = [];
  let text = "";
  let pos = 0;
  while (pos < instruction.length) {
    const char = instruction[pos] ?? "";
    const closers = quotePairs[char];
    const prev = instruction[pos - 1] ?? " ";
    // A straight apostrophe inside a word ("don't") does not open a quote.
    const opens = closers !== undefined && (char !== "'" && char !== "’" ? true : /[\s(:,[{]/.test(prev));
    if (opens && closers) {
      let close = -1;
      // The matching closer wins over a stray other quote mark inside the quoted text.
      for (const closer of closers) {
        for (let index = pos + 1; index < instruction.length; index++) {
          if (instruction[index] !== closer) continue;
          if (
            (char === "'" || char === "‘") &&
            !/^(?:$|[\s.,;:!?)\]}→-])/.test(instruction.slice(index + 1, index + 2))
          ) {
            // A closing single quote ends a word: it is followed by a space, punctuation or the end.
            continue;
          }
          close = index;
          break;
        }
        if (close >= 0) break;
      }
      if (close < 0) refuse(`The quote that starts at "${instruction.slice(pos, pos + 20)}" is never closed.`);
      quoted.push(instruction.slice(pos + 1, close));
      text += `${Q}${quoted.length - 1}${Q}`;
      pos = close + 1;
      continue;
    }
    text += char;
    pos++;
  }
  return { text, quoted };
}

const verbs =
  "(?:replace|change|rename|relabel|remove|delete|drop|duplicate|copy|clone|move|put|place|swap|switch|exchange|add|insert|append)";
const arrow = "(?:→|->|=>|⟶|➔|➜|⇒|—>|–>)";
const QUOTE_TOKEN = `${Q}(\\d+)${Q}`;

function splitClauses(text: string): string[] {
  const separator = new RegExp(
    `\\s*(?:,\\s*(?:and\\s+)?(?:then\\s+)?|\\s+and\\s+(?:then\\s+)?|\\s+then\\s+)(?=(?:also\\s+)?${verbs}\\b|${Q}\\d+${Q}\\s*${arrow})`,
    "gi",
  );
  return text
    .split(/\n|;|(?<=[.!?])\s+|[.!?]+$/)
    .flatMap((part) => part.split(separator))
    .map((part) =>
      part
        .trim()
        .replace(/^(?:(?:please|also|then|and|now|finally|next|first|lastly)\b[\s,:]*)+/i, "")
        .replace(/[\s.!,]+$/, "")
        .replace(/\s+please$/i, "")
        .trim(),
    )
    .filter((part) => part.length > 0);
}

const ordinals: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

const SECTION = "(?:slide|beat|section|page)";

function parseRef(raw: string, quoted: string[], bareNumber = false): SlideRef | null {
  const text = raw.trim().replace(/^the\s+/i, "");
  const numbered = new RegExp(`^${SECTION}\\s*(?:number\\s+|no\\.?\\s*|#\\s*)?(\\d+)$`, "i").exec(text);
  if (numbered) return { kind: "number", number: Number(numbered[1]) };
  const ordinal = new RegExp(`^(\\d+)(?:st|nd|rd|th)\\s+${SECTION}$`, "i").exec(text);
  if (ordinal) return { kind: "number", number: Number(ordinal[1]) };
  const word = new RegExp(
    `^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\\s+${SECTION}$`,
    "i",
  ).exec(text);
  if (word) {
    const key = (word[1] ?? "").toLowerCase();
    return key === "last" ? { kind: "last" } : { kind: "number", number: ordinals[key] ?? 0 };
  }
  const label = new RegExp(
    `^(?:${SECTION}\\s+(?:called\\s+|named\\s+|labell?ed\\s+|titled\\s+)?)?${QUOTE_TOKEN}(?:\\s+${SECTION})?$`,
    "i",
  ).exec(text);
  if (label) return { kind: "label", label: quoted[Number(label[1])] ?? "" };
  if (bareNumber && /^#?\d+$/.test(text)) return { kind: "number", number: Number(text.replace("#", "")) };
  return null;
}

function parseRefList(raw: string, quoted: string[]): SlideRef[] | null {
  const plural = new RegExp(`^(?:the\\s+)?${SECTION}s\\s+(.+)$`, "i").exec(raw.trim());
  const body = plural ? (plural[1] ?? "") : raw;
  const parts = body.split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)/i).filter((part) => part.length > 0);
  const refs = parts.map((part) => parseRef(part, quoted, plural !== null));
  return refs.length > 0 && refs.every((ref): ref is SlideRef => ref !== null) ? refs : null;
}

function parseCommand(clause: string, quoted: string[]): Command | null {
  const quote = (token: string | undefined) => quoted[Number(token)] ?? "";
  let match = new RegExp(`^${QUOTE_TOKEN}\\s*${arrow}\\s*${QUOTE_TOKEN}$`, "i").exec(clause);
  if (match) return { kind: "replace", from: quote(match[1]), to: quote(match[2]) };
  match = new RegExp(
    `^(?:replace|change|substitute|swap out)\\s+(?:(?:all|every)\\s+(?:occurrences?\\s+of\\s+)?)?(?:the\\s+)?(?:text|word|words|phrase|copy|wording)?\\s*${QUOTE_TOKEN}\\s+(?:with|to|by|into|for)\\s+(?:the\\s+)?(?:text\\s+)?${QUOTE_TOKEN}(?:\\s+everywhere)?$`,
    "i",
  ).exec(clause);
  if (match) return { kind: "replace", from: quote(match[1]), to: quote(match[2]) };

  match = new RegExp(`^(?:rename|relabel)\\s+(.+?)\\s+(?:to|as|into)\\s+${QUOTE_TOKEN}$`, "i").exec(clause);
  match ??= new RegExp(
    `^(?:change|set)\\s+(?:the\\s+)?(?:label|name)\\s+of\\s+(.+?)\\s+to\\s+${QUOTE_TOKEN}$`,
    "i",
  ).exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "rename", ref, label: quote(match[2]) } : null;
  }

  match = /^(?:remove|delete|drop)\s+(.+)$/i.exec(clause);
  if (match) {
    const refs = parseRefList(match[1] ?? "", quoted);
    return refs ? { kind: "remove", refs } : null;
  }

  match = /^(?:duplicate|copy|clone)\s+(.+)$/i.exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "duplicate", ref } : null;
  }

  match = /^(?:swap|switch|exchange)\s+(.+?)\s+(?:and|with|&)\s+(.+)$/i.exec(clause);
  if (match) {
    const plural = new RegExp(`^(?:the\\s+)?${SECTION}s\\s+`, "i");
    const first = (match[1] ?? "").replace(plural, "");
    const bare = plural.test(match[1] ?? "");
    const a = parseRef(first, quoted, bare);
    const b = parseRef(match[2] ?? "", quoted, bare);
    return a && b ? { kind: "swap", a, b } : null;
  }

  match = new RegExp(
    `^(?:move|put|place)\\s+(.+?)\\s+(?:to\\s+|into\\s+|at\\s+)?(?:the\\s+)?(?:position|slot|place|spot)\\s+(?:number\\s+|#\\s*)?(\\d+)$`,
    "i",
  ).exec(clause);
  match ??= new RegExp(
    `^(?:move|put|place)\\s+(.+?)\\s+to\\s+(?:be\\s+)?(?:the\\s+)?(\\d+)(?:st|nd|rd|th)?(?:\\s+(?:${SECTION}|position|place))?$`,
    "i",
  ).exec(clause);
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    return ref ? { kind: "move", ref, target: { kind: "position", position: Number(match[2]) } } : null;
  }
  match =
    /^(?:move|put|place)\s+(.+?)\s+(?:to\s+)?(?:the\s+)?(start|beginning|front|top|end|bottom|back)(?:\s+of\s+the\s+deck)?$/i.exec(
      clause,
    );
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    const atStart = /^(?:start|beginning|front|top)$/i.test(match[2] ?? "");
    return ref ? { kind: "move", ref, target: atStart ? { kind: "start" } : { kind: "end" } } : null;
  }
  match =
    /^(?:move|put|place)\s+(.+?)\s+(?:to\s+)?(before|after|above|below|ahead\s+of|in\s+front\s+of|behind|right\s+before|right\s+after|just\s+before|just\s+after)\s+(.+)$/i.exec(
      clause,
    );
  if (match) {
    const ref = parseRef(match[1] ?? "", quoted);
    const target = parseRef(match[3] ?? "", quoted);
    const before = /before|above|ahead|front/i.test(match[2] ?? "");
    if (!ref || !target) return null;
    return { kind: "move", ref, target: before ? { kind: "before", ref: target } : { kind: "after", ref: target } };
  }
  return parseAdd(clause, quoted);
}

/**
 * "add a slide about "Pricing" after "Team" with "Free tier", "Team plan"": the topic is its heading, the
 * quoted points its bullets; without a place it goes before the closing slide's position at the end.
 */
function parseAdd(clause: string, quoted: string[]): Command | null {
  const quote = (token: string | undefined) => quoted[Number(token)] ?? "";
  const match = new RegExp(
    `^(?:add|insert|append)\\s+(?:a\\s+|one\\s+)?(?:new\\s+)?${SECTION}\\s+(?:about|on|called|titled|named)\\s+${QUOTE_TOKEN}(.*)$`,
    "i",
  ).exec(clause);
  if (!match) return null;
  let rest = (match[2] ?? "").trim();
  let points: string[] = [];
  const withPoints = new RegExp(
    `\\s*(?:,\\s*)?(?:with|saying|listing)\\s+(?:the\\s+)?(?:points?|bullets?|items?)?\\s*:?\\s*((?:${QUOTE_TOKEN}(?:\\s*(?:,|and|&)\\s*)*)+)$`,
    "i",
  ).exec(rest);
  if (withPoints) {
    points = [...(withPoints[1] ?? "").matchAll(new RegExp(QUOTE_TOKEN, "g"))].map((token) => quote(token[1]));
    rest = rest.slice(0, withPoints.index).trim();
  }
  let position: MoveTarget = { kind: "end" };
  if (rest) {
    const place =
      /^(?:right\s+|just\s+)?(before|after)\s+(.+)$/i.exec(rest) ??
      /^(?:at\s+the\s+)?(start|beginning|end)$/i.exec(rest);
    if (!place) return null;
    if (/^(?:start|beginning)$/i.test(place[1] ?? "")) position = { kind: "start" };
    else if (/^end$/i.test(place[1] ?? "")) position = { kind: "end" };
    else {
      const ref = parseRef(place[2] ?? "", quoted);
      if (!ref) return null;
      position = /before/i.test(place[1] ?? "") ? { kind: "before", ref } : { kind: "after", ref };
    }
  }
  return { kind: "add", topic: quote(match[1]), points, position };
}

export function parseInstruction(instruction: string): Command[] {
  const { text, quoted } = extractQuoted(instruction);
  const commands: Command[] = [];
  for (const clause of splitClauses(text)) {
    const command = parseCommand(clause, quoted);
    if (!command) {
      const shown = clause.replace(
        new RegExp(QUOTE_TOKEN, "g"),
        (_, index: string) => `"${quoted[Number(index)] ?? ""}"`,
      );
      refuse(`The offline editor does not understand "${shown}".`);
    }
    commands.push(command);
  }
  if (commands.length === 0) refuse("The instruction is empty.");
  return commands;
}
