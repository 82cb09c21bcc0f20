import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";

// Decks that use Timeline, Steps and multi-series charts compile like any other; the compiler checks
// names (not props: the player ignores what it does not know), so a misspelt component is refused
// with a pointer to the right one.

const deck = `import { Deck, Slide, Heading, Timeline, Steps, Chart } from "@deckhand/player";

const quarters = ["Q1", "Q2", "Q3", "Q4"];

export default function Plan() {
  return (
    <Deck title="Plan">
      <Slide label="Roadmap">
        <Heading>Launch in Q3</Heading>
        <Timeline
          highlight={1}
          items={[
            { date: "Q1 2025", title: "Pilot", detail: "Two teams" },
            { date: "Q2 2025", title: "Beta" },
            { date: "Q3 2025", title: "Launch" },
          ]}
        />
      </Slide>
      <Slide label="How it works">
        <Steps direction="vertical" items={[{ title: "Connect", detail: "Link a source" }, "Review", { title: "Publish" }]} />
      </Slide>
      <Slide label="Revenue by region">
        <Chart type="bar" labels={quarters} series={[{ name: "EMEA", values: [1, 2, 3, 4] }, { name: "APAC", values: [2, 3, 4, 5] }]} stacked />
      </Slide>
      <Slide label="Single series">
        <Chart type="line" data={[{ label: "Jan", value: 3 }, { label: "Feb", value: 5 }]} />
      </Slide>
    </Deck>
  );
}
`;

async function refusal(source: string): Promise<AppError> {
  try {
    await compileDeck({ source, format: "slides" });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("compile_failed");
    return error as AppError;
  }
  throw new Error("expected the deck to be refused");
}

describe("compileDeck with Timeline, Steps and multi-series charts", () => {
  it("compiles and reads the outline", async () => {
    const { outline, compiledJs } = await compileDeck({ source: deck, format: "slides" });
    expect(outline).toEqual(["Roadmap", "How it works", "Revenue by region", "Single series"]);
    expect(compiledJs).toMatch(/Timeline/);
    expect(compiledJs).toMatch(/Steps/);
  });

  it("suggests Timeline for a near miss and for Roadmap", async () => {
    const nearMiss = await refusal(deck.replace("Timeline, Steps", "Timline, Steps").replace("<Timeline", "<Timline"));
    expect(nearMiss.message).toContain('"Timline" is not a component');
    expect(nearMiss.message).toContain('Did you mean "Timeline"?');
    const alias = await refusal(deck.replace("Timeline, Steps", "Roadmap, Timeline, Steps"));
    expect(alias.message).toContain('Did you mean "Timeline"?');
  });

  it("suggests Steps for Process", async () => {
    const error = await refusal(deck.replace("Timeline, Steps", "Timeline, Steps, Process"));
    expect(error.message).toContain('"Process" is not a component');
    expect(error.message).toContain('Did you mean "Steps"?');
  });
});
