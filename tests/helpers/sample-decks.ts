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
