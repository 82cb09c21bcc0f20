// Runs inside the export renderer's page (player in export mode, every slide a .dh-export-page) and
// describes each slide as native PowerPoint material: shapes with fills, borders and radii; text boxes
// with runs; tables; and, only where PowerPoint has no equivalent (SVG, images, gradients, filters),
// a marker for a picture the renderer screenshots. Built by scripts/build-player.ts as a classic script.
import type { Rect, RasterItem, Rgba, SlideItem, SlideModel, TableCell, TextRun } from "./slide-model";

const colorCache = new Map<string, Rgba | null>();
let colorContext: CanvasRenderingContext2D | null = null;

// Any CSS colour (rgb(), color(srgb …), color-mix results, oklch…) → sRGB hex + alpha, by painting it.
function parseColor(value: string): Rgba | null {
  if (!value || value === "transparent" || value === "none") return null;
  const cached = colorCache.get(value);
  if (cached !== undefined) return cached;
  colorContext ??= Object.assign(document.createElement("canvas"), { width: 1, height: 1 }).getContext("2d", {
    willReadFrequently: true,
  });
  let result: Rgba | null = null;
  if (colorContext) {
    colorContext.clearRect(0, 0, 1, 1);
    colorContext.fillStyle = "#000";
    colorContext.fillStyle = value;
    colorContext.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = colorContext.getImageData(0, 0, 1, 1).data;
    if (a! > 0) {
      // Un-premultiply is not needed: getImageData returns straight alpha.
      const hex = [r, g, b]
        .map((c) => c!.toString(16).padStart(2, "0"))
        .join("")
        .toUpperCase();
      result = { hex, alpha: Math.round((a! / 255) * 1000) / 1000 };
    }
  }
  colorCache.set(value, result);
  return result;
}

function px(value: string): number {
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? number : 0;
}

function firstFamily(fontFamily: string): string {
  const first = fontFamily.split(",")[0] ?? "";
  return first.trim().replace(/^["']|["']$/g, "") || "Arial";
}

function relative(rect: DOMRect, origin: DOMRect): Rect {
  return { x: rect.left - origin.left, y: rect.top - origin.top, w: rect.width, h: rect.height };
}

function contentBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect): Rect {
  const box = relative(element.getBoundingClientRect(), origin);
  const left = px(style.paddingLeft) + px(style.borderLeftWidth);
  const top = px(style.paddingTop) + px(style.borderTopWidth);
  const right = px(style.paddingRight) + px(style.borderRightWidth);
  const bottom = px(style.paddingBottom) + px(style.borderBottomWidth);
  return {
    x: box.x + left,
    y: box.y + top,
    w: Math.max(0, box.w - left - right),
    h: Math.max(0, box.h - top - bottom),
  };
}

function transformText(text: string, transform: string): string {
  if (transform === "uppercase") return text.toUpperCase();
  if (transform === "lowercase") return text.toLowerCase();
  if (transform === "capitalize") return text.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
  return text;
}

function isInline(element: Element): boolean {
  const display = getComputedStyle(element).display;
  return display === "inline" || display === "contents" || element.tagName === "BR";
}

function hasOwnText(element: Element): boolean {
  return [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "");
}

// A block whose content is text and inline elements only: one PowerPoint text box.
function isTextBlock(element: Element): boolean {
  if (!element.textContent?.trim()) return false;
  const children = [...element.children];
  if (!hasOwnText(element) && children.length !== 1) return false;
  return children.every((child) => isInline(child) && child.tagName !== "svg" && child.tagName !== "IMG");
}

function runStyle(element: Element): Omit<TextRun, "text"> {
  const style = getComputedStyle(element);
  const decoration = style.textDecorationLine;
  const link = element.closest("a[href]") as HTMLAnchorElement | null;
  return {
    font: firstFamily(style.fontFamily),
    size: px(style.fontSize),
    bold: Number(style.fontWeight) >= 600,
    italic: style.fontStyle === "italic" || style.fontStyle.startsWith("oblique"),
    underline: decoration.includes("underline"),
    strike: decoration.includes("line-through"),
    color: parseColor(style.color) ?? { hex: "000000", alpha: 1 },
    letterSpacing: style.letterSpacing === "normal" ? 0 : px(style.letterSpacing),
    ...(link ? { href: link.href } : {}),
  };
}

function collectRuns(root: Element): TextRun[] {
  const runs: TextRun[] = [];
  const visit = (node: Node, parent: Element) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const style = getComputedStyle(parent);
      const preserve = style.whiteSpace.startsWith("pre") || style.whiteSpace === "break-spaces";
      let text = node.textContent ?? "";
      text = preserve ? text : text.replace(/\s+/g, " ");
      text = transformText(text, style.textTransform);
      if (!text) return;
      const lines = preserve ? text.split("\n") : [text];
      lines.forEach((line, index) => {
        runs.push({ text: line, ...runStyle(parent), breakAfter: index < lines.length - 1 });
      });
      return;
    }
    if (!(node instanceof Element)) return;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") return;
    if (node.tagName === "BR") {
      const last = runs.at(-1);
      if (last) last.breakAfter = true;
      else runs.push({ text: "", ...runStyle(node.parentElement ?? root), breakAfter: true });
      return;
    }
    for (const child of node.childNodes) visit(child, node);
  };
  for (const child of root.childNodes) visit(child, root);
  // Collapsed white space at the edges of the block and of each line is not drawn.
  const first = runs[0];
  if (first) first.text = first.text.replace(/^ +/, "");
  const last = runs.at(-1);
  if (last) last.text = last.text.replace(/ +$/, "");
  runs.forEach((run, index) => {
    if (run.breakAfter) run.text = run.text.replace(/ +$/, "");
    if (runs[index - 1]?.breakAfter) run.text = run.text.replace(/^ +/, "");
  });
  return runs.filter((run) => run.text !== "" || run.breakAfter);
}

