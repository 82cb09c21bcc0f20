// Marp's own syntax on top of Markdown, read as Marp reads it (Marpit's documentation): the keywords of an
// image's alt text (`bg`, `bg right:40%`, `contain`, `w:900`, filters) and the directives in HTML comments
// and front matter that style a slide (`class: lead invert`, `paginate`, `backgroundColor`, `color`). A
// directive without an underscore applies to its slide and the ones after it; with one (`_class`), to its
// slide alone; front matter starts the deck with them.

import { formatHex, parse } from "culori";
import type { FrontMatter } from "./split-slides";
import { squash } from "./text";

/** Marp's default themes draw on a 1280x720 canvas; a deck's is 1920x1080. */
const MARP_TO_CANVAS = 1920 / 1280;

export type MarpImage = {
  alt: string;
  /** A background (`bg`): behind the content, or beside it (`left`/`right`, `:N%` of the width, default 50). */
  background: { side: "left" | "right" | null; width: number | null; fit: "cover" | "contain" | null } | null;
  /** `w:`/`h:` in canvas pixels. */
  width: number | null;
  height: number | null;
};

const filters =
  /^(?:blur|brightness|contrast|drop-shadow|grayscale|hue-rotate|invert|opacity|saturate|sepia)(?::\S+)?$/i;
const units: Record<string, number> = { "": 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** A Marp length ("900", "900px", "10cm") in canvas pixels, or null. */
function length(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(px|pt|pc|in|cm|mm)?$/i.exec(text);
  if (!match) return null;
  const value = Number(match[1]) * (units[(match[2] ?? "").toLowerCase()] ?? 1) * MARP_TO_CANVAS;
  return value > 0 ? Math.round(value) : null;
}

/** Reads Marp's keywords out of an image's alt text (anywhere in it, as Marp does); the rest is the alt. */
export function readImageAlt(raw: string): MarpImage {
  const words = raw.split(/\s+/).filter(Boolean);
  const background = words.some((word) => word.toLowerCase() === "bg");
  const image: MarpImage = { alt: "", background: null, width: null, height: null };
  const split: NonNullable<MarpImage["background"]> = { side: null, width: null, fit: null };
  const rest: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    const size = /^(w|width|h|height):(\S+)$/.exec(lower);
    const side = /^(left|right)(?::(\d+(?:\.\d+)?)%)?$/.exec(lower);
    if (size) {
      if (size[1]!.startsWith("w")) image.width = length(size[2]!);
      else image.height = length(size[2]!);
    } else if (filters.test(word)) {
      // Filters change how a picture looks, not where it goes: not drawn.
    } else if (background && lower === "bg") {
      // The keyword itself.
    } else if (background && side) {
      split.side = side[1] as "left" | "right";
      split.width = side[2] ? Number(side[2]) : null;
    } else if (background && (lower === "contain" || lower === "fit")) {
      split.fit = "contain";
    } else if (background && lower === "cover") {
      split.fit = "cover";
    } else if (background && (lower === "auto" || lower === "vertical" || /^\d+(?:\.\d+)?%$/.test(lower))) {
      // Natural size, stacking direction, a background size in percent: the picture is still shown whole.
      if (lower !== "vertical") split.fit = "contain";
    } else rest.push(word);
  }
  if (background) image.background = split;
  image.alt = squash(rest.join(" "));
  return image;
}

/** How a slide looks by its directives. */
export type MarpLook = {
  lead: boolean;
  invert: boolean;
  paginate: boolean;
  /** Colours as hex. */
  backgroundColor: string | null;
  color: string | null;
};

type Directives = Partial<Record<"class" | "paginate" | "backgroundColor" | "color", string>>;

/** The directives carried from slide to slide, started by the front matter. */
export class MarpDirectives {
  private carried: Directives = {};

  constructor(frontMatter: FrontMatter) {
    for (const key of ["class", "paginate", "backgroundColor", "color"] as const) {
      const value = frontMatter[key];
      if (typeof value === "string" || typeof value === "boolean") this.carried[key] = String(value);
    }
  }

  /** The look of the next slide from its directive comments (each "key: value" lines). */
  next(comments: string[]): MarpLook {
    const spot: Directives = {};
    for (const comment of comments) {
      for (const line of comment.split("\n")) {
        const match = /^\s*(_?)(class|paginate|backgroundColor|color)\s*:\s*(.*?)\s*$/.exec(line);
        if (!match) continue;
        const [, underscore, key, value] = match as unknown as [string, string, keyof Directives, string];
        const clean = value.replace(/^["']|["']$/g, "");
        if (underscore) spot[key] = clean;
        else this.carried[key] = clean;
      }
    }
    const look = { ...this.carried, ...spot };
    const classes = (look.class ?? "").split(/\s+/);
    return {
      lead: classes.includes("lead"),
      invert: classes.includes("invert"),
      paginate: look.paginate === "true",
      backgroundColor: hex(look.backgroundColor),
      color: hex(look.color),
    };
  }
}

/** A CSS colour as "#rrggbb", or null when it is not one. */
function hex(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const parsed = parse(value);
    return parsed ? formatHex(parsed) : null;
  } catch {
    return null;
  }
}
