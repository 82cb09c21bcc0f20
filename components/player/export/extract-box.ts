// The PPTX extractor's boxes (used by extract-slides.ts and the components' extract.ts): positions and sizes
// within the slide model's limits, opacity, fills, borders, radii, shadows and gradients as shapes, and the
// ::before/::after boxes made into elements so they can be measured.

import {
  type Gradient,
  type Rect,
  type Rgba,
  type SlideItem,
  slideModelLimits as limits,
} from "@/lib/contract/slide-model";
import { parseColor } from "./color";

export const token = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
  byte.toString(16).padStart(2, "0"),
).join("");

export function px(value: string): number {
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? number : 0;
}

export const within = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** A position on (or off) the canvas, within what the model may hold. */
export const position = (value: number) => within(value, -limits.coordinate, limits.coordinate);

/** A size, within what the model may hold. */
export const size = (value: number) => within(value, 0, limits.coordinate);

export function relative(rect: DOMRect, origin: DOMRect): Rect {
  return {
    x: position(rect.left - origin.left),
    y: position(rect.top - origin.top),
    w: size(rect.width),
    h: size(rect.height),
  };
}

export function contentBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect): Rect {
  const box = relative(element.getBoundingClientRect(), origin);
  const left = px(style.paddingLeft) + px(style.borderLeftWidth);
  const top = px(style.paddingTop) + px(style.borderTopWidth);
  const right = px(style.paddingRight) + px(style.borderRightWidth);
  const bottom = px(style.paddingBottom) + px(style.borderBottomWidth);
  return {
    x: position(box.x + left),
    y: position(box.y + top),
    w: size(box.w - left - right),
    h: size(box.h - top - bottom),
  };
}

// How opaque an element is drawn: its own opacity times its ancestors' (a dimmed code line, a faded
// timeline item). Colours of its text and fills carry it as alpha.
export const opacities = new Map<Element, number>();

export function opacityOf(element: Element): number {
  const known = opacities.get(element);
  if (known !== undefined) return known;
  const own = Number(getComputedStyle(element).opacity);
  let value = Number.isFinite(own) ? within(own, 0, 1) : 1;
  const parent = element.parentElement;
  if (parent && !element.classList.contains("dh-export-page")) value *= opacityOf(parent);
  opacities.set(element, value);
  return value;
}

export function faded(color: Rgba | null, opacity: number): Rgba | null {
  if (!color || opacity >= 1) return color;
  return { hex: color.hex, alpha: Math.round(color.alpha * opacity * 1000) / 1000 };
}

// The names of the standard properties of a computed style, listed once (every computed style lists the same
// ones). Custom properties are left out: the copy of a pseudo-element has no content that could use them, and
// its standard properties hold their values resolved.
let standardNames: string[] | undefined;
function standardProperties(style: CSSStyleDeclaration): string[] {
  standardNames ??= [...style].filter((name) => !name.startsWith("--") && name !== "content");
  return standardNames;
}

// Pseudo-elements with a box (bullet dots, rules, scrims) become real elements so the walker sees them.
// Every pseudo-element's style is read first and the spans inserted after: reading a computed style after
// an insertion would recompute the document's styles once per pseudo-element.
export function materializePseudoElements(roots: Element[]) {
  const found: { element: Element; which: "::before" | "::after"; properties: [string, string][]; content: string }[] =
    [];
  for (const root of roots) {
    for (const element of [root, ...root.querySelectorAll("*")]) {
      for (const which of ["::before", "::after"] as const) {
        const style = getComputedStyle(element, which);
        if (!style.content || style.content === "none" || style.content === "normal" || style.display === "none")
          continue;
        const properties: [string, string][] = [];
        for (const name of standardProperties(style)) properties.push([name, style.getPropertyValue(name)]);
        found.push({ element, which, properties, content: style.content });
      }
    }
  }
  const created: HTMLSpanElement[] = [];
  for (const { element, which, properties, content } of found) {
    const span = document.createElement("span");
    // One declaration block parsed at once: a setProperty per property (some 450 of them) costs several times more.
    span.style.cssText = properties.map(([name, value]) => `${name}: ${value}`).join("; ");
    span.style.setProperty("content", "normal");
    const text = /^["'](.*)["']$/.exec(content)?.[1] ?? "";
    if (text)
      span.textContent = text.replace(/\\([0-9a-f]{1,6}) ?/gi, (_, hex: string) => {
        const code = Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
      });
    span.dataset.dhPseudo = which;
    if (which === "::before") element.insertBefore(span, element.firstChild);
    else element.appendChild(span);
    created.push(span);
  }
  const sheet = document.createElement("style");
  sheet.textContent = `[data-dh-materialized="${token}"]::before, [data-dh-materialized="${token}"]::after { content: none !important; }`;
  document.head.appendChild(sheet);
  for (const span of created) span.parentElement?.setAttribute("data-dh-materialized", token);
}

function parseShadow(value: string): { x: number; y: number; blur: number; color: Rgba } | null {
  if (!value || value === "none") return null;
  const first = value.split(/,(?![^(]*\))/)[0] ?? "";
  if (first.includes("inset")) return null;
  const color = /(rgba?\([^)]*\)|color\([^)]*\)|#[0-9a-f]{3,8})/i.exec(first)?.[1];
  const lengths = first
    .replace(color ?? "", "")
    .trim()
    .split(/\s+/)
    .map(px);
  const parsed = color ? parseColor(color) : null;
  if (!parsed || lengths.length < 2) return null;
  return { x: position(lengths[0] ?? 0), y: position(lengths[1] ?? 0), blur: size(lengths[2] ?? 0), color: parsed };
}

