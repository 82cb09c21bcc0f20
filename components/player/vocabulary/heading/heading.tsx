// Heading: a slide's heading at level 1-3 of the type ladder, with an optional kicker. Its styles are in
// ../title/title.css, shared with Title.

import { type ReactNode } from "react";
import { oneOf, optionalOneOf, textOf } from "@/components/player/vocabulary/tone";
import { aligns, headingLevels, type Align, type HeadingLevel } from "@/lib/contract/prop-values";

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
