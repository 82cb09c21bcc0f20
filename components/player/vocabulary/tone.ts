// Shared prop normalisers for the vocabulary components. Decks are written by people and models, so
// props arrive unchecked at runtime: every helper maps anything outside the vocabulary to the default
// instead of throwing, and the CSS only ever sees values it has a rule for. The lists of values are
// lib/contract/prop-values.ts's, the ones the brief documents.

import type { CSSProperties } from "react";

/** A style object that may carry custom properties, which React's CSSProperties does not declare. */
export type StyleWithVars = CSSProperties & Record<`--${string}`, string | number>;

/** `value` when it is one of `allowed`, otherwise `fallback`. Numbers given as strings ("3") count. */
export function oneOf<const T extends string | number>(value: unknown, allowed: readonly T[], fallback: T): T {
  return optionalOneOf(value, allowed) ?? fallback;
}

/**
 * Like `oneOf` but without a default, for props whose absence means "inherit from the context" (text
 * alignment inherits from a centred slide or Box unless the prop is given).
 */
export function optionalOneOf<const T extends string | number>(value: unknown, allowed: readonly T[]): T | undefined {
  for (const candidate of allowed) {
    if (candidate === value) return candidate;
    if (typeof value === "string" && typeof candidate === "number" && Number(value) === candidate) return candidate;
  }
  return undefined;
}

/** Strings and numbers become text; anything else (objects, functions) is dropped rather than crashing React. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

const currencySymbols = new Set([
  "$",
  "€",
  "£",
  "¥",
  "₹",
  "₩",
  "₽",
  "₺",
  "₫",
  "₪",
  "¢",
  "฿",
  "₦",
  "₱",
  "R$",
  "US$",
  "A$",
  "C$",
]);
// Units that read as part of the number ("12%", "3x", "40k"), so no space goes between.
const tightUnits = new Set(["%", "‰", "°", "x", "×", "k", "K", "M", "B", "bn", "pp"]);

const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * A number as a deck shows it with its unit: "12%" for "%", "$12" for a currency symbol, "12 k users"
 * for a word. A unit that starts with a space (" min") is used exactly as written.
 */
export function formatValue(value: number, unit?: unknown, options?: { compact?: boolean; axis?: boolean }): string {
  const magnitude = Math.abs(value);
  const digits =
    options?.compact && magnitude >= 10_000 ? compactFormat.format(magnitude) : numberFormat.format(magnitude);
  // U+2212: a hyphen is narrower than a digit and sits too low next to lining figures.
  const sign = value < 0 && digits !== "0" ? "\u2212" : "";
  const text = typeof unit === "string" ? unit : "";
  const trimmed = text.trim();
  if (trimmed === "") return `${sign}${digits}`;
  // Axis ticks repeat a word unit on every line; the value labels already carry it.
  if (options?.axis && !currencySymbols.has(trimmed) && !tightUnits.has(trimmed)) return `${sign}${digits}`;
  if (currencySymbols.has(trimmed)) return `${sign}${trimmed}${digits}`;
  if (/^\s/.test(text) || tightUnits.has(trimmed)) return `${sign}${digits}${text.trimEnd()}`;
  return `${sign}${digits} ${trimmed}`;
}

/** A figure typed by a person ("-54%") with a typographic minus, which lines up with the digits. */
export function typographicMinus(text: string): string {
  return text.replace(/(^|[\s(])-(?=[\d$€£¥.])/g, "$1\u2212");
}
