// Starter template "Lesson": a class of forty minutes (objectives, a key idea, a worked example, practice
// and a recap), in a friendly green theme with Lora headings.

export const lesson = {
  title: "Lesson",
  description: "Objectives, a key idea, a worked example, practice and a recap.",
  tokens: {
    "--color-primary": "#15803d",
    "--color-secondary": "#7c3aed",
    "--color-accent": "#d97706",
    "--font-heading": '"Lora", Georgia, serif',
  },
  source: `import { Deck, Slide, Title, Heading, Text, Columns, Stack, Box, Icon, Stat, Steps, Bullets, Formula } from "@deckhand/player";

export default function Lesson() {
  return (
    <Deck>
      <Slide label="Cover" layout="center" notes="Greet the class; the question on the cover is the hook.">
        <Title kicker="Physics · Lesson 4" subtitle="Why does a dropped phone always break?" align="center">
          Speed, distance and time
        </Title>
      </Slide>

      <Slide label="Objectives" notes="Read the objectives aloud; come back to them in the recap.">
        <Heading kicker="Today">By the end of this lesson you can</Heading>
        <Bullets
          marker="check"
          items={["Say what speed measures", "Work out speed from distance and time", "Rearrange the formula to find time"]}
        />
      </Slide>

      <Slide label="Key idea" notes="Write the formula on the board too.">
        <Heading>Speed is distance divided by time</Heading>
        <Columns ratio="3:2" gap="xl" align="center">
          <Box tone="surface" padding="lg" align="center">
            <Formula display tex={"v = \\\\frac{d}{t}"} />
          </Box>
          <Stack gap="md">
            <Text>v is the speed, in metres per second</Text>
            <Text>d is the distance, in metres</Text>
            <Text>t is the time, in seconds</Text>
          </Stack>
        </Columns>
      </Slide>

      <Slide label="Worked example" notes="Do it step by step with the class.">
        <Heading kicker="Example">A runner covers 100 m in 12.5 s</Heading>
        <Steps
          items={[
            { title: "Write the formula", detail: "v = d ÷ t" },
            { title: "Fill in the numbers", detail: "v = 100 ÷ 12.5" },
            { title: "Work it out", detail: "v = 8 m/s" },
          ]}
        />
      </Slide>

      <Slide label="Practice" notes="Ten minutes in pairs; walk around and help.">
        <Heading kicker="Your turn">Try these in pairs</Heading>
        <Columns gap="xl">
          <Box tone="surface" padding="lg">
            <Icon name="lightbulb" size="lg" />
            <Text>A cyclist rides 3,000 m in 600 s. How fast is she?</Text>
          </Box>
          <Box tone="surface" padding="lg">
            <Icon name="clock" size="lg" />
            <Text>A train at 50 m/s travels 2,000 m. How long does it take?</Text>
          </Box>
        </Columns>
      </Slide>

      <Slide label="Recap" layout="center" background="primary" notes="Exit question: what happens to the time if the speed doubles?">
        <Title subtitle="Speed tells you how much distance is covered each second" align="center">
          Recap
        </Title>
      </Slide>
    </Deck>
  );
}
`,
};
