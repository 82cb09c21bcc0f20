import { type ComponentType, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as runtime from "@/components/player/runtime";
import { compileDeck } from "@/lib/source/compile";
import { findElement } from "@/lib/source/transform/elements";
import { findItem, type ItemQuery, replaceItemText } from "@/lib/source/transform/items";
import { elementsOfSlide, printLiteral, setImageSource } from "@/lib/source/transform/props";
import { expectSplice, refusal } from "../helpers/source-assertions";

// Data items edited in place on the preview (lib/source/transform/items.ts): a chart's labels, series names and
// values, Timeline and Steps items, each found by its path into the prop's literal with @babel/parser
// positions and written there, so the module changes by those characters only; and the inspector's image
// pick (setImageSource). Refusals say what to do instead.

const deck = `import { Deck, Slide, Heading, Chart, Timeline, Steps, Image } from "@deckhand/player";

const quarters = [{ label: "Q1", value: 3 }];
const later = { date: "2027", title: "Scale" };

export default function Plan() {
  return (
    <Deck>
      <Slide label="Numbers">
        <Heading>Revenue</Heading>
        <Chart type="bar" data={[{ label: "Q1", value: 3 }, { label: 'Q2 "best"', value: -2.5 }]} unit="%" />
        <Chart
          type="line"
          labels={["Jan", \`Feb\`, "M&amp;r"]}
          series={[
            { name: "EMEA", values: [12, 15, 19] },
            { "name": 'Americas', values: [20, 1_000, 27] as number[] },
          ]}
        />
      </Slide>
      <Slide label="Plan">
        <Timeline items={[{ date: "2025", title: "Pilot", detail: "Two sites" }, "Bare step", later]} />
        <Steps items={[{ title: "Sign" }, { title: \`Ship {it}\` }, ...extra]} />
      </Slide>
      <Slide label="Computed">
        <Chart type="bar" data={quarters} />
        <Chart type="bar" data={[{ label: name(), value: 1 }, { ...base, label: "B", value: 2 }]} />
        <Image src="/a.png" alt="" />
        <Image src="/b.png" alt="A robot" />
        <Image src="/c.png" />
      </Slide>
    </Deck>
  );
}
`;

const chart = (index: number, path: ItemQuery["path"], text: string): ItemQuery => ({
  slide: 0,
  component: "Chart",
  index,
  count: 2,
  path,
  text,
});

function edit(query: ItemQuery, next: string, written: string): string {
  const match = findItem(deck, "slides", query);
  const after = replaceItemText(deck, "slides", { ...query, next });
  expectSplice(deck, after, match.start, match.end, written);
  return after;
}

describe("findItem and replaceItemText", () => {
  it("writes a chart's category label in its string literal, keeping its quote and escaping", () => {
    const match = findItem(deck, "slides", chart(0, ["data", 1, "label"], 'Q2 "best"'));
    expect(match.kind).toBe("string");
    expect(deck.slice(match.start, match.end)).toBe('Q2 "best"');
    const after = edit(chart(0, ["data", 1, "label"], 'Q2 "best"'), "It's Q2", "It\\'s Q2");
    expect(after).toContain(`{ label: 'It\\'s Q2', value: -2.5 }`);
    edit(chart(0, ["data", 0, "label"], "Q1"), 'New "Q1" {x} <b>', 'New \\"Q1\\" {x} <b>');
  });

  it("writes a value as a number: the unit, spaces and thousands separators typed with it are dropped", () => {
    const value = chart(0, ["data", 1, "value"], "-2.5");
    expect(findItem(deck, "slides", value).kind).toBe("number");
    expect(deck.slice(findItem(deck, "slides", value).start, findItem(deck, "slides", value).end)).toBe("-2.5");
    edit(value, "−4 %", "-4");
    edit(chart(0, ["data", 0, "value"], "3"), "1,250%", "1250");
    edit(chart(1, ["series", 1, "values", 1], "1000"), "1001", "1001");
    // A value written as a string is shown as the number it reads as, and stays a string.
    const quoted = deck.replace('data={[{ label: "Q1", value: 3 }', 'data={[{ label: "Q1", value: "3.0" }');
    const query = chart(0, ["data", 0, "value"], "3");
    expect(replaceItemText(quoted, "slides", { ...query, next: "4" })).toBe(
      deck.replace('data={[{ label: "Q1", value: 3 }', 'data={[{ label: "Q1", value: "4" }'),
    );
    expect(refusal(() => replaceItemText(deck, "slides", { ...value, next: "a lot" })).message).toBe(
      "\"a lot\" is not a number, and Chart's data[1].value is written as one. Type digits (a unit such as % is shown by the chart's unit prop).",
    );
  });

  it("writes labels in a template, series names under quoted keys and through `as`", () => {
    expect(findItem(deck, "slides", chart(1, ["labels", 1], "Feb")).kind).toBe("template");
    edit(chart(1, ["labels", 1], "Feb"), "F`${e}b", "F\\`\\${e}b");
    // A string literal is JavaScript, not JSX: &amp; is four characters there, and written as typed.
    edit(chart(1, ["labels", 2], "M&amp;r"), "Mar & Apr", "Mar & Apr");
    edit(chart(1, ["series", 1, "name"], "Americas"), "North America", "North America");
  });

  it("writes Timeline and Steps items: an object's field, a bare string item", () => {
    const timeline = { slide: 1, component: "Timeline", index: 0, count: 1 };
    edit({ ...timeline, path: ["items", 0, "title"], text: "Pilot" }, "Pilot run", "Pilot run");
    edit({ ...timeline, path: ["items", 0, "detail"], text: "Two  sites" }, "Three sites", "Three sites");
    edit({ ...timeline, path: ["items", 1], text: "Bare step" }, "Covered step", "Covered step");
    const steps = { slide: 1, component: "Steps", index: 0, count: 1 };
    edit({ ...steps, path: ["items", 1, "title"], text: "Ship {it}" }, "Ship it", "Ship it");
    // A date written as a number stays one.
    const numeric = deck.replace('date: "2025"', "date: 2025");
    const query = { ...timeline, path: ["items", 0, "date"], text: "2025" };
    expect(replaceItemText(numeric, "slides", { ...query, next: "2026" })).toBe(
      numeric.replace("date: 2025", "date: 2026"),
    );
    expect(refusal(() => replaceItemText(numeric, "slides", { ...query, next: "Spring" })).message).toBe(
      '"Spring" is not a number, and Timeline\'s items[0].date is written as one. Type digits, or write it as a string in the code editor.',
    );
  });

  it("each edit of a real module changes only its literal, and the module still compiles", async () => {
    let source = deck;
    const edits: Array<[ItemQuery, string]> = [
      [chart(0, ["data", 0, "label"], "Q1"), "First"],
      [chart(0, ["data", 0, "value"], "3"), "4"],
      [chart(1, ["series", 0, "values", 2], "19"), "21"],
      [{ slide: 1, component: "Timeline", index: 0, count: 1, path: ["items", 0, "date"], text: "2025" }, "2026"],
    ];
    for (const [query, next] of edits) {
      const match = findItem(source, "slides", query);
      const after = replaceItemText(source, "slides", { ...query, next });
      expectSplice(source, after, match.start, match.end, next);
      source = after;
    }
    const compiled = await compileDeck({
      source: source.replace("...extra", '"x"').replace("name()", '"n"').replace("...base, ", ""),
      format: "slides",
    });
    expect(compiled.outline).toEqual(["Numbers", "Plan", "Computed"]);
  });

  it("refuses data that is not written as a literal in place, naming what it is", () => {
    const computed = (index: number, path: ItemQuery["path"], text: string): ItemQuery => ({
      slide: 2,
      component: "Chart",
      index,
      count: 2,
      path,
      text,
    });
    expect(refusal(() => findItem(deck, "slides", computed(0, ["data", 0, "label"], "Q1"))).message).toBe(
      "data (line 26) is the variable quarters, not an array written in place, so the visual editor cannot tell where this text is written. Edit it in the code editor.",
    );
    expect(refusal(() => findItem(deck, "slides", computed(1, ["data", 0, "label"], "n"))).message).toMatch(
      /^data\[0\]\.label \(line 27\) is a call \(a \.map or a helper\), not a string or a number/,
    );
    expect(refusal(() => findItem(deck, "slides", computed(1, ["data", 1, "label"], "B"))).message).toMatch(
      /^data\[1\] \(line 27\) is code \(ObjectExpression\), not an object of plain fields/,
    );
    const timeline = { slide: 1, component: "Timeline", index: 0, count: 1, text: "Scale" };
    expect(refusal(() => findItem(deck, "slides", { ...timeline, path: ["items", 2, "title"] })).message).toMatch(
      /^items\[2\] \(line 22\) is the variable later, not an object written in place/,
    );
    const steps = { slide: 1, component: "Steps", index: 0, count: 1, text: "x" };
    expect(refusal(() => findItem(deck, "slides", { ...steps, path: ["items", 2, "title"] })).message).toMatch(
      /^items \(line 23\) is code \(ArrayExpression\), not an array without spreads/,
    );
  });

  it("refuses when the slide shows another number of the component, a missing field, or a stale text", () => {
    expect(refusal(() => findItem(deck, "slides", { ...chart(0, ["data", 0, "label"], "Q1"), count: 3 })).message).toBe(
      "slide 1 shows 3 Chart elements but its code writes 2: some are made in code (a .map, a condition or a helper), so the visual editor cannot tell which is which. Edit it in the code editor.",
    );
    expect(refusal(() => findItem(deck, "slides", chart(0, ["data", 0, "note"], "x"))).message).toBe(
      "data[0] (line 11) has no note written in the code; add it in the inspector.",
    );
    expect(refusal(() => findItem(deck, "slides", chart(0, ["data", 5, "label"], "x"))).message).toBe(
      "data (line 11) has no item 6 written in the code.",
    );
    expect(refusal(() => findItem(deck, "slides", chart(0, ["title"], "x"))).message).toBe(
      "The Chart on slide 1 has no title prop written in its code.",
    );
    expect(refusal(() => findItem(deck, "slides", chart(0, ["data", 0, "label"], "Q9"))).message).toBe(
      'data[0].label (line 11) reads "Q1" in the code, not "Q9": the code changed since the preview was drawn. Try again once the preview is up to date.',
    );
    expect(refusal(() => findItem(deck, "slides", chart(0, ["data", 0, "value"], "4"))).message).toMatch(
      /^data\[0\]\.value \(line 11\) reads "3" in the code, not "4"/,
    );
  });
});

describe("the player's marks and the source library agree", () => {
  // Each component drawn as the player draws it: every text it marks with a path (data-dh-edit) is found by
  // findItem in a deck that writes the same props as literals, with the value the mark says it shows.
  const cases: Array<[string, Record<string, unknown>]> = [
    [
      "Chart",
      {
        type: "bar",
        data: [{ label: "Q1", value: 3 }, { label: "no value" }, { label: "Q3", value: 1250 }],
        unit: "%",
      },
    ],
    [
      "Chart",
      {
        type: "line",
        data: [
          { label: "Jan", value: 3 },
          { label: "Feb", value: -2 },
        ],
      },
    ],
    [
      "Chart",
      {
        type: "pie",
        data: [
          { label: "Ours", value: 40 },
          { label: "Theirs", value: 60 },
        ],
      },
    ],
    [
      "Chart",
      { type: "bar", labels: ["A", "B", "C"], series: [{ name: "EMEA", values: [1, 2, 3] }, { values: [4, 5] }] },
    ],
    [
      "Chart",
      {
        type: "line",
        labels: ["A", "B"],
        series: [
          { name: "One", values: [1, 2] },
          { name: "Two", values: [3, 1] },
        ],
      },
    ],
    ["Chart", { type: "pie", labels: ["Yes", "No"], series: [{ name: "Votes", values: [7, 3] }] }],
    ["Timeline", { items: [{ date: "2025", title: "Pilot", detail: "Two sites" }, {}, "Bare", { title: "Q & A" }] }],
    [
      "Steps",
      { items: [{ title: "Sign" }, { detail: "untitled, not drawn" }, { title: "Ship", detail: "Friday" }, "Rest"] },
    ],
  ];
  const entity = (text: string) =>
    text.replace(
      /&(amp|lt|gt|quot|#x27|#39);/g,
      (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" })[name] ?? "",
    );

  it.each(cases)("%s %j", (name, props) => {
    const component = (runtime as unknown as Record<string, ComponentType<Record<string, unknown>>>)[name]!;
    const markup = renderToStaticMarkup(createElement(component, props));
    const marks = [...markup.matchAll(/<[a-z]+ ([^>]*data-dh-edit="[^"]*"[^>]*)>([^<]*)</g)].map((match) => {
      const attributes = match[1]!;
      const raw = /data-dh-raw="([^"]*)"/.exec(attributes)?.[1];
      return {
        path: /data-dh-edit="([^"]*)"/
          .exec(attributes)![1]!
          .split(".")
          .map((step) => (/^\d+$/.test(step) ? Number(step) : step)),
        text: entity(raw ?? match[2]!),
      };
    });
    expect(marks.length).toBeGreaterThan(1);
    const attributes = Object.entries(props)
      .map(([prop, value]) =>
        typeof value === "string" ? `${prop}="${value}"` : `${prop}={${printLiteral(value, prop)}}`,
      )
      .join(" ");
    const source = `import { Deck, Slide, ${name} } from "@deckhand/player";\n\nexport default () => (\n  <Deck>\n    <Slide>\n      <${name} ${attributes} />\n    </Slide>\n  </Deck>\n);\n`;
    for (const mark of marks) {
      const query = { slide: 0, component: name, index: 0, count: 1, path: mark.path, text: mark.text };
      expect(() => findItem(source, "slides", query), JSON.stringify(mark)).not.toThrow();
    }
  });
});