// Pseudo-elements with a box (bullet dots, rules, scrims) become real elements so the walker sees them.
function materializePseudoElements(root: Element) {
  for (const element of [root, ...root.querySelectorAll("*")]) {
    for (const which of ["::before", "::after"] as const) {
      const style = getComputedStyle(element, which);
      if (!style.content || style.content === "none" || style.content === "normal" || style.display === "none")
        continue;
      const span = document.createElement("span");
      for (const name of style) span.style.setProperty(name, style.getPropertyValue(name));
      span.style.setProperty("content", "normal");
      const text = /^["'](.*)["']$/.exec(style.content)?.[1] ?? "";
      if (text)
        span.textContent = text.replace(/\\([0-9a-f]{1,6}) ?/gi, (_, hex: string) =>
          String.fromCodePoint(Number.parseInt(hex, 16)),
        );
      span.dataset.dhPseudo = which;
      if (which === "::before") element.insertBefore(span, element.firstChild);
      else element.appendChild(span);
    }
  }
  const sheet = document.createElement("style");
  sheet.textContent = "[data-dh-materialized]::before, [data-dh-materialized]::after { content: none !important; }";
  document.head.appendChild(sheet);
  for (const element of root.querySelectorAll("span[data-dh-pseudo]"))
    element.parentElement?.setAttribute("data-dh-materialized", "");
}

function parseShadow(value: string): { x: number; y: number; blur: number; color: Rgba } | null {
  if (!value || value === "none") return null;
  const first = value.split(/,(?![^(]*\))/)[0] ?? "";
  if (first.includes("inset")) return null;
  const color = /(rgba?\([^)]*\)|color\([^)]*\)|#[0-9a-f]{3,8})/i.exec(first)?.[1];
  const lengths = first
    .replace(color ?? "", "")
    .trim()
    .split(/\s+/)
    .map(px);
  const parsed = color ? parseColor(color) : null;
  if (!parsed || lengths.length < 2) return null;
  return { x: lengths[0] ?? 0, y: lengths[1] ?? 0, blur: lengths[2] ?? 0, color: parsed };
}

