import { describe, expect, it } from "vitest";
import { compileDeck } from "@/lib/source/compile";
import { insertElement, insertImage, insertKinds, moveElement } from "@/lib/source/transform/insert";
import { readElementTexts, setElementText } from "@/lib/source/transform/element-text";
import { elementsOfSlide } from "@/lib/source/transform/props";
import { refusal } from "../helpers/source-assertions";

// The visual editor's Insert and Move (lib/source/transform/insert.ts): a new element lands where the slide's
// layout puts it, on lines of its own, with its import; a move swaps an element with its neighbour only.

const deck = `import { Deck, Slide, Title, Heading, Text, Grid, Stat, Columns, Stack } from "@deckhand/player";

export default function Pitch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center">
        <Title subtitle="Seed round">Acme robots</Title>
      </Slide>
      <Slide label="Numbers">
        <Heading>The numbers</Heading>
        <Grid columns={3}>
          <Stat value="42%" label="Growth" />
          <Stat value="3x" label="Speed" />
        </Grid>
      </Slide>
      <Slide label="Sides">
        <Heading>Two sides</Heading>
        <Columns>
          <Stack>
            <Text>Left</Text>
          </Stack>
          <Stack>
            <Text>Right</Text>
          </Stack>
        </Columns>
      </Slide>
    </Deck>
  );
}
`;

const names = (source: string, slide: number) => elementsOfSlide(source, "slides", slide).map((e) => e.name);

describe("insertElement", () => {
  it("adds every kind at the end of a plain slide, with its import, and the deck compiles", async () => {
    for (const kind of insertKinds) {
      const next = insertElement(deck, "slides", { slide: 0, kind });
      const added = names(next, 0);
      expect(added.length, kind).toBe(2);
      expect(next.slice(0, next.indexOf("\n"))).toMatch(new RegExp(`\\b${added[1]}\\b`));
      // The slide's closing tag keeps its own line and indentation.
      expect(next).toMatch(/\n {8}<[A-Z][^\n]*\n(?:[^\n]*\n)*? {6}<\/Slide>/);
      const compiled = await compileDeck({ source: next, format: "slides" });
      expect(compiled.outline).toHaveLength(3);
    }
  });

  it("puts a stat into the slide's grid of stats, and anything else after the grid", () => {
    const stat = insertElement(deck, "slides", { slide: 1, kind: "stat" });
    expect(names(stat, 1)).toEqual(["Heading", "Grid", "Stat", "Stat", "Stat"]);
    expect(stat).toContain(
      '<Stat value="3x" label="Speed" />\n          <Stat value="42%" label="What the number measures" />\n        </Grid>',
    );
    const first = elementsOfSlide(deck, "slides", 1).find((e) => e.name === "Stat")!;
    const text = insertElement(deck, "slides", { slide: 1, kind: "text", after: first.start });
    expect(names(text, 1)).toEqual(["Heading", "Grid", "Stat", "Stat", "Text"]);
  });

  it("adds to the last column of a slide in columns, and after the selected element when one is given", () => {
    const end = insertElement(deck, "slides", { slide: 2, kind: "text" });
    expect(end).toContain("<Text>Right</Text>\n            <Text>Write your text here.</Text>\n          </Stack>");
    const heading = elementsOfSlide(deck, "slides", 2)[0]!;
    const after = insertElement(deck, "slides", { slide: 2, kind: "bullets", after: heading.start });
    expect(names(after, 2).slice(0, 3)).toEqual(["Heading", "Bullets", "Columns"]);
    expect(after).toContain("<Heading>Two sides</Heading>\n        <Bullets items=");
  });

  it("refuses an unknown kind and an element that is no longer there", () => {
    expect(refusal(() => insertElement(deck, "slides", { slide: 0, kind: "video" as never })).message).toMatch(
      /choose one of: text, bullets/,
    );
    expect(refusal(() => insertElement(deck, "slides", { slide: 0, kind: "text", after: 3 })).message).toMatch(
      /changed since it was read/,
    );
  });
});

describe("moveElement", () => {
  it("swaps an element with its neighbour in the same parent, and refuses past the end", () => {
    const stats = elementsOfSlide(deck, "slides", 1).filter((e) => e.name === "Stat");
    const moved = moveElement(deck, "slides", { slide: 1, start: stats[1]!.start, direction: -1 });
    expect(moved).toContain('<Stat value="3x" label="Speed" />\n          <Stat value="42%" label="Growth" />');
    expect(moved.length).toBe(deck.length);
    const heading = elementsOfSlide(deck, "slides", 1)[0]!;
    const later = moveElement(deck, "slides", { slide: 1, start: heading.start, direction: 1 });
    expect(names(later, 1)).toEqual(["Grid", "Stat", "Stat", "Heading"]);
    expect(
      refusal(() => moveElement(deck, "slides", { slide: 1, start: heading.start, direction: -1 })).message,
    ).toMatch(/already the first element on the slide/);
  });
});

describe("insertImage", () => {
  it("adds an uploaded image by its asset path with its description, and refuses other addresses", async () => {
    const next = insertImage(deck, "slides", { slide: 0, src: "/assets/abc.png", alt: 'A "robot"' });
    expect(next).toContain('<Image src="/assets/abc.png" alt={"A \\"robot\\""} fit="contain" />\n      </Slide>');
    expect(next.split("\n")[0]).toMatch(/\bImage\b/);
    expect(
      refusal(() => insertImage(deck, "slides", { slide: 0, src: "javascript:alert(1)", alt: "x" })).message,
    ).toMatch(/not an image address/);
  });
});

describe("an element's own text", () => {
  it("reads plain words between the tags and rewrites only them; markup or code is left alone", () => {
    const source = deck.replace("<Text>Left</Text>", "<Text>Left <strong>side</strong></Text>");
    const elements = elementsOfSlide(source, "slides", 2);
    const texts = readElementTexts(
      source,
      "slides",
      elements.map((element) => element.start),
    );
    const heading = elements.find((element) => element.name === "Heading")!;
    const mixed = elements.find((element) => element.name === "Text")!;
    expect(texts.get(heading.start)).toBe("Two sides");
    expect(texts.has(mixed.start)).toBe(false);
    const next = setElementText(source, "slides", { start: heading.start, next: "Both <sides> {here}" });
    expect(next).toBe(source.replace("<Heading>Two sides</Heading>", '<Heading>{"Both <sides> {here}"}</Heading>'));
    expect(refusal(() => setElementText(source, "slides", { start: heading.start, next: "  " })).message).toMatch(
      /use Remove/,
    );
    expect(refusal(() => setElementText(source, "slides", { start: mixed.start, next: "x" })).message).toMatch(
      /mixed with markup/,
    );
  });
});
