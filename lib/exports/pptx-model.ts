import { z } from "zod";
import { assetPathPattern, type SlideModel, slideModelLimits } from "@/lib/contract/slide-model";
import { DeckFaultError } from "@/lib/render/browser";

// The gate between the renderer's page and the PPTX builder. The slide model describes a page the deck
// drew, so nothing in it is trusted: it must have the shape extract-slides.ts produces, within sizes a
// slide can use, before a picture is taken or a byte of the file is written. A model that does not is
// the deck's fault (final, no retry).

const limits = slideModelLimits;

const coordinate = z.number().min(-limits.coordinate).max(limits.coordinate);
const length = z.number().min(0).max(limits.coordinate);

const rgba = z.strictObject({
  hex: z.string().regex(/^[0-9A-F]{6}$/, "colours are six upper-case hex digits"),
  alpha: z.number().min(0).max(1),
});

const rect = z.strictObject({ x: coordinate, y: coordinate, w: length, h: length });

// One family as CSS names it, unquoted: no list, no control or formatting characters, no lone surrogates.
const font = z
  .string()
  .min(1)
  .max(limits.fontCharacters, `a font name of more than ${limits.fontCharacters} characters`)
  .regex(/^[^\p{Cc}\p{Cf}\p{Cs}\uFFFE\uFFFF]+$/u, "a font is one plain family name")
  .refine((value) => value.trim() === value, "a font is one plain family name");

const allowedProtocols = new Set(["http:", "https:", "mailto:"]);

export function isExportableLink(value: string): boolean {
  if (value.length > limits.linkCharacters || !/^[\x21-\x7E]+$/.test(value)) return false;
  try {
    return allowedProtocols.has(new URL(value).protocol);
  } catch {
    return false;
  }
}

const link = z.string().refine(isExportableLink, "links are http(s) or mailto URLs");

const run = z.strictObject({
  text: z.string().max(limits.runCharacters, `a run of more than ${limits.runCharacters} characters`),
  font,
  size: z.number().min(0).max(limits.fontSize),
  bold: z.boolean(),
  italic: z.boolean(),
  underline: z.boolean(),
  strike: z.boolean(),
  color: rgba,
  letterSpacing: z.number().min(-limits.letterSpacing).max(limits.letterSpacing),
  href: link.optional(),
  breakAfter: z.boolean().optional(),
});

const runs = z.array(run).max(limits.runsPerBlock, `more than ${limits.runsPerBlock} runs of text in one block`);

const gradient = z.strictObject({
  kind: z.enum(["linear", "radial"]),
  angle: z.number().min(0).max(360),
  stops: z
    .array(z.strictObject({ color: rgba, at: z.number().min(0).max(1) }))
    .min(2, "a gradient has two stops or more")
    .max(limits.gradientStops, `a gradient of more than ${limits.gradientStops} stops`)
    .refine((stops) => stops.every((stop, index) => index === 0 || stop.at >= stops[index - 1]!.at), {
      message: "a gradient's stops are in order",
    }),
});

const shape = z.strictObject({
  kind: z.literal("shape"),
  rect,
  fill: rgba.nullable(),
  gradient: gradient.optional(),
  border: z.strictObject({ width: length, color: rgba, dash: z.enum(["solid", "dash", "dot"]) }).nullable(),
  radius: length,
  ellipse: z.boolean(),
  shadow: z.strictObject({ x: coordinate, y: coordinate, blur: length, color: rgba }).nullable(),
});

const text = z.strictObject({
  kind: z.literal("text"),
  rect,
  runs,
  align: z.enum(["left", "center", "right", "justify"]),
  rtl: z.boolean().optional(),
  lineHeight: length,
  singleLine: z.boolean(),
  textWidth: length.optional(),
  valign: z.literal("middle").optional(),
  preformatted: z.strictObject({ hangingIndent: length }).optional(),
  list: z
    .strictObject({
      marker: z.discriminatedUnion("kind", [
        // One character (a code point, not a control or formatting one) that is not a surrogate half.
        z.strictObject({
          kind: z.literal("char"),
          char: z.string().regex(/^[^\p{Cc}\p{Cf}\p{Cs}\p{Z}\uFFFE\uFFFF]$/u, "a bullet is one visible character"),
        }),
        z.strictObject({ kind: z.literal("number") }),
      ]),
      color: rgba,
      font,
      sizePercent: z.number().min(25).max(400),
      indent: length,
      gap: length,
      // PowerPoint's nine levels (lvl 0-8).
      levels: z.array(z.number().int().min(0).max(8)).max(limits.runsPerBlock).optional(),
      levelIndent: length.optional(),
    })
    .optional(),
});

