// Type components. Sizes follow the theme's type ladder (--type-base × --type-scale^n, see
// vocabulary.css) and colours follow --dh-fg, so the same markup reads on any background.

import { Children, isValidElement, type ReactNode } from "react";
import { highlight as highlightCode } from "sugar-high";
import { lang as normaliseLanguage } from "sugar-high/lang";
import { Icon } from "@/components/player/vocabulary/media";
import { oneOf, optionalOneOf, textOf } from "@/components/player/vocabulary/tone";
import { escapeHtml } from "@/lib/contract/text";
import {
  aligns,
  bulletMarkers,
  headingLevels,
  quoteSizes,
  sizes,
  textTones,
  textWeights,
  type Align,
  type BulletMarker,
  type HeadingLevel,
  type QuoteSize,
  type Size,
  type TextTone,
  type TextWeight,
} from "@/lib/contract/vocabulary";

type TitleProps = {
  kicker?: string;
  subtitle?: string;
  align?: Align;
  children?: ReactNode;
};

export function Title({ kicker, subtitle, align, children }: TitleProps) {
  const kickerText = textOf(kicker);
  const subtitleText = textOf(subtitle);
  return (
    <hgroup className="dh-title" data-align={optionalOneOf(align, aligns)}>
      {kickerText ? (
        <p className="dh-kicker" dir="auto">
          {kickerText}
        </p>
      ) : null}
      <h1 className="dh-title-text" dir="auto">
        {children}
      </h1>
      {subtitleText ? (
        <p className="dh-subtitle" dir="auto">
          {subtitleText}
        </p>
      ) : null}
    </hgroup>
  );
}

type HeadingProps = {
  level?: HeadingLevel;
  kicker?: string;
  align?: Align;
  children?: ReactNode;
};

export function Heading({ level, kicker, align, children }: HeadingProps) {
  const depth = oneOf(level, headingLevels, 1);
  const kickerText = textOf(kicker);
  // Title owns <h1>; heading levels sit one below it so a deck's document outline stays well formed.
  const Tag = depth === 1 ? "h2" : depth === 2 ? "h3" : "h4";
  return (
    <hgroup className="dh-heading" data-level={depth} data-align={optionalOneOf(align, aligns)}>
      {kickerText ? (
        <p className="dh-kicker" dir="auto">
          {kickerText}
        </p>
      ) : null}
      <Tag className="dh-heading-text" dir="auto">
        {children}
      </Tag>
    </hgroup>
  );
}

type TextProps = {
  size?: Size;
  tone?: TextTone;
  weight?: TextWeight;
  align?: Align;
  children?: ReactNode;
};

export function Text({ size, tone, weight, align, children }: TextProps) {
  return (
    <p
      className="dh-text"
      dir="auto"
      // Unset size means "md", or the list's size when the Text is a bullet point.
      data-size={optionalOneOf(size, sizes)}
      data-tone={oneOf(tone, textTones, "default")}
      data-weight={oneOf(weight, textWeights, "regular")}
      data-align={optionalOneOf(align, aligns)}
    >
      {children}
    </p>
  );
}

type BulletsProps = {
  items?: string[];
  marker?: BulletMarker;
  size?: Size;
  children?: ReactNode;
};

export function Bullets({ items, marker, size, children }: BulletsProps) {
  const points = bulletPoints(items, children);
  if (points.length === 0) return null;
  const kind = oneOf(marker, bulletMarkers, "dot");
  const List = kind === "number" ? "ol" : "ul";
  return (
    <List className="dh-bullets" dir="auto" data-marker={kind} data-size={oneOf(size, sizes, "md")}>
      {points.map((point, index) => (
        <li className="dh-bullet" dir="auto" key={index}>
          <span className="dh-bullet-marker" aria-hidden="true">
            {kind === "number" ? <span className="dh-bullet-number">{index + 1}</span> : null}
            {kind === "check" ? <Icon name="check" tone="primary" /> : null}
            {kind === "arrow" ? <Icon name="arrow-right" tone="primary" /> : null}
          </span>
          <div className="dh-bullet-body">{point}</div>
        </li>
      ))}
    </List>
  );
}

// `items` wins when both are given; each non-blank child is one point, so JSX whitespace between
// <Text> children does not turn into empty bullets.
function bulletPoints(items: unknown, children: ReactNode): ReactNode[] {
  if (Array.isArray(items)) {
    return items.flatMap((item): ReactNode[] => {
      if (isValidElement(item)) return [item];
      const text = textOf(item)?.trim();
      return text ? [text] : [];
    });
  }
  const single = textOf(items)?.trim();
  if (single) return [single];
  return Children.toArray(children).filter((child) => !(typeof child === "string" && child.trim() === ""));
}

type QuoteProps = {
  by?: string;
  role?: string;
  size?: QuoteSize;
  align?: Align;
  children?: ReactNode;
};

export function Quote({ by, role, size, align, children }: QuoteProps) {
  const name = textOf(by);
  const roleText = textOf(role);
  return (
    <figure className="dh-quote" data-size={oneOf(size, quoteSizes, "lg")} data-align={optionalOneOf(align, aligns)}>
      <blockquote className="dh-quote-body">
        <p className="dh-quote-text" dir="auto">
          {/* The marks are text, not CSS content, so copy/paste and exports keep them. */}
          <span className="dh-quote-open">“</span>
          {children}”
        </p>
      </blockquote>
      {name || roleText ? (
        <figcaption className="dh-quote-by">
          {name ? (
            <span className="dh-quote-name" dir="auto">
              {name}
            </span>
          ) : null}
          {roleText ? (
            <span className="dh-quote-role" dir="auto">
              {roleText}
            </span>
          ) : null}
        </figcaption>
      ) : null}
    </figure>
  );
}

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