let rasterCount = 0;

function markRaster(element: Element, rect: Rect, alone: boolean, items: SlideItem[]) {
  rasterCount += 1;
  element.setAttribute("data-dh-raster", String(rasterCount));
  const label = element.getAttribute("aria-label") ?? element.getAttribute("alt") ?? element.tagName.toLowerCase();
  items.push({ kind: "raster", rect, id: rasterCount, alone, label } satisfies RasterItem);
}

function extractTable(table: HTMLTableElement, origin: DOMRect): SlideItem {
  const rows = [...table.rows];
  const firstRow = rows[0];
  const columnWidths = firstRow ? [...firstRow.cells].map((cell) => cell.getBoundingClientRect().width) : [];
  const rowHeights = rows.map((row) => row.getBoundingClientRect().height);
  const cells: TableCell[][] = rows.map((row) =>
    [...row.cells].map((cell) => {
      const style = getComputedStyle(cell);
      const rowStyle = getComputedStyle(row);
      const align =
        style.textAlign === "center"
          ? "center"
          : style.textAlign === "right" || style.textAlign === "end"
            ? "right"
            : "left";
      const valign = style.verticalAlign === "middle" ? "middle" : style.verticalAlign === "bottom" ? "bottom" : "top";
      const borderWidth = px(style.borderBottomWidth);
      const borderColor = parseColor(style.borderBottomColor);
      return {
        runs: collectRuns(cell),
        fill: parseColor(style.backgroundColor) ?? parseColor(rowStyle.backgroundColor),
        align,
        valign,
        padding: [px(style.paddingTop), px(style.paddingRight), px(style.paddingBottom), px(style.paddingLeft)],
        borderBottom:
          borderWidth > 0 && borderColor && style.borderBottomStyle !== "none"
            ? { width: borderWidth, color: borderColor }
            : null,
      } satisfies TableCell;
    }),
  );
  return {
    kind: "table",
    rect: relative(table.getBoundingClientRect(), origin),
    columnWidths,
    rowHeights,
    rows: cells,
  };
}

function pushTextBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
  const runs = collectRuns(element);
  if (runs.every((run) => !run.text.trim())) return;
  const box = contentBox(element, style, origin);
  const range = document.createRange();
  range.selectNodeContents(element);
  const lineHeight = style.lineHeight === "normal" ? px(style.fontSize) * 1.2 : px(style.lineHeight);
  const textHeight = range.getBoundingClientRect().height;
  const align =
    style.textAlign === "center"
      ? "center"
      : style.textAlign === "right" || style.textAlign === "end"
        ? "right"
        : style.textAlign === "justify"
          ? "justify"
          : "left";
  items.push({ kind: "text", rect: box, runs, align, lineHeight, singleLine: textHeight < lineHeight * 1.5 });
}

