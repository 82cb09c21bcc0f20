// Starter template "Pitch": a seed-round story in seven slides (problem, solution, traction, market,
// business model, team, the ask), in the default theme with a deep indigo primary.

export const pitch = {
  title: "Pitch",
  description: "Problem, solution, traction and the ask, in seven slides.",
  tokens: {
    "--color-primary": "#3730a3",
    "--color-accent": "#db2777",
    "--font-heading": '"DM Serif Display", Georgia, serif',
  },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Stack, Grid, Box, Icon, Stat, Chart, Quote } from "@deckhand/player";

export default function Pitch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" background="primary" notes="Who we are in one sentence, then straight to the problem.">
        <Title kicker="Seed round · 2026" subtitle="The spreadsheet every operations team outgrows, rebuilt as a product" align="center">
          Northwind
        </Title>
      </Slide>

      <Slide label="Problem" notes="Tell one customer's story: the Monday report that takes a whole day.">
        <Heading kicker="The problem">Operations teams spend a day a week copying numbers</Heading>
        <Columns ratio="3:2" gap="xl" align="center">
          <Stack gap="lg">
            <Text size="lg">Reports are stitched together by hand from five tools every Monday.</Text>
            <Text tone="muted">By the time they are sent, the numbers are already out of date.</Text>
          </Stack>
          <Stat value="7.5 h" label="a week per analyst on manual reporting" tone="accent" />
        </Columns>
      </Slide>

      <Slide label="Solution" notes="Three things the product does; keep the demo for later.">
        <Heading kicker="Our answer">One live report, fed by the tools you already use</Heading>
        <Grid columns={3} gap="lg">
          <Box tone="surface" padding="lg">
            <Icon name="layers" size="lg" />
            <Heading level={3}>Connect</Heading>
            <Text tone="muted">Twenty sources in minutes, no engineers.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="zap" size="lg" />
            <Heading level={3}>Refresh</Heading>
            <Text tone="muted">Numbers update the moment they change.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="users" size="lg" />
            <Heading level={3}>Share</Heading>
            <Text tone="muted">One link for the whole company.</Text>
          </Box>
        </Grid>
      </Slide>

      <Slide label="Traction" notes="Revenue tripled in two quarters without paid marketing.">
        <Heading kicker="Traction">Revenue tripled in six months</Heading>
        <Columns ratio="2:1" gap="xl" align="center">
          <Chart
            type="bar"
            unit="k"
            title="Monthly recurring revenue (USD)"
            labels={["Jan", "Feb", "Mar", "Apr", "May", "Jun"]}
            series={[{ name: "MRR", values: [18, 24, 31, 38, 47, 56] }]}
            highlight={5}
          />
          <Stack gap="lg">
            <Stat value="3.1x" label="growth since January" />
            <Stat value="118%" label="net revenue retention" tone="secondary" />
          </Stack>
        </Columns>
      </Slide>

      <Slide label="Customer voice" layout="center" background="surface" notes="Read the quote, then name the customer's size.">
        <Quote by="Maya Chen" role="Head of Operations, Fieldline">
          Our Monday report used to take a day. Now it is simply there when we arrive.
        </Quote>
      </Slide>

      <Slide label="Team" notes="Why us: we built this twice before, inside larger companies.">
        <Heading kicker="Team">We have built this twice before</Heading>
        <Grid columns={3} gap="lg">
          <Box tone="surface" padding="lg">
            <Heading level={3}>Sam Rivera</Heading>
            <Text tone="muted">CEO · led data products at a logistics scale-up</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Heading level={3}>Ines Duarte</Heading>
            <Text tone="muted">CTO · built the reporting platform of a payments company</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Heading level={3}>Tom Okafor</Heading>
            <Text tone="muted">Design · ten years of tools for operations teams</Text>
          </Box>
        </Grid>
      </Slide>

      <Slide label="The ask" layout="center" background="accent" notes="The amount, the runway and the milestone it buys.">
        <Title subtitle="18 months of runway to reach 2 million in annual revenue" align="center">
          Raising 2.5 million
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
