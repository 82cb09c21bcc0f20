// The structure and layout components of the vocabulary (lib/source/component-specs.ts): the deck, its slides
// and beats, and the boxes that place content (Columns, Stack, Grid, Box, Frame).

import {
  beatHeights,
  boxPaddings,
  boxTones,
  columnAligns,
  frameShapes,
  frameVerticalAligns,
  gridColumns,
  imageFits,
  imageSides,
  sectionBackgrounds,
  sectionLayouts,
  stackAligns,
  stackJustifies,
} from "@/lib/contract/prop-values";
import type { ComponentSpec } from "./component-specs";
import { choice, alignProp, gapProp } from "./component-specs-shared";

export const layoutComponents: readonly ComponentSpec[] = [
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
];

// Frame comes last in the vocabulary: a box at an absolute place on the canvas, for slides imported as
// they were drawn.
export const frameComponent: ComponentSpec = {
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
};
