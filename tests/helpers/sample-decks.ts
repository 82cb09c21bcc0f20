// Decks the browser tests and benchmarks render.

export const fiveSlideDeck = `import { Deck, Slide, Title, Heading, Text, Bullets, Columns, Box, Stack, Chart, Stat, Grid, Quote } from "@deckhand/player";

export default function Launch() {
  return (
    <Deck title="Launch review">
      <Slide label="Cover" layout="center" notes="Welcome everyone. This is the launch review.">
        <Title kicker="Q3 2026" subtitle="What we shipped, what we learned, what comes next">Launch review</Title>
      </Slide>
      <Slide label="Two columns" notes="Walk through the plan on the left, the takeaway on the right.">
        <Heading kicker="Plan">Three bets carried the quarter</Heading>
        <Columns ratio="3:2">
          <Bullets items={["Self-serve onboarding in under five minutes", "Usage-based pricing for teams", "An API that agents can drive"]} />
          <Box tone="primary">
            <Text size="lg" weight="bold">Activation doubled</Text>
            <Text>From 21% to 43% of new sign-ups in six weeks.</Text>
          </Box>
        </Columns>
      </Slide>
      <Slide label="Chart" notes="Revenue grew every month; September is the launch month.">
        <Heading>Revenue grew every month</Heading>
        <Chart type="bar" unit="$" highlight="Sep" data={[
          { label: "Apr", value: 42 }, { label: "May", value: 48 }, { label: "Jun", value: 55 },
          { label: "Jul", value: 61 }, { label: "Aug", value: 70 }, { label: "Sep", value: 94 },
        ]} />
      </Slide>
      <Slide label="Numbers" notes="Three numbers to remember.">
        <Heading>The numbers that matter</Heading>
        <Grid columns={3}>
          <Stat value="43%" label="Activation" detail="up from 21%" />
          <Stat value="$94k" label="September revenue" />
          <Stat value="3x" label="API calls per account" />
        </Grid>
      </Slide>
      <Slide label="Close" layout="center" notes="Thank the team.">
        <Quote by="Dana Ruiz" role="Head of Product">Ship small, learn fast, and keep the promise.</Quote>
      </Slide>
    </Deck>
  );
}
`;

export const webpageDeck = `import { Deck, Beat, Title, Heading, Text } from "@deckhand/player";

export default function Page() {
  return (
    <Deck title="Field notes">
      <Beat label="Hero" height="screen" layout="center"><Title subtitle="A page in four beats">Field notes</Title></Beat>
      <Beat label="First"><Heading>First beat</Heading><Text>Some words about the first thing.</Text></Beat>
      <Beat label="Second" height="screen"><Heading>Second beat</Heading><Text>Then the second.</Text></Beat>
      <Beat label="Last" background="primary"><Heading>Last beat</Heading><Text>And the end.</Text></Beat>
    </Deck>
  );
}
`;

export const throwingDeck = `import { Deck, Slide, Title } from "@deckhand/player";

function Broken(): never {
  throw new Error("chart data is missing");
}

export default function Oops() {
  return (
    <Deck>
      <Slide label="Fine"><Title>This one renders</Title></Slide>
      <Slide label="Broken"><Broken /></Slide>
    </Deck>
  );
}
`;

export const milestones = ["Pilot", "Beta", "General availability", "EMEA launch", "Partner API"];

