// A deck's first slide as the library's cards show it: the newest version drawn by the sandboxed player
// (a preview link from listedDeckThumbnails) at card size, or "No content yet".
export function DeckThumbnail({ url, title }: { url: string | null; title: string }) {
  return (
    <div className="relative aspect-video overflow-hidden bg-zinc-100">
      {url ? (
        <iframe
          src={url}
          title={`First slide of ${title}`}
          sandbox="allow-scripts"
          loading="lazy"
          tabIndex={-1}
          className="pointer-events-none absolute top-0 left-0 h-[1080px] w-[1920px] origin-top-left scale-[0.1875] border-0"
        />
      ) : (
        <div className="flex h-full items-center justify-center text-sm text-zinc-400">No content yet</div>
      )}
    </div>
  );
}
