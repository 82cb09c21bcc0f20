// The inspector's words for a person who does not write code: each element and each of its props named as
// they look on the slide ("Small heading above" for a Title's `kicker`), with the prop's own name kept for
// the code (shown small beside the label). A prop not listed here is shown by its own name.

const componentWords: Record<string, string> = {
  Title: "Title",
  Heading: "Heading",
  Text: "Text",
  Bullets: "Bullet list",
  Quote: "Quote",
  Code: "Code",
  Link: "Link",
  Formula: "Formula",
  Image: "Image",
  Icon: "Icon",
  Logo: "Logo",
  Diagram: "Diagram",
  Stat: "Big number",
  Table: "Table",
  Chart: "Chart",
  Timeline: "Timeline",
  Steps: "Steps",
  Columns: "Columns",
  Stack: "Stack",
  Grid: "Grid",
  Box: "Box",
};

/** Labels by prop name, and by component where one name means different things. */
const propWords: Record<string, string> = {
  kicker: "Small heading above",
  subtitle: "Line below",
  level: "Heading size",
  size: "Text size",
  tone: "Colour",
  weight: "Boldness",
  align: "Alignment",
  items: "Points",
  marker: "Bullet style",
  by: "Said by",
  role: "Their role",
  code: "Code",
  language: "Language",
  highlight: "Highlighted",
  href: "Web address",
  src: "Picture",
  alt: "Description (for screen readers)",
  fit: "Fit in its space",
  caption: "Caption",
  rounded: "Rounded corners",
  width: "Width",
  height: "Height",
  value: "Number",
  label: "What it measures",
  detail: "Extra detail",
  columns: "Columns",
  rows: "Rows",
  striped: "Striped rows",
  type: "Chart type",
  data: "Values",
  labels: "Categories",
  series: "Series",
  stacked: "Stack the series",
  unit: "Unit",
  showValues: "Show the numbers",
  title: "Caption above",
  direction: "Direction",
  ratio: "Column widths",
  justify: "Vertical spacing",
  gap: "Space between",
  padding: "Inner space",
  name: "Icon",
  placement: "Position",
  tex: "Formula (TeX)",
  display: "On its own line",
  focus: "Focus",
};

const componentPropWords: Record<string, string> = {
  "Chart.highlight": "Highlighted point",
  "Code.highlight": "Highlighted lines",
  "Table.highlight": "Highlighted row (from 0)",
  "Timeline.highlight": "Current milestone (from 0)",
  "Grid.columns": "Cells per row",
  "Timeline.items": "Milestones",
  "Steps.items": "Steps",
  "Link.label": "Link text",
  "Box.tone": "Background",
  "Stat.tone": "Colour of the number",
};

export function componentLabel(name: string): string {
  return componentWords[name] ?? name;
}

export function propLabel(component: string, prop: string): string {
  return componentPropWords[`${component}.${prop}`] ?? propWords[prop] ?? prop;
}
