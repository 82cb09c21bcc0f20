// What the PPTX export makes of a <Formula> (used by components/player/export/extract-slides.ts): a
// display formula is a picture (the renderer's screenshot of it) whose alt text is its TeX; a formula in a
// sentence is written into the sentence's text as plain Unicode read from KaTeX's MathML (x², xᵢ, a/b,
// √x, ∑ᵢ₌₁ⁿ), since a PowerPoint text run cannot hold a picture.

const superscripts: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "+": "⁺",
  "-": "⁻",
  "−": "⁻",
  "=": "⁼",
  "(": "⁽",
  ")": "⁾",
  n: "ⁿ",
  i: "ⁱ",
  T: "ᵀ",
  "′": "′",
};
const subscripts: Record<string, string> = {
  "0": "₀",
  "1": "₁",
  "2": "₂",
  "3": "₃",
  "4": "₄",
  "5": "₅",
  "6": "₆",
  "7": "₇",
  "8": "₈",
  "9": "₉",
  "+": "₊",
  "-": "₋",
  "−": "₋",
  "=": "₌",
  "(": "₍",
  ")": "₎",
  a: "ₐ",
  e: "ₑ",
  i: "ᵢ",
  j: "ⱼ",
  k: "ₖ",
  n: "ₙ",
  o: "ₒ",
  r: "ᵣ",
  t: "ₜ",
  x: "ₓ",
};
// Accents KaTeX writes as <mover accent="true">, as combining marks on the base.
const accents: Record<string, string> = {
  "^": "\u0302",
  ˆ: "\u0302",
  "~": "\u0303",
  "˜": "\u0303",
  ˉ: "\u0304",
  "¯": "\u0304",
  "→": "\u20D7",
  "˙": "\u0307",
  "¨": "\u0308",
};

function script(text: string, table: Record<string, string>, mark: string): string {
  const chars = [...text];
  if (chars.length > 0 && chars.every((char) => table[char] !== undefined))
    return chars.map((char) => table[char]).join("");
  return chars.length === 1 ? `${mark}${text}` : `${mark}(${text})`;
}

/** A part of a fraction or a root, in brackets when it is more than one symbol. */
function group(text: string): string {
  return [...text].length > 1 && !/^[\p{L}\p{N}.]+$/u.test(text) ? `(${text})` : text;
}

function linear(node: Element | undefined): string {
  if (!node) return "";
  const parts = [...node.children].filter((child) => !child.localName.startsWith("annotation"));
  const [a, b, c] = parts;
  switch (node.localName) {
    case "mi":
    case "mn":
    case "mo":
    case "mtext":
    case "ms":
      return node.textContent ?? "";
    case "mspace":
      return " ";
    case "msup":
      return linear(a) + script(linear(b), superscripts, "^");
    case "msub":
      return linear(a) + script(linear(b), subscripts, "_");
    case "msubsup":
      return linear(a) + script(linear(b), subscripts, "_") + script(linear(c), superscripts, "^");
    case "mfrac":
      return `${group(linear(a))}/${group(linear(b))}`;
    case "msqrt":
      return `√${group(parts.map(linear).join(""))}`;
    case "mroot":
      return `${script(linear(b), superscripts, "^")}√${group(linear(a))}`;
    case "mover": {
      const mark = accents[linear(b).trim()];
      if (node.getAttribute("accent") === "true" && mark) return `${linear(a)}${mark}`;
      return linear(a) + script(linear(b), superscripts, "^");
    }
    case "munder":
      return linear(a) + script(linear(b), subscripts, "_");
    case "munderover":
      return linear(a) + script(linear(b), subscripts, "_") + script(linear(c), superscripts, "^");
    default:
      return parts.map(linear).join("");
  }
}

/** Whether the element is a drawn <Formula> (the extractor's own marks aside). */
export function isFormula(element: Element): boolean {
  return element.classList.contains("dh-formula");
}

/** A display formula: placed as a picture of its own. */
export function isDisplayFormula(element: Element): boolean {
  return isFormula(element) && element.hasAttribute("data-display");
}

/** A formula as the text of a run: its MathML read as Unicode, or its TeX when it was not drawn. */
export function formulaText(element: Element): string {
  const math = element.querySelector(".katex-mathml math");
  const text = math ? linear(math).replace(/\s+/g, " ").trim() : "";
  return text || (element.getAttribute("data-tex") ?? element.textContent ?? "").trim();
}

/** The alt text of a formula's picture. */
export function formulaLabel(element: Element): string | null {
  if (!isFormula(element)) return null;
  const tex = element.getAttribute("data-tex")?.trim();
  return tex ? `Formula: ${tex}` : "Formula";
}
