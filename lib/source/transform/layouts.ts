// The visual editor's gallery of new slides: one snippet per layout, written only with the player's
// vocabulary (lib/source/component-specs.ts) and placeholder copy that says what to write, so a slide added from
// the gallery compiles and draws cleanly before anyone has typed a word. tests/unit/source-edit.test.ts
// compiles every one in both formats.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";

const slideLayoutIds = [
  "cover",
  "section",
  "bullets",
  "two-columns",
  "stats",
  "chart",
  "table",
  "quote",
  "image",
  "timeline",
  "closing",
] as const;

export type SlideLayoutId = (typeof slideLayoutIds)[number];

export type SlideLayout = { id: SlideLayoutId; name: string; description: string };

export const slideLayouts: readonly SlideLayout[] = [
  { id: "cover", name: "Cover", description: "The deck's title, a kicker and a subtitle, centred." },
  { id: "section", name: "Section", description: "A section break on the theme's primary colour." },
  { id: "bullets", name: "Bullets", description: "A heading and three to five short points." },
  { id: "two-columns", name: "Two columns", description: "A heading over two columns of text side by side." },
  { id: "stats", name: "Stats", description: "A heading and three big numbers with what they measure." },
  { id: "chart", name: "Chart", description: "A heading and a bar chart drawn from inline data." },
  { id: "table", name: "Table", description: "A heading and a small table with a header row." },
  { id: "quote", name: "Quote", description: "A pull quote with who said it, centred." },
  { id: "image", name: "Image", description: "A heading and a picture filling the space below it." },
  { id: "timeline", name: "Timeline", description: "A heading and dated milestones on a line." },
  { id: "closing", name: "Closing", description: "Thanks and where to reach you, centred." },
];

// An image to replace: a plain grey 16:9 picture inline, so the slide draws without fetching anything.
export const placeholderImage =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 9'%3E%3Crect width='16' height='9' fill='%23d6d3d1'/%3E%3C/svg%3E";

type Body = { attributes: string; components: string[]; lines: string[] };

// Each body: the section's attributes after its label, the components it uses, and its children's lines
// at the section's own indentation plus two spaces.
const bodies: Record<SlideLayoutId, Body> = {
  cover: {
    attributes: ' layout="center"',
    components: ["Title"],
    lines: ['<Title kicker="Kicker" subtitle="One line that says what the deck is about">Deck title</Title>'],
  },
  section: {
    attributes: ' layout="center" background="primary"',
    components: ["Title"],
    lines: ['<Title kicker="Part 2">Section title</Title>'],
  },
  bullets: {
    attributes: "",
    components: ["Heading", "Bullets"],
    lines: [
      "<Heading>The takeaway of this slide</Heading>",
      '<Bullets items={["First point", "Second point", "Third point"]} />',
    ],
  },
  "two-columns": {
    attributes: "",
    components: ["Heading", "Columns", "Stack", "Text"],
    lines: [
      "<Heading>Two sides of the story</Heading>",
      "<Columns>",
      "  <Stack>",
      "    <Heading level={2}>Left</Heading>",
      "    <Text>What belongs on the left.</Text>",
      "  </Stack>",
      "  <Stack>",
      "    <Heading level={2}>Right</Heading>",
      "    <Text>What belongs on the right.</Text>",
      "  </Stack>",
      "</Columns>",
    ],
  },
  stats: {
    attributes: "",
    components: ["Heading", "Grid", "Stat"],
    lines: [
      "<Heading>The numbers that matter</Heading>",
      "<Grid columns={3}>",
      '  <Stat value="42%" label="First measure" />',
      '  <Stat value="$1.2M" label="Second measure" />',
      '  <Stat value="3x" label="Third measure" />',
      "</Grid>",
    ],
  },
  chart: {
    attributes: "",
    components: ["Heading", "Chart"],
    lines: [
      "<Heading>What the chart shows</Heading>",
      '<Chart type="bar" data={[',
      '  { label: "Q1", value: 12 },',
      '  { label: "Q2", value: 18 },',
      '  { label: "Q3", value: 23 },',
      '  { label: "Q4", value: 31 },',
      "]} />",
    ],
  },
  table: {
    attributes: "",
    components: ["Heading", "Table"],
    lines: [
      "<Heading>How the options compare</Heading>",
      "<Table",
      '  columns={["Option", "Cost", "Time"]}',
      "  rows={[",
      '    ["First", "$10", "2 weeks"],',
      '    ["Second", "$20", "1 week"],',
      '    ["Third", "$30", "3 days"],',
      "  ]}",
      "/>",
    ],
  },
  quote: {
    attributes: ' layout="center"',
    components: ["Quote"],
    lines: ['<Quote by="Name" role="Role, Company">The words worth repeating, without quotation marks.</Quote>'],
  },
  image: {
    attributes: "",
    components: ["Heading", "Image"],
    lines: [
      "<Heading>What the picture shows</Heading>",
      `<Image src="${placeholderImage}" alt="Describe the picture" />`,
    ],
  },
  timeline: {
    attributes: "",
    components: ["Heading", "Timeline"],
    lines: [
      "<Heading>Where we are going</Heading>",
      "<Timeline highlight={1} items={[",
      '  { date: "Q1", title: "First milestone" },',
      '  { date: "Q2", title: "Second milestone" },',
      '  { date: "Q3", title: "Third milestone" },',
      "]} />",
    ],
  },
  closing: {
    attributes: ' layout="center"',
    components: ["Title"],
    lines: ['<Title subtitle="Questions and discussion">Thank you</Title>'],
  },
};

/** A new section's text (first line unindented, the rest relative to it) and the components it uses. */
export function slideLayoutSnippet(
  layout: SlideLayoutId,
  format: DeckFormat,
  label: string,
): { text: string; components: string[] } {
  const body = (bodies as Partial<Record<string, Body>>)[layout];
  if (!body) {
    throw new AppError(
      "invalid_request",
      `There is no slide layout "${layout}"; choose one of: ${slideLayoutIds.join(", ")}.`,
    );
  }
  const section = format === "slides" ? "Slide" : "Beat";
  const labelText = /^[^"&\n\r]*$/.test(label) ? `"${label}"` : `{${JSON.stringify(label)}}`;
  const lines = [
    `<${section} label=${labelText}${body.attributes}>`,
    ...body.lines.map((line) => `  ${line}`),
    `</${section}>`,
  ];
  return { text: lines.join("\n"), components: [section, ...body.components] };
}
