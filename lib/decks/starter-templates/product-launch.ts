// Starter template "Product launch": the moment, what is new, who it is for, pricing, launch plan and the
// call to action, in a bold violet-and-orange theme with Space Grotesk headings.

export const productLaunch = {
  title: "Product launch",
  description: "What is new, who it is for, pricing and the launch plan.",
  tokens: {
    "--color-primary": "#6d28d9",
    "--color-accent": "#ea580c",
    "--font-heading": '"Space Grotesk", "Inter", Arial, sans-serif',
  },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Stack, Grid, Box, Icon, Stat, Timeline, Table } from "@deckhand/player";

export default function ProductLaunch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" background="primary" notes="The product's name and its promise, nothing else.">
        <Title kicker="Launching May 14" subtitle="Meeting notes that write themselves" align="center">
          Introducing Relay
        </Title>
      </Slide>

      <Slide label="Why now" notes="The problem in the customer's words.">
        <Heading kicker="Why now">Teams lose the decisions they make in meetings</Heading>
        <Columns ratio="2:3" gap="xl" align="center">
          <Stat value="62%" label="of decisions are never written down" tone="accent" />
          <Text size="lg">People leave a call agreeing, and a week later nobody remembers what was agreed or who owns it.</Text>
        </Columns>
      </Slide>

      <Slide label="What is new" notes="Three features; one sentence each.">
        <Heading>Three things Relay does for you</Heading>
        <Grid columns={3} gap="lg">
          <Box tone="surface" padding="lg">
            <Icon name="message" size="lg" />
            <Heading level={3}>Listens</Heading>
            <Text tone="muted">Joins your calls and keeps a clean transcript.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="target" size="lg" />
            <Heading level={3}>Decides</Heading>
            <Text tone="muted">Pulls out decisions, owners and dates.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="mail" size="lg" />
            <Heading level={3}>Follows up</Heading>
            <Text tone="muted">Sends each owner their actions by email.</Text>
          </Box>
        </Grid>
      </Slide>

      <Slide label="Pricing" notes="Free for small teams; the business plan is where revenue comes from.">
        <Heading>Simple pricing, free to start</Heading>
        <Table
          columns={["Plan", "Price", "For"]}
          rows={[
            ["Free", "0", "Up to 5 people"],
            ["Team", "8 per person a month", "Growing teams"],
            ["Business", "15 per person a month", "Single sign-on and audit log"],
          ]}
          highlight={1}
        />
      </Slide>

      <Slide label="Launch plan" notes="Dates are firm; the press embargo lifts on launch day.">
        <Heading kicker="Launch plan">Four weeks from beta to general availability</Heading>
        <Timeline
          highlight={2}
          items={[
            { date: "April 22", title: "Private beta closes" },
            { date: "May 6", title: "Press briefings" },
            { date: "May 14", title: "Launch day" },
            { date: "May 28", title: "First customer webinar" },
          ]}
        />
      </Slide>

      <Slide label="Call to action" layout="center" background="accent" notes="What everyone in the room can do on launch day.">
        <Title subtitle="Share the launch post with one customer who needs it" align="center">
          Tell one customer
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
