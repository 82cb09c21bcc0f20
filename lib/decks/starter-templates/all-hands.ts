// Starter template "All-hands": the company's month in one meeting (wins, numbers, people, what is next,
// questions), in a warm theme with Poppins headings.

export const allHands = {
  title: "All-hands",
  description: "Wins, numbers, people and what is next, for the whole company.",
  tokens: {
    "--color-primary": "#be123c",
    "--color-secondary": "#0369a1",
    "--color-accent": "#a16207",
    "--font-heading": '"Poppins", "Inter", Arial, sans-serif',
  },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Grid, Box, Icon, Stat, Quote, Bullets } from "@deckhand/player";

export default function AllHands() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" background="primary" notes="Welcome everyone, including the people who joined this month.">
        <Title kicker="Company all-hands · June" subtitle="Where we are, who joined, what comes next" align="center">
          All hands on deck
        </Title>
      </Slide>

      <Slide label="Wins" notes="Thank the teams by name.">
        <Heading kicker="This month">Three wins worth celebrating</Heading>
        <Grid columns={3} gap="lg">
          <Box tone="surface" padding="lg">
            <Icon name="trophy" size="lg" />
            <Heading level={3}>Biggest deal yet</Heading>
            <Text tone="muted">A three-year contract with a national retailer.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="rocket" size="lg" />
            <Heading level={3}>Mobile app shipped</Heading>
            <Text tone="muted">Rated 4.8 in its first two weeks.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="heart" size="lg" />
            <Heading level={3}>Support at its best</Heading>
            <Text tone="muted">Replies in under an hour, all month.</Text>
          </Box>
        </Grid>
      </Slide>

      <Slide label="Numbers" notes="The three numbers the whole company steers by.">
        <Heading>The numbers we steer by</Heading>
        <Grid columns={3} gap="lg">
          <Stat value="12,400" label="active customers" />
          <Stat value="97%" label="would recommend us" tone="secondary" />
          <Stat value="14 mo" label="of runway" tone="accent" />
        </Grid>
      </Slide>

      <Slide label="Welcome" notes="Ask the new people to wave.">
        <Heading kicker="New faces">Welcome to six new colleagues</Heading>
        <Columns gap="xl" align="center">
          <Bullets items={["Lena, Priya and Omar in Engineering", "Jonas in Sales", "Aiko in Design", "Marco in Support"]} />
          <Quote by="Aiko Tanaka" role="Product designer" size="md">
            Everyone made time for me in my first week.
          </Quote>
        </Columns>
      </Slide>

      <Slide label="What is next" notes="The one company goal for next month.">
        <Heading>Next month: one goal for everyone</Heading>
        <Box tone="surface" padding="lg" align="center">
          <Icon name="target" size="xl" />
          <Text size="lg" weight="bold">Every customer onboarded within a week of signing</Text>
        </Box>
      </Slide>

      <Slide label="Questions" layout="center" background="surface" notes="Take questions from the room and the chat.">
        <Title subtitle="Ask anything, in the room or in the chat" align="center">
          Questions
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