const cell = z.strictObject({
  runs,
  fill: rgba.nullable(),
  align: z.enum(["left", "center", "right"]),
  rtl: z.boolean().optional(),
  valign: z.enum(["top", "middle", "bottom"]),
  padding: z.tuple([length, length, length, length]),
  borderBottom: z.strictObject({ width: length, color: rgba }).nullable(),
});

const tooManyRows = `more than ${limits.tableRows} rows in one table`;
const tooManyColumns = `more than ${limits.tableColumns} columns in one table`;

const table = z
  .strictObject({
    kind: z.literal("table"),
    rect,
    columnWidths: z.array(length).max(limits.tableColumns, tooManyColumns),
    rowHeights: z.array(length).max(limits.tableRows, tooManyRows),
    rows: z.array(z.array(cell).max(limits.tableColumns, tooManyColumns)).max(limits.tableRows, tooManyRows),
  })
  .refine((value) => value.rowHeights.length === value.rows.length, "a table has one height per row");

const raster = z.strictObject({
  kind: z.literal("raster"),
  rect,
  id: z.number().int().min(1).max(1_000_000),
  alone: z.boolean(),
  label: z.string().max(limits.labelCharacters, `alt text of more than ${limits.labelCharacters} characters`),
  asset: z
    .strictObject({
      path: z.string().regex(assetPathPattern, "a stored image's path"),
      fit: z.enum(["cover", "contain"]),
      width: z.number().int().min(1).max(100_000),
      height: z.number().int().min(1).max(100_000),
    })
    .optional(),
  svg: z
    .string()
    .max(limits.svgCharacters, `an icon of more than ${limits.svgCharacters} characters`)
    .regex(/^<svg [^]*<\/svg>$/, "an icon is one SVG element")
    .optional(),
});

const label = z.string().max(limits.labelCharacters, `a label of more than ${limits.labelCharacters} characters`);
const affix = z.string().max(limits.affixCharacters, `a unit of more than ${limits.affixCharacters} characters`);
const chartText = z.strictObject({
  font,
  size: z.number().min(0).max(limits.fontSize),
  bold: z.boolean(),
  color: rgba,
});
const chartLine = z.strictObject({ width: length, color: rgba }).nullable();
const tooManyCategories = `more than ${limits.chartCategories} categories in one chart`;

const chart = z
  .strictObject({
    kind: z.literal("chart"),
    rect,
    type: z.enum(["bar", "line", "pie"]),
    stacked: z.boolean(),
    labels: z.array(label).min(1).max(limits.chartCategories, tooManyCategories),
    series: z
      .array(
        z.strictObject({
          name: label,
          values: z.array(z.number().min(-1e15).max(1e15).nullable()).max(limits.chartCategories, tooManyCategories),
          color: rgba,
        }),
      )
      .min(1)
      .max(limits.chartSeries, `more than ${limits.chartSeries} series in one chart`),
    pointColors: z.array(rgba).max(limits.chartCategories, tooManyCategories).optional(),
    labelShifts: z.array(coordinate).max(limits.chartSeries).optional(),
    highlight: z.strictObject({ index: z.number().int().min(0), color: rgba }).nullable(),
    format: z.strictObject({ value: z.tuple([affix, affix]), axis: z.tuple([affix, affix]) }),
    values: z.enum(["all", "highlight", "none"]),
    axis: z
      .strictObject({
        min: z.number().min(-1e15).max(1e15),
        max: z.number().min(-1e15).max(1e15),
        step: z.number().positive().max(1e15),
      })
      .refine(
        (axis) => axis.max > axis.min && (axis.max - axis.min) / axis.step <= 1_000,
        "an axis of at most 1000 steps",
      )
      .nullable(),
    plot: rect.nullable(),
    title: z.strictObject({ text: label, rect, style: chartText }).nullable(),
    legend: z.strictObject({ rect, style: chartText }).nullable(),
    tick: chartText,
    category: chartText,
    value: chartText,
    grid: chartLine,
    baseline: chartLine,
    ground: rgba.nullable(),
    barWidth: length,
    lineWidth: length,
    label: z.string().max(limits.labelCharacters, `alt text of more than ${limits.labelCharacters} characters`),
  })
  .refine(
    (value) => value.series.every((line) => line.values.length === value.labels.length),
    "a chart's series have a value per category",
  )
  .refine(
    (value) => !value.highlight || value.highlight.index < value.labels.length,
    "a chart highlights one of its categories",
  )
  .refine(
    (value) => !value.pointColors || value.pointColors.length === value.labels.length,
    "a pie has a colour per slice",
  );

