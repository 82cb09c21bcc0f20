// What the PPTX export makes of a <Table>: a native table with its cells' runs, fills and alignment.

import { type SlideItem, type TableCell } from "@/lib/contract/slide-model";
import { parseColor } from "@/components/player/export/color";
import { px, relative, size } from "@/components/player/export/extract-box";
import { collectRuns, textDirection } from "@/components/player/export/extract-text";

export function extractTable(table: HTMLTableElement, origin: DOMRect): SlideItem {
  const rows = [...table.rows];
  // PowerPoint's columns run from the left; a right-to-left table's first cell is its rightmost.
  const inOrder = <T>(cells: T[]) => (getComputedStyle(table).direction === "rtl" ? cells.reverse() : cells);
  const firstRow = rows[0];
  const columnWidths = firstRow
    ? inOrder([...firstRow.cells]).map((cell) => size(cell.getBoundingClientRect().width))
    : [];
  const rowHeights = rows.map((row) => size(row.getBoundingClientRect().height));
  const cells: TableCell[][] = rows.map((row) =>
    inOrder([...row.cells]).map((cell) => {
      const style = getComputedStyle(cell);
      const rowStyle = getComputedStyle(row);
      const direction = textDirection(style);
      const align = direction.align === "justify" ? (direction.rtl ? "right" : "left") : direction.align;
      const valign = style.verticalAlign === "middle" ? "middle" : style.verticalAlign === "bottom" ? "bottom" : "top";
      const borderWidth = px(style.borderBottomWidth);
      const borderColor = parseColor(style.borderBottomColor);
      return {
        runs: collectRuns(cell),
        fill: parseColor(style.backgroundColor) ?? parseColor(rowStyle.backgroundColor),
        align,
        ...(direction.rtl ? { rtl: true } : {}),
        valign,
        padding: [
          size(px(style.paddingTop)),
          size(px(style.paddingRight)),
          size(px(style.paddingBottom)),
          size(px(style.paddingLeft)),
        ],
        borderBottom:
          borderWidth > 0 && borderColor && style.borderBottomStyle !== "none"
            ? { width: size(borderWidth), color: borderColor }
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
