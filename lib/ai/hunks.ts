// Search/replace hunks, the edit format the model answers with:
//
//   <<<<<<< SEARCH
//   exact text from the current module
//   =======
//   its replacement
//   >>>>>>> REPLACE
//
// Applying them touches only the matched text, so slides the edit does not mention stay byte-identical.

export type Hunk = { search: string; replace: string };

export class HunkError extends Error {}

const HUNK = /<{5,9} SEARCH\r?\n([\s\S]*?)\r?\n={5,9}\r?\n([\s\S]*?)\r?\n?>{5,9} REPLACE/g;

export function parseHunks(text: string): Hunk[] {
  const hunks = [...text.matchAll(HUNK)].map((match) => ({ search: match[1]!, replace: match[2]! }));
  if (hunks.length === 0) throw new HunkError("The answer contained no SEARCH/REPLACE hunks.");
  return hunks;
}

export function applyHunks(source: string, hunks: Hunk[]): string {
  let result = source;
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.search === "") throw new HunkError(`Hunk ${index + 1} has an empty SEARCH block.`);
    const at = result.indexOf(hunk.search);
    if (at === -1) {
      throw new HunkError(
        `Hunk ${index + 1}: its SEARCH text does not occur in the module. Copy it exactly, including whitespace.`,
      );
    }
    if (result.indexOf(hunk.search, at + 1) !== -1) {
      throw new HunkError(
        `Hunk ${index + 1}: its SEARCH text occurs more than once; include more surrounding lines so it is unique.`,
      );
    }
    result = result.slice(0, at) + hunk.replace + result.slice(at + hunk.search.length);
  }
  return result;
}

// The module inside the model's answer: the first ```tsx (or ```) block, else the whole answer.
export function extractModule(text: string): string {
  const fenced = /```(?:tsx|typescript|ts|jsx|javascript|js)?\s*\n([\s\S]*?)```/.exec(text);
  return (fenced ? fenced[1]! : text).trim() + "\n";
}
