import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editOfflineDeck } from "@/lib/ai/offline/edit-deck";
import { generateOfflineDeck } from "@/lib/ai/offline/generate-deck";
import { compileDeck } from "@/lib/source/compile";
import {
  addSlide,
  deleteSlide,
  duplicateSlide,
  moveSlide,
  outlineSlides,
  readSlideNotes,
  renameSlide,
  setSlideNotes,
} from "@/lib/source/transform/edit";
import { removeElement } from "@/lib/source/transform/elements";
import { slideLayouts } from "@/lib/source/transform/layouts";
import { mergeSlides } from "@/lib/source/transform/merge";
import { elementsOfSlide, setArrayProp, setProp } from "@/lib/source/transform/props";
import { findText, replaceText } from "@/lib/source/transform/text";
import { starterSource } from "@/lib/source/starter";
import { fiveSlideDeck, newVocabularyDeck, showcaseDeck, webpageDeck } from "../helpers/sample-decks";
import { expectSplice, refusal } from "../helpers/source-assertions";

// The visual editor's source edits (lib/source/transform/): each a splice at @babel/parser positions, so the
// module changes by the edited characters only; refusals say what to do instead.

const deck = `import { Deck, Slide, Title, Heading, Text, Bullets, Stat, Grid, Table, Chart, Code } from "@deckhand/player";

const owner = "Dana";

export default function Review() {
  return (
    <Deck title="Review">
      <Slide label="Intro" layout="center">
        <Title subtitle="Where we are">Quarterly review</Title>
      </Slide>
      <Slide label='Pricing' notes={"Plans."}>
        <Heading>Pricing</Heading>
        <Text>
          Fish &amp; chips for
          everyone, {owner}.
        </Text>
        <Bullets items={["Free for one", 'Team at $10', "Enterprise"]} />
      </Slide>
      <Slide label="Numbers">
        <Grid columns={2}>
          <Stat value="$4M" label="ARR" />
          <Stat value="$1M" label="ARR" detail="last year" />
        </Grid>
        <Table columns={["Plan", "Price"]} rows={[["Team", "$10"], ["Pro", 20]]} />
        <Chart type="bar" data={[{ label: "Q1", value: 3 }, { label: "Q2", value: 5 }]} />
      </Slide>
      <Slide label="Code">
        <Code language="ts" code={\`const total = \${a} + 1;\`} />
      </Slide>
    </Deck>
  );
}
`;

const mapped = `import { Deck, Slide, Heading } from "@deckhand/player";

const topics = ["One", "Two"];

export default function Mapped() {
  return (
    <Deck>
      <Slide label="Intro"><Heading>Intro</Heading></Slide>
      {topics.map((topic) => (
        <Slide key={topic} label={topic}><Heading>{topic}</Heading></Slide>
      ))}
    </Deck>
  );
}
`;

async function outline(source: string, format: "slides" | "webpage" = "slides"): Promise<string[]> {
  return (await compileDeck({ source, format })).outline;
}

describe("outlineSlides", () => {
  it("lists the top-level slides with their positions, labels and lines", () => {
    const { slides, editable } = outlineSlides(deck, "slides");
    expect(editable).toBe(true);
    expect(slides.map((slide) => slide.label)).toEqual(["Intro", "Pricing", "Numbers", "Code"]);
    expect(slides.map((slide) => slide.line)).toEqual([8, 11, 19, 27]);
    for (const slide of slides) expect(deck.slice(slide.start, slide.end)).toMatch(/^<Slide[\s\S]*<\/Slide>$/);
    expect(outlineSlides(webpageDeck, "webpage").slides.length).toBeGreaterThan(0);
  });

  it("is not editable when slides are made with .map", () => {
    const { slides, editable } = outlineSlides(mapped, "slides");
    expect(editable).toBe(false);
    expect(slides.map((slide) => slide.label)).toEqual(["Intro"]);
  });
});

