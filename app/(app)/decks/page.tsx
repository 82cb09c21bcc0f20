import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { AutoSubmitForm } from "@/components/app/auto-submit-form";
import { DeckCardActions } from "@/components/app/deck-card-actions";
import { ImportDeckForm } from "@/components/app/import-deck-form";
import { ImportPptxForm } from "@/components/app/import-pptx-form";
import { NewDeckForm } from "@/components/app/new-deck-form";
import { NewDeckWithAi } from "@/components/app/new-deck-with-ai";
import { TemplateGallery } from "@/components/app/template-gallery";
import { DeckThumbnail as Thumbnail } from "@/components/app/deck-thumbnail";
import { Badge, Button, buttonStyles, EmptyState, Input, Select } from "@/components/ui";
import { requireAppContext } from "@/server/context";
import { listedDeckThumbnails } from "@/lib/decks/preview-deck";
import { deckSorts, listDecks } from "@/lib/decks/list-decks";
import { TITLE_MAX_CHARS } from "@/lib/decks/schemas";
import { authoringModelName } from "@/lib/ai/new-deck-with-ai";
import { ensureStarterTemplates } from "@/lib/decks/seed-templates";
import { copyTitle } from "@/lib/decks/start-from-template";
import { deckFormats } from "@/lib/contract/deck";
import { logger } from "@/lib/core/log";

export const metadata: Metadata = { title: "Library · Deckhand" };
const log = logger("library");
// Its server actions run under this page's limit: "New deck with AI" writes for one to three minutes with a
// model, and an import reads a PowerPoint file and stores its pictures or fetches a Markdown deck's images
// (as POST /decks/import) — the editor's limit, as its AI panel does the same.
export const maxDuration = 300;

type Query = {
  scope?: string;
  q?: string;
  kind?: string;
  format?: string;
  visibility?: string;
  archived?: string;
  sort?: string;
  shown?: string;
};

// The library lists this many decks at first, and this many more at each "Load more" (up to SHOWN_MAX).
const PAGE_SIZE = 60;
const SHOWN_MAX = 6000;

const pick = <T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined =>
  allowed.find((v) => v === value);