// Timeline, Steps and multi-series charts (the vocabulary the layout work added): seven slides.
const newVocabularySlides = `      <Slide label="Timeline">
        <Heading>From pilot to partners in five quarters</Heading>
        <Timeline
          highlight={2}
          items={[
            { date: "Q1 2025", title: "${milestones[0]}", detail: "Two design partners" },
            { date: "Q2 2025", title: "${milestones[1]}", detail: "Forty teams, weekly releases" },
            { date: "Q3 2025", title: "${milestones[2]}", detail: "Self-serve sign-up" },
            { date: "Q4 2025", title: "${milestones[3]}", detail: "Frankfurt region" },
            { date: "Q1 2026", title: "${milestones[4]}" },
          ]}
        />
      </Slide>
      <Slide label="Steps">
        <Heading>Onboarding in four steps</Heading>
        <Steps
          items={[
            { title: "Connect", detail: "Link your data source in one click" },
            { title: "Import brand", detail: "Paste a URL; colours and fonts follow" },
            { title: "Draft", detail: "Start from a template or a prompt" },
            { title: "Share", detail: "Send a link or export to PowerPoint" },
          ]}
        />
      </Slide>
      <Slide label="Vertical">
        <Heading>Both, top to bottom</Heading>
        <Columns gap="xl">
          <Timeline direction="vertical" items={[{ date: "2023", title: "Founded" }, { date: "2024", title: "Seed round", detail: "$4M" }, { date: "2025", title: "Series A" }]} />
          <Steps direction="vertical" items={["Plan", { title: "Build", detail: "Two sprints" }, "Ship"]} />
        </Columns>
      </Slide>
      <Slide label="Grouped">
        <Heading>Every region grew each quarter</Heading>
        <Chart type="bar" unit="$M" title="Revenue by region" labels={quarters}
          series={[{ name: "EMEA", values: [12, 15, 18, 22] }, { name: "Americas", values: [20, 22, 25, 31] }, { name: "APAC", values: [6, 8, 11, 14] }]} />
      </Slide>
      <Slide label="Stacked">
        <Heading>Total revenue passed $60M</Heading>
        <Chart type="bar" unit="$M" stacked labels={quarters}
          series={[{ name: "EMEA", values: [12, 15, 18, 22] }, { name: "Americas", values: [20, 22, 25, 31] }, { name: "APAC", values: [6, 8, 11, 14] }]} />
      </Slide>
      <Slide label="Lines">
        <Heading>Activation caught up with sign-ups</Heading>
        <Columns ratio="2:1" gap="xl" align="center">
          <Chart type="line" unit="%" labels={["Jan", "Feb", "Mar", "Apr", "May", "Jun"]}
            series={[{ name: "Sign-up rate", values: [40, 44, 47, 52, 55, 58] }, { name: "Activation", values: [22, 30, 38, 45, 51, 57] }]} />
          <Text>Both lines in one chart, labelled at their ends.</Text>
        </Columns>
      </Slide>
      <Slide label="Single">
        <Heading>Single series still works</Heading>
        <Chart type="bar" data={[{ label: "A", value: 3 }, { label: "B", value: 5 }]} highlight="B" />
      </Slide>
`;

export const newVocabularyDeck = `import { Deck, Slide, Heading, Timeline, Steps, Chart, Columns, Text } from "@deckhand/player";

const quarters = ["Q1", "Q2", "Q3", "Q4"];

export default function NewVocabulary() {
  return (
    <Deck title="New vocabulary">
${newVocabularySlides}    </Deck>
  );
}
`;

// Every component the layout work added or changed, for screenshots in the viewer, PDF and PPTX: a balanced
// content slide, the seven slides above and a Diagram.
export const showcaseDeck = `import { Deck, Slide, Heading, Text, Bullets, Timeline, Steps, Chart, Columns, Diagram } from "@deckhand/player";

const quarters = ["Q1", "Q2", "Q3", "Q4"];

export default function Showcase() {
  return (
    <Deck title="Showcase">
      <Slide label="Balanced">
        <Heading>Three reasons to switch this quarter</Heading>
        <Bullets items={["Builds are four times faster", "Reviews wait half as long", "Cloud spend drops by a third"]} />
        <Text tone="muted">Measured on the platform team's repositories, July to September.</Text>
      </Slide>
${newVocabularySlides}      <Slide label="Diagram">
        <Heading>How a deck is published</Heading>
        <Diagram title="Publishing">{\`flowchart LR
  A[Write] --> B[Compile]
  B --> C{Check}
  C -- clean --> D[Publish]
  C -- findings --> A\`}</Diagram>
      </Slide>
    </Deck>
  );
}
`;

