// Stat: a big number with its label and a detail line (the comparison). The value is fitted with the
// slide (fit.ts); side-by-side Stats share one size.

import { oneOf, optionalOneOf, textOf, typographicMinus } from "@/components/player/vocabulary/tone";
import { aligns, statTones, type Align, type StatTone } from "@/lib/contract/prop-values";

type StatProps = {
  value: string;
  label: string;
  detail?: string;
  tone?: StatTone;
  align?: Align;
};

export function Stat({ value, label, detail, tone, align }: StatProps) {
  const valueText = textOf(value);
  const labelText = textOf(label);
  const detailText = textOf(detail);
  if (!valueText && !labelText) return null;
  return (
    <div className="dh-stat" data-tone={oneOf(tone, statTones, "primary")} data-align={optionalOneOf(align, aligns)}>
      {valueText ? <p className="dh-stat-value">{typographicMinus(valueText)}</p> : null}
      {labelText ? (
        <p className="dh-stat-label" dir="auto">
          {labelText}
        </p>
      ) : null}
      {detailText ? (
        <p className="dh-stat-detail" dir="auto">
          {detailText}
        </p>
      ) : null}
    </div>
  );
}
