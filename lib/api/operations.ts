import { z } from "zod";
import { authorDeck } from "@/lib/ai/author-deck";
import { editDeckBody, generateDeckBody } from "@/lib/ai/schemas";
import { deleteAsset, imageLimits, listAssets, ownerOf, presentAsset, storeImage } from "@/lib/assets/assets";
import { assetParams, assetSchema, uploadAssetBody, uploadAssetQuery } from "@/lib/assets/schemas";
import { createBrandFromUrl } from "@/lib/brands/create-brand";
import { deleteBrand, getBrand, listBrands } from "@/lib/brands/brands";
import { brandDetailSchema, brandParams, brandSchema, createBrandBody } from "@/lib/brands/schemas";
import { buildAuthoringBrief } from "@/lib/source/instructions";
import { createDeck } from "@/lib/decks/create-deck";
import { getDeckVersion, listDeckVersions, revertDeckVersion } from "@/lib/decks/deck-versions";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { getDeck } from "@/lib/decks/get-deck";
import { listDecks } from "@/lib/decks/list-decks";
import {
  createDeckBody,
  deckDetailSchema,
  deckParams,
  deckSchema,
  deletedSchema,
  encodeDeckCursor,
  listDecksQuery,
  setContentBody,
  updateDeckBody,
  versionParams,
  versionSchema,
  versionSummarySchema,
  versionWriteResultSchema,
} from "@/lib/decks/schemas";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { deleteDeckSlide, insertDeckSlide, listSlides, moveDeckSlide, replaceDeckSlide } from "@/lib/decks/slide-edits";
import {
  deleteSlideQuery,
  insertSlideBody,
  listSlidesQuery,
  moveSlideBody,
  replaceSlideBody,
  slideListSchema,
  slideParams,
} from "@/lib/decks/slide-schemas";
import { getShareLink, revokeShareLink, setShareLink, setShareLinkBody, shareLinkSchema } from "@/lib/decks/share-link";
import { updateDeck } from "@/lib/decks/update-deck";
import { createExport } from "@/lib/exports/create-export";
import { getDeckAnalytics } from "@/lib/analytics/get-analytics";
import { analyticsQuery, deckAnalyticsSchema } from "@/lib/analytics/schemas";
import { checkDeck } from "@/lib/render/check-deck";
import { checkDeckQuery, checkResultSchema } from "@/lib/render/check-schemas";
import { getSlideImage } from "@/lib/render/slide-image";
import { slideImageParams, slideImageQuery, slideImageSchema } from "@/lib/render/slide-image-schemas";
import { getExport, getExportDownloadUrl } from "@/lib/exports/get-export";
import { createExportBody, exportParams, exportSchema } from "@/lib/exports/schemas";
import { importDeckRequest, importDeckResponse, runImport } from "@/lib/import/import-deck-request";
import { PPTX_TYPE, pptxLimits } from "@/lib/import/pptx/read-pptx";
import { define, type Operation, READ, WRITE } from "./operation";

// Every operation of SPEC.md, once: its path, its input schemas, its documented responses and the domain
// call that answers it. Route handlers (`lib/api/route.ts`), the OpenAPI document (`lib/api/openapi.ts`)
// and the MCP tools are all built from this list, so none of them can describe an input another refuses.

export const instructionsSchema = z.object({ instructions: z.string() });

