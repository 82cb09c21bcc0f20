// Quote: a pull quote with who said it and their role.

import { type ReactNode } from "react";
import { oneOf, optionalOneOf, textOf } from "@/components/player/vocabulary/tone";
import { aligns, quoteSizes, type Align, type QuoteSize } from "@/lib/contract/prop-values";

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
