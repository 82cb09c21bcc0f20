// Starter template "Quarterly review": results against plan, what worked, what did not, and next quarter's
// priorities, in a teal-on-stone theme.

export const quarterlyReview = {
  title: "Quarterly review",
  description: "Results against plan, lessons and next quarter's priorities.",
  tokens: { "--color-primary": "#0f766e", "--color-secondary": "#1d4ed8", "--color-accent": "#b45309" },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Stack, Grid, Box, Icon, Stat, Chart, Table, Timeline } from "@deckhand/player";

export default function QuarterlyReview() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" notes="Set the frame: three numbers, two lessons, one plan.">
        <Title kicker="Q3 2026 · Quarterly review" subtitle="Results, lessons and the plan for Q4" align="center">
          A quarter of steady growth
        </Title>
      </Slide>

      <Slide label="Headlines" notes="The three numbers to remember from this review.">
        <Heading kicker="At a glance">Ahead of plan on revenue and retention</Heading>
        <Grid columns={3} gap="lg">
          <Stat value="4.2M" label="revenue, 6% above plan" tone="accent" />
          <Stat value="94%" label="customer retention" />
          <Stat value="+38" label="new customers" tone="secondary" />
        </Grid>
      </Slide>

      <Slide label="Revenue" notes="Every month beat the plan; September carried the quarter.">
        <Heading>Each month beat the plan</Heading>
        <Chart
          type="bar"
          unit="k"
          title="Revenue by month (USD)"
          labels={["July", "August", "September"]}
          series={[
            { name: "Plan", values: [1250, 1300, 1400] },
            { name: "Actual", values: [1290, 1380, 1530] },
          ]}
        />
      </Slide>

      <Slide label="By region" notes="Europe is the surprise of the quarter; Asia-Pacific is behind and has a plan.">
        <Heading>Europe led, Asia-Pacific is behind</Heading>
        <Table
          columns={["Region", "Plan", "Actual", "Change"]}
          rows={[
            ["North America", "2.0M", "2.1M", "+5%"],
            ["Europe", "1.2M", "1.4M", "+17%"],
            ["Asia-Pacific", "0.8M", "0.7M", "−12%"],
          ]}
          highlight={1}
        />
      </Slide>

      <Slide label="Lessons" notes="One thing to keep doing, one to stop.">
        <Heading>What we learned</Heading>
        <Columns gap="xl">
          <Box tone="surface" padding="lg">
            <Icon name="check-circle" size="lg" />
            <Heading level={3}>Keep</Heading>
            <Text>Onboarding calls in the first week doubled activation.</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="alert-triangle" size="lg" />
            <Heading level={3}>Change</Heading>
            <Text>Discounts at renewal cost margin and did not save accounts.</Text>
          </Box>
        </Columns>
      </Slide>

      <Slide label="Next quarter" notes="Three priorities with owners and dates.">
        <Heading kicker="Q4 priorities">Three bets for the next quarter</Heading>
        <Timeline
          highlight={0}
          items={[
            { date: "October", title: "Partner launch in Asia-Pacific" },
            { date: "November", title: "Self-serve renewals" },
            { date: "December", title: "Annual plans for every tier" },
          ]}
        />
      </Slide>

      <Slide label="Close" layout="center" background="primary" notes="Open the floor for questions.">
        <Title subtitle="Questions and decisions" align="center">
          Thank you
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
