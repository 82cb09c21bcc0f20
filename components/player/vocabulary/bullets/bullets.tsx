// Bullets: a list of points (items or children), with dot, number, check or arrow markers.

import { Children, isValidElement, type ReactNode } from "react";
import { Icon } from "@/components/player/vocabulary/icon/icon";
import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { bulletMarkers, sizes, type BulletMarker, type Size } from "@/lib/contract/vocabulary";

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
