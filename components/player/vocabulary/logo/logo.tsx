"use client";

// The deck's brand logo. The server names it in the player's config (a URL on the frame's own origin,
// the one image URL beyond the player's assets that the frame's CSP allows) with the brand's name; a
// deck without a brand logo gets null and <Logo> draws nothing at all, and so does a logo that fails to
// load, rather than a broken-image glyph or an empty box. The player's ready report waits for the image.

import { useState, type CSSProperties } from "react";
import { flushSync } from "react-dom";
import { usePlayer } from "@/components/player/shell/player-context";
import { holdReady } from "@/components/player/shell/pending";
import { oneOf, textOf, type StyleWithVars } from "@/components/player/vocabulary/tone";
import {
  logoPlacements,
  logoTones,
  sizes,
  type LogoPlacement,
  type LogoTone,
  type Size,
} from "@/lib/contract/prop-values";

type LogoProps = {
  size?: Size;
  placement?: LogoPlacement;
  tone?: LogoTone;
  alt?: string;
};

export function Logo({ size, placement, tone, alt }: LogoProps) {
  const { config } = usePlayer();
  const logo = config.logo;
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!logo || typeof logo.url !== "string" || failedUrl === logo.url) return null;
  const url = logo.url;
  const where = oneOf(placement, logoPlacements, "inline");
  const description = textOf(alt)?.trim() || logo.alt;
  const colour = oneOf(tone, logoTones, "auto");
  // "mono" paints the logo's shape in the text colour: the picture (kept for its size, not shown)
  // becomes a mask over the filled box, which then carries the description.
  const mono = colour === "mono";
  const style: StyleWithVars = { "--dh-logo-mask": `url(${JSON.stringify(url)})` };
  return (
    <span
      className={where === "inline" ? "dh-logo" : "dh-logo dh-logo-pinned"}
      data-size={oneOf(size, sizes, where === "inline" ? "md" : "sm")}
      data-placement={where}
      data-tone={colour}
      style={mono ? (style as CSSProperties) : undefined}
      role={mono ? "img" : undefined}
      aria-label={mono ? description : undefined}
    >
      <img
        className="dh-logo-img"
        src={url}
        alt={description}
        // CORS like the mask image of the same URL, so both share one fetch (the route allows any origin).
        crossOrigin="anonymous"
        decoding="async"
        draggable={false}
        onError={() => setFailedUrl(url)}
        ref={(element) => {
          // The ready report waits until the picture can be painted, or until a missing one is gone from
          // the slide (committed at once, so an export never prints a broken image).
          if (element && (!element.complete || element.naturalWidth === 0)) {
            holdReady(element.decode().catch(() => flushSync(() => setFailedUrl(url))));
          }
        }}
      />
    </span>
  );
}
