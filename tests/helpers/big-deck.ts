// A deck of any length in the shape of issue 39's measurements: a heading, a list and a stat on one slide,
// a chart on the next, repeated. The big-deck tests and `npm run bench -- scale` use it.

export function bigDeck(slides: number, seed = 0): string {
  const body = Array.from({ length: slides }, (_, index) => {
    const n = index + 1;
    return index % 2 === 0
      ? `      <Slide label="Section ${n}" notes="Talk about section ${n} (${seed})">
        <Heading>Section ${n}: what we learned</Heading>
        <Bullets items={["Retention up ${n % 40}%", "Churn down in every segment", "Two new enterprise logos"]} />
        <Stat value="$${(n % 90) + 1}.${seed % 10}M" label="Annual recurring revenue" />
      </Slide>`
      : `      <Slide label="Revenue ${n}">
        <Heading>Revenue by quarter, part ${n}</Heading>
        <Chart type="bar" highlight="Q2" data={[{ label: "Q1", value: ${(n % 7) + 1} }, { label: "Q2", value: 5 }, { label: "Q3", value: 4 }]} />
      </Slide>`;
  }).join("\n");
  return `import { Deck, Slide, Heading, Bullets, Stat, Chart } from "@deckhand/player";

export default function BigDeck() {
  return (
    <Deck>
${body}
    </Deck>
  );
}
`;
}

/** The heading the deck's slide `n` (1-based) shows. */
export function bigDeckHeading(n: number): string {
  return n % 2 === 1 ? `Section ${n}: what we learned` : `Revenue by quarter, part ${n}`;
}
