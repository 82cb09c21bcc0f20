// Table: a header row and body rows; numeric cells align right, one body row may be highlighted. Cells
// are text, or inline markup (bold, links, formulas) from an import.

import { isValidElement, type ReactNode } from "react";
import { textOf, typographicMinus } from "@/components/player/vocabulary/tone";

type Cell = string | number | ReactNode;

type TableProps = {
  columns: Cell[];
  rows: Cell[][];
  highlight?: number;
  striped?: boolean;
};

// "42%", "$1.2M", "-3", "1,204", "2.5x": right-aligned like numbers so their digits line up.
const numericCell = /^[-+−]?\s*(?:[$€£¥₹]|US\$)?\s*\d[\d,.\s]*(?:%|x|×|k|m|bn|b|pp|[a-z]{0,3})?$/i;

// A cell's content: its text, or JSX for inline markup (<strong>, <code>, <Link>); anything else is empty.
function cellOf(cell: unknown): string | ReactNode {
  return isValidElement(cell) ? cell : (textOf(cell) ?? "");
}

export function Table({ columns, rows, highlight, striped }: TableProps) {
  const header = Array.isArray(columns) ? columns.map(cellOf) : [];
  const body = Array.isArray(rows)
    ? (rows as unknown[]).filter((row): row is unknown[] => Array.isArray(row)).map((row) => row.map(cellOf))
    : [];
  // Ragged rows are padded (or the header widened) so every row has the same cells.
  const width = Math.max(header.length, ...body.map((row) => row.length));
  if (width === 0) return null;
  const pad = (row: ReactNode[]) => Array.from({ length: width }, (_, index) => row[index] ?? "");
  const numeric = Array.from({ length: width }, (_, column) => {
    const cells = body.map((row) => row[column] ?? "").filter((cell) => typeof cell !== "string" || cell.trim() !== "");
    return (
      column > 0 && cells.length > 0 && cells.every((cell) => typeof cell === "string" && numericCell.test(cell.trim()))
    );
  });
  const highlighted = typeof highlight === "number" && Number.isInteger(highlight) ? highlight : -1;

  return (
    <table className="dh-table" data-striped={striped === false ? undefined : ""}>
      {header.length > 0 ? (
        <thead>
          <tr className="dh-table-head">
            {pad(header).map((cell, index) => (
              <th
                className="dh-table-cell"
                dir="auto"
                key={index}
                scope="col"
                data-numeric={numeric[index] ? "" : undefined}
              >
                {cell}
              </th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {body.map((row, rowIndex) => (
          <tr className="dh-table-row" key={rowIndex} data-highlight={rowIndex === highlighted ? "" : undefined}>
            {pad(row).map((cell, index) => (
              <td className="dh-table-cell" dir="auto" key={index} data-numeric={numeric[index] ? "" : undefined}>
                {numeric[index] && typeof cell === "string" ? typographicMinus(cell) : cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
