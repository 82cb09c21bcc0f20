// Title: a cover's or section's title, with an optional kicker above and subtitle below. Sizes follow the
// theme's type ladder (vocabulary.css, base/context.css) and colours follow --dh-fg.

import { type ReactNode } from "react";
import { optionalOneOf, textOf } from "@/components/player/vocabulary/tone";
import { aligns, type Align } from "@/lib/contract/prop-values";

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
