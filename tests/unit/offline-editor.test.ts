import { describe, expect, it } from "vitest";
import { editOfflineDeck, locateSlides } from "@/lib/ai/offline/edit-deck";
import { generateOfflineDeck } from "@/lib/ai/offline/generate-deck";
import { reviseOfflineDeck } from "@/lib/ai/offline/revise-deck";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";
import { statusOf } from "@/lib/api/status";

// The offline editor (TSX read with @babel/parser, edits spliced at its positions) and offline revise.

type Format = "slides" | "webpage";

const handDeck = `import { Deck, Slide, Title, Heading, Text, Bullets, Stat, Grid } from "@deckhand/player";

export default function TeamDeck() {
  return (
    <Deck title="Team offsite">
      <Slide label="Intro" layout="center">
        <Title subtitle="Where we are and where we go">Team offsite</Title>
      </Slide>
      <Slide label="Problem" notes="Why now.">
        <Heading>Onboarding takes too long</Heading>
        <Text>
          New teams need eleven steps
          before they see a slide.
        </Text>
      </Slide>
      <Slide label='Pricing' notes={"Plans and prices."}>
        <Heading>Pricing is simple</Heading>
        <Bullets items={["Free for one", 'Team at $10', "Enterprise on request"]} />
      </Slide>
      <Slide label="Team">
        <Heading>Who does what</Heading>
        <Text>Eight engineers, two designers.</Text>
      </Slide>
      <Slide label="Results">
        <Grid columns={2}>
          <Stat value="42%" label="activation" />
          <Stat value="3x" label="faster onboarding" />
        </Grid>
      </Slide>
      <Slide label="Close" layout="center">
        <Title>Thank you</Title>
      </Slide>
    </Deck>
  );
}
`;

const helperDeck = `import { Deck, Slide, Heading, Text, Code, Box, Stack, Bullets } from "@deckhand/player";

type Card = { title: string; body: string };

const cards: Card[] = [
  { title: 'Don\\'t block', body: "Ship behind a flag </Slide> {not jsx}" },
  { title: "Measure", body: \`Weekly, with \${"a"} baseline\` },
];

const pattern = /<Slide>[}{]/g;
const ratio = 10 / 2 / 5;

function CardList({ items }: { items: Card[] }) {
  return (
    <Stack gap="md">
      {items.map((card) => (
        <Box key={card.title} tone="surface">
          <Heading level={3}>{card.title}</Heading>
          <Text>{card.body}</Text>
        </Box>
      ))}
    </Stack>
  );
}

const Caption = ({ text }: { text: string }) => <Text size="sm" tone="muted">{text}</Text>;

export default function HelperDeck() {
  const snippet = \`const deck = <Deck>{slides}</Deck>; // \${pattern.source} \${ratio}\`;
  return (
    <Deck title={\`Engineering \${"principles"}\`}>
      {/* The opening slide: <Slide> in a comment is not a slide */}
      <Slide label={"Principles"} notes={'Two rules, one example.'}>
        <Heading>Two rules we keep</Heading>
        <CardList items={cards} />
      </Slide>
      <Slide label={\`Example\`}>
        <Heading>An example</Heading>
        <Code language="tsx" code={\`<Slide label="x">{"}"}</Slide>\`} />
        {cards.length > 1 && <Caption text="Two cards, one rule each" />}
      </Slide>
      <Slide
        label="Checklist"
        notes="Read it aloud."
      >
        <Bullets items={["Ship behind a flag", "Measure weekly"]} />
      </Slide>
    </Deck>
  );
}
`;

