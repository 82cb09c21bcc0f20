// Where shapes sit, for the PowerPoint reader: a shape's frame (a:xfrm: offset, extent, rotation), groups'
// child coordinate spaces composed into slide coordinates, placeholders and which ones match, and a
// freeform's outline (a:custGeom's path list) drawn as an SVG picture of it, its fill and outline kept.
import type { Element } from "@xmldom/xmldom";
import type { Frame, Placeholder } from "./model";
import { attr, kid, kids, nameOf, path as xpath } from "./xml";

export type Transform = { x: number; y: number; sx: number; sy: number; cx: number; cy: number };

export function placeholderOf(shape: Element): Placeholder | undefined {
  const nv = kids(shape).find((child) => nameOf(child).startsWith("nv"));
  const ph = xpath(nv, "nvPr", "ph");
  if (!ph) return undefined;
  const idx = attr(ph, "idx");
  return { type: attr(ph, "type") ?? "obj", ...(idx !== null ? { idx } : {}) };
}

export function sameKind(a: string, b: string): boolean {
  const kind = (type: string) =>
    type === "ctrTitle" ? "title" : type === "obj" || type === "subTitle" ? "body" : type;
  return kind(a) === kind(b);
}

export function frameOf(shape: Element): Frame | null {
  const xfrm = xpath(shape, "spPr", "xfrm") ?? xpath(shape, "grpSpPr", "xfrm") ?? kid(shape, "xfrm") ?? null;
  const off = kid(xfrm, "off");
  const ext = kid(xfrm, "ext");
  if (!off || !ext) return null;
  const rotation = Number(attr(xfrm, "rot") ?? 0) / 60000;
  return {
    x: Number(attr(off, "x") ?? 0),
    y: Number(attr(off, "y") ?? 0),
    width: Number(attr(ext, "cx") ?? 0),
    height: Number(attr(ext, "cy") ?? 0),
    ...(rotation ? { rotation } : {}),
  };
}

// A group's children are placed in its own coordinate space (chOff/chExt), scaled onto its frame.
export function groupTransform(xfrm: Element | null, outer: Transform | null): Transform | null {
  const off = kid(xfrm, "off");
  const ext = kid(xfrm, "ext");
  const chOff = kid(xfrm, "chOff");
  const chExt = kid(xfrm, "chExt");
  if (!off || !ext || !chOff || !chExt) return outer;
  const n = (element: Element, name: string) => Number(attr(element, name) ?? 0);
  const own: Transform = {
    x: n(off, "x"),
    y: n(off, "y"),
    cx: n(chOff, "x"),
    cy: n(chOff, "y"),
    sx: n(chExt, "cx") ? n(ext, "cx") / n(chExt, "cx") : 1,
    sy: n(chExt, "cy") ? n(ext, "cy") / n(chExt, "cy") : 1,
  };
  if (!outer) return own;
  // Compose: the group's own frame is itself in the outer group's space.
  return {
    x: outer.x + (own.x - outer.cx) * outer.sx,
    y: outer.y + (own.y - outer.cy) * outer.sy,
    cx: own.cx,
    cy: own.cy,
    sx: own.sx * outer.sx,
    sy: own.sy * outer.sy,
  };
}

export function placed(frame: Frame | null, transform: Transform | null): Frame | null {
  if (!frame || !transform) return frame;
  return {
    ...frame,
    x: Math.round(transform.x + (frame.x - transform.cx) * transform.sx),
    y: Math.round(transform.y + (frame.y - transform.cy) * transform.sy),
    width: Math.round(frame.width * transform.sx),
    height: Math.round(frame.height * transform.sy),
  };
}

// ---- freeforms -------------------------------------------------------------------------------------------

/** EMU per unit of the SVG's view box: a 16:9 slide is 1920 units wide, like the canvas. */
const EMU_PER_UNIT = 6350;

type Paint = { fill?: string; line?: { color: string; width: number } };

/**
 * A freeform (a:custGeom) as an SVG picture of its own size, each path scaled from its own coordinate space
 * (w, h) onto the shape's; null when a path uses guides this reader does not evaluate, or draws nothing.
 */
