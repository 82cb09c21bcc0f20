import PptxGenJS from "pptxgenjs";
import type { Rgba, SlideModel, TextRun } from "@/components/player/export/slide-model";

// Turns the extracted slide models into a PowerPoint file. The canvas is 1920x1080 px on a 13.333x7.5 in
// (16:9) slide: 144 px per inch, and since a point is 1/72 in, 0.5 pt per px.

const PX_PER_INCH = 144;
const PT_PER_PX = 0.5;

const inch = (value: number) => Math.round((value / PX_PER_INCH) * 10_000) / 10_000;
const pt = (value: number) => Math.round(value * PT_PER_PX * 100) / 100;
const transparency = (color: Rgba) => Math.round((1 - color.alpha) * 100);

const none: PptxGenJS.BorderProps = { type: "none" };

export type Raster = { png: Buffer; width: number; height: number };

function textRun(run: TextRun): PptxGenJS.TextProps {
  return {
    text: run.text,
    options: {
      fontFace: run.font,
      fontSize: pt(run.size),
      bold: run.bold,
      italic: run.italic,
      underline: run.underline ? { style: "sng" } : undefined,
      strike: run.strike ? "sngStrike" : undefined,
      color: run.color.hex,
      transparency: run.color.alpha < 1 ? transparency(run.color) : undefined,
      charSpacing: run.letterSpacing ? pt(run.letterSpacing) : undefined,
      hyperlink: run.href && /^(https?|mailto):/.test(run.href) ? { url: run.href } : undefined,
      breakLine: run.breakAfter || undefined,
    },
  };
}

export async function buildPptx(input: {
  title: string;
  slides: SlideModel[];
  notes: string[];
  rasters: Map<number, Raster>;
}): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE";
  pptx.title = input.title;
  pptx.company = "Deckhand";

  input.slides.forEach((model, index) => {
    const slide = pptx.addSlide();
    if (model.background)
      slide.background = { color: model.background.hex, transparency: transparency(model.background) };

    for (const item of model.items) {
      const box = { x: inch(item.rect.x), y: inch(item.rect.y), w: inch(item.rect.w), h: inch(item.rect.h) };
      if (item.kind === "shape") {
        slide.addShape(
          item.ellipse ? pptx.ShapeType.ellipse : item.radius > 0 ? pptx.ShapeType.roundRect : pptx.ShapeType.rect,
          {
            ...box,
            fill: item.fill ? { color: item.fill.hex, transparency: transparency(item.fill) } : { type: "none" },
            line: item.border
              ? {
                  color: item.border.color.hex,
                  transparency: transparency(item.border.color),
                  width: pt(item.border.width),
                  dashType: item.border.dash === "dash" ? "dash" : item.border.dash === "dot" ? "sysDot" : "solid",
                }
              : { type: "none" },
            rectRadius: item.radius > 0 && !item.ellipse ? inch(item.radius) : undefined,
            shadow: item.shadow
              ? {
                  type: "outer",
                  color: item.shadow.color.hex,
                  opacity: item.shadow.color.alpha,
                  blur: pt(item.shadow.blur),
                  offset: pt(Math.hypot(item.shadow.x, item.shadow.y)),
                  angle: Math.round(((Math.atan2(item.shadow.y, item.shadow.x) * 180) / Math.PI + 360) % 360),
                }
              : undefined,
          },
        );
      } else if (item.kind === "text") {
        // Fonts differ slightly between the browser and PowerPoint; a little room keeps lines from re-wrapping.
        const slack = item.rect.w * 0.04;
        const x =
          item.align === "center"
            ? item.rect.x - slack / 2
            : item.align === "right"
              ? item.rect.x - slack
              : item.rect.x;
        slide.addText(item.runs.map(textRun), {
          x: inch(x),
          y: box.y,
          w: inch(item.rect.w + slack),
          h: inch(Math.max(item.rect.h, item.lineHeight)),
          margin: 0,
          align: item.align,
          valign: "top",
          lineSpacing: pt(item.lineHeight),
          paraSpaceBefore: 0,
          paraSpaceAfter: 0,
          wrap: !item.singleLine,
          fit: "none",
        });
      } else if (item.kind === "table") {
        const rows = item.rows.map((row) =>
          row.map((cell) => ({
            text: cell.runs.map(textRun),
            options: {
              fill: cell.fill ? { color: cell.fill.hex, transparency: transparency(cell.fill) } : undefined,
              align: cell.align,
              valign: cell.valign,
              margin: cell.padding.map((value) => inch(value)) as [number, number, number, number],
              border: [
                none,
                none,
                cell.borderBottom
                  ? { type: "solid", color: cell.borderBottom.color.hex, pt: pt(cell.borderBottom.width) }
                  : none,
                none,
              ] satisfies [PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps],
            },
          })),
        );
        slide.addTable(rows, {
          ...box,
          colW: item.columnWidths.map(inch),
          rowH: item.rowHeights.map(inch),
          autoPage: false,
        });
      } else {
        const raster = input.rasters.get(item.id);
        if (raster)
          slide.addImage({ data: `image/png;base64,${raster.png.toString("base64")}`, ...box, altText: item.label });
      }
    }
    const notes = input.notes[index];
    if (notes) slide.addNotes(notes);
  });

  return (await pptx.write({ outputType: "nodebuffer", compression: true })) as Buffer;
}