function walk(element: Element, origin: DOMRect, items: SlideItem[], model: SlideModel) {
  const style = getComputedStyle(element);
  if (style.display === "none" || Number(style.opacity) === 0) return;
  const visible = style.visibility === "visible";
  const rect = relative(element.getBoundingClientRect(), origin);
  if ((rect.w < 0.5 || rect.h < 0.5) && style.overflow !== "visible") return;
  const tag = element.tagName.toLowerCase();

  if (visible && (tag === "svg" || tag === "img" || tag === "canvas" || tag === "video" || tag === "picture")) {
    markRaster(element, rect, false, items);
    return;
  }
  if (visible && tag === "table") {
    items.push(extractTable(element as HTMLTableElement, origin));
    return;
  }

  if (visible) {
    const fill = parseColor(style.backgroundColor);
    if (element.classList.contains("dh-slide")) {
      model.background = fill;
    } else {
      const effect =
        style.backgroundImage !== "none" ||
        style.filter !== "none" ||
        style.backdropFilter !== "none" ||
        style.mixBlendMode !== "normal" ||
        style.clipPath !== "none" ||
        style.maskImage !== "none" ||
        (style.transform !== "none" && !/^matrix\(1, 0, 0, 1,/.test(style.transform));
      if (effect && rect.w > 0 && rect.h > 0) {
        markRaster(element, rect, true, items);
      } else {
        const sides = ["Top", "Right", "Bottom", "Left"] as const;
        const widths = sides.map((side) =>
          style.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none"
            ? 0
            : px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
        );
        const colors = sides.map((side) => parseColor(style.getPropertyValue(`border-${side.toLowerCase()}-color`)));
        const uniform =
          widths.every((w) => w === widths[0]) &&
          colors.every((c) => c?.hex === colors[0]?.hex && c?.alpha === colors[0]?.alpha);
        const radius = px(style.borderTopLeftRadius);
        const ellipse = radius > 0 && radius >= Math.min(rect.w, rect.h) / 2 - 0.5 && Math.abs(rect.w - rect.h) < 1;
        const border =
          uniform && widths[0]! > 0 && colors[0]
            ? {
                width: widths[0]!,
                color: colors[0],
                dash:
                  style.borderTopStyle === "dashed"
                    ? ("dash" as const)
                    : style.borderTopStyle === "dotted"
                      ? ("dot" as const)
                      : ("solid" as const),
              }
            : null;
        if (fill || border) {
          items.push({
            kind: "shape",
            rect,
            fill,
            border,
            radius: Math.min(radius, rect.w / 2, rect.h / 2),
            ellipse,
            shadow: parseShadow(style.boxShadow),
          });
        }
        // Borders on some sides only (rules, accent bars) become thin filled rectangles.
        if (!uniform) {
          sides.forEach((side, index) => {
            const width = widths[index]!;
            const color = colors[index];
            if (width <= 0 || !color) return;
            const bar =
              side === "Top"
                ? { x: rect.x, y: rect.y, w: rect.w, h: width }
                : side === "Bottom"
                  ? { x: rect.x, y: rect.y + rect.h - width, w: rect.w, h: width }
                  : side === "Left"
                    ? { x: rect.x, y: rect.y, w: width, h: rect.h }
                    : { x: rect.x + rect.w - width, y: rect.y, w: width, h: rect.h };
            items.push({
              kind: "shape",
              rect: bar,
              fill: color,
              border: null,
              radius: 0,
              ellipse: false,
              shadow: null,
            });
          });
        }
      }
      if (isTextBlock(element)) {
        pushTextBox(element, style, origin, items);
        return;
      }
      // Text directly inside a block that also has block children: each run of text is its own box.
      if (hasOwnText(element)) {
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNode(node);
          const text = transformText(node.textContent.replace(/\s+/g, " ").trim(), style.textTransform);
          const lineHeight = style.lineHeight === "normal" ? px(style.fontSize) * 1.2 : px(style.lineHeight);
          items.push({
            kind: "text",
            rect: relative(range.getBoundingClientRect(), origin),
            runs: [{ text, ...runStyle(element) }],
            align: "left",
            lineHeight,
            singleLine: true,
          });
        }
      }
    }
  }
  for (const child of element.children) walk(child, origin, items, model);
}

const extract = () => {
  rasterCount = 0;
  const pages = [...document.querySelectorAll(".dh-export-page")];
  for (const page of pages) materializePseudoElements(page);
  return pages.map((page) => {
    const model: SlideModel = { background: null, items: [] };
    const origin = page.getBoundingClientRect();
    for (const child of page.children) walk(child, origin, model.items, model);
    model.background ??= parseColor(getComputedStyle(page).backgroundColor);
    return model;
  });
};

// Non-writable, so a deck that defined its own __deckhandExtract first makes this throw instead of
// silently answering for us.
Object.defineProperty(window, "__deckhandExtract", { value: extract, writable: false, configurable: false });
