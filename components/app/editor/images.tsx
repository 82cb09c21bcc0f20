"use client";

import { useEffect, useState } from "react";
import { listAssetsAction, uploadAssetAction } from "@/server/actions/editor";
import { Button } from "@/components/ui";

// Images in the editor: a pasted or dropped image (CodeEditor's onImage) and one picked from the
// organization's images, each inserted as an <Image> with the alt text the author gives; the inspector's
// image control (image-source.tsx) picks or uploads one for an existing <Image> with the same pieces.
// Uploads go through upload_asset's server action; the src written into the source is the image's path on
// the app (`/assets/<hash>.<ext>`), never the server's absolute address (upload_asset answers that, for API
// callers), so a deck keeps working wherever the app is served. Every upload tells the open image lists
// to read the organization's images again (IMAGES_CHANGED).

export type PickedImage = { id: string; url: string; width: number; height: number; alt: string | null };

/** An <Image> element for the source, its alt text quoted so that any text stays one attribute. */
function imageElement(url: string, alt: string): string {
  const quoted = /["{}<>&\n]/.test(alt) ? `{${JSON.stringify(alt)}}` : `"${alt}"`;
  return `<Image src="${url}" alt=${quoted} fit="contain" />`;
}

function base64(bytes: ArrayBuffer): string {
  let binary = "";
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Said on the window after an upload: every list of the organization's images reads them again. */
const IMAGES_CHANGED = "deckhand:images-changed";

/** What a deck's source names an image by: the app's relative asset path for a stored image. */
export function imageSrc(url: string): string {
  try {
    const parsed = new URL(url, "http://relative.invalid");
    if (parsed.pathname.startsWith("/assets/") && !parsed.search) return parsed.pathname;
  } catch {
    // not a URL: as it is
  }
  return url;
}

/** The alt text the author gives (prefilled from the file's name), or null when they cancel. */
export function askAltText(suggestion: string): string | null {
  const answer = window.prompt("Describe the image for people who cannot see it (alt text):", suggestion);
  return answer === null ? null : answer.trim() || suggestion;
}

/** Uploads a file with the alt text the author gives: its URL, or null (cancelled, refused: `onError` says why). */
export async function uploadImageFile(
  file: File,
  onError: (message: string) => void,
): Promise<{ url: string; alt: string } | null> {
  const alt = askAltText(file.name.replace(/\.[a-z0-9]+$/i, "").replace(/[-_]+/g, " ") || "Image");
  if (alt === null) return null;
  const result = await uploadAssetAction({ data: base64(await file.arrayBuffer()), alt });
  if (!result.ok) {
    onError(result.error.message);
    return null;
  }
  window.dispatchEvent(new Event(IMAGES_CHANGED));
  return { url: imageSrc(result.value.url), alt };
}

/** Uploads a file and answers the <Image> to insert, or null (cancelled, refused: `onError` says why). */
export async function uploadImage(file: File, onError: (message: string) => void): Promise<string | null> {
  const uploaded = await uploadImageFile(file, onError);
  return uploaded ? imageElement(uploaded.url, uploaded.alt) : null;
}

/** The file types an upload takes. */
export const IMAGE_TYPES = "image/png,image/jpeg,image/webp,image/gif,image/avif,image/svg+xml";

/** The organization's images while `open` (null until read); `reload` reads them again after an upload. */
export function useOrganizationImages(
  open: boolean,
  onError: (message: string) => void,
): { images: PickedImage[] | null; reload: () => void } {
  const [images, setImages] = useState<PickedImage[] | null>(null);
  // Bumped after an upload, so the list is read again.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!open) return;
    let live = true;
    void listAssetsAction({}).then((result) => {
      if (!live) return;
      if (result.ok) setImages(result.value);
      else onError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [open, generation, onError]);
  // An upload anywhere in the editor (the canvas, the code, the inspector) is listed too.
  useEffect(() => {
    const changed = () => setGeneration((n) => n + 1);
    window.addEventListener(IMAGES_CHANGED, changed);
    return () => window.removeEventListener(IMAGES_CHANGED, changed);
  }, []);
  return { images, reload: () => setGeneration((n) => n + 1) };
}

export function ImagePicker({
  open,
  onInsert,
  onError,
}: {
  open: boolean;
  onInsert: (element: string) => void;
  onError: (message: string) => void;
}) {
  const { images, reload } = useOrganizationImages(open, onError);
  const [busy, setBusy] = useState(false);

  if (!open) return null;
  return (
    <div className="space-y-2 border-b border-zinc-200 bg-zinc-50 p-2" data-testid="image-picker">
      <div className="flex items-center gap-2">
        <span className="text-xs font-medium text-zinc-600">Images of the organization: click one to insert it</span>
        <label className="ml-auto cursor-pointer text-xs text-accent hover:underline">
          {busy ? "Uploading…" : "Upload…"}
          <input
            type="file"
            accept={IMAGE_TYPES}
            className="sr-only"
            aria-label="Upload an image"
            disabled={busy}
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (!file) return;
              setBusy(true);
              try {
                const element = await uploadImage(file, onError);
                if (element) {
                  onInsert(element);
                  reload();
                }
              } finally {
                setBusy(false);
              }
            }}
          />
        </label>
      </div>
      {images === null ? (
        <p className="text-xs text-zinc-500">Loading…</p>
      ) : images.length === 0 ? (
        <p className="text-xs text-zinc-500">No images yet: upload one, or paste or drop one into the source.</p>
      ) : (
        <ul className="flex max-h-40 flex-wrap gap-2 overflow-y-auto">
          {images.map((image) => (
            <li key={image.id}>
              <Button
                variant="ghost"
                type="button"
                className="h-20 w-28 p-1"
                title={image.alt ?? `${image.width}×${image.height}`}
                onClick={() => {
                  const alt = askAltText(image.alt ?? "Image");
                  if (alt !== null) onInsert(imageElement(imageSrc(image.url), alt));
                }}
              >
                <img
                  src={image.url}
                  alt={image.alt ?? ""}
                  loading="lazy"
                  className="h-full w-full rounded object-contain"
                  data-testid="image-picker-thumbnail"
                />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