const pageDeck = `import { Deck, Beat, Title, Heading, Text } from "@deckhand/player";

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

function slideTexts(source: string, format: Format = "slides"): string[] {
  return locateSlides(source, format).slides.map((slide) => slide.text);
}

/**
 * Applies an edit, checks it compiles, and checks the slides are exactly `expected`: an old slide's
 * index where the slide must be byte-identical to it, or a check for a slide the edit wrote.
 */
async function expectEdit(
  source: string,
  instruction: string,
  expected: Array<number | ((texts: [after: string, before: string]) => void)>,
  format: Format = "slides",
): Promise<{ source: string; summary: string }> {
  const before = slideTexts(source, format);
  const result = editOfflineDeck({ source, instruction, format });
  await compileDeck({ source: result.source, format });
  const after = slideTexts(result.source, format);
  expect(after).toHaveLength(expected.length);
  expected.forEach((entry, index) => {
    if (typeof entry === "number") expect(after[index]).toBe(before[entry]);
    else entry([after[index] ?? "", before[index] ?? ""]);
  });
  return result;
}

function refusal(source: string, instruction: string, format: Format = "slides"): AppError {
  try {
    editOfflineDeck({ source, instruction, format });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_request");
    expect(statusOf(error as AppError)).toBe(422);
    return error as AppError;
  }
  throw new Error("expected the edit to be refused");
}

describe("editOfflineDeck", () => {
  it("finds the top-level slides of hand-written and generated decks", () => {
    expect(locateSlides(handDeck, "slides").slides.map((slide) => slide.label)).toEqual([
      "Intro",
      "Problem",
      "Pricing",
      "Team",
      "Results",
      "Close",
    ]);
    const helper = locateSlides(helperDeck, "slides");
    expect(helper.slides.map((slide) => slide.label)).toEqual(["Principles", "Example", "Checklist"]);
    expect(helper.hiddenSlides).toBe(false);
  });

  it('1. replaces "old" → "new" everywhere it appears as text', async () => {
    const result = await expectEdit(handDeck, '"Pricing is simple" → "Pricing fits every team"', [
      0,
      1,
      ([after]) => expect(after).toContain("<Heading>Pricing fits every team</Heading>"),
      3,
      4,
      5,
    ]);
    expect(result.summary).toContain('replaced "Pricing is simple" with "Pricing fits every team" (1 occurrence)');
  });

  it('2. replaces with "old" -> "new", across a line break and in single-quoted strings', async () => {
    await expectEdit(
      handDeck,
      `"eleven steps before they see" -> "three steps before they see" and "Team at $10" -> "Team at $12 'per seat'"`,
      [
        0,
        ([after]) => expect(after).toContain("New teams need three steps before they see a slide."),
        ([after]) => expect(after).toContain(`'Team at $12 \\'per seat\\''`),
        3,
        4,
        5,
      ],
    );
  });

  it('3. replaces with replace "old" with "new", escaping JSX text and attribute strings', async () => {
    const result = await expectEdit(
      handDeck,
      'replace “Eight engineers” with “Eight {senior} <engineers> & "friends"”',
      [
        0,
        1,
        2,
        ([after]) =>
          expect(after).toContain('<Text>{"Eight {senior} <engineers> & \\"friends\\""}, two designers.</Text>'),
        4,
        5,
      ],
    );
    expect(result.source).toContain("two designers");
    await expectEdit(handDeck, 'replace “Why now.” with “Why "now"”', [
      0,
      ([after]) => expect(after).toContain('notes={"Why \\"now\\""}'),
      2,
      3,
      4,
      5,
    ]);
  });

  it("4. replaces with change “old” to “new” (curly quotes)", async () => {
    await expectEdit(handDeck, "change “faster onboarding” to “quicker starts”", [
      0,
      1,
      2,
      3,
      ([after]) => expect(after).toContain('<Stat value="3x" label="quicker starts" />'),
      5,
    ]);
  });

  it("5. renames a slide by number", async () => {
    const result = await expectEdit(handDeck, 'rename slide 3 to "Plans"', [
      0,
      1,
      ([after]) => expect(after).toMatch(/^<Slide label='Plans' notes=\{"Plans and prices."\}>/),
      3,
      4,
      5,
    ]);
    expect((await compileDeck({ source: result.source, format: "slides" })).outline[2]).toBe("Plans");
  });

  it("6. renames a slide by label, case-insensitively", async () => {
    await expectEdit(handDeck, 'Rename "intro" to "Welcome"', [
      ([after]) => expect(after.startsWith('<Slide label="Welcome" layout="center">')).toBe(true),
      1,
      2,
      3,
      4,
      5,
    ]);
  });

  it("7. removes a slide by number and by label", async () => {
    await expectEdit(handDeck, "remove slide 4", [0, 1, 2, 4, 5]);
    const result = await expectEdit(handDeck, 'delete the "Pricing" slide', [0, 1, 3, 4, 5]);
    expect(result.source).not.toContain("Pricing");
    expect(result.source).not.toMatch(/\n\s*\n\s*<Slide/);
  });

  it("8. duplicates a slide right after itself with a (copy) label", async () => {
    const before = slideTexts(handDeck);
    const result = await expectEdit(handDeck, "duplicate slide 2", [
      0,
      1,
      ([after]) => expect(after).toBe((before[1] ?? "").replace('label="Problem"', 'label="Problem (copy)"')),
      2,
      3,
      4,
      5,
    ]);
    expect((await compileDeck({ source: result.source, format: "slides" })).outline).toContain("Problem (copy)");
  });

  it("9. moves a slide to a position", async () => {
    await expectEdit(handDeck, "move slide 5 to position 2", [0, 4, 1, 2, 3, 5]);
  });

  it("10. moves a slide before and after another by label", async () => {
    await expectEdit(handDeck, 'move "Pricing" before "Problem"', [0, 2, 1, 3, 4, 5]);
    await expectEdit(handDeck, 'move "Pricing" after "Results"', [0, 1, 3, 4, 2, 5]);
  });

  it("11. swaps two slides", async () => {
    const result = await expectEdit(handDeck, "swap slides 2 and 4", [0, 3, 2, 1, 4, 5]);
    expect(result.summary).toBe('swapped slide 2 "Problem" and slide 4 "Team".');
  });

  it("12. applies combined instructions in order, numbering slides as they were", async () => {
    const instruction = [
      'Replace "Onboarding takes too long" with "Onboarding is the bottleneck".',
      "Remove slide 4 and remove slide 6",
      'then rename "Results" to "Impact"; move slide 5 to position 2',
    ].join("\n");
    await expectEdit(handDeck, instruction, [
      0,
      ([after]) => expect(after).toMatch(/^<Slide label="Impact">/),
      ([after]) => expect(after).toContain("Onboarding is the bottleneck"),
      2,
    ]);
  });

  it("13. refuses a replacement whose old text does not occur, naming it", () => {
    const error = refusal(handDeck, '"Team at $10" → "Team at $12"\n"Quarterly goals" → "Goals"');
    expect(error.message).toContain('"Quarterly goals" does not occur in the deck');
  });

  it("14. refuses an instruction that needs a model, and any combination containing one", () => {
    const error = refusal(handDeck, "make slide 3 more persuasive");
    expect(error.message).toContain('does not understand "make slide 3 more persuasive"');
    expect(error.message).toContain("needs an AI model (set OPENAI_API_KEY)");
    expect(error.message).toContain("rename a slide");
    const combined = refusal(handDeck, 'rename slide 2 to "Why" and add a chart of revenue');
    expect(combined.message).toContain("OPENAI_API_KEY");
    expect(refusal(handDeck, "remove slide 9").message).toContain("There is no slide 9; the deck has 6 slides.");
    expect(refusal(handDeck, 'move "Nope" before "Team"').message).toContain('No slide is labelled "Nope"');
  });

  it("15. edits a hand-written deck with helper components, template literals and tricky strings", async () => {
    const result = await expectEdit(
      helperDeck,
      'swap slides 1 and 3, rename "example" to "Code sample", "Ship behind a flag" → "Ship `dark` ${first}"',
      [
        ([after]) => {
          expect(after).toMatch(/^<Slide\n\s+label="Checklist"/);
          expect(after).toContain('"Ship `dark` ${first}"');
        },
        ([after]) => expect(after).toMatch(/^<Slide label=\{`Code sample`\}>/),
        ([after]) => expect(after).toMatch(/^<Slide label=\{"Principles"\}/),
      ],
    );
    // The same phrase in the data array (a template-free string) changed too; the regex and comment did not.
    expect(result.source).toContain('body: "Ship `dark` ${first} </Slide> {not jsx}"');
    expect(result.source).toContain("const pattern = /<Slide>[}{]/g;");
    expect(result.source).toContain("{/* The opening slide: <Slide> in a comment is not a slide */}");
    const compiled = await compileDeck({ source: result.source, format: "slides" });
    expect(compiled.outline).toEqual(["Checklist", "Code sample", "Principles"]);

    await expectEdit(helperDeck, 'replace "baseline" with "`baseline` ${week}"', [0, 1, 2]);
    const templated = editOfflineDeck({
      source: helperDeck,
      instruction: 'replace "baseline" with "`base` ${week}"',
      format: "slides",
    });
    expect(templated.source).toContain('body: `Weekly, with ${"a"} \\`base\\` \\${week}`');
  });

  it("16. edits a webpage deck's beats", async () => {
    const result = await expectEdit(
      pageDeck,
      'move "Last" to position 2. Duplicate beat 1',
      [0, ([after]) => expect(after).toContain('label="Hero (copy)"'), 3, 1, 2],
      "webpage",
    );
    expect((await compileDeck({ source: result.source, format: "webpage" })).outline).toEqual([
      "Hero",
      "Hero (copy)",
      "Last",
      "First",
      "Second",
    ]);
  });

  it("17. edits a generated deck and keeps it compiling", async () => {
    const deck = generateOfflineDeck({
      brief: "# Review\n## Plan\n- One\n- Two\n## Risks\n- Three\n## Budget\nWe need $2M.",
      format: "slides",
    });
    expect(deck.outline).toEqual(["Cover", "Plan", "Risks", "Budget", "Thank you"]);
    const result = await expectEdit(deck.source, 'rename "Risks" to "What could go wrong"; swap slides 2 and 4', [
      0,
      3,
      ([after]) => expect(after).toContain('label="What could go wrong"'),
      1,
      4,
    ]);
    expect(result.summary).toContain('renamed slide 3 "Risks" to "What could go wrong"');
  });

  it("18. adds a slide about a topic with quoted points where it is told, keeping every other byte", async () => {
    const result = await expectEdit(
      handDeck,
      'Add a slide about "Hiring" after "Team" with "Two engineers" and "One designer"',
      [
        0,
        1,
        2,
        3,
        ([after]) => {
          expect(after).toContain('<Slide label="Hiring">');
          expect(after).toContain('<Bullets items={["Two engineers", "One designer"]} />');
        },
        4,
        5,
      ],
    );
    // Only the new slide was inserted: removing it gives back the module byte for byte.
    const added = locateSlides(result.source, "slides").slides[4]!;
    const lead = result.source.slice(0, added.start).match(/\n\s*$/)?.[0] ?? "";
    expect(result.source.slice(0, added.start - lead.length) + result.source.slice(added.end)).toBe(handDeck);
  });
});

describe("reviseOfflineDeck", () => {
  it("applies a recognisable revise brief and refuses anything else without touching the deck", async () => {
    const revised = reviseOfflineDeck({
      source: handDeck,
      brief: 'Add a slide about "Budget" at the end',
      format: "slides",
    });
    expect((await compileDeck({ source: revised.source, format: "slides" })).outline.at(-1)).toBe("Budget");
    for (const brief of ["Make it shorter and punchier", "# A new deck\n\n## Section\n- point"]) {
      try {
        reviseOfflineDeck({ source: handDeck, brief, format: "slides" });
        throw new Error("expected a refusal");
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect(statusOf(error as AppError)).toBe(422);
        expect((error as AppError).message).toMatch(/Without an AI model, revising a deck applies only instructions/);
        expect((error as AppError).message).toMatch(/OPENAI_API_KEY/);
      }
    }
  });
});
