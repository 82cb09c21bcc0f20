import { DOMParser, type Element } from "@xmldom/xmldom";
import { AppError } from "@/lib/core/errors";

// The package's XML parts, read with xmldom after refusing any DOCTYPE: entities (the "billion laughs",
// external entities) come only with one, so none is ever declared, let alone resolved. Elements are found by
// local name, whatever prefix the writer chose.

/** Elements one part may hold, and all the parts read together: the DOM of each costs a few hundred bytes. */
export const xmlLimits = { maxElementsPerPart: 500_000, maxElements: 3_000_000 };

/**
 * An upper bound of the elements in an XML text (its "<" characters), counted before it is parsed, so a part
 * of millions of tiny elements is refused at once instead of filling the heap.
 */
export function countTags(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x3c); at !== -1; at = bytes.indexOf(0x3c, at + 1)) count++;
  return count;
}

export function parseXml(bytes: Buffer, part: string): Element {
  let text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  // A part in UTF-16 (allowed by OPC, rare) starts with its byte order mark.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = bytes.subarray(2).toString("utf16le");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new AppError(
      "invalid_request",
      `The file is not a PowerPoint package we can read: its part ${part} declares a DOCTYPE, which is never accepted.`,
    );
  }
  let problem: string | null = null;
  let root: Element | null = null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") problem ??= String(message).split("\n")[0]!;
      },
    }).parseFromString(text, "application/xml");
    root = doc.documentElement;
  } catch (error) {
    problem ??= (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  }
  if (problem || !root) {
    throw new AppError(
      "invalid_request",
      `The file is not a PowerPoint package we can read: its part ${part} is not well-formed XML${problem ? ` (${problem})` : ""}.`,
    );
  }
  return root;
}

/** The element's local name ("" for none). */
export function nameOf(element: Element): string {
  return element.localName ?? "";
}

/** The element's child elements, of one local name when given. */
export function kids(element: Element | null | undefined, name?: string): Element[] {
  if (!element) return [];
  const out: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (name === undefined || (node as Element).localName === name)) out.push(node as Element);
  }
  return out;
}

/** The first child element of that local name. */
export function kid(element: Element | null | undefined, name: string): Element | null {
  return kids(element, name)[0] ?? null;
}

/** Follows a path of local names, first match at each step. */
export function path(element: Element | null | undefined, ...names: string[]): Element | null {
  let at: Element | null | undefined = element;
  for (const name of names) {
    at = kid(at, name);
    if (!at) return null;
  }
  return at ?? null;
}

/** Every descendant element of that local name, in document order. */
export function descendants(element: Element | null | undefined, name: string): Element[] {
  if (!element) return [];
  return Array.from(element.getElementsByTagNameNS("*", name));
}

/** An unprefixed attribute (relationship ids, which carry a prefix, are read with relAttr). */
export function attr(element: Element | null | undefined, name: string): string | null {
  return element?.hasAttribute(name) ? element.getAttribute(name) : null;
}

/** A relationship id attribute (r:embed, r:id, r:link…), whatever prefix maps to the relationships namespace. */
export function relAttr(element: Element | null | undefined, name: string): string | null {
  if (!element) return null;
  const value = element.getAttributeNS(REL_NS, name);
  return value || null;
}

const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
