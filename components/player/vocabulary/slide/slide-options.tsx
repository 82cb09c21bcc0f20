// What a <Slide> may say about its own look beyond the theme's backgrounds, as imported decks need it:
// colours of its own (Marp's backgroundColor and color directives), its number in a corner (Marp's
// paginate), and its image beside the content instead of behind it (Marp's split backgrounds, Slidev's
// image-left and image-right). structure.tsx draws the slide; slide.css lays these out.

import type { ReactNode } from "react";
import { Image } from "@/components/player/vocabulary/image/image";
import { oneOf, optionalOneOf, textOf, type StyleWithVars } from "@/components/player/vocabulary/tone";
import { imageFits, imageSides } from "@/lib/contract/prop-values";

export type SlideOptionProps = {
  backgroundColor?: string;
  color?: string;
  paginate?: boolean;
  imageSide?: string;
  imageWidth?: number;
  imageFit?: string;
  imageAlt?: string;
};

// A CSS colour written as hex, rgb()/hsl() or a name: nothing that could close the declaration it is
// written into. The browser checks the rest (an invalid colour leaves the theme's).
function colourOf(value: unknown): string | undefined {
  const text = textOf(value)?.trim();
  if (
    !text ||
    text.length > 64 ||
    !/^(?:#[0-9a-f]{3,8}|(?:rgb|rgba|hsl|hsla|oklch|oklab|lab|lch)\([\d\s.,%/+-a-z]*\)|[a-z]{3,30})$/i.test(text)
  )
    return undefined;
  return typeof CSS === "undefined" || CSS.supports("color", text) ? text : undefined;
}

/** The image's share of the slide's width, in percent (Marp's `bg right:40%`); 50 by default. */
function widthOf(value: unknown): number {
  const number = typeof value === "string" ? Number.parseFloat(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? Math.min(80, Math.max(20, number)) : 50;
}

/** The section's attributes and style for these options. */
export function slideOptionAttributes(props: SlideOptionProps, image: unknown) {
  const ground = colourOf(props.backgroundColor);
  const fg = colourOf(props.color);
  // A side image whose address is empty (an import that could not fetch it) still takes its side, as a placeholder.
  const side = typeof image === "string" ? optionalOneOf(props.imageSide, imageSides) : undefined;
  const style: StyleWithVars = {};
  if (ground) style["--dh-ground"] = ground;
  if (fg) style["--dh-fg"] = fg;
  if (side) style["--dh-image-width"] = `${widthOf(props.imageWidth)}%`;
  return {
    "data-colors": ground || fg ? "" : undefined,
    "data-paginate": props.paginate === true ? "" : undefined,
    "data-image-side": side,
    style: Object.keys(style).length > 0 ? style : undefined,
  };
}

/**
 * The slide's image on one side, edge to edge over the slide's full height: an <Image> (its alt text, its
 * fit, its placeholder when the picture is missing) in a layer the content's padding leaves free.
 */
export function SideImage({ src, props }: { src: string; props: SlideOptionProps }): ReactNode {
  const side = optionalOneOf(props.imageSide, imageSides);
  if (!side) return null;
  return (
    <div className="dh-slide-image dh-slide-side-image" data-side={side}>
      <Image src={src} alt={textOf(props.imageAlt) ?? ""} fit={oneOf(props.imageFit, imageFits, "cover")} />
    </div>
  );
}
