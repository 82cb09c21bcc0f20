"use client";

import { useId, useState } from "react";
import { setImageSource, type SlideElement } from "@/lib/source/transform/props";
import { askAltText, IMAGE_TYPES, imageSrc, type PickedImage, uploadImageFile, useOrganizationImages } from "./images";

// The inspector's control for an <Image>: "Choose image…" opens the organization's images and a pick points
// the element at it (setImageSource: its src rewritten in place, and its alt written only when it has none,
// after asking); an organization without images gets "Upload image…" instead, which stores the file and
// points the element at it the same way.

type Apply = (change: (source: string) => string) => boolean;

export function ImageSource({
  element,
  apply,
  onError,
}: {
  element: SlideElement;
  apply: Apply;
  onError: (message: string) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // Read once the inspector shows an Image, to know which of the two ways to offer.
  const { images, reload } = useOrganizationImages(true, onError);
  const altProp = element.props.filter((prop) => prop.name === "alt").at(-1);
  const hasAlt = altProp !== undefined && (altProp.kind !== "string" || String(altProp.value ?? "").trim() !== "");

  const point = (url: string, alt: string | undefined) => {
    apply((text) => setImageSource(text, { start: element.start, src: url, ...(alt ? { alt } : {}) }));
    setOpen(false);
  };
  const pick = (image: PickedImage) => {
    // The element's own description stays; an empty one is offered the image's.
    if (hasAlt) return point(imageSrc(image.url), undefined);
    const alt = askAltText(image.alt ?? "Image");
    if (alt !== null) point(imageSrc(image.url), alt);
  };
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const uploaded = await uploadImageFile(file, onError);
      if (uploaded) {
        point(uploaded.url, hasAlt ? undefined : uploaded.alt);
        reload();
      }
    } finally {
      setBusy(false);
    }
  };

  const uploadInput = (text: string) => (
    <label className="cursor-pointer rounded px-2 py-0.5 text-xs font-medium text-accent ring-1 ring-zinc-300 hover:bg-zinc-100">
      {busy ? "Uploading…" : text}
      <input
        type="file"
        accept={IMAGE_TYPES}
        className="sr-only"
        aria-label="Upload an image for this Image"
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
      />
    </label>
  );

  return (
    <div className="space-y-1.5" data-testid="image-source">
      <div className="flex items-center gap-2">
        <span className="text-xs font-medium text-zinc-700">Image</span>
        {images === null ? (
          <span className="text-xs text-zinc-500">Loading images…</span>
        ) : images.length > 0 ? (
          <>
            <button
              type="button"
              aria-expanded={open}
              aria-controls={id}
              onClick={() => setOpen((now) => !now)}
              className="rounded px-2 py-0.5 text-xs font-medium text-accent ring-1 ring-zinc-300 hover:bg-zinc-100"
            >
              Choose image…
            </button>
            {open && uploadInput("Upload…")}
          </>
        ) : (
          uploadInput("Upload image…")
        )}
      </div>
      {open && images && images.length > 0 && (
        <ul
          id={id}
          aria-label="Images of the organization"
          className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto rounded bg-zinc-50 p-1.5 ring-1 ring-zinc-200"
        >
          {images.map((image) => (
            <li key={image.id}>
              <button
                type="button"
                title={image.alt ?? `${image.width}×${image.height}`}
                aria-label={`Use ${image.alt ?? `image ${image.width}×${image.height}`}`}
                onClick={() => pick(image)}
                className="block h-16 w-24 rounded bg-white p-0.5 ring-1 ring-zinc-200 hover:ring-2 hover:ring-accent focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
              >
                <img
                  src={image.url}
                  alt=""
                  loading="lazy"
                  className="h-full w-full rounded object-contain"
                  data-testid="image-source-thumbnail"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
