// Bullets: a list of points (items or children), with dot, number, check or arrow markers, and sub-points:
// an array among the items, or a <Bullets> among the children, is the sub-list of the point before it;
// `start` numbers from a point other than 1.

import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import { Icon } from "@/components/player/vocabulary/icon/icon";
import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { bulletMarkers, sizes, type BulletMarker, type Size } from "@/lib/contract/prop-values";

type BulletItem = string | ReactElement | BulletItem[];

type BulletsProps = {
  items?: BulletItem[];
  marker?: BulletMarker;
  size?: Size;
  start?: number;
  children?: ReactNode;
};

// PowerPoint keeps nine levels; a slide that needs more than four is not read anyway.
const MAX_LEVEL = 3;

type Point = { content: ReactNode; sub: ReactNode[] };

export function Bullets(props: BulletsProps) {
  return <List {...props} level={0} />;
}

function List({ items, marker, size, start, children, level }: BulletsProps & { level: number }) {
  const points = bulletPoints(items, children, marker, level);
  if (points.length === 0) return null;
  const kind = oneOf(marker, bulletMarkers, "dot");
  const Tag = kind === "number" ? "ol" : "ul";
  const first = typeof start === "number" && Number.isInteger(start) && start >= 0 && start < 10_000 ? start : 1;
  return (
    <Tag
      className="dh-bullets"
      dir="auto"
      data-marker={kind}
      {...(level === 0 ? { "data-size": oneOf(size, sizes, "md") } : { "data-level": level })}
      start={kind === "number" && first !== 1 ? first : undefined}
    >
      {points.map((point, index) => (
        <li className="dh-bullet" dir="auto" key={index}>
          <span className="dh-bullet-marker" aria-hidden="true">
            {kind === "dot" ? <span className="dh-bullet-dot" /> : null}
            {kind === "number" ? <span className="dh-bullet-number">{first + index}</span> : null}
            {kind === "check" ? <Icon name="check" tone="primary" /> : null}
            {kind === "arrow" ? <Icon name="arrow-right" tone="primary" /> : null}
          </span>
          <div className="dh-bullet-body">{point.content}</div>
          {point.sub}
        </li>
      ))}
    </Tag>
  );
}

// `items` wins when both are given; each non-blank child is one point, so JSX whitespace between
// <Text> children does not turn into empty bullets. A sub-list with no point before it is a point of its own.
function bulletPoints(items: unknown, children: ReactNode, marker: unknown, level: number): Point[] {
  const points: Point[] = [];
  const nest = (list: ReactNode) => {
    const last = points.at(-1);
    if (last) last.sub.push(list);
    else points.push({ content: list, sub: [] });
  };
  if (Array.isArray(items)) {
    for (const item of items) {
      if (Array.isArray(item)) {
        if (level < MAX_LEVEL) {
          nest(<List key={points.length} items={item} marker={marker as BulletMarker} level={level + 1} />);
        }
        continue;
      }
      if (isValidElement(item)) {
        points.push({ content: item, sub: [] });
        continue;
      }
      const text = textOf(item)?.trim();
      if (text) points.push({ content: text, sub: [] });
    }
    return points;
  }
  const single = textOf(items)?.trim();
  if (single) return [{ content: single, sub: [] }];
  for (const child of Children.toArray(children)) {
    if (typeof child === "string" && child.trim() === "") continue;
    if (isValidElement<BulletsProps>(child) && child.type === Bullets) {
      if (level < MAX_LEVEL) nest(<List key={points.length} {...child.props} level={level + 1} />);
      continue;
    }
    points.push({ content: child, sub: [] });
  }
  return points;
}
