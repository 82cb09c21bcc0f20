// The deck component vocabulary: the one description of what `@deckhand/player` exports to a deck module.
// The compiler's import allow-list, the authoring brief and the AI prompts are derived from this file, so
// a component or prop that is not described here does not exist. Prop types are TypeScript text because
// their readers are people and models, not tsc; a prop that takes one of a list has its text written from
// the list in lib/contract/vocabulary.ts, the same one the player normalises the prop with.

import {
  aligns,
  beatHeights,
  boxPaddings,
  boxTones,
  bulletMarkers,
  chartTypes,
  columnAligns,
  flowDirections,
  frameShapes,
  frameVerticalAligns,
  gaps,
  gridColumns,
  headingLevels,
  iconSizes,
  imageFits,
  imageFocuses,
  imageSides,
  logoPlacements,
  logoTones,
  quoteSizes,
  sectionBackgrounds,
  sectionLayouts,
  sizes,
  stackAligns,
  stackJustifies,
  statTones,
  textTones,
  textWeights,
} from "@/lib/contract/vocabulary";

export type PropSpec = {
  name: string;
  /** TypeScript type as text, e.g. '"left" | "center"'. */
  type: string;
  /** The values the player accepts, when the prop takes one of a list; `type` is written from them. */
  values?: readonly (string | number)[];
  required?: boolean;
  doc: string;
};

export type ComponentSpec = {
  /** One of the contract's `componentNames` (tests/unit/player-contract.test.ts holds them together). */
  name: string;
  group: "structure" | "layout" | "type" | "media" | "data";
  /** One line. */
  doc: string;
  props: PropSpec[];
  /** What children it takes; absent when it takes none. */
  children?: string;
  /** A short JSX example, shown in the brief, for components whose data props need one. */
  example?: string;
};

export type TokenSpec = {
  /** Custom property name, e.g. "--color-primary". */
  name: string;
  doc: string;
  default: string;
};

/** A prop that takes one of a list: its type text is the list's values as TypeScript literals. */
function choice(values: readonly (string | number)[]): Pick<PropSpec, "type" | "values"> {
  return { type: values.map((value) => JSON.stringify(value)).join(" | "), values };
}

// Shared props: the same word means the same thing on every component, so a model that learned `tone`
// on Box can use it on Text without looking it up again.
// Without align, text is aligned to its own start: each text element takes its direction from its first
// letters (dir="auto"), so English starts on the left and Arabic or Hebrew on the right. An explicit
// "left" or "right" is physical: it stays as written in any script.
const alignProp: PropSpec = {
  name: "align",
  ...choice(aligns),
  doc: 'Horizontal text alignment. Default: where the text starts, left for English, right for Arabic or Hebrew. "left" and "right" are physical in any script.',
};
const gapProp: PropSpec = {
  name: "gap",
  ...choice(gaps),
  doc: 'Space between children, in multiples of --space. Default "md".',
};

