import type { Problem } from "./code-editor";

/** The problems of a compiler message, which names each as "Line L:C: text" on a line of its own (the
 * API's compile_failed message); a refusal without positions (a limit, the tokens) has none. */
export function compileProblems(message: string): Problem[] {
  return message
    .split("\n")
    .map((line) => /^Line (\d+):(\d+): (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, line, column, text]) => ({ line: Number(line), column: Number(column), message: text! }));
}