// Every chart type with a highlight, a unit and a title: a doughnut, one line, bars below zero.
export const chartTypesDeck = `import { Deck, Slide, Heading, Chart } from "@deckhand/player";

export default function ChartTypes() {
  return (
    <Deck title="Chart types">
      <Slide label="Pie">
        <Heading>Where the time goes</Heading>
        <Chart type="pie" unit="%" highlight="Reviews" title="Share of cycle time"
          data={[{ label: "Coding", value: 38 }, { label: "Reviews", value: 27 }, { label: "CI", value: 20 }, { label: "Deploy", value: 15 }]} />
      </Slide>
      <Slide label="Line">
        <Heading>Weekly active teams</Heading>
        <Chart type="line" highlight="W4" data={[{ label: "W1", value: 120 }, { label: "W2", value: 135 }, { label: "W3", value: 128 }, { label: "W4", value: 160 }, { label: "W5", value: 171 }]} />
      </Slide>
      <Slide label="Margins">
        <Heading>Margin by product line</Heading>
        <Chart type="bar" unit="pp" data={[{ label: "Core", value: 12.5 }, { label: "Add-ons", value: 4 }, { label: "Services", value: -3.5 }]} />
      </Slide>
    </Deck>
  );
}
`;

// Text the PPTX writes natively (issue 18, items 2, 3 and 5): Python with indentation and a highlighted
// line, Bullets with each marker kind, Steps badges, letter-spaced eyebrows, a long single-line title
// and emoji.
export const pythonLines = [
  "def fib(n):",
  "    a, b = 0, 1",
  "    for _ in range(n):",
  "        a, b = b, a + b",
  "",
  "    # A comment long enough to wrap on the slide, so its second line hangs under the first one as it does in the viewer and keeps going",
  "    return a",
];
export const markerPoints = {
  dot: ["Builds are four times faster", "Reviews wait half as long"],
  check: ["Single sign-on", "Audit log"],
  arrow: ["Import the brand", "Draft the deck"],
  number: ["Connect", "Draft", "Share"],
};
export const eyebrow = "Questions and discussion";
export const longTitle = "Interop test 2 (PowerPoint)";
export const emojiText = "Shipped on time 🚀 and loved 👍🏽";

export const nativeTextDeck = `import { Deck, Slide, Title, Heading, Text, Bullets, Code, Columns, Steps } from "@deckhand/player";

const python = ${JSON.stringify(pythonLines.join("\n"))};

export default function NativeText() {
  return (
    <Deck title="Native text">
      <Slide label="Code">
        <Heading kicker="${eyebrow}">Fibonacci in Python</Heading>
        <Code language="python" highlight={[4]} code={python} />
      </Slide>
      <Slide label="Bullets">
        <Heading>Every marker</Heading>
        <Columns>
          <Bullets items={${JSON.stringify(markerPoints.dot)}} />
          <Bullets marker="check" items={${JSON.stringify(markerPoints.check)}} />
        </Columns>
        <Columns>
          <Bullets marker="arrow" items={${JSON.stringify(markerPoints.arrow)}} />
          <Bullets marker="number" items={${JSON.stringify(markerPoints.number)}} />
        </Columns>
      </Slide>
      <Slide label="Steps">
        <Heading kicker="Process">Three steps</Heading>
        <Steps items={["Plan", "Build", "Ship"]} />
        <Text>${emojiText}</Text>
      </Slide>
      <Slide label="Cover" layout="center">
        <Title kicker="${eyebrow}">${longTitle}</Title>
      </Slide>
    </Deck>
  );
}
`;

// Drawn and printed like any deck, but past the PPTX slide model's limits: a table of 1,001 rows.
export const tooManyRowsDeck = `import { Deck, Slide, Heading, Table } from "@deckhand/player";

export default function Huge() {
  return (
    <Deck title="Huge">
      <Slide label="Rows">
        <Heading>A table of 1,001 rows</Heading>
        <Table columns={["N"]} rows={Array.from({ length: 1001 }, (_, n) => [String(n)])} />
      </Slide>
    </Deck>
  );
}
`;

/** A deck of `count` slides, "Part N" each, with a heading "Heading number N" and two bullets. */
export function headingsDeck(count: number): string {
  const slides = Array.from(
    { length: count },
    (_, index) =>
      `      <Slide label="Part ${index + 1}">\n        <Heading>Heading number ${index + 1}</Heading>\n        <Bullets items={["First point of ${index + 1}", "Second point"]} />\n      </Slide>`,
  ).join("\n");
  return `import { Deck, Slide, Heading, Bullets } from "@deckhand/player";\n\nexport default function Long() {\n  return (\n    <Deck>\n${slides}\n    </Deck>\n  );\n}\n`;
}