export const vocabulary: readonly ComponentSpec[] = [
  // structure
  {
    name: "Deck",
    group: "structure",
    doc: "Root of every deck; the module's default export returns exactly one <Deck>.",
    props: [
      { name: "title", type: "string", doc: "Document title shown in the browser tab and export file metadata." },
    ],
    children: '<Slide> elements (format "slides") or <Beat> elements (format "webpage"), in order.',
  },
  {
    name: "Slide",
    group: "structure",
    doc: "One 1920x1080 slide; content is padded, a leading Heading sits at the top and the rest is balanced in the space below it, unless `layout` says otherwise.",
    props: [
      {
        name: "label",
        type: "string",
        doc: 'Short name of the slide (2-6 words) as a string literal; becomes its outline entry. Without it the outline says "Slide N".',
      },
      {
        name: "notes",
        type: "string",
        doc: "Speaker notes: what the presenter says. Shown in presenter view and exported as PPTX notes, never on the slide.",
      },
      {
        name: "layout",
        ...choice(sectionLayouts),
        doc: '"content" (default): padded; a leading Heading (or Title) stays at the top and everything after it is centred vertically in the height left under it, while a Chart, Image or Diagram (or a Columns, Grid, Stack or Box holding one) grows to fill that height. "center": everything centred on both axes, for covers, section breaks and big statements. "full-bleed": images, charts and diagrams run edge to edge (no padding); text on the slide keeps the usual padding from the edge.',
      },
      {
        name: "background",
        ...choice(sectionBackgrounds),
        doc: 'Slide colour from the theme. "primary" and "accent" switch text to the matching on-colour; "invert" swaps the theme\'s text and background colours (a dark slide in a light theme). Default "default" (--color-bg).',
      },
      {
        name: "image",
        type: "string",
        doc: "Background image URL (https, an uploaded asset's URL, or data:), covering the canvas under a scrim that keeps text legible (or beside the content with `imageSide`). An https URL written as a plain string is copied when the version is saved.",
      },
      {
        name: "imageSide",
        ...choice(imageSides),
        doc: "Put `image` beside the content instead of behind it: edge to edge on that side over the slide's full height, no scrim, the content laid out in the rest (a split slide).",
      },
      {
        name: "imageWidth",
        type: "number",
        doc: "With `imageSide`: the image's share of the slide's width in percent, 20-80. Default 50.",
      },
      {
        name: "imageFit",
        ...choice(imageFits),
        doc: 'How `image` takes its place, behind or beside: "cover" (default) fills and crops, "contain" shows it whole.',
      },
      {
        name: "imageAlt",
        type: "string",
        doc: "With `imageSide`: what the image shows, for screen readers and exports.",
      },
      {
        name: "backgroundColor",
        type: "string",
        doc: 'A colour of the slide\'s own instead of the theme\'s ("#0b3d2e", "rgb(…)", a CSS name), for decks that set one per slide; prefer `background`.',
      },
      {
        name: "color",
        type: "string",
        doc: "The slide's text colour, with `backgroundColor`; muted text, kickers and accents follow it. Keep 4.5:1 contrast with the background.",
      },
      { name: "paginate", type: "boolean", doc: "Show the slide's number in the bottom-right corner. Default false." },
    ],
    children: "Any layout, type, media and data components.",
  },
  {
    name: "Beat",
    group: "structure",
    doc: "One section of a scrolling webpage deck; beats stack vertically and span the page width.",
    props: [
      {
        name: "label",
        type: "string",
        doc: 'Short name of the section as a string literal; becomes its outline entry. Without it the outline says "Beat N".',
      },
      {
        name: "layout",
        ...choice(sectionLayouts),
        doc: 'Same meaning as on <Slide>. Default "content".',
      },
      {
        name: "height",
        ...choice(beatHeights),
        doc: '"screen" makes the beat at least one viewport tall (hero sections); "auto" (default) fits its content.',
      },
      { name: "background", ...choice(sectionBackgrounds), doc: 'Section colour from the theme. Default "default".' },
      { name: "image", type: "string", doc: "Background image URL, covering the section under a legibility scrim." },
    ],
    children: "Any layout, type, media and data components.",
  },

  // layout
  {
    name: "Columns",
    group: "layout",
    doc: "Side-by-side columns, one per child; the workhorse for text-plus-visual slides.",
    props: [
      {
        name: "ratio",
        type: "string",
        doc: 'Relative column widths separated by ":", one number per child, e.g. "1:1", "2:1", "1:1:1". Default: equal.',
      },
      gapProp,
      {
        name: "align",
        ...choice(columnAligns),
        doc: 'Vertical alignment of the columns. Default "stretch": every column is as tall as the tallest, so Boxes side by side come out even; "start", "center" and "end" keep each column at its own height.',
      },
    ],
    children: "One child per column; wrap several elements of one column in a <Stack>.",
  },
  {
    name: "Stack",
    group: "layout",
    doc: "Vertical stack with even spacing; groups elements that belong together.",
    props: [
      gapProp,
      {
        name: "align",
        ...choice(stackAligns),
        doc: 'Horizontal alignment of children. Default "start": the left, or the right on an Arabic or Hebrew slide.',
      },
      {
        name: "justify",
        ...choice(stackJustifies),
        doc: 'Vertical distribution when the stack is taller than its content. Default "start".',
      },
    ],
    children: "Any elements, top to bottom.",
  },
  {
    name: "Grid",
    group: "layout",
    doc: "Equal-width grid that wraps its children into rows; for 3-6 parallel items (features, stats, logos).",
    props: [{ name: "columns", ...choice(gridColumns), doc: "Cells per row. Default 3." }, gapProp],
    children: "One child per cell, usually <Box> or <Stat>.",
  },
  {
    name: "Box",
    group: "layout",
    doc: "Padded, rounded panel that sets content apart: cards, callouts, highlighted takeaways.",
    props: [
      {
        name: "tone",
        ...choice(boxTones),
        doc: '"surface" (default): quiet tinted card. "primary"/"accent": strong fill with on-colour text; use once per slide at most. "outline": border only.',
      },
      { name: "padding", ...choice(boxPaddings), doc: 'Inner space. Default "md".' },
      alignProp,
    ],
    children: "Any elements, stacked vertically with a small gap.",
  },

  // type
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

  // media
  {
    name: "Image",
    group: "media",
    doc: "A picture that fills the space its container gives it (on a content slide, the height left under the heading).",
    props: [
      {
        name: "src",
        type: "string",
        required: true,
        doc: "Image URL: https (written as a plain string, it is copied when the version is saved; a URL that is not an image refuses the save), an uploaded asset's URL (upload_asset), or data:.",
      },
      { name: "alt", type: "string", required: true, doc: "What the image shows, for screen readers and exports." },
      {
        name: "fit",
        ...choice(imageFits),
        doc: '"cover" (default) fills and crops; "contain" shows the whole image (logos, diagrams, screenshots).',
      },
      {
        name: "focus",
        ...choice(imageFocuses),
        doc: 'Which part stays visible when "cover" crops. Default "center".',
      },
      { name: "caption", type: "string", doc: "Short caption below the image." },
      { name: "rounded", type: "boolean", doc: "Round the corners with --radius. Default false." },
      {
        name: "width",
        type: "number",
        doc: 'The most it may be wide, in canvas pixels (of 1920): drawn whole ("contain" unless `fit` says otherwise) at up to that size instead of filling its container.',
      },
      { name: "height", type: "number", doc: "The most it may be tall, in canvas pixels (of 1080), like `width`." },
    ],
  },
  {
    name: "Icon",
    group: "media",
    doc: "A line icon from the player's built-in set, coloured from the theme.",
    props: [
      {
        name: "name",
        type: "string",
        required: true,
        doc: "One of the built-in icon names (`iconNames`, listed in the authoring brief).",
      },
      { name: "size", ...choice(iconSizes), doc: 'Default "md" (about the height of body text ×2).' },
      { name: "tone", ...choice(textTones), doc: 'Default "primary".' },
    ],
  },
  {
    name: "Logo",
    group: "media",
    doc: "The deck's brand logo, from the brand the deck uses; it draws nothing (and takes no space) when the deck has no brand or its brand has no logo, so it is safe in any deck.",
    props: [
      {
        name: "size",
        ...choice(sizes),
        doc: 'Height of the logo; its width follows its shape. "sm" for a corner, "md" (default inline) beside content, "lg" on a cover. Default "md", "sm" in a corner.',
      },
      {
        name: "placement",
        ...choice(logoPlacements),
        doc: '"inline" (default): where it is written, like any element. "top-left", "top-right", "bottom-left", "bottom-right": pinned in that corner of the slide, in its padding, taking no space from the content; the same corner on every slide makes a quiet signature. Keep corner logos "sm".',
      },
      {
        name: "tone",
        ...choice(logoTones),
        doc: '"auto" (default): the logo as designed; on a primary or accent fill it sits on a small plate of the page colour so it stays visible. "original": as designed, never on a plate. "mono": in one colour, the surrounding text colour (white on a primary slide), for logos with a transparent background.',
      },
      { name: "alt", type: "string", doc: "Text for screen readers and exports. Default: the brand's name." },
    ],
    example: '<Logo placement="top-right" />',
  },

  // data
  {
    name: "Stat",
    group: "data",
    doc: "One big number with what it measures; put 2-4 in a <Grid> or <Columns>.",
    props: [
      { name: "value", type: "string", required: true, doc: 'The figure as displayed, e.g. "42%", "$1.2M", "3x".' },
      { name: "label", type: "string", required: true, doc: "What the number measures, a few words." },
      { name: "detail", type: "string", doc: "Optional context line: period, source or comparison." },
      {
        name: "tone",
        ...choice(statTones),
        doc: 'Colour of the value; use "default" inside a primary or accent Box. Default "primary".',
      },
      alignProp,
    ],
  },
  {
    name: "Table",
    group: "data",
    doc: "A simple table with a header row; keep it to about 6 rows and 5 columns.",
    props: [
      {
        name: "columns",
        type: "(string | JSX.Element)[]",
        required: true,
        doc: "Header cells (JSX for inline markup, as in rows).",
      },
      {
        name: "rows",
        type: "(string | number | JSX.Element)[][]",
        required: true,
        doc: "Body rows, each with one cell per column. A cell may be JSX for inline markup: <><strong>p90</strong> build</>, <code>…</code>, <Link>.",
      },
      { name: "highlight", type: "number", doc: "0-based index of a body row to emphasise with the accent colour." },
      { name: "striped", type: "boolean", doc: "Alternate row shading. Default true." },
    ],
  },
  {
    name: "Chart",
    group: "data",
    doc: "A bar, line or pie chart drawn from inline data: one series (`data`), or several (`labels` + `series`) as grouped or stacked bars or several lines with a legend; it grows to the height its container gives it.",
    props: [
      {
        name: "type",
        ...choice(chartTypes),
        required: true,
        doc: "Bar for comparisons, line for trends over time, pie for parts of a whole (≤ 5 slices).",
      },
      {
        name: "data",
        type: "{ label: string; value: number }[]",
        doc: "One series: points in display order (time order for line charts). Give this or `series`.",
      },
      {
        name: "labels",
        type: "string[]",
        doc: "With `series`: the categories along the axis (time order for line charts), shared by every series.",
      },
      {
        name: "series",
        type: "{ name: string; values: number[] }[]",
        doc: "Several series (2-4 read best), each with one value per label; the names form the legend. Bars are grouped side by side, lines share the axes. A pie draws only the first series. Takes precedence over `data`.",
      },
      {
        name: "stacked",
        type: "boolean",
        doc: "With `series` on a bar chart: stack the series in one bar per label, labelled with its total. Default false (grouped).",
      },
      { name: "unit", type: "string", doc: 'Suffix or prefix shown with values, e.g. "%", "$", "k users".' },
      {
        name: "highlight",
        type: "string",
        doc: "Single series only: label of the point to draw in the accent colour; the rest use primary.",
      },
      { name: "showValues", type: "boolean", doc: "Print each value on its bar, point or slice. Default true." },
      { name: "title", type: "string", doc: "Small caption above the chart." },
    ],
    example:
      '<Chart type="bar" labels={["Q1", "Q2", "Q3"]} series={[{ name: "EMEA", values: [12, 15, 19] }, { name: "Americas", values: [20, 22, 27] }]} stacked />',
  },
  {
    name: "Timeline",
    group: "data",
    doc: "Dated milestones on a line with a marker each: roadmaps, history, launch plans; 3-6 milestones read best.",
    props: [
      {
        name: "items",
        type: "{ date: string; title: string; detail?: string }[]",
        required: true,
        doc: "The milestones in time order: the date as displayed, a title of a few words, an optional short detail line.",
      },
      {
        name: "direction",
        ...choice(flowDirections),
        doc: '"horizontal" (default): left to right across the slide, dates above the line. "vertical": top to bottom, for more milestones, longer details or a narrow column.',
      },
      {
        name: "highlight",
        type: "number",
        doc: "0-based index of the current milestone, drawn in the accent colour; the ones before it are drawn as done, the ones after as still to come. Default: none.",
      },
    ],
    example:
      '<Timeline highlight={1} items={[{ date: "Q1 2025", title: "Pilot", detail: "Two teams" }, { date: "Q2 2025", title: "Beta" }, { date: "Q3 2025", title: "Launch" }]} />',
  },
  {
    name: "Steps",
    group: "data",
    doc: "A numbered process: a number badge per step, joined by a line, with a title and an optional detail; 3-5 steps read best.",
    props: [
      {
        name: "items",
        type: "{ title: string; detail?: string }[]",
        required: true,
        doc: "The steps in order (a plain string is a title alone); the player numbers them.",
      },
      {
        name: "direction",
        ...choice(flowDirections),
        doc: '"horizontal" (default): side by side across the slide. "vertical": top to bottom, for longer details or a narrow column.',
      },
    ],
    example:
      '<Steps items={[{ title: "Connect", detail: "Link your data source" }, { title: "Review" }, { title: "Publish" }]} />',
  },
  {
    name: "Diagram",
    group: "data",
    doc: "A diagram drawn from Mermaid syntax (flowchart, sequence, state, class, ER, mindmap, gantt…), coloured and set in the theme's tokens; it grows to the space its container gives it, keeping its shape. Flowcharts of up to about 10 nodes read best on a slide.",
    props: [
      {
        name: "code",
        type: "string",
        doc: "The Mermaid source, e.g. code={`flowchart LR; A --> B`}. Or give it as the children.",
      },
      { name: "title", type: "string", doc: "Small caption above the diagram." },
      {
        name: "alt",
        type: "string",
        doc: "What the diagram shows, for screen readers and exports. Default: the title, else the source's first line.",
      },
    ],
    children:
      "Alternatively to `code`: the Mermaid source as one template literal, {`flowchart LR ...`} (braces and arrows are not valid JSX text). A source that does not parse shows Mermaid's message on the slide instead of the diagram.",
    example:
      '<Diagram title="How a team activates">{`flowchart LR; A[Sign up] --> B[First deck] --> C{Shared?}; C -- yes --> D[Team plan]; C -- no --> E[Reminder]`}</Diagram>',
  },
  {
    name: "Frame",
    group: "layout",
    doc: "A box at a position and size of its own on the 1920x1080 canvas, over the slide's flow: for slides that keep a layout drawn elsewhere (a PowerPoint imported as it looks). Prefer the slide's own layouts for new slides. Text too long for its frame shrinks with the slide and is reported as overflowing the frame.",
    props: [
      { name: "x", type: "number", required: true, doc: "Left edge, in px of the 1920x1080 canvas." },
      { name: "y", type: "number", required: true, doc: "Top edge, in px." },
      { name: "w", type: "number", required: true, doc: "Width, in px." },
      { name: "h", type: "number", required: true, doc: "Height, in px." },
      { name: "rotate", type: "number", doc: "Clockwise turn in degrees. Default 0." },
      { name: "fill", type: "string", doc: 'A fill colour ("#1d4ed8"); without it the frame is transparent.' },
      {
        name: "gradient",
        type: "{ angle?: number; radial?: boolean; stops: { color: string; at?: number }[] }",
        doc: "A linear gradient fill instead of `fill`: the CSS angle in degrees and stops at per cent; with radial, from the centre outwards instead.",
      },
      {
        name: "outline",
        type: "{ color: string; width?: number }",
        doc: "A line drawn along the frame's edge, inside it: its colour and width in px (default 1).",
      },
      { name: "shape", ...choice(frameShapes), doc: 'The outline of a filled frame. Default "rect".' },
      {
        name: "size",
        type: "number",
        doc: "Body type size inside the frame in px (Text md; sm and lg follow the ladder, headings take this size). Default: the slide's.",
      },
      { name: "color", type: "string", doc: "Text colour inside the frame. Default: the slide's." },
      { name: "font", type: "string", doc: 'A shipped font family for the text inside ("Lato"). Default --font-body.' },
      alignProp,
      { name: "valign", ...choice(frameVerticalAligns), doc: 'Where the content sits in the height. Default "top".' },
    ],
    children:
      "Ordinary vocabulary, top to bottom: <Text>, <Bullets> (with level for sub-lists), <Heading>, <Image> (fills the frame), <Table>, <Chart> (fills the frame); nothing for a plain filled shape.",
    example:
      '<Frame x={120} y={80} w={1680} h={160} size={72} valign="bottom"><Text weight="bold">Quarterly results</Text></Frame>',
  },
];