describe("findText and replaceText", () => {
  it("replaces collapsed multi-line JSX text with an entity, keeping the lines around it", () => {
    const match = findText(deck, "slides", { slide: 1, text: "Fish & chips for everyone," });
    expect(match.kind).toBe("jsx-text");
    expect(deck.slice(match.start, match.end)).toBe("Fish &amp; chips for\n          everyone,");
    const next = replaceText(deck, "slides", { slide: 1, text: "Fish & chips for everyone,", next: "Tea for" });
    expectSplice(deck, next, match.start, match.end, "Tea for");
  });

  it("escapes braces, angle brackets and entities in JSX text", () => {
    const next = replaceText(deck, "slides", { slide: 0, text: "Quarterly review", next: "A {b} <c> &amp; d" });
    expect(next).toContain('<Title subtitle="Where we are">A {"{"}b{"}"} &lt;c&gt; &amp;amp; d</Title>');
  });

  it("allows empty JSX text", () => {
    const next = replaceText(deck, "slides", { slide: 1, text: "Pricing", next: "" });
    expect(next).toContain("<Heading></Heading>");
  });

  it("skips attribute values never shown (the slide's label) when counting occurrences", () => {
    const match = findText(deck, "slides", { slide: 1, text: "Pricing" });
    expect(deck.slice(match.start - 9, match.end)).toBe("<Heading>Pricing");
  });

  it("replaces attribute strings, as an expression when the new text has their quote", () => {
    const first = findText(deck, "slides", { slide: 2, text: "ARR" });
    const second = findText(deck, "slides", { slide: 2, text: "ARR", occurrence: 1 });
    expect(first.kind).toBe("jsx-attr");
    expect(second.start).toBeGreaterThan(first.start);
    const plain = replaceText(deck, "slides", { slide: 2, text: "ARR", occurrence: 1, next: "Revenue" });
    expectSplice(deck, plain, second.start, second.end, "Revenue");
    const quoted = replaceText(deck, "slides", { slide: 2, text: "ARR", next: 'Net "new"' });
    expect(quoted).toContain('<Stat value="$4M" label={"Net \\"new\\""} />');
    const emptied = replaceText(deck, "slides", { slide: 2, text: "$4M", next: "" });
    expect(emptied).toContain('<Stat value="" label="ARR" />');
    expect(refusal(() => findText(deck, "slides", { slide: 2, text: "ARR", occurrence: 2 })).message).toContain(
      '"ARR" occurs 2 times on slide 3; there is no occurrence 3.',
    );
  });

  it("replaces strings in arrays (Bullets, Table rows, Chart data) keeping their quote", () => {
    const bullets = replaceText(deck, "slides", { slide: 1, text: "Team at $10", next: "Team's at $12" });
    expect(bullets).toContain(`<Bullets items={["Free for one", 'Team\\'s at $12', "Enterprise"]} />`);
    const cell = replaceText(deck, "slides", { slide: 2, text: "Team", next: 'Team "plus"' });
    expect(cell).toContain('rows={[["Team \\"plus\\"", "$10"], ["Pro", 20]]}');
    const label = findText(deck, "slides", { slide: 2, text: "Q2" });
    expect(label.kind).toBe("string");
    expectSplice(deck, replaceText(deck, "slides", { slide: 2, text: "Q2", next: "H2" }), label.start, label.end, "H2");
  });

  it("replaces a template chunk, escaping backticks and ${", async () => {
    const match = findText(deck, "slides", { slide: 3, text: "+ 1;" });
    expect(match.kind).toBe("template");
    const next = replaceText(deck, "slides", { slide: 3, text: "+ 1;", next: "+ `${b}`;" });
    expectSplice(deck, next, match.start, match.end, "+ \\`\\${b}\\`;");
    expect(await outline(next)).toEqual(["Intro", "Pricing", "Numbers", "Code"]);
  });

  it("refuses computed text, text written outside the slide and slides made with .map", () => {
    expect(
      refusal(() => replaceText(deck, "slides", { slide: 1, text: "everyone, Dana.", next: "x" })).message,
    ).toMatch(/"everyone, Dana\." is not written as such in slide 2's code: it is computed/);
    expect(refusal(() => findText(deck, "slides", { slide: 1, text: "Dana" })).message).toContain(
      '"Dana" is not written in slide 2\'s code but at line 3',
    );
    expect(refusal(() => replaceText(mapped, "slides", { slide: 0, text: "Intro", next: "x" })).message).toMatch(
      /made in code \(with \.map, a condition or a helper component\)/,
    );
    expect(refusal(() => findText(deck, "slides", { slide: 9, text: "x" })).message).toBe(
      "There is no slide 10; the deck has 4 slides.",
    );
  });

  it("says which text in other slides or occurrence numbers it cannot use", () => {
    expect(refusal(() => findText(deck, "slides", { slide: 0, text: "Enterprise" })).message).toMatch(
      /"Enterprise" is not written as such in slide 1's code/,
    );
    expect(refusal(() => findText(deck, "slides", { slide: 2, text: "ARR", occurrence: -1 })).message).toBe(
      "The occurrence is counted from 0; -1 is not one.",
    );
  });

  it("refuses a module that does not parse, in words the caller can add to", () => {
    const broken = deck.replace("</Deck>", "</Dek>");
    expect(refusal(() => outlineSlides(broken, "slides")).message).toMatch(
      /^This deck's source is not valid TSX \(.+\); fix it in the code editor first\.$/,
    );
    expect(
      refusal(() => editOfflineDeck({ source: broken, instruction: "remove slide 2", format: "slides" })).message,
    ).toMatch(
      /^The offline editor could not read this deck's source \(.+\); this edit needs an AI model \(set OPENAI_API_KEY\)\.$/,
    );
  });

  it("changes each text of a real deck by its own bytes only, and the result compiles", async () => {
    let source = fiveSlideDeck;
    const texts: Array<[number, string]> = [
      [0, "Launch review"],
      [0, "Q3 2026"],
      [1, "Usage-based pricing for teams"],
      [1, "From 21% to 43% of new sign-ups in six weeks."],
      [2, "Sep"],
      [3, "September revenue"],
      [4, "Ship small, learn fast, and keep the promise."],
    ];
    for (const [slide, text] of texts) {
      const match = findText(source, "slides", { slide, text });
      const next = replaceText(source, "slides", { slide, text, next: `${text}!` });
      expectSplice(source, next, match.start, match.end, `${source.slice(match.start, match.end)}!`);
      source = next;
    }
    await outline(source);
  });
});

describe("addSlide", () => {
  it("writes every gallery layout, in both formats, into a deck that compiles", async () => {
    expect(slideLayouts.map((layout) => layout.id)).toHaveLength(11);
    for (const format of ["slides", "webpage"] as const) {
      for (const layout of slideLayouts) {
        const source = addSlide(starterSource(format, "Deck"), format, { after: 0, layout: layout.id });
        const labels = await outline(source, format);
        expect(labels, `${format} ${layout.id}`).toHaveLength(3);
        expect(labels[1]).toBe(layout.name);
      }
    }
  });

  it("indents like its neighbours and adds missing names to a one-line import", () => {
    const starter = starterSource("slides", "Deck");
    const source = addSlide(starter, "slides", { after: 1, layout: "stats", label: "Traction" });
    expect(source).toContain('import { Deck, Slide, Title, Heading, Bullets, Grid, Stat } from "@deckhand/player";');
    expect(source).toContain(`      </Slide>
      <Slide label="Traction">
        <Heading>The numbers that matter</Heading>
        <Grid columns={3}>
          <Stat value="42%" label="First measure" />`);
    const body = starter.indexOf("\n");
    expect(source.slice(source.indexOf("\n"), source.indexOf('<Slide label="Traction"') - 7)).toBe(
      starter.slice(body, starter.lastIndexOf("</Slide>") + "</Slide>".length),
    );
    const first = addSlide(starter, "slides", { after: -1, layout: "cover" });
    expect(outlineSlides(first, "slides").slides.map((slide) => slide.label)).toEqual(["Cover", "Title", "Agenda"]);
  });

  it("keeps a one-name-per-line import's style and numbers a repeated label", () => {
    const source = `import {
  Deck,
  Slide,
  Heading,
} from "@deckhand/player";

export default function D() {
  return (
    <Deck>
      <Slide label="Bullets"><Heading>One</Heading></Slide>
    </Deck>
  );
}
`;
    const next = addSlide(source, "slides", { after: 0, layout: "bullets" });
    expect(next.startsWith(`import {\n  Deck,\n  Slide,\n  Heading,\n  Bullets,\n} from "@deckhand/player";`)).toBe(
      true,
    );
    expect(outlineSlides(next, "slides").slides.map((slide) => slide.label)).toEqual(["Bullets", "Bullets (2)"]);
  });

  it("refuses an unknown layout and a position past the end", () => {
    const starter = starterSource("slides", "Deck");
    expect(refusal(() => addSlide(starter, "slides", { after: 0, layout: "hero" as "cover" })).message).toContain(
      'There is no slide layout "hero"',
    );
    expect(refusal(() => addSlide(starter, "slides", { after: 2, layout: "cover" })).message).toContain(
      "Cannot add a slide after slide 3",
    );
  });
});

describe("slide operations", () => {
  it("moves the first slide last and back to the identical source", () => {
    for (const [source, format] of [
      [deck, "slides"],
      [showcaseDeck, "slides"],
      [webpageDeck, "webpage"],
    ] as const) {
      const count = outlineSlides(source, format).slides.length;
      const moved = moveSlide(source, format, 0, count - 1);
      expect(moved).not.toBe(source);
      expect(outlineSlides(moved, format).slides.at(-1)?.label).toBe(outlineSlides(source, format).slides[0]?.label);
      expect(moveSlide(moved, format, count - 1, 0)).toBe(source);
    }
  });

  it("duplicates a slide after itself with a copy's label", async () => {
    const next = duplicateSlide(deck, "slides", 1);
    expect(await outline(next)).toEqual(["Intro", "Pricing", "Pricing (copy)", "Numbers", "Code"]);
    const [, original, copy] = outlineSlides(next, "slides").slides;
    expect(next.slice(copy!.start, copy!.end)).toBe(
      next.slice(original!.start, original!.end).replace("label='Pricing'", "label='Pricing (copy)'"),
    );
  });

  it("deletes a slide with its line, and refuses deleting the last one", async () => {
    const slides = outlineSlides(deck, "slides").slides;
    const withoutSecond = deleteSlide(deck, "slides", 1);
    expect(withoutSecond).toBe(deck.slice(0, slides[0]!.end) + deck.slice(slides[1]!.end));
    const withoutFirst = deleteSlide(deck, "slides", 0);
    expect(withoutFirst).toBe(deck.slice(0, slides[0]!.start) + deck.slice(slides[1]!.start));
    expect(await outline(withoutFirst)).toEqual(["Pricing", "Numbers", "Code"]);
    let one = deck;
    for (let index = 0; index < 3; index++) one = deleteSlide(one, "slides", 0);
    expect(refusal(() => deleteSlide(one, "slides", 0)).message).toBe(
      "A deck needs at least one slide; this is its last one.",
    );
  });

  it("renames a slide: sets, adds right after the name, and removes the label", () => {
    const set = renameSlide(deck, "slides", 1, "Plans");
    expect(set).toBe(deck.replace("label='Pricing'", "label='Plans'"));
    const removed = renameSlide(deck, "slides", 0, " ");
    expect(removed).toBe(deck.replace('<Slide label="Intro" layout="center">', '<Slide layout="center">'));
    expect(renameSlide(removed, "slides", 0, "Intro")).toBe(deck);
    expect(renameSlide(deck, "slides", 2, 'Say "hi"')).toContain('<Slide label={"Say \\"hi\\""}>');
  });
});

describe("speaker notes and removing an element", () => {
  it("reads, sets and removes a slide's notes, in a string expression when the text needs one", () => {
    expect(readSlideNotes(deck, "slides", 1)).toBe("Plans.");
    expect(readSlideNotes(deck, "slides", 0)).toBe("");
    const set = setSlideNotes(deck, "slides", 0, "  Open with the headline  ");
    expect(set).toBe(
      deck.replace(
        '<Slide label="Intro" layout="center">',
        '<Slide label="Intro" layout="center" notes="Open with the headline">',
      ),
    );
    expect(setSlideNotes(deck, "slides", 1, 'Two lines\nand a "quote"')).toContain(
      '<Slide label=\'Pricing\' notes={"Two lines\\nand a \\"quote\\""}>',
    );
    expect(setSlideNotes(deck, "slides", 1, "")).toBe(deck.replace(' notes={"Plans."}', ""));
    expect(readSlideNotes(starterSource("slides", "New"), "slides", 1)).toBe("");
  });

  it("removes an element with its lines, or with the space before it when it shares a line, and compiles", async () => {
    const [, , bullets] = elementsOfSlide(deck, "slides", 1);
    const without = removeElement(deck, "slides", { slide: 1, start: bullets!.start });
    expect(without).toBe(
      deck.replace(`        <Bullets items={["Free for one", 'Team at $10', "Enterprise"]} />\n`, ""),
    );
    expect(await outline(without)).toEqual(["Intro", "Pricing", "Numbers", "Code"]);
    const title = '<Title subtitle="Where we are">Quarterly review</Title>';
    const inline = deck.replace(title, `${title} <Text>Hi</Text>`);
    const second = elementsOfSlide(inline, "slides", 0)[1]!;
    expect(second.name).toBe("Text");
    expect(removeElement(inline, "slides", { slide: 0, start: second.start })).toBe(deck);
    expect(refusal(() => removeElement(deck, "slides", { slide: 0, start: bullets!.start })).code).toBe(
      "invalid_request",
    );
  });
});

describe("elementsOfSlide and setProp", () => {
  it("lists the vocabulary elements of a slide with their props", () => {
    const elements = elementsOfSlide(deck, "slides", 2);
    expect(elements.map((element) => element.name)).toEqual(["Grid", "Stat", "Stat", "Table", "Chart"]);
    expect(elements[0]?.props).toEqual([expect.objectContaining({ name: "columns", kind: "number", value: 2 })]);
    expect(elements[2]?.props.map(({ name, kind, value }) => ({ name, kind, value }))).toEqual([
      { name: "value", kind: "string", value: "$1M" },
      { name: "label", kind: "string", value: "ARR" },
      { name: "detail", kind: "string", value: "last year" },
    ]);
    expect(elements[3]?.props.map((prop) => prop.kind)).toEqual(["expression", "expression"]);
    const slide1 = elementsOfSlide(deck, "slides", 1);
    expect(slide1.map((element) => element.name)).toEqual(["Heading", "Text", "Bullets"]);
  });

  it("sets, adds and removes props as a person would write them", async () => {
    const [grid, stat] = elementsOfSlide(deck, "slides", 2);
    const columns = setProp(deck, { start: grid!.start, name: "columns", value: 3 });
    expect(columns).toBe(deck.replace("<Grid columns={2}>", "<Grid columns={3}>"));
    const tone = setProp(deck, { start: stat!.start, name: "tone", value: "accent" });
    expect(tone).toBe(
      deck.replace('<Stat value="$4M" label="ARR" />', '<Stat value="$4M" label="ARR" tone="accent" />'),
    );
    const quoted = setProp(deck, { start: stat!.start, name: "label", value: 'A "b"\nc' });
    expect(quoted).toContain('<Stat value="$4M" label={"A \\"b\\"\\nc"} />');
    const removed = setProp(deck, { start: stat!.start, name: "label", value: null });
    expect(removed).toContain('<Stat value="$4M" />');
    const table = elementsOfSlide(deck, "slides", 2)[3]!;
    expect(setProp(deck, { start: table.start, name: "striped", value: false })).toContain("20]]} striped={false} />");
    expect(setProp(deck, { start: table.start, name: "striped", value: true })).toContain("20]]} striped />");
    expect(refusal(() => setProp(deck, { start: 5, name: "x", value: 1 })).message).toContain("No element starts at");
    await outline(tone);
  });

  it("writes arrays inline when they fit and one item per line when they do not", async () => {
    const bullets = elementsOfSlide(deck, "slides", 1)[2]!;
    const short = setArrayProp(deck, { start: bullets.start, name: "items", value: ["One", 'Two "2"'] });
    expect(short).toBe(
      deck.replace(`items={["Free for one", 'Team at $10', "Enterprise"]}`, `items={["One", "Two \\"2\\""]}`),
    );
    const chart = elementsOfSlide(deck, "slides", 2)[4]!;
    const data = ["Jan", "Feb", "Mar", "Apr"].map((label, index) => ({ label, value: index * 10 }));
    const long = setArrayProp(deck, { start: chart.start, name: "data", value: data });
    expect(long).toContain(`        <Chart type="bar" data={[
          { label: "Jan", value: 0 },
          { label: "Feb", value: 10 },
          { label: "Mar", value: 20 },
          { label: "Apr", value: 30 },
        ]} />`);
    const table = elementsOfSlide(deck, "slides", 2)[3]!;
    const rows = setArrayProp(deck, {
      start: table.start,
      name: "rows",
      value: [
        ["Team", 12],
        ["Pro", null],
      ],
    });
    expect(rows).toContain('rows={[["Team", 12], ["Pro", null]]}');
    expect(
      refusal(() => setArrayProp(deck, { start: table.start, name: "rows", value: [[() => 1]] })).message,
    ).toContain("can hold only strings");
    await outline(long);
  });
});

describe("props of elements written one attribute per line", () => {
  it("adds an attribute on a line of its own and lays out a long array under it", async () => {
    const timeline = elementsOfSlide(newVocabularyDeck, "slides", 0).find((element) => element.name === "Timeline")!;
    const vertical = setProp(newVocabularyDeck, { start: timeline.start, name: "direction", value: "vertical" });
    expect(vertical).toContain(`          ]}
          direction="vertical"
        />`);
    const items = [
      { date: "2025", title: "Pilot" },
      { date: "2026", title: "Launch" },
    ];
    const next = setArrayProp(newVocabularyDeck, { start: timeline.start, name: "items", value: items });
    expect(next).toContain(`          highlight={2}
          items={[{ date: "2025", title: "Pilot" }, { date: "2026", title: "Launch" }]}
        />`);
    const longer = setArrayProp(newVocabularyDeck, {
      start: timeline.start,
      name: "items",
      value: [...items, { date: "2027", title: "Everywhere", detail: "Every region" }],
    });
    expect(longer).toContain(`          items={[
            { date: "2025", title: "Pilot" },
            { date: "2026", title: "Launch" },
            { date: "2027", title: "Everywhere", detail: "Every region" },
          ]}
        />`);
    await outline(longer);
  });

  it("adds a beat to a webpage deck", async () => {
    const next = addSlide(webpageDeck, "webpage", { after: 0, layout: "two-columns", label: "Why" });
    expect((await outline(next, "webpage"))[1]).toBe("Why");
    expect(next).toContain('<Beat label="Why">');
  });
});

describe("mergeSlides on edits made with the library", () => {
  it("combines edits of different slides", async () => {
    const mine = replaceText(deck, "slides", { slide: 0, text: "Quarterly review", next: "Q3 review" });
    const theirs = renameSlide(
      setProp(deck, { start: elementsOfSlide(deck, "slides", 2)[0]!.start, name: "columns", value: 3 }),
      "slides",
      3,
      "Snippet",
    );
    const merged = mergeSlides(deck, mine, theirs, "slides");
    expect(merged).toEqual({
      ok: true,
      source: deck
        .replace("Quarterly review", "Q3 review")
        .replace("<Grid columns={2}>", "<Grid columns={3}>")
        .replace('<Slide label="Code">', '<Slide label="Snippet">'),
    });
    if (merged.ok) expect(await outline(merged.source)).toEqual(["Intro", "Pricing", "Numbers", "Snippet"]);
  });
});

describe("real decks", () => {
  it("renames and retitles every slide of the offline generator's QBR deck, one splice each", async () => {
    const brief = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/samples/qbr-brief.md"), "utf8");
    let source = generateOfflineDeck({ brief, format: "slides" }).source;
    const { slides, editable } = outlineSlides(source, "slides");
    expect(editable).toBe(true);
    for (const slide of slides) {
      const element = elementsOfSlide(source, "slides", slide.index).find(
        (candidate) => candidate.name === "Heading" || candidate.name === "Title",
      );
      if (element) {
        const text = source.slice(source.indexOf(">", element.start) + 1, source.lastIndexOf("</", element.end));
        if (!/[{}<&]/.test(text))
          source = replaceText(source, "slides", { slide: slide.index, text, next: `${text} (edited)` });
      }
      source = renameSlide(source, "slides", slide.index, `Slide ${slide.index + 1}`);
    }
    expect(await outline(source)).toEqual(slides.map((slide) => `Slide ${slide.index + 1}`));
    expect(source.match(/ \(edited\)/g)?.length).toBeGreaterThan(slides.length / 2);
  });
});
