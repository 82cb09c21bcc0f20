import { DeckThumbnail } from "./deck-thumbnail";
import { UseTemplateForm } from "./new-deck-form";

// The library's "Start from a template": a card per template of the organization with a picture of its
// cover (the thumbnail the deck cards use, scaled to the card), what it is for, and "Use template" under a
// typed title.

type Template = { id: string; title: string; description: string; copyTitle: string; thumbnailUrl: string | null };

export function TemplateGallery({ templates }: { templates: Template[] }) {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Templates">
      {templates.map((template) => (
        <li key={template.id} className="min-w-0 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
          {/* The picture's width is the card's; DeckThumbnail scales the 1920 px slide to 360 px. */}
          <div className="max-w-[360px]">
            <DeckThumbnail url={template.thumbnailUrl} title={template.title} />
          </div>
          <div className="p-4">
            <p className="line-clamp-3 font-medium break-words">{template.title}</p>
            {template.description && <p className="mt-1 line-clamp-2 text-sm text-zinc-600">{template.description}</p>}
            <UseTemplateForm template={{ id: template.id, title: template.title, copyTitle: template.copyTitle }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