describe("findElement", () => {
  it("finds an element by its place among its component's elements on the slide, as a click on an image names it", () => {
    const found = findElement(deck, "slides", { slide: 2, component: "Image", index: 1, count: 3 });
    expect(deck.slice(found.start, found.end)).toBe('<Image src="/b.png" alt="A robot" />');
    expect(found.line).toBe(deck.slice(0, found.start).split("\n").length);
  });

  it("refuses when the slide's code writes another number of them, or there is no such one", () => {
    expect(
      refusal(() => findElement(deck, "slides", { slide: 2, component: "Image", index: 0, count: 4 })).message,
    ).toBe(
      "slide 3 shows 4 Image elements but its code writes 3: some are made in code (a .map, a condition or a helper), so the visual editor cannot tell which is which. Edit it in the code editor.",
    );
    expect(
      refusal(() => findElement(deck, "slides", { slide: 1, component: "Image", index: 0, count: 0 })).message,
    ).toBe("There is no Image number 1 on slide 2.");
  });
});

describe("setImageSource", () => {
  const images = () => elementsOfSlide(deck, "slides", 2).filter((element) => element.name === "Image");

  it("rewrites src in place and fills an empty alt", () => {
    const [empty] = images();
    const after = setImageSource(deck, { start: empty!.start, src: "/assets/robot.png", alt: "A robot arm" });
    expect(after).toBe(
      deck.replace('<Image src="/a.png" alt="" />', '<Image src="/assets/robot.png" alt="A robot arm" />'),
    );
  });

  it("keeps an alt the author wrote, and adds one where there was none", () => {
    const [, described, bare] = images();
    const kept = setImageSource(deck, { start: described!.start, src: "/assets/x.png", alt: "Other" });
    expect(kept).toBe(
      deck.replace('<Image src="/b.png" alt="A robot" />', '<Image src="/assets/x.png" alt="A robot" />'),
    );
    const added = setImageSource(deck, { start: bare!.start, src: "/assets/y.png", alt: 'Say "hi"' });
    expect(added).toBe(deck.replace('<Image src="/c.png" />', '<Image src="/assets/y.png" alt={"Say \\"hi\\""} />'));
  });

  it("refuses another element and a src that is not a plain URL", () => {
    const chartStart = elementsOfSlide(deck, "slides", 2).find((element) => element.name === "Chart")!.start;
    expect(refusal(() => setImageSource(deck, { start: chartStart, src: "/x.png" })).message).toBe(
      `The element at offset ${chartStart} is a <Chart>, not an <Image>.`,
    );
    const [image] = images();
    expect(refusal(() => setImageSource(deck, { start: image!.start, src: '/x.png" onerror="' })).message).toBe(
      "An image's src is a URL without spaces, quotes or braces.",
    );
  });
});
