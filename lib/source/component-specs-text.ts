// The type components of the vocabulary (lib/source/component-specs.ts): titles, headings, text, lists, quotes,
// code, links and formulas.

import { bulletMarkers, headingLevels, quoteSizes, sizes, textTones, textWeights } from "@/lib/contract/prop-values";
import type { ComponentSpec } from "./component-specs";
import { choice, alignProp } from "./component-specs-shared";

export const textComponents: readonly ComponentSpec[] = [
  {
    name: "Title",
    group: "type",
    doc: "The largest type: the one headline of a cover, section break or statement slide.",
    props: [
      { name: "kicker", type: "string", doc: "Small uppercase line above the title (section, date, event)." },
      { name: "subtitle", type: "string", doc: "One supporting line below the title, in body type." },
      alignProp,
    ],
    children: "The title text (keep it under ~8 words).",
  },
  {
    name: "Heading",
    group: "type",
    doc: "Slide or section heading; level 1 for the slide's headline, 2-3 for sub-parts.",
    props: [
      { name: "level", ...choice(headingLevels), doc: "1 (default) is the slide headline; 2 and 3 are smaller." },
      { name: "kicker", type: "string", doc: "Small uppercase line above the heading." },
      alignProp,
    ],
    children: 'The heading text; write it as the takeaway ("Churn halved in Q3"), not a topic ("Churn").',
  },
  {
    name: "Text",
    group: "type",
    doc: "A paragraph of body text.",
    props: [
      {
        name: "size",
        ...choice(sizes),
        doc: '"lg" for a lead sentence, "sm" for captions and sources. Default "md".',
      },
      {
        name: "tone",
        ...choice(textTones),
        doc: 'Colour from the theme; "default" is the surrounding text colour (the on-colour inside strong fills). Default "default".',
      },
      { name: "weight", ...choice(textWeights), doc: 'Default "regular".' },
      alignProp,
    ],
    children:
      'Text; inline it may hold <strong>, <em>, <u>, <code> (code words), <s> (struck through), <br />, <Link>, an inline <Formula>, and <span style={{ color: "#c00000" }}> for a word in a colour of its own (inside a Frame also fontSize in em).',
  },
  {
    name: "Bullets",
    group: "type",
    doc: "A list of short points; three to five items read best.",
    props: [
      {
        name: "items",
        type: "(string | string[])[]",
        doc: 'The points, one string each. Use this or children, not both. An array among them is the sub-points of the point before it (nested again for a third level): items={["Plan", ["Measure", "Cut"], "Ship"]}.',
      },
      {
        name: "marker",
        ...choice(bulletMarkers),
        doc: 'Bullet marker; "number" for sequences and steps. Default "dot".',
      },
      { name: "size", ...choice(sizes), doc: 'Text size. Default "md".' },
      { name: "start", type: "number", doc: 'With marker="number": the first point\'s number. Default 1.' },
    ],
    children:
      "Alternatively to `items`: one <Text> (or string) per point; use <Text> children when points carry inline markup (<strong>, <code>, <Link>…). A <Bullets> among them is the sub-list of the point before it.",
  },
  {
    name: "Quote",
    group: "type",
    doc: "A pull quote with attribution, set large.",
    props: [
      { name: "by", type: "string", doc: "Who said it." },
      { name: "role", type: "string", doc: "Their role or organisation, shown after the name." },
      { name: "size", ...choice(quoteSizes), doc: 'Default "lg"; use "md" for quotes longer than ~25 words.' },
      alignProp,
    ],
    children: "The quoted words, without quotation marks (the player adds them).",
  },
  {
    name: "Code",
    group: "type",
    doc: "A monospaced code block with syntax highlighting.",
    props: [
      {
        name: "code",
        type: "string",
        required: true,
        doc: "The code; pass a template literal (code={`...`}) since braces are not valid JSX text.",
      },
      { name: "language", type: "string", doc: 'Highlighting language, e.g. "ts", "python", "bash", "json".' },
      { name: "highlight", type: "number[]", doc: "1-based line numbers to emphasise." },
      { name: "size", ...choice(sizes), doc: 'Type size; keep ≤ 15 lines at "md". Default "md".' },
    ],
  },
  {
    name: "Link",
    group: "type",
    doc: "A link inside text (Text, a bullet, a table cell, a heading): underlined in the primary colour, clickable in the PDF and PPTX exports.",
    props: [
      {
        name: "href",
        type: "string",
        required: true,
        doc: "An absolute https://, http:// or mailto: address; anything else shows the words without a link.",
      },
    ],
    children: "The linked words (default: the address).",
    example: '<Text>Read <Link href="https://example.com/guide">the guide</Link> first.</Text>',
  },
  {
    name: "Formula",
    group: "type",
    doc: "Mathematics written in TeX, typeset (KaTeX) with MathML for screen readers: inline in a sentence, or on its own line with `display`. In the PPTX a display formula is a picture with its TeX as alt text; an inline one is text.",
    props: [
      {
        name: "tex",
        type: "string",
        required: true,
        doc: 'The TeX, without dollar signs, as a string expression that keeps its backslashes: tex={String.raw`\\frac{a}{b}`} or tex={"\\\\frac{a}{b}"}.',
      },
      {
        name: "display",
        type: "boolean",
        doc: "Set on its own line, centred and larger (like $$…$$). Default false: inline.",
      },
    ],
    example: "<Formula display tex={String.raw`E = mc^2`} />",
  },
];
