// Layout primitives. They only arrange children; spacing and alignment come from vocabulary.css through
// data attributes, so a theme change (--space, --radius) reaches every deck without touching markup.

import { Children, type ReactNode } from "react";
import { oneOf, optionalOneOf, type StyleWithVars } from "@/components/player/vocabulary/tone";
import {
  aligns,
  boxPaddings,
  boxTones,
  columnAligns,
  gaps,
  gridColumns,
  stackAligns,
  stackJustifies,
  type Align,
  type BoxPadding,
  type BoxTone,
  type ColumnAlign,
  type Gap,
  type GridColumns,
  type StackAlign,
  type StackJustify,
} from "@/lib/contract/prop-values";

type ColumnsProps = {
  ratio?: string;
  gap?: Gap;
  align?: ColumnAlign;
  children?: ReactNode;
};

export function Columns({ ratio, gap, align, children }: ColumnsProps) {
  const count = Children.toArray(children).length;
  const style: StyleWithVars = { "--dh-columns": columnTemplate(ratio, count) };
  return (
    <div
      className="dh-columns"
      data-gap={oneOf(gap, gaps, "md")}
      // Without align the cells stretch to the row's height (vocabulary.css), so cards come out even.
      data-align={optionalOneOf(align, columnAligns)}
      style={style}
    >
      {children}
    </div>
  );
}

// "2:1" → two fr tracks. minmax(0, …) keeps a long word or a wide chart from pushing its column past
// the ratio. Missing or unreadable parts count as 1 so a typo degrades to equal columns.
function columnTemplate(ratio: unknown, count: number): string {
  const parts =
    typeof ratio === "string"
      ? ratio
          .split(/[:/,\s]+/)
          .filter((part) => part !== "")
          .map((part) => Number(part))
      : [];
  const tracks = Math.max(count, 1);
  const weights = Array.from({ length: tracks }, (_, index) => {
    const weight = parts[index];
    return weight !== undefined && Number.isFinite(weight) && weight > 0 ? weight : 1;
  });
  return weights.map((weight) => `minmax(0, ${weight}fr)`).join(" ");
}

type StackProps = {
  gap?: Gap;
  align?: StackAlign;
  justify?: StackJustify;
  children?: ReactNode;
};

export function Stack({ gap, align, justify, children }: StackProps) {
  return (
    <div
      className="dh-stack"
      data-gap={oneOf(gap, gaps, "md")}
      // Without align the stack follows its context (start on a content slide, centred on a centre slide).
      data-align={optionalOneOf(align, stackAligns)}
      data-justify={oneOf(justify, stackJustifies, "start")}
    >
      {children}
    </div>
  );
}

type GridProps = {
  columns?: GridColumns;
  gap?: Gap;
  children?: ReactNode;
};

export function Grid({ columns, gap, children }: GridProps) {
  return (
    <div className="dh-grid" data-columns={oneOf(columns, gridColumns, 3)} data-gap={oneOf(gap, gaps, "md")}>
      {children}
    </div>
  );
}

type BoxProps = {
  tone?: BoxTone;
  padding?: BoxPadding;
  align?: Align;
  children?: ReactNode;
};

export function Box({ tone, padding, align, children }: BoxProps) {
  return (
    <div
      className="dh-box"
      data-tone={oneOf(tone, boxTones, "surface")}
      data-padding={oneOf(padding, boxPaddings, "md")}
      data-align={optionalOneOf(align, aligns)}
    >
      {children}
    </div>
  );
}
