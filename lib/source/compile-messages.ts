import type * as esbuild from "esbuild";
import { vocabulary } from "@/lib/source/component-specs";

// What the compiler (lib/source/compile.ts) says when esbuild refuses a deck module: each error with its line
// and column in the author's own source (characters, not bytes), a name the vocabulary lacks answered with
// the component meant, at most a few errors and a count of the rest.

/** The module decks import from, the virtual module of the deck's own source and its file name. */
export const PLAYER = "@deckhand/player";
export const SOURCE_NAMESPACE = "deckhand-source";
export const ENTRY = "deck.tsx";
const MAX_REPORTED_ERRORS = 5;

export const componentList = vocabulary.map((component) => component.name).join(", ");

export function formatMessages(messages: esbuild.Message[]): string {
  const lines = messages.slice(0, MAX_REPORTED_ERRORS).map(formatMessage);
  const hidden = messages.length - MAX_REPORTED_ERRORS;
  if (hidden > 0) lines.push(`…and ${hidden} more error${hidden === 1 ? "" : "s"}`);
  return lines.join("\n");
}

function formatMessage(message: esbuild.Message): string {
  const notes = message.notes
    .filter((note) => note.text.length > 0)
    .map((note) => {
      const text = note.text.replace(/:$/, "");
      const where = sourcePosition(note.location);
      return where ? `${text} (line ${where})` : text;
    });
  const where = sourcePosition(message.location);
  const text = [...describeMessage(message.text, notes)].join(" ");
  return where ? `Line ${where}: ${text}` : text;
}

export function* describeMessage(text: string, notes: string[]): Generator<string> {
  const missingName = missingExportPattern.exec(text)?.[1];
  if (missingName === undefined) {
    yield* [text, ...notes].map(endSentence);
    return;
  }
  yield `"${missingName}" is not a component of "${PLAYER}".`;
  const suggestion = suggestComponent(missingName);
  if (suggestion) yield `Did you mean "${suggestion}"?`;
  // esbuild's note, when it has one, is also a "did you mean"; one suggestion is enough.
  else yield* notes.map(endSentence);
  yield `Available: ${componentList}. Types are imported with "import type".`;
}

// Names models reach for from HTML, React UI kits and slide tools, mapped to the vocabulary.
const componentAliases: Record<string, string> = {
  p: "Text",
  paragraph: "Text",
  span: "Text",
  caption: "Text",
  h1: "Heading",
  h2: "Heading",
  h3: "Heading",
  header: "Heading",
  subheading: "Heading",
  subtitle: "Heading",
  headline: "Title",
  list: "Bullets",
  ul: "Bullets",
  ol: "Bullets",
  bulletlist: "Bullets",
  bulletpoints: "Bullets",
  img: "Image",
  picture: "Image",
  photo: "Image",
  row: "Columns",
  hstack: "Columns",
  split: "Columns",
  column: "Stack",
  vstack: "Stack",
  flex: "Stack",
  card: "Box",
  panel: "Box",
  callout: "Box",
  container: "Box",
  metric: "Stat",
  kpi: "Stat",
  number: "Stat",
  statistic: "Stat",
  graph: "Chart",
  barchart: "Chart",
  linechart: "Chart",
  piechart: "Chart",
  roadmap: "Timeline",
  milestones: "Timeline",
  process: "Steps",
  stepper: "Steps",
  mermaid: "Diagram",
  flowchart: "Diagram",
  sequencediagram: "Diagram",
  brandlogo: "Logo",
  wordmark: "Logo",
  blockquote: "Quote",
  testimonial: "Quote",
  codeblock: "Code",
  pre: "Code",
  section: "Beat",
  page: "Slide",
  presentation: "Deck",
};

function suggestComponent(name: string): string | undefined {
  const wanted = name.toLowerCase();
  const alias = componentAliases[wanted];
  if (alias) return alias;
  let best: { name: string; distance: number } | undefined;
  for (const { name: candidate } of vocabulary) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function endSentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

// Locations in the virtual player modules mean nothing to the author, so only the deck's own count.
// (esbuild reports plugin namespaces in `file`, as "namespace:path", not in `namespace`.)
const sourceFile = `${SOURCE_NAMESPACE}:${ENTRY}`;

/** "line:column", 1-based, in characters; null for positions outside the deck's own source. */
function sourcePosition(location: esbuild.Location | null): string | null {
  if (!location || location.file !== sourceFile) return null;
  // esbuild counts columns in UTF-8 bytes; editors (and models) count characters.
  const column = Buffer.from(location.lineText).subarray(0, location.column).toString("utf8").length + 1;
  return `${location.line}:${column}`;
}

const missingExportPattern = /^No matching export in "[^"]*" for import "([^"]+)"$/;
