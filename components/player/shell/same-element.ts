// Whether two React elements draw the same: the same component types and keys, and props equal value by
// value (strings, numbers, arrays, plain objects and nested elements; functions and other objects only when
// they are the same one). The player uses it to keep the slides a newer module left as they were
// (structure.tsx: the editor's in-place update), so what it calls the same must draw the same DOM: the
// vocabulary's components are functions of their props and the player's state.

import { isValidElement } from "react";

/** Deeper than this the values are taken as different (drawn anew, never wrongly kept). */
const MAX_DEPTH = 100;

export function sameElement(a: unknown, b: unknown): boolean {
  return same(a, b, 0);
}

function same(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (depth > MAX_DEPTH || typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (isValidElement(a) || isValidElement(b)) {
    return (
      isValidElement(a) &&
      isValidElement(b) &&
      a.type === b.type &&
      a.key === b.key &&
      same(a.props, b.props, depth + 1)
    );
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, index) => same(value, b[index], depth + 1));
  }
  if (!plain(a) || !plain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1),
  );
}

function plain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