export const vocabularyNames: ReadonlySet<string> = new Set(vocabulary.map((component) => component.name));

// Defaults are a neutral, high-contrast theme that looks deliberate with no brand applied. Sizes are in
// canvas pixels (1920x1080), so they look large next to web defaults on purpose.
export const themeTokens: readonly TokenSpec[] = [
  { name: "--color-bg", doc: "Slide and page background.", default: "#fafaf9" },
  { name: "--color-surface", doc: 'Cards (<Box tone="surface">), table stripes, code blocks.', default: "#f0eeeb" },
  { name: "--color-text", doc: "Body and heading text on bg and surface.", default: "#1c1917" },
  { name: "--color-muted", doc: "Secondary text: captions, kickers, sources, axis labels.", default: "#6b645d" },
  { name: "--color-border", doc: "Hairlines: table rules, outlined boxes, chart grid.", default: "#dcd8d3" },
  {
    name: "--color-primary",
    doc: "Brand colour: stat values, icons, charts, primary boxes and backgrounds.",
    default: "#1d4ed8",
  },
  { name: "--color-on-primary", doc: "Text and icons drawn on the primary colour.", default: "#ffffff" },
  { name: "--color-secondary", doc: "Second data colour and supporting accents.", default: "#0f766e" },
  {
    name: "--color-accent",
    doc: "Sparse emphasis: highlighted chart point or table row, accent boxes.",
    default: "#c2410c",
  },
  { name: "--color-on-accent", doc: "Text and icons drawn on the accent colour.", default: "#ffffff" },
  {
    name: "--font-heading",
    doc: "Title and Heading typeface.",
    default: '"Source Serif 4", "Source Serif Pro", Georgia, "Times New Roman", serif',
  },
  {
    name: "--font-body",
    doc: "Text, Bullets, Stat labels, tables and charts.",
    default: '"Inter", "Helvetica Neue", Arial, system-ui, sans-serif',
  },
  {
    name: "--font-mono",
    doc: "Code blocks.",
    default: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace',
  },
  {
    name: "--type-base",
    doc: 'Body text size (Text "md") on the 1920x1080 canvas; every other size derives from it. 48px is 24 pt on a 13.33-inch slide: readable from the back of a room.',
    default: "48px",
  },
  {
    name: "--type-scale",
    doc: "Ratio of the type ladder: Text sm = base / scale, lg = base × scale; Heading 3, 2, 1 = base × scale², ³, ⁴; Title = base × scale⁵.",
    default: "1.2",
  },
  { name: "--radius", doc: "Corner radius of boxes, images and code blocks.", default: "16px" },
  {
    name: "--space",
    doc: "Spacing unit; gaps and paddings are multiples of it (slide padding is 12 units).",
    default: "8px",
  },
];

export const defaultTokensCss: string = [
  ":root {",
  ...themeTokens.map((token) => `  ${token.name}: ${token.default};`),
  "}",
].join("\n");
