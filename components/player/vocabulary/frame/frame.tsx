// Frame: a box placed on the slide at a position and size of its own (px of the 1920x1080 canvas), over
// the slide's flow, for decks that keep a layout drawn elsewhere (a PowerPoint import in faithful mode).
// It holds ordinary vocabulary (Text, Bullets, Image, Table, Chart…), may be a filled or outlined shape, and its own
// type size: the ladder inside it is based on `size`, shrunk with the slide's fit (shell/fit.ts), so text
// too long for its frame shrinks like any slide's and, at the floor, is reported as overflowing the frame.

import { type ReactNode } from "react";
import { oneOf, optionalOneOf, type StyleWithVars } from "@/components/player/vocabulary/tone";
import {
  aligns,
  frameShapes,
  frameVerticalAligns,
  type Align,
  type FrameShape,
  type FrameVerticalAlign,
} from "@/lib/contract/prop-values";

type Gradient = { angle?: number; radial?: boolean; stops?: Array<{ color?: string; at?: number }> };
type Outline = { color?: string; width?: number };

type FrameProps = {
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  rotate?: number;
  fill?: string;
  gradient?: Gradient;
  outline?: Outline;
  shape?: FrameShape;
  size?: number;
  color?: string;
  font?: string;
  align?: Align;
  valign?: FrameVerticalAlign;
  children?: ReactNode;
};

const CANVAS = { width: 1920, height: 1080 };

/** A finite number within [min, max], or the fallback. */
function clampNumber(value: unknown, min: number, max: number, fallback: number): number {
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) return fallback;
  return Math.min(max, Math.max(min, number));
}

// Colours and font names end up in a style attribute: only plain values pass (no url(), no semicolons).
function plainColor(value: unknown): string | undefined {
  return typeof value === "string" &&
    /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|hsl)a?\([\d\s.,%/-]{1,60}\))$/.test(value)
    ? value
    : undefined;
}

function plainFamily(value: unknown): string | undefined {
  return typeof value === "string" && /^[\p{L}\p{N} _-]{1,60}$/u.test(value.trim()) ? value.trim() : undefined;
}

function gradientCss(gradient: Gradient | undefined): string | undefined {
  if (!gradient || !Array.isArray(gradient.stops)) return undefined;
  const stops = gradient.stops
    .map((stop) => ({ color: plainColor(stop?.color), at: clampNumber(stop?.at, 0, 100, Number.NaN) }))
    .filter((stop) => stop.color)
    .map((stop) => (Number.isNaN(stop.at) ? stop.color! : `${stop.color} ${stop.at}%`));
  if (stops.length < 2) return undefined;
  // A radial gradient grows from the frame's centre (stop 0) to its corners.
  if (gradient.radial === true) return `radial-gradient(${stops.join(", ")})`;
  return `linear-gradient(${clampNumber(gradient.angle, -360, 360, 180)}deg, ${stops.join(", ")})`;
}

export function Frame({
  x,
  y,
  w,
  h,
  rotate,
  fill,
  gradient,
  outline,
  shape,
  size,
  color,
  font,
  align,
  valign,
  children,
}: FrameProps) {
  const left = clampNumber(x, -CANVAS.width, CANVAS.width * 2, 0);
  const top = clampNumber(y, -CANVAS.height, CANVAS.height * 2, 0);
  const style: StyleWithVars = {
    left: `${left}px`,
    top: `${top}px`,
    width: `${clampNumber(w, 0, CANVAS.width * 2, CANVAS.width - left)}px`,
    height: `${clampNumber(h, 0, CANVAS.height * 2, CANVAS.height - top)}px`,
  };
  const turn = clampNumber(rotate, -360, 360, 0);
  if (turn !== 0) style.transform = `rotate(${turn}deg)`;
  const background = gradientCss(gradient);
  if (background) style.backgroundImage = background;
  else if (plainColor(fill)) style.backgroundColor = plainColor(fill);
  // The outline is drawn inside the frame's edge (PowerPoint centres it on the edge: half a width apart).
  const stroke = plainColor(outline?.color);
  if (stroke) style.border = `${clampNumber(outline?.width, 0.5, 100, 1)}px solid ${stroke}`;
  if (size !== undefined) style["--dh-frame-size"] = `${clampNumber(size, 4, 400, 48)}px`;
  const ink = plainColor(color);
  if (ink) style["--dh-fg"] = ink;
  const family = plainFamily(font);
  if (family) style.fontFamily = `"${family}", var(--font-body), "Noto Color Emoji"`;
  return (
    <div
      className="dh-frame"
      dir="auto"
      data-shape={oneOf(shape, frameShapes, "rect")}
      data-valign={oneOf(valign, frameVerticalAligns, "top")}
      data-align={optionalOneOf(align, aligns)}
      data-filled={background || plainColor(fill) ? "" : undefined}
      data-sized={size !== undefined ? "" : undefined}
      style={style}
    >
      {children}
    </div>
  );
}
