import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeleteBrandForm } from "@/components/app/brand-forms";
import { Badge, Card } from "@/components/ui";
import { AppError } from "@/lib/core/errors";
import { uuid } from "@/lib/core/fields";
import { requireAppContext } from "@/server/context";
import type { BrandBook } from "@/lib/brands/brand-book";
import { getBrand } from "@/lib/brands/brands";
import { getAsset } from "@/lib/assets/assets";
import { getFileStore } from "@/lib/storage/storage";
import { playerAssets } from "@/lib/viewer/assets";

export const metadata: Metadata = { title: "Brand · Deckhand" };

// One brand book: logo, palette with roles and contrast, type specimens, voice and imagery, tokens.
export default async function BrandPage({ params }: { params: Promise<{ id: string }> }) {
  const { ctx } = await requireAppContext();
  const { id } = await params;
  if (!uuid.safeParse(id).success) notFound();
  let brand;
  try {
    brand = await getBrand(ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
  const book = brand.data as BrandBook;
  const logoUrl = book.logo?.storedKey
    ? await getFileStore().downloadUrl(
        book.logo.storedKey,
        `logo.${book.logo.kind === "svg" ? "svg" : "png"}`,
        60 * 60 * 1000,
      )
    : null;
  const logoAsset =
    book.logo?.assetId && uuid.safeParse(book.logo.assetId).success ? await getAsset(ctx, book.logo.assetId) : null;

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-6 py-8">
      {/* The shipped faces (the same @font-face rules decks get), so specimens show the brand's type. */}
      <link rel="stylesheet" href={playerAssets().fonts} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-center gap-4">
          {logoUrl && <img src={logoUrl} alt={`${brand.name} logo`} className="h-12 max-w-40 object-contain" />}
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{brand.name}</h1>
            <a href={brand.sourceUrl} className="text-sm text-accent hover:underline" rel="noreferrer noopener">
              {brand.sourceUrl}
            </a>
          </div>
        </div>
        <DeleteBrandForm id={brand.id} name={brand.name} />
      </div>

      {logoAsset && (
        <section aria-labelledby="brand-images" className="space-y-2">
          <h2 id="brand-images" className="text-lg font-semibold">
            Images
          </h2>
          <p className="text-sm text-zinc-600">
            The logo ({logoAsset.width}×{logoAsset.height} {logoAsset.contentType.replace("image/", "").toUpperCase()})
            is one of the organization&apos;s images: decks show it with{" "}
            <code className="font-mono text-xs">&lt;Logo /&gt;</code>, or{" "}
            <a href={logoAsset.url} className="text-accent hover:underline">
              as an Image
            </a>
            .
          </p>
        </section>
      )}

      <section aria-labelledby="palette" className="space-y-3">
        <h2 id="palette" className="text-lg font-semibold">
          Palette
        </h2>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
          {Object.entries(book.palette.roles).map(([role, color]) => (
            <li key={role} className="overflow-hidden rounded-lg bg-white ring-1 ring-zinc-200">
              <div className="h-20" style={{ background: color.hex }} />
              <div className="p-2.5">
                <p className="text-sm font-medium capitalize">{role}</p>
                <p className="font-mono text-xs text-zinc-500">{color.hex}</p>
              </div>
            </li>
          ))}
        </ul>
        <p className="text-sm text-zinc-600">
          Contrast: text on background {book.palette.contrast.textOnBackground.toFixed(1)}:1, on primary{" "}
          {book.palette.contrast.onPrimary.ratio.toFixed(1)}:1 (WCAG AA asks 4.5:1 for body text).
        </p>
      </section>

      <section aria-labelledby="type" className="space-y-3">
        <h2 id="type" className="text-lg font-semibold">
          Typography
        </h2>
        <div className="grid gap-4 md:grid-cols-2">
          {(["heading", "body", "mono"] as const).map((role) => {
            const face = book.typography[role];
            if (!face) return null;
            return (
              <Card key={role} className="space-y-2">
                <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{role}</p>
                <p
                  style={{
                    fontFamily: `"${face.family}", ${face.category === "display" ? "sans-serif" : face.category}`,
                  }}
                  className={role === "heading" ? "text-3xl font-semibold" : "text-base"}
                >
                  {role === "heading" ? "The quick brown fox" : "Sphinx of black quartz, judge my vow. 0123456789"}
                </p>
                <p className="text-sm text-zinc-600">
                  {face.family} · {face.category}
                  {face.weights.length > 0 && ` · weights ${face.weights.join(", ")}`}
                </p>
              </Card>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="voice" className="grid gap-4 md:grid-cols-2">
        <Card className="space-y-3">
          <h2 id="voice" className="text-lg font-semibold">
            Voice
          </h2>
          <div className="flex flex-wrap gap-1.5">
            {book.voice.tone.map((tone) => (
              <Badge key={tone} tone="accent">
                {tone}
              </Badge>
            ))}
            <Badge>{book.voice.readingLevel.label}</Badge>
          </div>
          <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-700">
            {book.voice.guidelines.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
          {book.voice.samplePhrases.length > 0 && (
            <blockquote className="border-l-2 border-zinc-300 pl-3 text-sm text-zinc-600 italic">
              {book.voice.samplePhrases.slice(0, 3).join(" · ")}
            </blockquote>
          )}
        </Card>
        <Card className="space-y-3">
          <h2 className="text-lg font-semibold">Imagery</h2>
          <p className="text-sm text-zinc-700">
            {book.imagery.style}, {book.imagery.shapes} shapes ({book.imagery.cornerRadiusPx}px corners)
          </p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-700">
            {book.imagery.guidelines.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
        </Card>
      </section>

      <section aria-labelledby="tokens" className="space-y-2">
        <h2 id="tokens" className="text-lg font-semibold">
          Deck tokens
        </h2>
        <pre className="overflow-x-auto rounded-lg bg-white p-4 text-xs ring-1 ring-zinc-200">{book.tokensCss}</pre>
      </section>
    </div>
  );
}
