// A link inside text (Text, a bullet point, a table cell, a heading): the words underlined in the theme's
// primary colour, the address kept on the element so the PDF (Chromium prints <a href> as a link) and
// the PPTX (a run's hyperlink, components/player/export/extract-slides.ts) can be followed. Only absolute
// http(s) and mailto addresses become links; anything else draws the words alone.
//
// In the viewer the deck runs in a sandboxed frame without popups or navigation of the page around it, so
// following a link from a slide is refused by the browser (target="_blank" opens nothing): the link is
// there for the exported files and for a reader to see.

import type { ReactNode } from "react";
import { textOf } from "@/components/player/vocabulary/tone";

type LinkProps = {
  href: string;
  children?: ReactNode;
};

const MAX_HREF = 2_048;

/** The address when it is one a slide may link to, else undefined. */
function linkAddress(href: unknown): string | undefined {
  const text = textOf(href)?.trim();
  if (!text || text.length > MAX_HREF || !/^(?:https?:\/\/|mailto:)[^\s<>"]+$/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? text : undefined;
  } catch {
    return undefined;
  }
}

export function Link({ href, children }: LinkProps) {
  const address = linkAddress(href);
  const words = children ?? address ?? textOf(href) ?? "";
  if (!address) return <>{words}</>;
  return (
    <a className="dh-link" href={address} target="_blank" rel="noopener noreferrer">
      {words}
    </a>
  );
}