// The library: my decks or the organization's, newest first or sorted by last change or title, with search
// and filters that apply as they change; each card with its dates, rename, duplicate and delete; the
// templates gallery; and new decks (slides or webpage), blank or started from a template. It lists the first
// PAGE_SIZE decks and a "Load more" link; how many are shown is in the URL (`shown`), so a reload, the back
// button and the cards' actions (which draw the page again) keep every card that was loaded.
export default async function LibraryPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { ctx } = await requireAppContext();
  // The first view of an organization gives it the starter templates (once; lib/decks/seed-templates.ts). A
  // failure costs the templates, never the library: logged, and tried again on the next view.
  await ensureStarterTemplates(ctx).catch((error: unknown) =>
    log.error("the starter templates could not be given", { organizationId: ctx.caller.organizationId, error }),
  );
  const query = await searchParams;
  const scope = pick(query.scope, ["mine", "org"] as const) ?? "mine";
  // Decks by default: templates have their gallery below ("all" lists both, "template" only templates).
  const kindFilter = pick(query.kind, ["deck", "template", "all"] as const) ?? "deck";
  const filters = {
    scope,
    kind: kindFilter === "all" ? undefined : kindFilter,
    format: pick(query.format, deckFormats),
    visibility: pick(query.visibility, ["private", "org", "public"] as const),
    includeArchived: query.archived === "true",
    search: query.q?.slice(0, 200),
    sort: pick(query.sort, deckSorts) ?? "created",
  };
  const requested = Number.parseInt(query.shown ?? "", 10);
  const shown = Math.min(Math.max(Number.isNaN(requested) ? 0 : requested, PAGE_SIZE), SHOWN_MAX);
  const [{ items: decks, next }, { items: templates }] = await Promise.all([
    listDecks(ctx, { ...filters, limit: shown }),
    listDecks(ctx, { scope: "org", kind: "template", includeArchived: false }),
  ]);
  const more = new URLSearchParams(
    Object.entries({ ...query, shown: String(Math.min(shown + PAGE_SIZE, SHOWN_MAX)) }).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  const thumbnails = await listedDeckThumbnails(ctx, [
    ...decks.map((deck) => deck.id),
    ...templates.map((template) => template.id),
  ]);
  const filtered = Boolean(
    kindFilter !== "deck" || filters.format || filters.visibility || filters.search || filters.includeArchived,
  );

  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-8 sm:px-6">
      <section aria-labelledby="library-title" className="space-y-5">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 id="library-title" className="text-2xl font-semibold tracking-tight">
              Library
            </h1>
            <div className="mt-3 flex gap-1" role="tablist" aria-label="Whose decks">
              {(["mine", "org"] as const).map((s) => (
                <a
                  key={s}
                  role="tab"
                  aria-selected={scope === s}
                  href={`/decks?scope=${s}`}
                  className={`rounded-md px-3 py-1.5 text-sm font-medium ${scope === s ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
                >
                  {s === "mine" ? "My decks" : "Organization"}
                </a>
              ))}
            </div>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <NewDeckForm />
            <NewDeckWithAi model={authoringModelName()} />
            <ImportDeckForm />
            <ImportPptxForm />
          </div>
        </div>

        <AutoSubmitForm className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter decks">
          <input type="hidden" name="scope" value={scope} />
          <FilterField label="Search" htmlFor="filter-q">
            <Input
              id="filter-q"
              name="q"
              type="search"
              placeholder="Titles and descriptions"
              defaultValue={filters.search}
              className="w-64 max-w-full"
            />
          </FilterField>
          <FilterField label="Format" htmlFor="filter-format">
            <Select id="filter-format" name="format" defaultValue={filters.format ?? ""} className="w-auto">
              <option value="">Slides and webpages</option>
              <option value="slides">Slides</option>
              <option value="webpage">Webpages</option>
            </Select>
          </FilterField>
          <FilterField label="Kind" htmlFor="filter-kind">
            <Select
              id="filter-kind"
              name="kind"
              defaultValue={kindFilter === "deck" ? "" : kindFilter}
              className="w-auto"
            >
              <option value="">Decks</option>
              <option value="template">Templates</option>
              <option value="all">Decks and templates</option>
            </Select>
          </FilterField>
          <FilterField label="Visibility" htmlFor="filter-visibility">
            <Select id="filter-visibility" name="visibility" defaultValue={filters.visibility ?? ""} className="w-auto">
              <option value="">Any visibility</option>
              <option value="private">Private</option>
              <option value="org">Organization</option>
              <option value="public">Public</option>
            </Select>
          </FilterField>
          <FilterField label="Sort by" htmlFor="filter-sort">
            <Select id="filter-sort" name="sort" defaultValue={filters.sort} className="w-auto">
              <option value="created">Newest first</option>
              <option value="updated">Last updated</option>
              <option value="title">Title (A to Z)</option>
            </Select>
          </FilterField>
          <label className="flex items-center gap-2 py-2 text-sm text-zinc-700">
            <input type="checkbox" name="archived" value="true" defaultChecked={filters.includeArchived} /> Archived
          </label>
          <noscript>
            <Button variant="secondary" type="submit">
              Apply
            </Button>
          </noscript>
        </AutoSubmitForm>

        {decks.length === 0 ? (
          <EmptyState title={filtered ? "No decks match these filters" : "No decks yet"}>
            {filtered ? (
              <a className="font-medium text-accent hover:underline" href={`/decks?scope=${scope}`}>
                Clear the filters
              </a>
            ) : (
              "Create a slide deck or a webpage, or start from one of the templates below."
            )}
          </EmptyState>
        ) : (
          <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Decks">
            {decks.map((deck) => (
              <li key={deck.id} className="min-w-0 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
                <a
                  href={`/decks/${deck.id}`}
                  className="group block hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  <Thumbnail url={thumbnails.get(deck.id) ?? null} title={deck.title} />
                  <div className="space-y-2 p-4 pb-3">
                    <p className="truncate font-medium text-zinc-900">{deck.title}</p>
                    <div className="flex flex-wrap gap-1.5">
                      <Badge>{deck.format === "webpage" ? "Webpage" : "Slides"}</Badge>
                      {deck.kind === "template" && <Badge tone="accent">Template</Badge>}
                      {deck.visibility === "public" && <Badge tone="green">Public</Badge>}
                      {deck.visibility === "org" && <Badge>Organization</Badge>}
                      {deck.archived && <Badge tone="amber">Archived</Badge>}
                    </div>
                    <p className="text-xs text-zinc-500" data-testid="deck-dates">
                      Updated <DateText value={deck.updatedAt} /> · Created <DateText value={deck.createdAt} />
                    </p>
                  </div>
                </a>
                <DeckCardActions
                  deck={{ id: deck.id, title: deck.title, canEdit: deck.ownerId === ctx.caller.userId }}
                  titleMaxLength={TITLE_MAX_CHARS}
                />
              </li>
            ))}
          </ul>
        )}
        {next && shown < SHOWN_MAX && (
          <div className="flex justify-center">
            <Link href={`/decks?${more}`} scroll={false} className={buttonStyles("secondary")}>
              Load more decks
            </Link>
          </div>
        )}
      </section>

      <section aria-labelledby="templates-title" className="space-y-4">
        <h2 id="templates-title" className="text-lg font-semibold">
          Start from a template
        </h2>
        {templates.length === 0 ? (
          <EmptyState title="No templates in this organization">
            Mark a deck as a template in its editor to offer it here.
          </EmptyState>
        ) : (
          <TemplateGallery
            templates={templates.map((template) => ({
              id: template.id,
              title: template.title,
              description: template.description,
              copyTitle: copyTitle(template.title),
              thumbnailUrl: thumbnails.get(template.id) ?? null,
            }))}
          />
        )}
      </section>
    </div>
  );
}

// A filter's visible label above its field (the label names the field for assistive technology too).
// (Not wrapped around the field: a wrapping label would add a select's option texts to its name.)
function FilterField({ label, htmlFor, children }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div className="flex max-w-full flex-col gap-1">
      <label htmlFor={htmlFor} className="text-xs font-medium text-zinc-600">
        {label}
      </label>
      {children}
    </div>
  );
}

function DateText({ value }: { value: string | Date }) {
  const date = new Date(value);
  return <time dateTime={date.toISOString()}>{date.toLocaleDateString("en", { dateStyle: "medium" })}</time>;
}