const definitions = {
  get_authoring_instructions: define({
    method: "GET",
    path: "/instructions",
    tag: "Authoring",
    summary: "Get the authoring brief",
    description:
      "The authoring brief: the component vocabulary, layout rules and an example module. Read it before writing or changing a deck, and before create_deck or set_deck_content.",
    success: { status: 200, schema: instructionsSchema, description: "The brief as plain text meant for a model." },
    errors: [401, 403, 422, 429, 500],
    run: async () => ({ instructions: buildAuthoringBrief() }),
  }),

  list_decks: define({
    method: "GET",
    path: "/decks",
    tag: "Decks",
    summary: "List decks",
    description:
      "Decks newest first. scope 'mine' (default) lists the caller's decks, 'org' the organization's decks the caller may read. kind 'template' lists the organization's starting points. Archived decks are left out unless includeArchived is 'true'. limit answers a page of at most that many decks, and the next page's URL (the same query with a cursor) in the Link header, rel=\"next\" (over MCP: nextCursor, passed back as cursor); without limit every deck is listed.",
    query: listDecksQuery,
    success: { status: 200, schema: z.array(deckSchema), description: "Decks, newest first." },
    errors: [401, 403, 422, 429, 500],
    paged: true,
    run: async ({ ctx, query }) => {
      const { items, next } = await listDecks(ctx, query);
      return { items, nextCursor: next && encodeDeckCursor(next) };
    },
  }),

  create_deck: define({
    method: "POST",
    path: "/decks",
    tag: "Decks",
    summary: "Create a deck",
    description:
      "Creates an empty deck of format 'slides'; write its content afterwards with set_deck_content (or generate_deck). fromDeckId builds on another deck's design (usually a template): its theme tokens and brand carry over, its content does not. brandId styles the deck with a brand.",
    body: createDeckBody,
    success: { status: 201, schema: deckSchema, description: "The new deck." },
    errors: WRITE,
    writes: { idempotent: false, destructive: false },
    run: ({ ctx, body }) => createDeck(ctx, body),
  }),

  import_deck: define({
    method: "POST",
    path: "/decks/import",
    tag: "Decks",
    summary: "Import a Markdown or PowerPoint deck",
    description:
      "Creates a slides deck and its first version in one call, without a model, from Markdown or a PowerPoint file. Markdown (JSON `markdown`): a Marp or Slidev deck (--- between slides; front matter read, never shown; HTML comments become speaker notes), or a brief or outline (a cover from the first heading, a slide per section). Headings, bullets, code blocks (language and highlighted lines), tables, images with their alt text and quotes each become the matching component. Text it cannot read is refused with 422 naming the line. PowerPoint (.pptx, at most 50 MB and 500 slides): send the raw file (Content-Type " +
      PPTX_TYPE +
      ", with title, brandId, visibility and mode in the query string), multipart/form-data with a `file` part (the same fields as parts), or JSON with the file in base64 (`file`). mode 'faithful' (default) keeps each slide as it looks: every shape a Frame at its place and size holding editable Text and Bullets (list levels, numbering, bold, italic, underline, colours, links), Image, Table or Chart, backgrounds kept, the theme's colours and fonts as the deck's tokens (a font that is not shipped drawn in the closest shipped family, reported); mode 'restyle' maps the slides into the vocabulary's own layouts (Title, Heading, Bullets, Table, Chart, Image, Quote, Stat) so the deck takes the house style or a brand; pictures are stored as the organization's images with their alt text, hidden slides are skipped, and the answer's importReport names everything approximated or left out. A file that is not a PowerPoint package (a legacy .ppt, an encrypted file, a damaged ZIP, a ZIP bomb, XML with a DOCTYPE) is a 422 naming the problem. Either way nothing is saved on a refusal. Consumes one version edit.",
    body: importDeckRequest,
    upload: {
      maxBytes: () => pptxLimits.maxBytes,
      field: "file",
      types: [PPTX_TYPE],
      fieldsBeside: true,
      what: "PowerPoint file",
    },
    success: {
      status: 201,
      schema: importDeckResponse,
      description: "The new deck, with its first version written; a PowerPoint import adds its importReport.",
    },
    errors: [401, 402, 403, 404, 422, 429, 500],
    // Reading a package (up to 50 MB, on a worker) and storing its pictures, or fetching a Markdown deck's images.
    limit: "slow",
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, body }) => runImport(ctx, body),
  }),

  get_deck: define({
    method: "GET",
    path: "/decks/{id}",
    tag: "Decks",
    summary: "Get a deck",
    description:
      "The deck with the content of its newest version (TSX source, theme tokens, compiled module, outline), or latestVersion null when it has none yet.",
    params: deckParams,
    success: { status: 200, schema: deckDetailSchema, description: "The deck and its newest version." },
    errors: READ,
    run: ({ ctx, params }) => getDeck(ctx, params.id),
  }),

  update_deck: define({
    method: "PATCH",
    path: "/decks/{id}",
    tag: "Decks",
    summary: "Update a deck",
    description:
      "Changes title, kind, description, archived or visibility; only the deck's owner may. Setting visibility 'public' publishes the deck: publicSlug is minted on first publish and stays stable, and publicUrl is the link to share.",
    params: deckParams,
    body: updateDeckBody,
    success: { status: 200, schema: deckSchema, description: "The updated deck." },
    errors: READ,
    writes: { idempotent: true, destructive: true },
    run: ({ ctx, params, body }) => updateDeck(ctx, params.id, body),
  }),

  delete_deck: define({
    method: "DELETE",
    path: "/decks/{id}",
    tag: "Decks",
    summary: "Delete a deck",
    description: "Permanently deletes the deck, all its versions and its exported files; only the deck's owner may.",
    params: deckParams,
    success: { status: 200, schema: deletedSchema, description: "The deck is gone." },
    errors: READ,
    writes: { idempotent: true, destructive: true },
    run: ({ ctx, params }) => deleteDeck(ctx, params.id),
  }),

  set_deck_content: define({
    method: "PUT",
    path: "/decks/{id}/content",
    tag: "Decks",
    summary: "Write the deck's content",
    description:
      "Appends a new version from a complete deck-tsx module (it replaces the whole content). The module must default-export the deck root and import only the player's vocabulary (see get_authoring_instructions). It is compiled on the server; a module that does not compile is refused with the compiler's message (422 compile_failed) and nothing is saved. tokensCss defaults to the latest version's tokens. Consumes one version edit.",
    params: deckParams,
    body: setContentBody,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: WRITE,
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, params, body }) => setDeckContent(ctx, params.id, body),
  }),

  list_slides: define({
    method: "GET",
    path: "/decks/{id}/slides",
    tag: "Decks",
    summary: "List a deck's slides",
    description:
      "Each slide of a version (default the newest) with its number, label, speaker notes and its TSX (from <Slide to </Slide>): what replace_slide, insert_slide, delete_slide and move_slide work on. editable is false when slides are made in code (.map, a condition, a helper): then change the deck with set_deck_content.",
    params: deckParams,
    query: listSlidesQuery,
    success: { status: 200, schema: slideListSchema, description: "The version's slides." },
    errors: READ,
    run: ({ ctx, params, query }) => listSlides(ctx, params.id, query.version),
  }),

  replace_slide: define({
    method: "PUT",
    path: "/decks/{id}/slides/{n}",
    tag: "Decks",
    summary: "Replace one slide",
    description:
      "Replaces slide n with one <Slide> element, touching no other byte of the module (components it uses are imported if missing), and writes the result as a new version: the whole module is compiled first (a slide that does not compile is 422 compile_failed with the compiler's message, and nothing is saved). basedOnVersion: the version the edit was made on (409 when the deck has a newer one). Fix one slide at a time this way rather than rewriting the deck. Consumes one version edit.",
    params: slideParams,
    body: replaceSlideBody,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: [401, 402, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, params, body }) => replaceDeckSlide(ctx, params.id, params.n, body),
  }),

  insert_slide: define({
    method: "POST",
    path: "/decks/{id}/slides",
    tag: "Decks",
    summary: "Insert one slide",
    description:
      "Inserts one <Slide> element after slide `after` (0: first), indented like its neighbours, and writes a new version, as replace_slide does (compiled first, 409 on a stale basedOnVersion). Consumes one version edit.",
    params: deckParams,
    body: insertSlideBody,
    success: { status: 201, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: [401, 402, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, params, body }) => insertDeckSlide(ctx, params.id, body),
  }),

  delete_slide: define({
    method: "DELETE",
    path: "/decks/{id}/slides/{n}",
    tag: "Decks",
    summary: "Delete one slide",
    description:
      "Removes slide n (a deck keeps at least one) and writes a new version; earlier versions keep it. basedOnVersion (query): 409 when the deck has a newer version. Consumes one version edit.",
    params: slideParams,
    query: deleteSlideQuery,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: [401, 402, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: false, destructive: false },
    run: ({ ctx, params, query }) => deleteDeckSlide(ctx, params.id, params.n, query),
  }),

  move_slide: define({
    method: "POST",
    path: "/decks/{id}/slides/{n}/move",
    tag: "Decks",
    summary: "Move one slide",
    description:
      "Moves slide n so that it becomes slide `to`; the other slides keep their order and every slide its bytes. Writes a new version (409 on a stale basedOnVersion). Consumes one version edit.",
    params: slideParams,
    body: moveSlideBody,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: [401, 402, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: false, destructive: false },
    run: ({ ctx, params, body }) => moveDeckSlide(ctx, params.id, params.n, body),
  }),

  generate_deck: define({
    method: "POST",
    path: "/decks/{id}/generate",
    tag: "Decks",
    summary: "Generate the deck with AI",
    description:
      "Runs the AI generator synchronously (typically 60 to 180 seconds). mode 'create' writes the deck from the brief; 'revise' (default) rewrites the latest version following the brief and consumes one version edit. Prefer edit_deck for targeted changes.",
    params: deckParams,
    body: generateDeckBody,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: WRITE,
    limit: "slow",
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, params, body }) => authorDeck(ctx, { kind: "generate", deckId: params.id, ...body }),
  }),

  edit_deck: define({
    method: "POST",
    path: "/decks/{id}/edit",
    tag: "Decks",
    summary: "Edit the deck with AI",
    description:
      "Applies a targeted AI edit: copy changes, restyling a slide, adding, removing or reordering a few slides. The instruction must be self-contained, name each slide by outline label or number and quote the exact copy being changed. Untouched slides stay byte-identical. 409 when the deck changed while the edit was prepared: retry. Consumes one version edit.",
    params: deckParams,
    body: editDeckBody,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: [401, 402, 403, 404, 409, 422, 429, 500],
    limit: "slow",
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, params, body }) => authorDeck(ctx, { kind: "edit", deckId: params.id, ...body }),
  }),

  check_deck: define({
    method: "GET",
    path: "/decks/{id}/check",
    tag: "Decks",
    summary: "Check a deck for broken slides",
    description:
      "Draws a version exactly as the PDF export does and reports, per slide, what a viewer would see broken or what breaks the authoring brief's rules: content that does not fit (which component, by how many px), text over text, type shrunk to its floor, contrast below 4.5:1, body text under 18 pt or labels under 14 pt, a content slide left a third empty, Markdown/LaTeX/Mermaid/HTML source shown as text, characters no font has, images drawn 0 px, empty slides, too many words or bullets, missing or duplicate labels, images without alt text or that cannot load, fonts that will be substituted. Each finding has a stable kind, a severity ('error': fix it; 'warning': worth fixing), the slide and its label, and a message saying what to do. Run it after set_deck_content or edit_deck and fix every 'error'. Takes about a second; rate-limited like generate.",
    params: deckParams,
    query: checkDeckQuery,
    success: {
      status: 200,
      schema: checkResultSchema,
      description: "The findings; an empty list when the deck is clean.",
    },
    errors: READ,
    limit: "slow",
    run: ({ ctx, params, query }) => checkDeck(ctx, params.id, query.version),
  }),

  get_slide_image: define({
    method: "GET",
    path: "/decks/{id}/slides/{n}/image",
    tag: "Decks",
    summary: "See one slide as an image",
    description:
      "One slide of a version (default the newest) as a PNG or WebP picture, drawn exactly as the PDF export draws it, width pixels wide (default 1280, at most 1920). Look at a slide after writing it, or at the slides check_deck names, before fixing them. Each image is rendered once per version, width and format and kept: its ETag (renderHash) is a hash of its bytes, so equal hashes are identical pictures; If-None-Match answers 304. A slide past the last is 404; a deck that does not finish drawing within the export's deadline is 422. Rate-limited like check_deck.",
    params: slideImageParams,
    query: slideImageQuery,
    success: {
      status: 200,
      media: ["image/png", "image/webp"],
      schema: slideImageSchema,
      description: "The slide's image (the format asked for).",
    },
    errors: READ,
    limit: "slow",
    run: ({ ctx, params, query }) => getSlideImage(ctx, params.id, params.n, query),
  }),

  get_deck_analytics: define({
    method: "GET",
    path: "/decks/{id}/analytics",
    tag: "Decks",
    summary: "Read how a shared deck is viewed",
    description:
      "Analytics of the deck's public link and embeds over a range of UTC days (default the last 30): views, unique viewers per day (counted without cookies: a salted hash of address, browser and deck that changes daily; viewers sending Do-Not-Track or Sec-GPC and bots are not counted), per slide the views that reached it, the views that stopped there (drop-off) and the time spent on it, views per day, referring hosts, share page vs embed, presenter sessions. Live: a view counts within seconds. For the deck's organization (another organization's deck is a 404, public or not).",
    params: deckParams,
    query: analyticsQuery,
    success: { status: 200, schema: deckAnalyticsSchema, description: "The deck's analytics over the range." },
    errors: READ,
    run: ({ ctx, params, query }) => getDeckAnalytics(ctx, params.id, query),
  }),

  get_share_link: define({
    method: "GET",
    path: "/decks/{id}/link",
    tag: "Decks",
    summary: "Read the public link's controls",
    description:
      "The deck's share link and its controls: whether it asks for a password and when it expires. Owner only.",
    params: deckParams,
    success: { status: 200, schema: shareLinkSchema, description: "The link's controls." },
    errors: READ,
    run: ({ ctx, params }) => getShareLink(ctx, params.id),
  }),

  set_share_link: define({
    method: "PATCH",
    path: "/decks/{id}/link",
    tag: "Decks",
    summary: "Protect the public link with a password or an expiry",
    description:
      "Sets or removes a password viewers must enter before the deck is shown (stored as an argon2id hash; the deck's frame and module are refused without it), and an expiry after which the link answers as if the deck were not public. While the link has a password or has expired, other organizations cannot read the deck by id either (get_deck, check_deck, exports: 404); its own organization still can. The slug does not change. Owner only.",
    params: deckParams,
    body: setShareLinkBody,
    success: { status: 200, schema: shareLinkSchema, description: "The link's controls." },
    errors: READ,
    writes: { idempotent: true, destructive: true },
    run: ({ ctx, params, body }) => setShareLink(ctx, params.id, body),
  }),

  revoke_share_link: define({
    method: "POST",
    path: "/decks/{id}/link/revoke",
    tag: "Decks",
    summary: "Revoke the public link",
    description:
      "Mints a new slug for the deck's public link: the old link (and every unlock of it) stops working at once. Only on request: otherwise the slug is kept forever. Owner only.",
    params: deckParams,
    success: { status: 200, schema: shareLinkSchema, description: "The new link." },
    errors: READ,
    writes: { idempotent: false, destructive: true },
    run: ({ ctx, params }) => revokeShareLink(ctx, params.id),
  }),

  list_deck_versions: define({
    method: "GET",
    path: "/decks/{id}/versions",
    tag: "Versions",
    summary: "List a deck's versions",
    description: "Version summaries (number, note, time), newest first; content omitted.",
    params: deckParams,
    success: { status: 200, schema: z.array(versionSummarySchema), description: "Versions, newest first." },
    errors: READ,
    run: ({ ctx, params }) => listDeckVersions(ctx, params.id),
  }),

  get_deck_version: define({
    method: "GET",
    path: "/decks/{id}/versions/{version}",
    tag: "Versions",
    summary: "Get one version",
    description: "One version with its full content: TSX source, theme tokens, compiled module and outline.",
    params: versionParams,
    success: { status: 200, schema: versionSchema, description: "The version." },
    errors: READ,
    cache: "immutable",
    run: ({ ctx, params }) => getDeckVersion(ctx, params.id, params.version),
  }),

  revert_deck_version: define({
    method: "POST",
    path: "/decks/{id}/versions/{version}/revert",
    tag: "Versions",
    summary: "Revert to a version",
    description:
      "Copies an earlier version's content forward as a new newest version; the history is kept. Consumes one version edit.",
    params: versionParams,
    success: { status: 200, schema: versionWriteResultSchema, description: "The new newest version." },
    errors: WRITE,
    writes: { idempotent: false, destructive: false },
    run: ({ ctx, params }) => revertDeckVersion(ctx, params.id, params.version),
  }),

  create_export: define({
    method: "POST",
    path: "/decks/{id}/exports",
    tag: "Exports",
    summary: "Export a deck to PDF or PPTX",
    description:
      "Queues a render of a version (default the newest) and returns at once with status 'pending'. Poll get_export until status is 'completed', then fetch downloadUrl with the same API key. Repeated requests within 10 minutes reuse the in-flight export. Only 'slides' decks can be exported. A PDF with layout 'notes' is a handout: a portrait page per slide, the slide above its speaker notes, numbered (422 for a PPTX, which keeps the notes on its notes pages).",
    params: deckParams,
    body: createExportBody,
    success: { status: 202, schema: exportSchema, description: "The queued (or reused) export." },
    errors: [401, 403, 404, 422, 429, 500],
    writes: { idempotent: true, destructive: false },
    run: ({ ctx, params, body }) => createExport(ctx, params.id, body),
  }),

  get_export: define({
    method: "GET",
    path: "/exports/{id}",
    tag: "Exports",
    summary: "Get an export",
    description:
      "The export's status ('pending', 'running', 'completed' or 'failed'); downloadUrl is set once completed.",
    params: exportParams,
    success: { status: 200, schema: exportSchema, description: "The export." },
    errors: READ,
    run: ({ ctx, params }) => getExport(ctx, params.id),
  }),

  download_export: define({
    method: "GET",
    path: "/exports/{id}/download",
    tag: "Exports",
    summary: "Download an export",
    description:
      "Redirects (302) to a short-lived link of the rendered file. Requires the same API key that requested the export; 409 while the export is not completed.",
    params: exportParams,
    success: { status: 302, description: "Redirect to the file; the Location header holds a short-lived link." },
    errors: [401, 403, 404, 409, 422, 429, 500],
    run: ({ ctx, params }) => getExportDownloadUrl(ctx, params.id),
  }),

  list_brands: define({
    method: "GET",
    path: "/brands",
    tag: "Brands",
    summary: "List brands",
    description: "The organization's brands, newest first. A brand is optional when creating a deck.",
    success: { status: 200, schema: z.array(brandSchema), description: "Brands, newest first." },
    errors: [401, 403, 422, 429, 500],
    run: ({ ctx }) => listBrands(ctx),
  }),

  create_brand_from_url: define({
    method: "POST",
    path: "/brands",
    tag: "Brands",
    summary: "Extract a brand from a website",
    description:
      "Fetches a public website and extracts a brand book: palette with roles, typography, logo, voice and imagery rules. Synchronous. Private and internal addresses are refused.",
    body: createBrandBody,
    success: { status: 201, schema: brandDetailSchema, description: "The brand with its brand book." },
    errors: [401, 403, 422, 429, 500],
    limit: "slow",
    writes: { idempotent: false, destructive: false },
    openWorld: true,
    run: ({ ctx, body }) => createBrandFromUrl(ctx, body),
  }),

  get_brand: define({
    method: "GET",
    path: "/brands/{id}",
    tag: "Brands",
    summary: "Get a brand",
    description: "The brand with its brand book (palette, typography, logo, voice, imagery rules).",
    params: brandParams,
    success: { status: 200, schema: brandDetailSchema, description: "The brand." },
    errors: READ,
    run: ({ ctx, params }) => getBrand(ctx, params.id),
  }),

  delete_brand: define({
    method: "DELETE",
    path: "/brands/{id}",
    tag: "Brands",
    summary: "Delete a brand",
    description: "Deletes the brand; refused with 409 while any deck still uses it.",
    params: brandParams,
    success: { status: 200, schema: deletedSchema, description: "The brand is gone." },
    errors: [401, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: true, destructive: true },
    run: ({ ctx, params }) => deleteBrand(ctx, params.id),
  }),

  list_assets: define({
    method: "GET",
    path: "/assets",
    tag: "Assets",
    summary: "List images",
    description:
      "The organization's images (uploaded, imported from image URLs in decks, brand logos), newest first, with the URL to write in a deck.",
    success: { status: 200, schema: z.array(assetSchema), description: "Images, newest first." },
    errors: [401, 403, 422, 429, 500],
    run: ({ ctx }) => listAssets(ctx),
  }),

  upload_asset: define({
    method: "POST",
    path: "/assets",
    tag: "Assets",
    summary: "Upload an image",
    description:
      'Stores an image for the organization and answers its URL: write it as <Image src="…" alt="…" /> (or a Slide\'s image) in a deck. PNG, JPEG, WebP, GIF, AVIF or SVG, the type read from the bytes; SVG is rasterised, large images are downscaled to fit 3840x2160. The same bytes uploaded again answer the same image. Send the raw bytes (any image Content-Type), multipart/form-data with a `file` part, or JSON with the bytes in base64 (`data`); `alt` (query) is the alt text to suggest. Too many bytes or pixels are 422 payload_too_large; the organization\'s storage used up is 429.',
    query: uploadAssetQuery,
    body: uploadAssetBody,
    upload: { maxBytes: () => imageLimits().maxBytes },
    success: { status: 201, schema: assetSchema, description: "The stored image." },
    errors: [401, 403, 422, 429, 500],
    writes: { idempotent: true, destructive: false },
    run: async ({ ctx, query, body }) =>
      presentAsset(
        await storeImage(ownerOf(ctx), Buffer.from(body.data, "base64"), {
          alt: query.alt ?? null,
          what: "The upload",
        }),
      ),
  }),

  delete_asset: define({
    method: "DELETE",
    path: "/assets/{id}",
    tag: "Assets",
    summary: "Delete an image",
    description:
      "Deletes an image the caller stored. Refused with 409 while any version of the organization's decks or a brand shows it (versions never change); 403 for another person's image.",
    params: assetParams,
    success: { status: 200, schema: deletedSchema, description: "The image is gone." },
    errors: [401, 403, 404, 409, 422, 429, 500],
    writes: { idempotent: true, destructive: true },
    run: ({ ctx, params }) => deleteAsset(ctx, params.id),
  }),
};

export type OperationId = keyof typeof definitions;

export const operations = Object.fromEntries(Object.entries(definitions).map(([id, op]) => [id, { ...op, id }])) as {
  [K in OperationId]: (typeof definitions)[K] & { id: K };
};

export const operationList: Operation[] = Object.values(operations);