// A CSS gradient (the computed background-image) as the slide model's gradient, or null for one that
// PowerPoint's gradient fills cannot hold: several layers, repeating, stops at lengths or hints, a corner
// direction, a radial gradient that is not around the centre.
function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < value.length; index++) {
    const character = value[index];
    if (character === "(") depth++;
    else if (character === ")") depth--;
    else if (character === "," && depth === 0) {
      parts.push(value.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts;
}

const sideAngles: Record<string, number> = { top: 0, right: 90, bottom: 180, left: 270 };

export function parseGradient(value: string, opacity: number): Gradient | null {
  const match = /^(linear|radial)-gradient\((.*)\)$/s.exec(value.trim());
  if (!match || splitTopLevel(value).length !== 1) return null;
  const kind = match[1] as "linear" | "radial";
  const args = splitTopLevel(match[2]!);
  let angle = 180;
  const first = args[0]!;
  const units: Record<string, number> = { deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 };
  const angleMatch = /^(-?[\d.]+)(deg|grad|rad|turn)$/.exec(first);
  const side = /^to (top|right|bottom|left)$/.exec(first);
  if (kind === "linear" && angleMatch) {
    angle = Number(angleMatch[1]) * units[angleMatch[2]!]!;
    args.shift();
  } else if (kind === "linear" && side) {
    angle = sideAngles[side[1]!]!;
    args.shift();
  } else if (kind === "radial" && !CSS.supports("color", first.replace(/\s+-?[\d.]+%$/, ""))) {
    if (!/^(ellipse\s*)?(farthest-corner\s*)?(at (center|center center|50% 50%))?$/.test(first)) return null;
    args.shift();
  } else if (!CSS.supports("color", first.replace(/\s+-?[\d.]+%(\s+-?[\d.]+%)?$/, ""))) {
    return null;
  }
  if (!Number.isFinite(angle) || args.length < 2 || args.length > limits.gradientStops) return null;
  const stops: Array<{ color: Rgba | null; at: number | null }> = [];
  for (const arg of args) {
    const parts = /^(.*?)(?:\s+(-?[\d.]+)%)?(?:\s+(-?[\d.]+)%)?$/s.exec(arg)!;
    const text = parts[1]!.trim();
    if (!CSS.supports("color", text)) return null;
    const color = parseColor(text);
    const positions = [parts[2], parts[3]].filter((p): p is string => p !== undefined).map((p) => Number(p) / 100);
    if (positions.length === 0) stops.push({ color, at: null });
    for (const at of positions) stops.push({ color, at });
  }
  // Positions left out are spread evenly between their neighbours; each is at least the one before.
  stops[0]!.at ??= 0;
  stops.at(-1)!.at ??= 1;
  for (let index = 1; index < stops.length - 1; index++) {
    if (stops[index]!.at !== null) continue;
    let next = index;
    while (stops[next]!.at === null) next++;
    const from = stops[index - 1]!.at!;
    stops[index]!.at = from + (stops[next]!.at! - from) / (next - index + 1);
  }
  let last = 0;
  const resolved: Gradient["stops"] = [];
  for (const [index, stop] of stops.entries()) {
    const at = within(Math.max(stop.at!, last), 0, 1);
    last = at;
    // A fully transparent stop has no colour of its own: its neighbour's, at no alpha (what the browser's
    // premultiplied blending draws).
    const near = stop.color ?? stops[index + 1]?.color ?? stops[index - 1]?.color ?? null;
    const color = stop.color ? faded(stop.color, opacity)! : { hex: near?.hex ?? "000000", alpha: 0 };
    resolved.push({ color, at: Math.round(at * 10_000) / 10_000 });
  }
  return { kind, angle: Math.round((((angle % 360) + 360) % 360) * 100) / 100, stops: resolved };
}

// Inset shadows without blur or spread are bars along one side (a highlighted code line's accent).
function insetBars(value: string, rect: Rect, opacity: number): { rect: Rect; color: Rgba }[] {
  if (!value || value === "none") return [];
  const bars: { rect: Rect; color: Rgba }[] = [];
  for (const shadow of value.split(/,(?![^(]*\))/)) {
    if (!shadow.includes("inset")) continue;
    const colorText = /(rgba?\([^)]*\)|color\([^)]*\)|#[0-9a-f]{3,8})/i.exec(shadow)?.[1];
    const color = faded(colorText ? parseColor(colorText) : null, opacity);
    const [x = 0, y = 0, blur = 0, spread = 0] = shadow
      .replace(colorText ?? "", "")
      .replace("inset", "")
      .trim()
      .split(/\s+/)
      .map(px);
    if (!color || blur !== 0 || spread !== 0 || (x === 0) === (y === 0)) continue;
    const w = size(Math.min(Math.abs(x), rect.w));
    const h = size(Math.min(Math.abs(y), rect.h));
    bars.push({
      color,
      rect:
        x > 0
          ? { x: rect.x, y: rect.y, w, h: rect.h }
          : x < 0
            ? { x: position(rect.x + rect.w - w), y: rect.y, w, h: rect.h }
            : y > 0
              ? { x: rect.x, y: rect.y, w: rect.w, h }
              : { x: rect.x, y: position(rect.y + rect.h - h), w: rect.w, h },
    });
  }
  return bars;
}

// The fills, borders and shadows of an element's own box, as shapes.
export function pushBoxShapes(element: Element, style: CSSStyleDeclaration, rect: Rect, items: SlideItem[]) {
  const opacity = opacityOf(element);
  const fill = faded(parseColor(style.backgroundColor), opacity);
  const sides = ["Top", "Right", "Bottom", "Left"] as const;
  const widths = sides.map((side) =>
    style.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none"
      ? 0
      : px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
  );
  const colors = sides.map((side) =>
    faded(parseColor(style.getPropertyValue(`border-${side.toLowerCase()}-color`)), opacity),
  );
  const uniform =
    widths.every((w) => w === widths[0]) &&
    colors.every((c) => c?.hex === colors[0]?.hex && c?.alpha === colors[0]?.alpha);
  // A percentage radius (a badge's 50%) is of the box's own size.
  const radius = style.borderTopLeftRadius.endsWith("%")
    ? (Number.parseFloat(style.borderTopLeftRadius) / 100) * Math.min(rect.w, rect.h)
    : px(style.borderTopLeftRadius);
  const ellipse = radius > 0 && radius >= Math.min(rect.w, rect.h) / 2 - 0.5 && Math.abs(rect.w - rect.h) < 1;
  const border =
    uniform && widths[0]! > 0 && colors[0]
      ? {
          width: size(widths[0]!),
          color: colors[0],
          dash:
            style.borderTopStyle === "dashed"
              ? ("dash" as const)
              : style.borderTopStyle === "dotted"
                ? ("dot" as const)
                : ("solid" as const),
        }
      : null;
  if (fill || border) {
    const shadow = parseShadow(style.boxShadow);
    items.push({
      kind: "shape",
      rect,
      fill,
      border,
      radius: size(Math.min(radius, rect.w / 2, rect.h / 2)),
      ellipse,
      shadow: shadow ? { ...shadow, color: faded(shadow.color, opacity)! } : null,
    });
  }
  const bar = (barRect: Rect, color: Rgba) =>
    items.push({ kind: "shape", rect: barRect, fill: color, border: null, radius: 0, ellipse: false, shadow: null });
  for (const inset of insetBars(style.boxShadow, rect, opacity)) bar(inset.rect, inset.color);
  // Borders on some sides only (rules, accent bars) become thin filled rectangles.
  if (!uniform) {
    sides.forEach((side, index) => {
      const width = size(widths[index]!);
      const color = colors[index];
      if (width <= 0 || !color) return;
      bar(
        side === "Top"
          ? { x: rect.x, y: rect.y, w: rect.w, h: width }
          : side === "Bottom"
            ? { x: rect.x, y: rect.y + rect.h - width, w: rect.w, h: width }
            : side === "Left"
              ? { x: rect.x, y: rect.y, w: width, h: rect.h }
              : { x: rect.x + rect.w - width, y: rect.y, w: width, h: rect.h },
        color,
      );
    });
  }
}
