// Code: a source block, highlighted by sugar-high, its common indent removed, lines to emphasise marked.

import { highlight as highlightCode } from "sugar-high";
import { lang as normaliseLanguage } from "sugar-high/lang";
import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { escapeHtml } from "@/lib/contract/text";
import { sizes, type Size } from "@/lib/contract/prop-values";

type CodeProps = {
  code: string;
  language?: string;
  highlight?: number[];
  size?: Size;
};

export function Code({ code, language, highlight, size }: CodeProps) {
  const source = typeof code === "string" ? dedent(code) : "";
  if (source === "") return null;
  const marked = new Set(Array.isArray(highlight) ? highlight.filter((line) => Number.isInteger(line)) : []);
  const lines = highlightLines(source, language);
  return (
    <pre
      className="dh-code"
      data-size={oneOf(size, sizes, "md")}
      data-has-highlight={marked.size > 0 ? "" : undefined}
      data-language={textOf(language)}
    >
      <code className="dh-code-body">
        {lines.map((html, index) => (
          <span
            className="dh-code-line"
            key={index}
            data-highlight={marked.has(index + 1) ? "" : undefined}
            // sugar-high escapes the source text itself; the markup is only its own token spans.
            dangerouslySetInnerHTML={{ __html: html }}
          />
        ))}
      </code>
    </pre>
  );
}

// sugar-high joins its per-line spans with "\n" and never puts a raw newline inside a token, so the
// split gives one entry per source line, which lets each line carry its own highlight state.
function highlightLines(source: string, language: unknown): string[] {
  const requested = typeof language === "string" && language.trim() !== "" ? language.trim() : undefined;
  // No language reads as JavaScript/TSX (what decks mostly show); an unknown one stays uncoloured
  // rather than being mis-coloured as JavaScript.
  const lang = requested === undefined ? "typescript" : (normaliseLanguage(requested) ?? "plaintext");
  try {
    return highlightCode(source, { lang }).split("\n");
  } catch {
    return source.split("\n").map(escapeHtml);
  }
}

// Code in a template literal is usually indented to match the JSX around it and wrapped in blank lines.
function dedent(code: string): string {
  const lines = code.replace(/\t/g, "  ").split(/\r?\n/);
  while (lines.length > 0 && lines[0]?.trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(common).trimEnd()).join("\n");
}
