import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";

// The round trip (issue 36, item 4): a Deckhand deck using every component of the slides vocabulary,
// exported to PPTX by the real exporter and imported back in restyle mode, gives the same slides, labels
// (each slide's name in the file), texts, list structure (sub-points), table and chart data, and the
// vocabulary's own components. What a PowerPoint file cannot carry back as a component says so below:
// Timeline and Steps come back as their texts, a Diagram as its picture, layout (Columns, Stack, Grid, Box)
// as the house style's, the Logo (no brand here) as nothing. <Beat> is the webpage format's, never a slide.

const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

const original = (photo: string) => `import {
  Deck, Slide, Title, Heading, Text, Bullets, Table, Chart, Stat, Quote, Code, Link, Formula, Image, Icon, Logo,
  Columns, Stack, Grid, Box, Timeline, Steps, Diagram,
} from "@deckhand/player";

export default function RoundTrip() {
  return (
    <Deck title="Round trip">
      <Slide label="Launch review" layout="center" notes="Welcome everyone.">
        <Title subtitle="What we shipped and what comes next">Launch review</Title>
        <Logo placement="top-right" />
      </Slide>
      <Slide label="Bets" notes="Walk through the plan.">
        <Heading>Three bets carried the quarter</Heading>
        <Text>We placed three bets, listed in <Link href="https://example.com/plan">the plan</Link>.</Text>
        <Bullets items={["Self-serve onboarding", ["Sign-up in one step", "Templates"], "Usage-based pricing", "An API agents can drive"]} />
      </Slide>
      <Slide label="Steps taken">
        <Heading>The steps we took</Heading>
        <Bullets marker="number" items={["Measure activation", "Cut the sign-up form", "Ship weekly"]} />
      </Slide>
      <Slide label="Done">
        <Heading>What is done</Heading>
        <Bullets marker="check" items={["Billing", "Audit log"]} />
      </Slide>
      <Slide label="Revenue by region">
        <Heading>Revenue by region</Heading>
        <Table columns={["Region", "Q2", "Q3"]} rows={[["North", "120", "150"], ["South", "90", "130"]]} />
      </Slide>
      <Slide label="Revenue grew every month">
        <Heading>Revenue grew every month</Heading>
        <Chart type="bar" labels={["Jul", "Aug", "Sep"]} series={[{ name: "New", values: [10, 14, 21] }, { name: "Existing", values: [40, 42, 45] }]} />
      </Slide>
      <Slide label="Sign-ups by week">
        <Heading>Sign-ups by week</Heading>
        <Chart type="line" data={[{ label: "W1", value: 5 }, { label: "W2", value: 9 }, { label: "W3", value: 12 }]} />
      </Slide>
      <Slide label="Where time goes">
        <Heading>Where time goes</Heading>
        <Chart type="pie" data={[{ label: "Build", value: 50 }, { label: "Review", value: 30 }, { label: "Meetings", value: 20 }]} />
      </Slide>
      <Slide label="Activation doubled">
        <Heading>Activation doubled</Heading>
        <Stat value="43%" label="of new sign-ups activate" />
      </Slide>
      <Slide label="Ship small">
        <Heading>Ship small</Heading>
        <Quote by="Dana Ruiz" role="Head of Product">Ship small, learn fast, and keep the promise.</Quote>
      </Slide>
      <Slide label="The client">
        <Heading>Three lines of client code</Heading>
        <Code language="ts" code={\`const deck = await client.decks.create({ title: "Q3" });
if (deck.id) {
  await client.decks.export(deck.id);
}\`} />
      </Slide>
      <Slide label="The model">
        <Heading>Growth compounds</Heading>
        <Columns>
          <Stack>
            <Icon name="rocket" />
            <Text>Each month builds on the last.</Text>
          </Stack>
          <Formula display tex={String.raw\`V = P(1 + r)^{n}\`} />
        </Columns>
      </Slide>
      <Slide label="The harbour">
        <Heading>Where we met</Heading>
        <Columns>
          <Text>The team met at the harbour office.</Text>
          <Image src="${photo}" alt="The harbour office at dawn" />
        </Columns>
      </Slide>
      <Slide label="Roadmap">
        <Heading>Roadmap</Heading>
        <Timeline items={[{ date: "Q1", title: "Pilot", detail: "Two teams" }, { date: "Q2", title: "Beta" }, { date: "Q3", title: "Launch" }]} />
      </Slide>
      <Slide label="How it works">
        <Heading>How it works</Heading>
        <Steps items={[{ title: "Connect", detail: "Link a source" }, { title: "Review" }, { title: "Publish" }]} />
      </Slide>
      <Slide label="The flow">
        <Heading>The flow</Heading>
        <Diagram title="Sign-up flow" alt="Sign-up leads to a first deck">{\`flowchart LR; A[Sign up] --> B[First deck]\`}</Diagram>
      </Slide>
      <Slide label="Takeaway">
        <Heading>Takeaway</Heading>
        <Grid columns={2}>
          <Box><Text>Small teams ship faster.</Text></Box>
          <Box tone="outline"><Text>Agents need an API.</Text></Box>
        </Grid>
      </Slide>
    </Deck>
  );
}
`;

