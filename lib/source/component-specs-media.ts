// The media and data components of the vocabulary (lib/source/component-specs.ts): images, icons and logos;
// numbers, tables, charts, timelines, steps and diagrams.

import {
  chartTypes,
  flowDirections,
  iconSizes,
  imageFits,
  imageFocuses,
  logoPlacements,
  logoTones,
  sizes,
  statTones,
  textTones,
} from "@/lib/contract/prop-values";
import type { ComponentSpec } from "./component-specs";
import { choice, alignProp } from "./component-specs-shared";

export const mediaComponents: readonly ComponentSpec[] = [
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
];