export function freeformSvg(custGeom: Element, frame: Frame, paint: Paint): string | null {
  const width = Math.max(1, frame.width / EMU_PER_UNIT);
  const height = Math.max(1, frame.height / EMU_PER_UNIT);
  const guides = new Map<string, number>();
  for (const gd of [...kids(kid(custGeom, "avLst"), "gd"), ...kids(kid(custGeom, "gdLst"), "gd")]) {
    const match = /^val (-?\d+(?:\.\d+)?)$/.exec(attr(gd, "fmla") ?? "");
    if (match) guides.set(attr(gd, "name") ?? "", Number(match[1]));
  }
  const value = (raw: string | null): number => {
    if (raw === null) return Number.NaN;
    return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : (guides.get(raw) ?? Number.NaN);
  };
  const paths: string[] = [];
  for (const path of kids(kid(custGeom, "pathLst"), "path")) {
    const w = value(attr(path, "w")) || width * EMU_PER_UNIT;
    const h = value(attr(path, "h")) || height * EMU_PER_UNIT;
    const sx = width / w;
    const sy = height / h;
    const point = (pt: Element | null): [number, number] => [value(attr(pt, "x")) * sx, value(attr(pt, "y")) * sy];
    let current: [number, number] = [0, 0];
    const commands: string[] = [];
    for (const step of kids(path)) {
      const pts = kids(step, "pt").map(point);
      switch (nameOf(step)) {
        case "moveTo":
        case "lnTo":
          if (!pts[0]) return null;
          commands.push(`${nameOf(step) === "moveTo" ? "M" : "L"}${fmt(pts[0])}`);
          current = pts[0];
          break;
        case "cubicBezTo":
          if (pts.length < 3) return null;
          commands.push(`C${pts.slice(0, 3).map(fmt).join(" ")}`);
          current = pts[2]!;
          break;
        case "quadBezTo":
          if (pts.length < 2) return null;
          commands.push(`Q${pts.slice(0, 2).map(fmt).join(" ")}`);
          current = pts[1]!;
          break;
        case "arcTo": {
          const rx = value(attr(step, "wR")) * sx;
          const ry = value(attr(step, "hR")) * sy;
          const start = (value(attr(step, "stAng")) / 60000) * (Math.PI / 180);
          const sweep = (value(attr(step, "swAng")) / 60000) * (Math.PI / 180);
          const centre: [number, number] = [current[0] - rx * Math.cos(start), current[1] - ry * Math.sin(start)];
          const end: [number, number] = [
            centre[0] + rx * Math.cos(start + sweep),
            centre[1] + ry * Math.sin(start + sweep),
          ];
          const large = Math.abs(sweep) > Math.PI ? 1 : 0;
          commands.push(`A${round(rx)} ${round(ry)} 0 ${large} ${sweep > 0 ? 1 : 0} ${fmt(end)}`);
          current = end;
          break;
        }
        case "close":
          commands.push("Z");
          break;
        default:
          break;
      }
    }
    if (commands.some((command) => command.includes("NaN"))) return null;
    if (commands.length === 0) continue;
    const fill = attr(path, "fill") === "none" || !paint.fill ? "none" : paint.fill;
    const stroke = attr(path, "stroke") === "0" || !paint.line ? null : paint.line;
    if (fill === "none" && !stroke) continue;
    const strokeAttrs = stroke
      ? ` stroke="${stroke.color.slice(0, 7)}"${opacity("stroke", stroke.color)} stroke-width="${round(Math.max(stroke.width, 9525) / EMU_PER_UNIT)}"`
      : "";
    paths.push(`<path d="${commands.join(" ")}" fill="${fill.slice(0, 7)}"${opacity("fill", fill)}${strokeAttrs}/>`);
  }
  if (paths.length === 0) return null;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${round(width)}" height="${round(height)}" viewBox="0 0 ${round(width)} ${round(height)}" preserveAspectRatio="none" overflow="visible">${paths.join("")}</svg>`;
}

const round = (n: number) => Math.round(n * 100) / 100;
const fmt = ([x, y]: [number, number]) => `${round(x)} ${round(y)}`;

function opacity(what: "fill" | "stroke", color: string): string {
  if (color.length !== 9) return "";
  return ` ${what}-opacity="${round(Number.parseInt(color.slice(7, 9), 16) / 255)}"`;
}

/**
 * A straight line (a connector or a "line" shape) as an SVG picture, from corner to corner of its frame
 * (flipped as the shape says), and the frame of that picture: the line's box grown by half its width on
 * every side, so a horizontal or vertical line still has a height or width.
 */
export function lineSvg(
  frame: Frame,
  line: { color: string; width: number },
  flip: { h: boolean; v: boolean },
): { svg: string; frame: Frame } {
  const pad = Math.max(line.width, 9525) / 2;
  const grown: Frame = {
    ...frame,
    x: frame.x - pad,
    y: frame.y - pad,
    width: frame.width + 2 * pad,
    height: frame.height + 2 * pad,
  };
  const u = (emu: number) => round(emu / EMU_PER_UNIT);
  const [x1, x2] = flip.h ? [pad + frame.width, pad] : [pad, pad + frame.width];
  const [y1, y2] = flip.v ? [pad + frame.height, pad] : [pad, pad + frame.height];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${u(grown.width)}" height="${u(grown.height)}" viewBox="0 0 ${u(grown.width)} ${u(grown.height)}" preserveAspectRatio="none"><path d="M${u(x1)} ${u(y1)} L${u(x2)} ${u(y2)}" stroke="${line.color.slice(0, 7)}"${opacity("stroke", line.color)} stroke-width="${u(2 * pad)}" fill="none"/></svg>`;
  return { svg, frame: grown };
}
