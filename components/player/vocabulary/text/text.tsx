// Text: a paragraph. Sizes follow the theme's type ladder (--type-base × --type-scale^n, see
// base/context.css) and colours follow --dh-fg, so the same markup reads on any background.

import { type ReactNode } from "react";
import { oneOf, optionalOneOf } from "@/components/player/vocabulary/tone";
import {
  aligns,
  sizes,
  textTones,
  textWeights,
  type Align,
  type Size,
  type TextTone,
  type TextWeight,
} from "@/lib/contract/prop-values";

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
