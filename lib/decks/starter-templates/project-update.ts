// Starter template "Project update": status at a glance, progress, risks, decisions needed and next steps,
// in a calm blue theme with a sans-serif heading face.

export const projectUpdate = {
  title: "Project update",
  description: "Status, progress, risks and the decisions needed this week.",
  tokens: {
    "--color-primary": "#1e40af",
    "--color-accent": "#059669",
    "--font-heading": '"Inter", "Helvetica Neue", Arial, sans-serif',
  },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Stack, Box, Icon, Stat, Steps, Table, Bullets } from "@deckhand/player";

export default function ProjectUpdate() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" notes="Which project, which week, and whether we are on track.">
        <Title kicker="Week 12 · Status update" subtitle="On track for the March launch" align="center">
          Project Atlas
        </Title>
      </Slide>

      <Slide label="Status" notes="Green overall; one amber item, covered on the risks slide.">
        <Heading kicker="Status">On track, with one risk to watch</Heading>
        <Columns ratio="1:2" gap="xl" align="center">
          <Stat value="72%" label="of the scope delivered" tone="accent" />
          <Bullets
            marker="check"
            items={["Data migration finished", "Checkout redesign in review", "Load tests pass at twice last peak"]}
          />
        </Columns>
      </Slide>

      <Slide label="Progress" notes="Where we are in the plan; the highlighted step is this sprint.">
        <Heading>Two of four phases are done</Heading>
        <Steps
          items={[
            { title: "Discovery", detail: "Done in January" },
            { title: "Migration", detail: "Done in February" },
            { title: "Redesign", detail: "In review" },
            { title: "Launch", detail: "March 24" },
          ]}
        />
      </Slide>

      <Slide label="Risks" notes="Owner and mitigation for each risk.">
        <Heading>Risks and what we are doing about them</Heading>
        <Table
          columns={["Risk", "Impact", "Mitigation"]}
          rows={[
            ["Payment provider review", "High", "Submitted early; weekly call"],
            ["Two designers on leave", "Medium", "Contractor from March 1"],
            ["Legacy reports", "Low", "Kept running until April"],
          ]}
          highlight={0}
        />
      </Slide>

      <Slide label="Decisions" notes="What we need from this group today.">
        <Heading kicker="Decisions needed">Two decisions this week</Heading>
        <Columns gap="xl">
          <Box tone="surface" padding="lg">
            <Icon name="calendar" size="lg" />
            <Heading level={3}>Freeze date</Heading>
            <Text>Confirm the code freeze on March 17.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="users" size="lg" />
            <Heading level={3}>Support rota</Heading>
            <Text>Name who is on call for launch week.</Text>
          </Box>
        </Columns>
      </Slide>

      <Slide label="Next steps" layout="center" background="primary" notes="Next update in two weeks.">
        <Title subtitle="Next update on March 10" align="center">
          Launch on March 24
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