const slide = z.strictObject({
  background: rgba.nullable(),
  label: z
    .string()
    .max(limits.labelCharacters, `a slide label of more than ${limits.labelCharacters} characters`)
    .optional(),
  items: z
    .array(z.discriminatedUnion("kind", [shape, text, table, raster, chart]))
    .max(limits.itemsPerSlide, `more than ${limits.itemsPerSlide} items on one slide`),
});

const exportModel = z
  .strictObject({
    slides: z.array(slide).min(1, "the deck has no slides").max(limits.slides, `more than ${limits.slides} slides`),
    notes: z
      .array(z.string().max(limits.notesCharacters, `notes of more than ${limits.notesCharacters} characters`))
      .max(limits.slides, `more than ${limits.slides} slides`),
  })
  .superRefine((model, context) => {
    let parts = 0;
    let characters = 0;
    const rasterIds = new Set<number>();
    const count = (list: { text: string }[]) => {
      parts += list.length;
      for (const item of list) characters += item.text.length;
    };
    for (const { items } of model.slides) {
      parts += items.length;
      for (const item of items) {
        if (item.kind === "text") count(item.runs);
        if (item.kind === "table") {
          for (const row of item.rows) {
            parts += row.length;
            for (const cell of row) count(cell.runs);
          }
        }
        if (item.kind === "chart") {
          parts += item.labels.length;
          for (const line of item.series) parts += line.values.length;
        }
        if (item.kind === "raster") {
          if (rasterIds.has(item.id)) context.addIssue({ code: "custom", message: `picture ${item.id} appears twice` });
          rasterIds.add(item.id);
        }
      }
    }
    if (parts > limits.parts)
      context.addIssue({ code: "custom", message: `more than ${limits.parts} items, cells and runs in all` });
    if (characters > limits.characters)
      context.addIssue({ code: "custom", message: `more than ${limits.characters} characters of text in all` });
  });

export type ExportModel = { slides: SlideModel[]; notes: string[] };

// The schema and the extractor's types must describe the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesTypes: Same<z.output<typeof exportModel>, ExportModel> = true;
void schemaMatchesTypes;

// ["slides", 2, "items", 4, "runs", 0, "font"] → "slide 3, item 5, run 1, font"
function describePath(path: PropertyKey[]): string {
  const words: Record<string, string> = {
    slides: "slide",
    items: "item",
    runs: "run",
    rows: "row",
    notes: "slide",
    columnWidths: "column width",
    rowHeights: "row height",
  };
  const parts: string[] = [];
  for (let index = 0; index < path.length; index++) {
    const key = path[index]!;
    const next = path[index + 1];
    if (typeof key === "string" && Object.hasOwn(words, key) && typeof next === "number") {
      parts.push(`${words[key]} ${next + 1}`);
      index++;
      // A row's next index is its cell.
      if (key === "rows" && typeof path[index + 1] === "number") parts.push(`cell ${(path[++index] as number) + 1}`);
    } else {
      parts.push(String(key));
    }
  }
  return parts.join(", ");
}

function trimKeys(path: PropertyKey[]): PropertyKey[] {
  let end = path.length;
  while (end > 0 && typeof path[end - 1] !== "number") end--;
  return path.slice(0, end);
}

/**
 * The extracted slides and the player's notes as the builder may use them, or a DeckFaultError saying
 * what is wrong with them.
 */
export function parseExportModel(input: { slides: unknown; notes: unknown }): ExportModel {
  const parsed = exportModel.safeParse(input);
  if (parsed.success) return parsed.data;
  const all = [
    ...new Set(
      parsed.error.issues.map((issue) => {
        // A list that is too long is named by what holds it ("slide 1, item 2: more than 1000 rows…").
        const path = issue.code === "too_big" && issue.origin === "array" ? trimKeys(issue.path) : issue.path;
        const where = describePath(path);
        // Messages may quote the model (an unknown key): a line each, however long the key.
        return (where ? `${where}: ${issue.message}` : issue.message).slice(0, 200);
      }),
    ),
  ];
  const problems = all.slice(0, 3);
  const more = all.length > 3 ? ` (and ${all.length - 3} more)` : "";
  throw new DeckFaultError(`The slides could not be exported to PowerPoint: ${problems.join("; ")}${more}.`);
}
