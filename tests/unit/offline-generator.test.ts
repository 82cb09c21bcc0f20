import { describe, expect, it } from "vitest";
import { editOfflineDeck, locateSlides, scanModule } from "@/lib/ai/offline/edit-deck";
import { generateOfflineDeck } from "@/lib/ai/offline/generate-deck";
import { parseBrief } from "@/lib/ai/offline/parse-brief";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/deck/compile";

type Format = "slides" | "webpage";

/** Items of every <Bullets items={[…]}> per slide, read with the editor's own scanner. */
function bulletsPerSlide(source: string, format: Format): Array<{ label: string | null; items: string[][] }> {
  const { slides } = locateSlides(source, format);
  const { elements } = scanModule(source);
  return slides.map((slide) => ({
    label: slide.label,
    items: elements
      .filter((element) => element.name === "Bullets" && element.start >= slide.start && element.end <= slide.end)
      .map((element) => {
        const value = element.attributes.find((attribute) => attribute.name === "items")?.value;
        if (!value || value.kind !== "expression") throw new Error("Bullets without literal items");
        const literal = source.slice(value.start + 1, value.end - 1).replace(/,\s*\]$/, "]");
        return JSON.parse(literal) as string[];
      }),
  }));
}

async function generateAndCheck(
  brief: string,
  options: { format?: Format; title?: string; agenda: boolean; closing?: string },
): Promise<{ source: string; outline: string[] }> {
  const format = options.format ?? "slides";
  const deck = generateOfflineDeck({ brief, format, ...(options.title ? { title: options.title } : {}) });
  const again = generateOfflineDeck({ brief, format, ...(options.title ? { title: options.title } : {}) });
  expect(again.source).toBe(deck.source);

  const compiled = await compileDeck({ source: deck.source, format });
  expect(compiled.outline).toEqual(deck.outline);
  expect(deck.outline[0]).toBe(format === "slides" ? "Cover" : "Hero");
  expect(deck.outline.includes("Agenda")).toBe(options.agenda);
  if (options.agenda) expect(deck.outline[1]).toBe("Agenda");
  expect(deck.outline.at(-1)).toBe(options.closing ?? "Thank you");
  expect(new Set(deck.outline.map((label) => label.toLowerCase())).size).toBe(deck.outline.length);

  for (const slide of bulletsPerSlide(deck.source, format)) {
    const count = slide.items.reduce((total, items) => total + items.length, 0);
    // The agenda lists up to eight section names; every content slide keeps to five bullets.
    expect(count).toBeLessThanOrEqual(slide.label === "Agenda" ? 8 : 5);
  }
  expect(deck.source).not.toMatch(/#[0-9a-f]{3,6}\b|style=|className=/i);
  const imports = /import \{([^}]*)\} from "@deckhand\/player";/.exec(deck.source)?.[1] ?? "";
  for (const name of imports.split(",").map((part) => part.trim())) {
    expect(deck.source.slice(deck.source.indexOf("export default"))).toContain(`<${name}`);
  }
  return deck;
}

function essay(words: number): string {
  const topics = [
    "onboarding",
    "pricing",
    "support",
    "hiring",
    "security",
    "platform",
    "design",
    "sales",
    "data",
    "growth",
  ];
  const paragraphs: string[] = [];
  let count = 0;
  for (let p = 0; count < words; p++) {
    const topic = topics[p % topics.length] ?? "work";
    const sentences = [
      `Our ${topic} work changed a lot in year ${p + 1} of the plan.`,
      `The team ran ${p + 12} small tests and kept the ones that moved the metric.`,
      `Customers told us the old flow was slow, hard to follow and easy to abandon halfway through.`,
      `We cut the steps, wrote clearer copy and measured every change against the same baseline week.`,
      `Conversion rose ${(p % 7) + 3}% over the quarter, and support tickets about ${topic} fell.`,
      `Next year we want to keep the pace without adding people, which means better tools and fewer handoffs.`,
    ];
    const paragraph = sentences.join(" ");
    paragraphs.push(paragraph);
    count += paragraph.split(/\s+/).length;
  }
  return paragraphs.join("\n\n");
}