let server: AppServer;
let user: TestUser;
let exported: Buffer;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  user = await createUser();
  const deck = await createDeck(user, { title: "Round trip" });
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a6f97" } })
    .png()
    .toBuffer();
  const content = await setContent(user, deck.id, {
    source: original(`data:image/png;base64,${photo.toString("base64")}`),
  });
  expect(content.status, JSON.stringify(content.body)).toBeLessThan(300);
  const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pptx" } });
  expect((await waitForExport(user, queued.body.id, 180_000)).status).toBe("completed");
  const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: user.key })).headers.get(
    "location",
  )!;
  exported = Buffer.from(await (await fetch(location)).arrayBuffer());
  fs.writeFileSync("/tmp/pptx-round-trip.pptx", exported);
}, 240_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
});

const labels = [
  "Launch review",
  "Bets",
  "Steps taken",
  "Done",
  "Revenue by region",
  "Revenue grew every month",
  "Sign-ups by week",
  "Where time goes",
  "Activation doubled",
  "Ship small",
  "The client",
  "The model",
  "The harbour",
  "Roadmap",
  "How it works",
  "The flow",
  "Takeaway",
];

describe("a Deckhand deck to PowerPoint and back (restyle)", () => {
  it("gives the same slides, labels, texts, lists, table and chart data, as the vocabulary's components", async () => {
    const res = await call("POST", "/decks/import?mode=restyle", {
      key: user.key,
      rawBody: new Uint8Array(exported),
      headers: { "content-type": PPTX },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    const source: string = version.body.source;
    fs.writeFileSync("/tmp/pptx-round-trip.tsx", source);
    expect(res.body.importReport.slides).toBe(labels.length);
    // Labels are the slides' own, not their headings.
    expect(version.body.outline).toEqual(labels);
    const slides = source.split(/\n\s*<Slide\b/).slice(1);
    expect(slides).toHaveLength(labels.length);
    const slide = (label: string) => slides[labels.indexOf(label)]!;

    expect(slide("Launch review")).toContain(
      '<Title subtitle="What we shipped and what comes next">Launch review</Title>',
    );
    expect(slide("Launch review")).toContain('notes="Welcome everyone."');
    expect(slide("Bets")).toContain("<Heading>Three bets carried the quarter</Heading>");
    expect(slide("Bets")).toMatch(
      /<Text>\s*We placed three bets, listed in <Link href="https:\/\/example.com\/plan">the plan<\/Link>\.\s*<\/Text>/,
    );
    // Sub-points stay sub-points.
    expect(slide("Bets")).toMatch(
      /items=\{\[\s*"Self-serve onboarding",\s*\["Sign-up in one step", "Templates"\],\s*"Usage-based pricing",\s*"An API agents can drive",?\s*\]\}/,
    );
    expect(slide("Bets")).toContain('notes="Walk through the plan."');
    expect(slide("Steps taken")).toContain(
      '<Bullets items={["Measure activation", "Cut the sign-up form", "Ship weekly"]} marker="number" />',
    );
    expect(slide("Done")).toContain('<Bullets items={["Billing", "Audit log"]} marker="check" />');
    // The player sets table headers in capitals (CSS), and the file holds what it shows.
    expect(slide("Revenue by region").toLowerCase()).toContain(
      '<table columns={["region", "q2", "q3"]} rows={[["north", "120", "150"], ["south", "90", "130"]]} />',
    );
    expect(slide("Revenue grew every month")).toMatch(
      /<Chart\s+type="bar"\s+labels=\{\["Jul", "Aug", "Sep"\]\}\s+series=\{\[\s*\{ name: "New", values: \[10, 14, 21\] \},\s*\{ name: "Existing", values: \[40, 42, 45\] \},?\s*\]\}/,
    );
    expect(slide("Sign-ups by week")).toMatch(
      /<Chart\s+type="line"\s+data=\{\[\s*\{ label: "W1", value: 5 \},\s*\{ label: "W2", value: 9 \},\s*\{ label: "W3", value: 12 \},?\s*\]\}/,
    );
    expect(slide("Where time goes")).toMatch(
      /<Chart\s+type="pie"\s+data=\{\[\s*\{ label: "Build", value: 50 \},\s*\{ label: "Review", value: 30 \},\s*\{ label: "Meetings", value: 20 \},?\s*\]\}/,
    );
    expect(slide("Activation doubled")).toContain('<Stat value="43%" label="of new sign-ups activate" />');
    expect(slide("Ship small")).toContain(
      '<Quote by="Dana Ruiz" role="Head of Product">Ship small, learn fast, and keep the promise.</Quote>',
    );
    // Code keeps its lines and their leading spaces.
    expect(slide("The client")).toContain(
      'code={`const deck = await client.decks.create({ title: "Q3" });\nif (deck.id) {\n  await client.decks.export(deck.id);\n}`}',
    );
    // A formula and an icon come back as themselves (their pictures' alt text says what they are).
    expect(slide("The model")).toContain('<Icon name="rocket" />');
    expect(slide("The model")).toMatch(
      /<Formula display tex="V = P\(1 \+ r\)\^\{n\}" \/>|<Formula display tex=\{"V = P\(1 \+ r\)\^\{n\}"\} \/>/,
    );
    expect(slide("The model")).toContain("<Text>Each month builds on the last.</Text>");
    expect(slide("The harbour")).toContain("<Text>The team met at the harbour office.</Text>");
    expect(slide("The harbour")).toMatch(
      /<Image\s+src="\/assets\/[0-9a-f]{64}\.png"\s+alt="The harbour office at dawn"/,
    );
    // Timeline and Steps come back as their texts; a diagram as its picture with its alt text.
    for (const word of ["Q1", "Pilot", "Two teams", "Q2", "Beta", "Q3", "Launch"])
      expect(slide("Roadmap")).toContain(word);
    for (const word of ["Connect", "Link a source", "Review", "Publish"]) expect(slide("How it works")).toContain(word);
    // A step's number badge is no figure with a caption.
    expect(slide("How it works")).not.toContain("<Stat");
    expect(slide("The flow")).toMatch(
      /<Image\s+src="\/assets\/[0-9a-f]{64}\.png"\s+alt="Sign-up leads to a first deck"/,
    );
    expect(slide("Takeaway")).toContain("<Text>Small teams ship faster.</Text>");
    expect(slide("Takeaway")).toContain("<Text>Agents need an API.</Text>");
    // Nothing of the export's drawing comes back as a picture of its own: no decorations, no scrims.
    expect(source).not.toMatch(/alt="(Decoration|Scrim over the background image|Icon: |Formula: )/);
  });
});
