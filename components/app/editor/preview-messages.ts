import { z } from "zod";
import {
  EDIT_PATH_MAX,
  EDIT_TEXT_MAX,
  MODULE_URL_MAX,
  editableComponents,
  selectableComponents,
} from "@/lib/contract/player";

// What the editor takes from its preview frame. The frame runs the deck's code, so every message is
// untrusted input: deck code can post anything the player posts. The editor listens only to its own
// iframe's window (event.source) at the sandboxed frame's origin ("null": the frame has no
// allow-same-origin), and only to these exact shapes (strict objects, bounded integers and strings);
// anything else is dropped whole. What a message can do is bounded too: a text edit goes through the
// source library's replaceText, which writes a string at a text position and never code.

const MAX_SLIDES = 10_000;
const slide = z.number().int().min(0).max(MAX_SLIDES);
const occurrence = z.number().int().min(0).max(10_000);
const text = z.string().max(EDIT_TEXT_MAX);
const source = z.literal("deckhand-player");
const component = z.enum(editableComponents);
// Where a data item's text is (a prop name, then indexes and keys): short, and only words and numbers.
const item = z.strictObject({
  component,
  index: z.number().int().min(0).max(1_000),
  count: z.number().int().min(1).max(1_000),
  path: z
    .array(z.union([z.string().regex(/^[A-Za-z_$][\w$]{0,63}$/), z.number().int().min(0).max(100_000)]))
    .min(1)
    .max(EDIT_PATH_MAX),
});
// Which of its component's elements on the slide a clicked element without text (an Image) is.
const element = z.strictObject({
  index: z.number().int().min(0).max(1_000),
  count: z.number().int().min(1).max(1_000),
});

const frameStateMessage = z.strictObject({
  source,
  type: z.literal("state"),
  slide,
  count: z.number().int().min(1).max(MAX_SLIDES),
  slides: z.array(z.unknown()).max(MAX_SLIDES),
  overview: z.boolean(),
});

const frameReadyMessage = z.strictObject({
  source,
  type: z.literal("ready"),
  count: z.number().int().min(0).max(MAX_SLIDES),
  missingFonts: z.array(z.string().max(200)).max(100),
  errors: z.array(z.string().max(EDIT_TEXT_MAX)).max(100),
});

const frameSelectMessage = z.strictObject({
  source,
  type: z.literal("select"),
  slide,
  text,
  occurrence,
  component: z.enum(selectableComponents),
  item: item.optional(),
  element: element.optional(),
});

const frameEditTextMessage = z.strictObject({
  source,
  type: z.literal("edit-text"),
  slide,
  text: text.min(1),
  occurrence,
  next: text.min(1),
  item: item.optional(),
});

// The answer to an in-place update (preview-frame.tsx): the frame drew the module, or will not.
const frameUpdatedMessage = z.strictObject({
  source,
  type: z.enum(["updated", "update-failed"]),
  moduleUrl: z.string().max(MODULE_URL_MAX),
});

const frameHistoryMessage = z.strictObject({ source, type: z.literal("history"), action: z.enum(["undo", "redo"]) });

const frameRemoveMessage = z.strictObject({ source, type: z.literal("remove") });

const frameMessage = z.discriminatedUnion("type", [
  frameHistoryMessage,
  frameRemoveMessage,
  frameStateMessage,
  frameReadyMessage,
  frameSelectMessage,
  frameEditTextMessage,
  frameUpdatedMessage,
]);

export type PreviewMessage = z.infer<typeof frameMessage>;

/** The message, if it is one the player sends in edit mode and well-formed; null for anything else. */
export function readPreviewMessage(data: unknown): PreviewMessage | null {
  const parsed = frameMessage.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** Whether a message event came from this iframe, at the origin a sandboxed frame has. */
export function isFromFrame(event: MessageEvent, frame: HTMLIFrameElement | null): boolean {
  return frame !== null && event.source !== null && event.source === frame.contentWindow && event.origin === "null";
}