describe("parseBrief", () => {
  it("reads stats with labels from the words around them", () => {
    const parsed = parseBrief("## Results\n- Revenue grew 42% to $3.1M\n- 1,200 customers\n- Builds are 3x faster");
    const stats = parsed.sections[0]?.stats.map((stat) => `${stat.value} ${stat.label.toLowerCase()}`);
    expect(stats).toEqual(["42% revenue growth", "$3.1M revenue", "1,200 customers", "3x faster builds"]);
  });

  it("reads quotes with attribution in every common style", () => {
    const parsed = parseBrief(
      [
        "## Voices",
        "“This is the fastest way we have ever made a deck.” — Priya Raman, Head of Marketing",
        "",
        "> Ship small, learn fast, and keep the promise.",
        "> — Dana Ruiz",
      ].join("\n"),
    );
    expect(parsed.sections[0]?.quotes).toEqual([
      { text: "This is the fastest way we have ever made a deck.", by: "Priya Raman", role: "Head of Marketing" },
      { text: "Ship small, learn fast, and keep the promise.", by: "Dana Ruiz" },
    ]);
  });

  it("refuses an empty brief", () => {
    expect(() => parseBrief("   \n ")).toThrow(AppError);
  });
});

describe("generateOfflineDeck", () => {
  it("1. turns a one-line prose ask into a titled cover and a close", async () => {
    const deck = await generateAndCheck(
      "Make a short deck about why our team should adopt TypeScript for new services",
      {
        agenda: false,
      },
    );
    expect(deck.outline).toEqual(["Cover", "Thank you"]);
    expect(deck.source).toContain("Why our team should adopt TypeScript");
  });

  it("2. lays out a 2,000-word essay quickly, grouped into at most eight sections", async () => {
    const brief = essay(2000);
    expect(brief.split(/\s+/).length).toBeGreaterThanOrEqual(2000);
    const started = performance.now();
    generateOfflineDeck({ brief, format: "slides" });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(100);
    const deck = await generateAndCheck(brief, { agenda: true });
    expect(deck.outline.length).toBeGreaterThanOrEqual(10);
    expect(deck.outline.length).toBeLessThanOrEqual(20);
  });

  it("3. follows a Markdown outline with # title and ## sections", async () => {
    const brief = [
      "# Q3 product review",
      "",
      "## Onboarding got faster",
      "We rebuilt the first-run flow around templates. Teams now reach a first deck in minutes.",
      "",
      "## What we shipped",
      "- Templates for the five most common decks",
      "- Brand import from a website",
      "- Invites from inside the editor",
      "",
      "## Risks",
      "Enterprise security reviews are slow.",
      "",
      "## Next steps",
      "- Hire two engineers",
      "- Ship team onboarding",
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: true, closing: "Next steps" });
    expect(deck.outline).toEqual([
      "Cover",
      "Agenda",
      "Onboarding got faster",
      "What we shipped",
      "Risks",
      "Next steps",
    ]);
    expect(deck.source).toContain('<Title align="center">Q3 product review</Title>');
  });

  it("4. makes a slide from a bare bullet list", async () => {
    const deck = await generateAndCheck("- Faster exports\n- Cheaper plans\n- Better charts", { agenda: false });
    expect(deck.outline).toEqual(["Cover", "Faster exports", "Thank you"]);
    expect(deck.source).toContain('items={["Faster exports", "Cheaper plans", "Better charts"]}');
  });

  it("5. uses Title:, Subtitle: and Audience: lines for the cover", async () => {
    const brief = [
      "Title: Hiring plan 2026",
      "Subtitle: How we grow the team without slowing down",
      "Audience: the leadership team",
      "",
      "## Where we are",
      "- 14 engineers, 3 open roles",
      "- Attrition was 8% last year",
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: false });
    expect(deck.source).toContain(
      '<Title kicker="For the leadership team" subtitle="How we grow the team without slowing down" align="center">',
    );
    expect(deck.source).toContain('<Deck title="Hiring plan 2026">');
  });

  it("6. reads numbered sections", async () => {
    const brief = [
      "1. Where we are",
      "We have a product people like and a funnel that leaks.",
      "",
      "2. What we change",
      "- Shorter sign-up",
      "- Guided first deck",
      "",
      "3. How we measure",
      "Weekly activation, reviewed every Monday.",
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: true });
    expect(deck.outline).toEqual(["Cover", "Agenda", "Where we are", "What we change", "How we measure", "Thank you"]);
  });

  it("7. turns a stats-heavy section into a grid of Stat", async () => {
    const brief = [
      "# Results",
      "## The numbers",
      "- Revenue grew 42% to $3.1M",
      "- 1,200 customers",
      "- Onboarding is 3x faster",
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: false });
    expect(deck.source).toContain("<Grid columns={4}");
    expect(deck.source).toContain('<Stat value="42%" label="Revenue growth" />');
    expect(deck.source).toContain('<Stat value="$3.1M" label="Revenue" />');
    expect(deck.source).toContain('<Stat value="1,200" label="Customers" />');
    expect(deck.source).toContain('<Stat value="3x" label="Faster onboarding" />');
  });

  it("8. gives an attributed quote its own centred slide", async () => {
    const brief = [
      "# Customer voice",
      "## Lumen Labs",
      "“We had a board deck in front of our CEO before the coffee went cold.” — Priya Raman, Head of Marketing, Lumen Labs",
      "## Why it matters",
      "Speed to a first deck predicts retention.",
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: false });
    expect(deck.source).toMatch(
      /<Slide\s+label="Lumen Labs"\s+layout="center"\s+background="surface"[\s\S]*?<Quote by="Priya Raman" role="Head of Marketing, Lumen Labs" size="lg">/,
    );
  });

  it("9. escapes braces, angle brackets, quotes, backslashes, dollars and emoji", async () => {
    const nasty = 'Use {braces} & <tags> with "quotes", a \\ backslash, ${dollars} and </Slide> 🚀';
    const brief = [
      `# ${nasty}`,
      `## Edge {cases} <b>`,
      `- ${nasty}`,
      `- </Slide> closes nothing`,
      `Plain text */ ${nasty}`,
    ].join("\n");
    const deck = await generateAndCheck(brief, { agenda: false });
    // Shortened on the slide, whole in the notes.
    expect(deck.source).toContain(JSON.stringify(`- ${nasty}`).slice(1, -1));
    expect(deck.source).toContain("🚀");
    expect(deck.outline[1]).toBe("Edge {cases} <b>");
  });

  it("10. splits a 12-bullet section into three continuation slides and shortens long points", async () => {
    const long = "Every customer who signs up in the first week gets a guided tour of the editor and templates";
    const points = Array.from({ length: 11 }, (_, index) => `- Point number ${index + 1}`);
    const brief = ["# Launch checklist", "## Before launch", ...points, `- ${long}`].join("\n");
    const deck = await generateAndCheck(brief, { agenda: false });
    expect(deck.outline).toEqual([
      "Cover",
      "Before launch (1/3)",
      "Before launch (2/3)",
      "Before launch (3/3)",
      "Thank you",
    ]);
    const counts = bulletsPerSlide(deck.source, "slides").map((slide) => slide.items.flat().length);
    expect(counts).toEqual([0, 4, 4, 4, 0]);
    const shortened = bulletsPerSlide(deck.source, "slides")[3]?.items.flat().at(-1) ?? "";
    expect(shortened.split(/\s+/).length).toBeLessThanOrEqual(13);
    // The full point survives in the notes.
    expect(deck.source).toContain(long);
  });

  it("11. makes a webpage of beats with a full-screen hero", async () => {
    const brief = [
      "# Field notes",
      "## Why we built it",
      "Decks take too long. We wanted a tool that writes the first draft and gets out of the way.",
      "## What it does",
      "- Drafts a deck from a brief",
      "- Keeps your brand",
      "- Exports to PDF and PPTX",
    ].join("\n");
    const deck = await generateAndCheck(brief, { format: "webpage", agenda: false });
    expect(deck.source).toContain('<Beat label="Hero" layout="center" height="screen" background="primary">');
    expect(deck.source).not.toContain("<Slide");
    expect(deck.source).not.toContain("notes=");
    expect(deck.outline).toEqual(["Hero", "Why we built it", "What it does", "Thank you"]);
  });

  it("12. handles a one-word brief", async () => {
    const deck = await generateAndCheck("Onboarding", { agenda: false });
    expect(deck.outline).toEqual(["Cover", "Thank you"]);
    expect(deck.source).toContain('<Deck title="Onboarding">');
  });

  it("13. prefers the given title and stays deterministic across formats", async () => {
    const brief = "## Plan\n- One\n- Two\n## Risks\n- Three\n## Budget\nWe need $2M for 18 months.";
    const deck = await generateAndCheck(brief, { title: "Board update", agenda: true });
    expect(deck.source).toContain('<Deck title="Board update">');
    expect(deck.source).toContain("export default function BoardUpdateDeck()");
  });
});

// ---------------------------------------------------------------------------------------------

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
    expect((error as AppError).status).toBe(422);
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
    const result = await expectEdit(deck.source, 'rename "Risks" to "What could go wrong"; swap slides 3 and 5', [
      0,
      1,
      4,
      ([after]) => expect(after).toContain('label="What could go wrong"'),
      2,
      5,
    ]);
    expect(result.summary).toContain('renamed slide 4 "Risks" to "What could go wrong"');
  });
});
