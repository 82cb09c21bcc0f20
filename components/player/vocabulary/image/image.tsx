"use client";

// Image: a picture (an uploaded asset or a data: URL) that fills the space it is given, cropped or
// contained, with a caption; a picture that cannot load shows its alt text in its place.

import { useState } from "react";
import { flushSync } from "react-dom";
import { holdReady } from "@/components/player/shell/pending";
import { ImageOff } from "lucide";
import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { imageFits, imageFocuses, type ImageFit, type ImageFocus } from "@/lib/contract/prop-values";
import { LineIcon } from "@/components/player/vocabulary/icon/icon";

type ImageProps = {
  src: string;
  alt: string;
  fit?: ImageFit;
  focus?: ImageFocus;
  caption?: string;
  rounded?: boolean;
  width?: number;
  height?: number;
};

/** A size in canvas pixels, or undefined for anything else. */
function canvasPixels(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.min(value, 4000) : undefined;
}

export function Image({ src, alt, fit, focus, caption, rounded, width, height }: ImageProps) {
  // Remembering which src failed (not just "failed") lets a new src try again after an edit.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const url = typeof src === "string" ? src.trim() : "";
  const description = textOf(alt) ?? "";
  const captionText = textOf(caption);
  const failed = url === "" || failedSrc === url;
  // A size of its own (Marp's w:/h:): at most that big, shown whole, instead of filling its container.
  const maxWidth = canvasPixels(width);
  const maxHeight = canvasPixels(height);
  const sized = maxWidth !== undefined || maxHeight !== undefined;

  return (
    <figure
      className="dh-image"
      data-rounded={rounded === true ? "" : undefined}
      data-sized={sized ? "" : undefined}
      style={sized ? { maxWidth, maxHeight } : undefined}
    >
      <div className="dh-image-frame">
        {failed ? (
          // Decks run under a CSP that blocks remote images, so a missing picture is an expected state
          // that should look intentional, not a browser's broken-image glyph.
          <div className="dh-image-missing" role="img" aria-label={description} data-src={url || undefined}>
            <LineIcon name="image-off" node={ImageOff} size="lg" tone="muted" />
            {description ? (
              <span className="dh-image-missing-text" dir="auto">
                {description}
              </span>
            ) : null}
          </div>
        ) : (
          <img
            className="dh-image-img"
            src={url}
            alt={description}
            data-fit={oneOf(fit, imageFits, sized ? "contain" : "cover")}
            data-focus={oneOf(focus, imageFocuses, "center")}
            decoding="async"
            onError={() => setFailedSrc(url)}
            // The ready report (what exports, og.png and the deck check wait for) waits until the picture
            // can be painted, or until a broken one is replaced by its alt text, committed at once. decode()
            // also settles an error that fired before React attached onError, and tells a broken image from
            // a size-less SVG.
            ref={(element) => {
              if (element && (!element.complete || element.naturalWidth === 0)) {
                holdReady(element.decode().catch(() => flushSync(() => setFailedSrc(url))));
              }
            }}
          />
        )}
      </div>
      {captionText ? (
        <figcaption className="dh-image-caption" dir="auto">
          {captionText}
        </figcaption>
      ) : null}
    </figure>
  );
}
