// Strings on their way into OOXML parts. A PPTX part that is not well-formed XML 1.0 is a file PowerPoint
// refuses to open (or "repairs" by dropping slides), so every string a deck controls goes through here:
// characters XML 1.0 cannot hold are dropped (control characters other than tab, newline and carriage
// return; lone surrogates; U+FFFE and U+FFFF), and markup characters are escaped.

// Not in XML 1.0's Char production. With the u flag a lone surrogate is one code point in D800-DFFF
// and matches; a proper pair is one astral code point and does not.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The string without the characters XML 1.0 cannot hold, for text a library escapes itself. */
export function xmlChars(value: string): string {
  return value.replace(notXmlChar, "");
}

const references: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  // Kept as references so that an attribute value keeps them (parsers turn literal ones into spaces).
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * The one escaping function for XML written by hand: safe as element text and as a single- or double-quoted
 * attribute value.
 */
export function escapeXml(value: string): string {
  return xmlChars(value).replace(/[&<>"'\t\n\r]/g, (character) => references[character]!);
}
