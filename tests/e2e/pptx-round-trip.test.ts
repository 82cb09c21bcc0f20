import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";

// The round trip (issue 36, item 4): a Deckhand deck exported to PPTX by the real exporter and imported
// back in restyle mode gives the same slides, labels (each slide's heading), texts, list structure, table
// and chart data, as the vocabulary's own components.

const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

const original = `import { Deck, Slide, Title, Heading, Text, Bullets, Table, Chart, Stat, Quote } from "@deckhand/player";

export default function RoundTrip() {
  return (
    <Deck title="Round trip">
      <Slide label="Launch review" layout="center" notes="Welcome everyone.">
        <Title subtitle="What we shipped and what comes next">Launch review</Title>
      </Slide>
      <Slide label="Three bets carried the quarter" notes="Walk through the plan.">
        <Heading>Three bets carried the quarter</Heading>
        <Text>We placed three bets this quarter.</Text>
        <Bullets items={["Self-serve onboarding", "Usage-based pricing", "An API agents can drive"]} />
      </Slide>
      <Slide label="The steps we took">
        <Heading>The steps we took</Heading>
        <Bullets marker="number" items={["Measure activation", "Cut the sign-up form", "Ship weekly"]} />
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
  const content = await setContent(user, deck.id, { source: original });
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

describe("a Deckhand deck to PowerPoint and back (restyle)", () => {
  it("gives the same slides, labels, texts, lists, table and chart data", async () => {
    const res = await call("POST", "/decks/import?mode=restyle", {
      key: user.key,
      rawBody: new Uint8Array(exported),
      headers: { "content-type": PPTX },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    const source: string = version.body.source;
    fs.writeFileSync("/tmp/pptx-round-trip.tsx", source);
    console.log(JSON.stringify(res.body.importReport, null, 1));
    expect(res.body.importReport.slides).toBe(9);
    expect(version.body.outline).toEqual([
      "Launch review",
      "Three bets carried the quarter",
      "The steps we took",
      "Revenue by region",
      "Revenue grew every month",
      "Sign-ups by week",
      "Where time goes",
      "Activation doubled",
      "Ship small",
    ]);
    expect(source).toContain('<Title subtitle="What we shipped and what comes next">Launch review</Title>');
    expect(source).toContain("<Text>We placed three bets this quarter.</Text>");
    expect(source).toContain(
      '<Bullets items={["Self-serve onboarding", "Usage-based pricing", "An API agents can drive"]} />',
    );
    expect(source).toContain(
      '<Bullets items={["Measure activation", "Cut the sign-up form", "Ship weekly"]} marker="number" />',
    );
    // The player sets table headers in capitals (CSS), and the file holds what it shows.
    expect(source.toLowerCase()).toContain(
      '<table columns={["region", "q2", "q3"]} rows={[["north", "120", "150"], ["south", "90", "130"]]} />',
    );
    expect(source).toMatch(
      /<Chart\s+type="bar"\s+labels=\{\["Jul", "Aug", "Sep"\]\}\s+series=\{\[\s*\{ name: "New", values: \[10, 14, 21\] \},\s*\{ name: "Existing", values: \[40, 42, 45\] \},?\s*\]\}/,
    );
    expect(source).toMatch(
      /<Chart\s+type="line"\s+data=\{\[\s*\{ label: "W1", value: 5 \},\s*\{ label: "W2", value: 9 \},\s*\{ label: "W3", value: 12 \},?\s*\]\}/,
    );
    expect(source).toMatch(/<Chart\s+type="pie"\s+data=\{\[\s*\{ label: "Build", value: 50 \},/);
    expect(source).toContain('<Stat value="43%" label="of new sign-ups activate" />');
    expect(source).toContain(
      '<Quote by="Dana Ruiz" role="Head of Product">Ship small, learn fast, and keep the promise.</Quote>',
    );
    expect(source).toContain('notes="Welcome everyone."');
  });
});
