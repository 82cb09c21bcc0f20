// Bullets: a list of points (items or children), with dot, number, check or arrow markers; `level` indents
// a list under the one before it (a sub-list), `start` numbers from a point other than 1.

import { Children, isValidElement, type ReactNode } from "react";
import { Icon } from "@/components/player/vocabulary/icon/icon";
import { oneOf, optionalOneOf, textOf } from "@/components/player/vocabulary/tone";
import { bulletLevels, bulletMarkers, sizes, type BulletMarker, type Size } from "@/lib/contract/vocabulary";

type BulletsProps = {
  items?: string[];
  marker?: BulletMarker;
  size?: Size;
  level?: number;
  start?: number;
  children?: ReactNode;
};

export function Bullets({ items, marker, size, level, start, children }: BulletsProps) {
  const points = bulletPoints(items, children);
  if (points.length === 0) return null;
  const kind = oneOf(marker, bulletMarkers, "dot");
  const List = kind === "number" ? "ol" : "ul";
  const depth = optionalOneOf(level, bulletLevels);
  const first = typeof start === "number" && Number.isInteger(start) && start >= 0 && start < 10_000 ? start : 1;
  return (
    <List
      className="dh-bullets"
      dir="auto"
      data-marker={kind}
      data-size={oneOf(size, sizes, "md")}
      data-level={depth || undefined}
      start={kind === "number" && first !== 1 ? first : undefined}
    >
      {points.map((point, index) => (
        <li className="dh-bullet" dir="auto" key={index}>
          <span className="dh-bullet-marker" aria-hidden="true">
            {kind === "number" ? <span className="dh-bullet-number">{first + index}</span> : null}
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
