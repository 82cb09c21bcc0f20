// A 12-slide deck that uses most of the vocabulary, with a distinct heading and notes on every slide.

const slideBodies = [
  `<Title kicker="Annual review" subtitle="Twelve slides, every component">HEADING 1 Deckhand export test</Title>`,
  `<Heading>HEADING 2 Bullets and text</Heading>
        <Bullets items={["First point about exports", "Second point about fonts", "Third point about notes"]} />`,
  `<Heading>HEADING 3 Two columns</Heading>
        <Columns ratio="3:2">
          <Text size="lg">A lead paragraph that wraps across more than one line of the slide to test wrapping.</Text>
          <Box tone="primary"><Text weight="bold">A primary box</Text><Text>With body text inside it.</Text></Box>
        </Columns>`,
  `<Heading>HEADING 4 Stats</Heading>
        <Grid columns={3}>
          <Stat value="43%" label="Activation" detail="up from 21%" />
          <Stat value="$94k" label="Revenue" />
          <Stat value="3x" label="API calls" tone="accent" />
        </Grid>`,
  `<Heading>HEADING 5 A table</Heading>
        <Table columns={["Region", "Q1", "Q2"]} rows={[["North", 12, 15], ["South", 9, 11], ["West", 14, 19]]} highlight={2} />`,
  `<Heading>HEADING 6 A bar chart</Heading>
        <Chart type="bar" unit="%" highlight="Q4" data={[{ label: "Q1", value: 12 }, { label: "Q2", value: 19 }, { label: "Q3", value: 24 }, { label: "Q4", value: 31 }]} />`,
  `<Heading>HEADING 7 A quote</Heading>
        <Quote by="Ada Lovelace" role="Analyst">The engine weaves algebraic patterns.</Quote>`,
  `<Heading>HEADING 8 Code</Heading>
        <Code language="ts" code={"const deck = await client.decks.create();\\nawait deck.export('pdf');"} />`,
  `<Heading>HEADING 9 Icons</Heading>
        <Columns><Icon name="rocket" size="xl" /><Text>Icons are drawn as pictures.</Text></Columns>`,
  `<Heading level={2} kicker="Section">HEADING 10 Boxes</Heading>
        <Grid columns={2}>
          <Box tone="surface"><Text>A surface box</Text></Box>
          <Box tone="outline"><Text>An outlined box</Text></Box>
        </Grid>`,
  `<Heading>HEADING 11 Links and emphasis</Heading>
        <Text>Read <strong>the docs</strong> at <a href="https://example.com/docs">example.com/docs</a>, <em>carefully</em>.</Text>`,
  `<Title>HEADING 12 Thank you</Title>`,
];

export const twelveSlideHeadings = slideBodies.map((_, i) => `HEADING ${i + 1}`);
export const twelveSlideNotes = slideBodies.map((_, i) => `Speaker notes for slide ${i + 1}.`);

export const twelveSlideDeck = `import { Deck, Slide, Title, Heading, Text, Bullets, Columns, Box, Grid, Stat, Table, Chart, Quote, Code, Icon } from "@deckhand/player";

export default function Review() {
  return (
    <Deck title="Export test">
${slideBodies
  .map(
    (
      body,
      i,
    ) => `      <Slide label="Slide ${i + 1}" notes="${twelveSlideNotes[i]}"${i === 0 || i === 11 ? ' layout="center"' : ""}>
        ${body}
      </Slide>`,
  )
  .join("\n")}
    </Deck>
  );
}
`;
