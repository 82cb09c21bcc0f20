import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizeTokensCss } from "@/lib/brands/synthesize-tokens";
import { exampleDeckSource } from "@/lib/source/instructions";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser, idleRenderers } from "@/lib/render/browser";
import type { Finding } from "@/lib/render/check-findings";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { createDeck, setContent } from "../helpers/decks";
import { setUpTestDatabase } from "../helpers/database";

// The deck check end to end: GET /decks/{id}/check draws a version in the export renderer and reports what
// is broken. The stress cases of issue 15: fitting saves three big Stats under a large type scale, a
// 40-character word in a Title, 15 bullets and right-to-left slides (no error), and cannot save 40
// bullets (an error naming the slide).

let server: AppServer;
let author: TestUser;
let stranger: TestUser;
let colleague: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  const org = `check-${randomUUID()}`;
  author = await createUser({ org });
  colleague = await createUser({ org });
  stranger = await createUser();
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await server?.close();
});

const ten = Array.from({ length: 10 }, (_, i) => `Point ${i + 1}`);
const forty = Array.from(
  { length: 40 },
  (_, i) => `Point ${i + 1}: a long bullet that says rather more than it should`,
);
const longWord = "Supercalifragilisticexpialidocious" + "Extra"; // 39 letters, no break opportunity

const stress = `import { Deck, Slide, Title, Heading, Bullets, Columns, Stat, Text } from "@deckhand/player";

export default function Stress() {
  return (
    <Deck title="Stress">
      <Slide label="Stats">
        <Heading>Three numbers that matter</Heading>
        <Columns>
          <Stat value="$16.8M" label="ARR" />
          <Stat value="$14.1M" label="Net new" />
          <Stat value="212%" label="Net retention" />
        </Columns>
      </Slide>
      <Slide label="Long word" layout="center">
        <Title>${longWord}</Title>
      </Slide>
      <Slide label="Ten">
        <Heading>Ten points</Heading>
        <Bullets items={${JSON.stringify(ten)}} />
      </Slide>
      <Slide label="Forty">
        <Heading>Forty points</Heading>
        <Bullets items={${JSON.stringify(forty)}} />
      </Slide>
      <Slide label="Arabic">
        <Heading>نمو الإيرادات في الربع الثالث</Heading>
        <Bullets items={["زيادة العملاء بنسبة عشرين بالمئة", "توسع في ثلاثة أسواق جديدة", "خفض التكاليف التشغيلية"]} />
      </Slide>
      <Slide label="Hebrew">
        <Heading>צמיחה ברבעון השלישי</Heading>
        <Text>הכנסות גדלו בעשרים אחוז והלקוחות נשארו איתנו לאורך כל השנה.</Text>
      </Slide>
    </Deck>
  );
}
`;

const problems = `import { Deck, Slide, Heading, Text, Image } from "@deckhand/player";

const pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export default function Problems() {
  return (
    <Deck title="Problems">
      <Slide label="Empty"></Slide>
      <Slide>
        <Heading>No label on this slide</Heading>
        <Text>It still says something worth saying.</Text>
      </Slide>
      <Slide label="Twice">
        <Heading>Only a heading here</Heading>
      </Slide>
      <Slide label="Twice">
        <Heading>Pictures</Heading>
        <Image src={pixel} alt="" />
        {/* Built at run time, so not imported when the version is written: the frame's CSP refuses it. */}
        <Image src={["https://example.com", "photo.jpg"].join("/")} alt="A remote photo" />
      </Slide>
    </Deck>
  );
}
`;

async function check(user: TestUser, id: string, query = "") {
  return call("GET", `/decks/${id}/check${query}`, { key: user.key });
}

function on(findings: Finding[], slide: number): Finding[] {
  return findings.filter((finding) => finding.slide === slide);
}

describe("GET /decks/{id}/check", () => {
  it("reports nothing wrong where fitting saves the slide, and an error where it cannot", async () => {
    const deck = await createDeck(author);
    // A brand with a larger type scale: the Stats are bigger than the default theme draws them.
    const saved = await setContent(author, deck.id, { source: stress, tokensCss: ":root { --type-scale: 1.4; }" });
    expect(saved.status).toBe(200);
    const res = await check(author, deck.id);
    expect(res.status).toBe(200);
    const { findings, version, slides } = res.body as { findings: Finding[]; version: number; slides: number };
    expect(version).toBe(1);
    expect(slides).toBe(6);
    const errors = findings.filter((finding) => finding.severity === "error");
    // Only the forty bullets are broken beyond saving.
    expect(errors.map((finding) => [finding.slide, finding.kind])).toEqual([[4, "overflow"]]);
    const overflow = errors[0]!;
    expect(overflow).toMatchObject({ label: "Forty", component: "Bullets" });
    expect(overflow.measured).toBeGreaterThan(100);
    expect(overflow.message).toMatch(/^Slide 4 “Forty”: the Bullets .* runs \d+ px past/);
    for (const slide of [1, 2, 3, 5, 6]) {
      expect(on(findings, slide).filter((f) => f.kind === "overflow" || f.kind === "overlap")).toEqual([]);
    }
    // What the brief warns about is a warning.
    expect(on(findings, 3).map((finding) => finding.kind)).toContain("too-many-bullets");
    expect(on(findings, 4).map((finding) => finding.kind)).toEqual(["overflow", "too-many-words", "too-many-bullets"]);
    // The unbreakable word was shrunk as far as it goes and broken: said, not an error.
    expect(on(findings, 2)).toEqual([
      expect.objectContaining({ kind: "text-at-floor", severity: "warning", component: "Title" }),
    ]);
  }, 90_000);

  it("finds empty slides, missing and duplicate labels, images without alt text or that cannot load", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source: problems })).status).toBe(200);
    const res = await check(author, deck.id);
    expect(res.status).toBe(200);
    const findings = res.body.findings as Finding[];
    const kinds = (slide: number) => on(findings, slide).map((finding) => `${finding.severity}:${finding.kind}`);
    expect(kinds(1)).toEqual(["error:empty-slide"]);
    expect(kinds(2)).toEqual(["warning:missing-label", "warning:empty-space"]);
    expect(kinds(3)).toEqual(["warning:near-empty-slide", "warning:duplicate-label"]);
    // On each slide, errors come first.
    expect(kinds(4)).toEqual(["error:image-failed", "warning:image-missing-alt"]);
    for (const finding of findings) {
      expect(finding.message.length).toBeGreaterThan(30);
      expect(finding.label).toBe(["Empty", "Slide 2", "Twice", "Twice"][finding.slide! - 1]);
    }
    expect(findings.find((finding) => finding.kind === "image-failed")?.message).toContain(
      "https://example.com/photo.jpg",
    );
  }, 90_000);

  it("finds text with too little contrast, measured on the computed colours", async () => {
    const deck = await createDeck(author);
    const source = `import { Deck, Slide, Heading, Text } from "@deckhand/player";
export default function Pale() {
  return (
    <Deck title="Pale">
      <Slide label="Pale">
        <Heading>Readable heading</Heading>
        <Text tone="muted">Pale grey text that nobody at the back of the room can read.</Text>
      </Slide>
    </Deck>
  );
}
`;
    expect((await setContent(author, deck.id, { source, tokensCss: ":root { --color-muted: #d0d0d0; }" })).status).toBe(
      200,
    );
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    const pale = findings.filter((finding) => finding.kind === "low-contrast");
    expect(pale).toHaveLength(1);
    expect(pale[0]).toMatchObject({ severity: "error", slide: 1, component: "Text" });
    expect(pale[0]!.measured).toBeGreaterThan(1);
    expect(pale[0]!.measured).toBeLessThan(2);
  }, 90_000);

  it("finds text drawn over text, and a theme font the viewer does not ship", async () => {
    const deck = await createDeck(author);
    const source = `import { Deck, Slide, Heading, Text } from "@deckhand/player";
export default function Crossed() {
  return (
    <Deck title="Crossed">
      <Slide label="Crossed">
        <Heading>Two lines in one place</Heading>
        <Text>The first sentence sits where it should.</Text>
        <p style={{ marginTop: "-90px", fontSize: "32px" }}>The second one was pulled up over it.</p>
      </Slide>
    </Deck>
  );
}
`;
    const tokensCss = ':root { --font-body: "Comic Neue Deluxe", sans-serif; }';
    expect((await setContent(author, deck.id, { source, tokensCss })).status).toBe(200);
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    const overlap = findings.filter((finding) => finding.kind === "overlap");
    expect(overlap, JSON.stringify(findings)).toHaveLength(1);
    expect(overlap[0]).toMatchObject({ severity: "error", slide: 1, label: "Crossed" });
    const font = findings.filter((finding) => finding.kind === "font-substituted");
    expect(font).toHaveLength(1);
    expect(font[0]).toMatchObject({ severity: "warning", slide: 1 });
    expect(font[0]!.message).toContain("Comic Neue Deluxe");
  }, 90_000);

  it("measures text over a picture by its pixels: a scrim keeps it readable, none does not", async () => {
    const black =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
    const white =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWP4//8/AAX+Av5Y8msOAAAAAElFTkSuQmCC";
    const deck = await createDeck(author);
    const source = `import { Deck, Slide, Heading, Text } from "@deckhand/player";
export default function Photos() {
  return (
    <Deck title="Photos">
      <Slide label="Scrim" image="${black}">
        <Heading>Dark photo, light scrim</Heading>
        <Text>The scrim in the slide's own colour keeps the theme's dark text readable.</Text>
      </Slide>
      <Slide label="Full bleed" layout="full-bleed" background="primary" image="${white}">
        <Heading>White text on a bright photo</Heading>
        <Text>A full-bleed slide's scrim is strongest where its text starts, at the top.</Text>
      </Slide>
    </Deck>
  );
}
`;
    expect((await setContent(author, deck.id, { source })).status).toBe(200);
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    expect(on(findings, 1).filter((finding) => finding.kind === "low-contrast")).toEqual([]);
    expect(on(findings, 2).filter((finding) => finding.kind === "low-contrast")).toEqual([]);

    // Without a scrim (a theme whose background colour is transparent, so the scrim drawn in it is too),
    // dark text lies straight on the dark photo.
    const bareDeck = await createDeck(author);
    const bare = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Bare() {
  return (
    <Deck title="Bare">
      <Slide label="Bare" layout="full-bleed" image="${black}">
        <Heading>Dark text straight on a dark photo</Heading>
      </Slide>
    </Deck>
  );
}
`;
    const tokensCss = ":root { --color-bg: transparent; }";
    expect((await setContent(author, bareDeck.id, { source: bare, tokensCss })).status).toBe(200);
    const bareFindings = (await check(author, bareDeck.id)).body.findings as Finding[];
    const low = on(bareFindings, 1).filter((finding) => finding.kind === "low-contrast");
    expect(low).toEqual([expect.objectContaining({ severity: "error", component: "Heading" })]);
    expect(low[0]!.measured).toBeLessThan(1.5);
  }, 120_000);

  it("reports a Diagram that cannot be drawn, and none for one that can", async () => {
    const deck = await createDeck(author);
    const source = `import { Deck, Slide, Heading, Diagram } from "@deckhand/player";
export default function Diagrams() {
  return (
    <Deck title="Diagrams">
      <Slide label="Flow">
        <Heading>From idea to launch</Heading>
        <Diagram>{\`flowchart LR
  Idea --> Build --> Launch\`}</Diagram>
      </Slide>
      <Slide label="Broken">
        <Heading>Not Mermaid at all</Heading>
        <Diagram>{\`flowchart LR
  A -->\`}</Diagram>
      </Slide>
    </Deck>
  );
}
`;
    expect((await setContent(author, deck.id, { source })).status).toBe(200);
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    expect(on(findings, 1)).toEqual([]);
    expect(on(findings, 2)).toEqual([expect.objectContaining({ kind: "diagram-failed", severity: "error" })]);
  }, 90_000);

  it("sees what a designer sees: small type, an empty band, source shown as text, missing glyphs, a 0 px image", async () => {
    const pixel =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
    const source = `import { Deck, Slide, Title, Heading, Text, Bullets, Code, Image, Stat, Columns } from "@deckhand/player";
export default function Designer() {
  return (
    <Deck title="Designer">
      <Slide label="Lonely line">
        <Heading>Churn</Heading>
        <Text>Down.</Text>
      </Slide>
      <Slide label="Markdown">
        <Heading>Set-up is fast</Heading>
        <Bullets items={["Setup takes **12 minutes** on average", "No code needed", "Works with every CRM we tried"]} />
      </Slide>
      <Slide label="Mermaid">
        <Heading>How a request flows</Heading>
        <Code language="text" code={\`flowchart LR
  Browser --> API --> Database\`} />
      </Slide>
      <Slide label="Glyphs">
        <Heading>An old script</Heading>
        <Text>Linear A: 𐘀𐘁𐘂 and then plain words after it, and an emoji: 🚀</Text>
        <Bullets items={["Found on Crete", "Never deciphered", "Written from left to right"]} />
      </Slide>
      <Slide label="Cover with a picture" layout="center">
        <Title subtitle="With the logo under it">A cover</Title>
        <Image src="${pixel}" alt="The logo" />
      </Slide>
      <Slide label="Squeezed">
        <Heading>A picture in a box of no width</Heading>
        <Text>The picture below is squeezed to nothing by its wrapper.</Text>
        <div style={{ width: 0 }}><Image src="${pixel}" alt="The squeezed logo" /></div>
      </Slide>
      <Slide label="Full">
        <Heading>What a slide that fills looks like</Heading>
        <Columns>
          <Stat value="43%" label="Activation" detail="up from 21%" />
          <Bullets items={["Onboarding in five minutes", "Pricing per team", "An API agents can drive"]} />
        </Columns>
      </Slide>
    </Deck>
  );
}
`;
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source })).status).toBe(200);
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    const kinds = (slide: number) => on(findings, slide).map((finding) => `${finding.severity}:${finding.kind}`);
    expect(kinds(1)).toEqual(["warning:empty-space"]);
    expect(kinds(2), JSON.stringify(on(findings, 2))).toEqual(["warning:source-as-text"]);
    expect(on(findings, 2)[0]).toMatchObject({ component: "Bullets" });
    expect(kinds(3)).toEqual(["warning:source-as-text"]);
    expect(on(findings, 3)[0]!.message).toContain("Mermaid");
    expect(kinds(4)).toEqual(["error:missing-glyph"]);
    // The shipped emoji font draws the rocket; nothing has Linear A.
    expect(on(findings, 4)[0]!.message).toContain("(𐘀𐘁𐘂)");
    // A picture on a centred cover gets room of its own; one squeezed to 0 px is reported.
    expect(kinds(5)).toEqual([]);
    expect(kinds(6)[0]).toBe("error:image-zero-size");
    expect(on(findings, 6)[0]).toMatchObject({ component: "Image", text: "The squeezed logo" });
    expect(kinds(7)).toEqual([]);

    // The same words on a theme whose body size is 12 pt (grown at most to 16 pt on short slides): the body
    // text is reported, the headings are not.
    const small = await createDeck(author);
    const tokensCss = ":root { --type-base: 24px; }";
    expect((await setContent(author, small.id, { source, tokensCss })).status).toBe(200);
    const smallFindings = ((await check(author, small.id)).body.findings as Finding[]).filter(
      (finding) => finding.kind === "small-text",
    );
    expect(smallFindings.length).toBeGreaterThan(0);
    expect(smallFindings.map((finding) => finding.component)).not.toContain("Heading");
    expect(smallFindings.find((finding) => finding.slide === 2)).toMatchObject({ component: "Bullets" });
  }, 120_000);

  it("finds no text under 4.5:1 in code, stats and kickers, under the default theme and a dark brand's tokens", async () => {
    const source = `import { Deck, Slide, Heading, Code, Stat, Columns } from "@deckhand/player";
export default function Tones() {
  return (
    <Deck title="Tones">
      <Slide label="Code">
        <Heading kicker="Engineering">The cache key</Heading>
        <Code language="ts" code={\`// Hash the inputs
export class CacheKey {
  constructor(private readonly step: Step) {}
  toString(): string {
    return hash([this.step.command, "v2", 42].join("\\n"));
  }
}\`} />
      </Slide>
      <Slide label="Numbers">
        <Heading kicker="Results">Builds are faster</Heading>
        <Columns>
          <Stat value="4x" label="Faster builds" detail="up from 38 minutes" />
          <Stat value="83%" label="Cache hits" tone="accent" />
        </Columns>
      </Slide>
    </Deck>
  );
}
`;
    const dark = synthesizeTokensCss({
      palette: {
        roles: {
          primary: { hex: "#1d4ed8", source: "test", confidence: 1 },
          secondary: { hex: "#0f766e", source: "test", confidence: 1 },
          accent: { hex: "#c2410c", source: "test", confidence: 1 },
          background: { hex: "#0b0d12", source: "test", confidence: 1 },
          surface: { hex: "#161a22", source: "test", confidence: 1 },
          text: { hex: "#f5f5f4", source: "test", confidence: 1 },
          muted: { hex: "#5b6170", source: "test", confidence: 1 },
        },
        colors: [],
        contrast: {
          textOnBackground: 18,
          textOnSurface: 16,
          onPrimary: { hex: "#ffffff", ratio: 6 },
          onAccent: { hex: "#ffffff", ratio: 5 },
        },
        confidence: 1,
      },
      typography: {
        heading: { family: "Inter", category: "sans-serif", weights: [400], source: "test", confidence: 1 },
        body: { family: "Inter", category: "sans-serif", weights: [400], source: "test", confidence: 1 },
        mono: null,
        scale: { basePx: 16, ratio: 1.2 },
        fontSources: [],
      },
      imagery: { style: "minimal", shapes: "rounded", cornerRadiusPx: 8, guidelines: [], confidence: 1 },
    });
    for (const tokensCss of [undefined, dark]) {
      const deck = await createDeck(author);
      expect((await setContent(author, deck.id, { source, ...(tokensCss ? { tokensCss } : {}) })).status).toBe(200);
      const findings = (await check(author, deck.id)).body.findings as Finding[];
      expect(
        findings.filter((finding) => finding.kind === "low-contrast"),
        tokensCss ? "dark brand" : "default theme",
      ).toEqual([]);
    }
  }, 120_000);

  it("finds nothing at all in the authoring brief's example deck", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source: exampleDeckSource })).status).toBe(200);
    const res = await check(author, deck.id);
    expect(res.status).toBe(200);
    expect(res.body.findings).toEqual([]);
    expect(res.body).toMatchObject({ errors: 0, warnings: 0 });
  }, 90_000);

  it("reports a slide whose code throws, and a deck that draws nothing, as errors instead of failing", async () => {
    const deck = await createDeck(author);
    const throwing = `import { Deck, Slide, Heading } from "@deckhand/player";
function Broken(): JSX.Element { throw new Error("numbers missing"); }
export default function Throws() {
  return (
    <Deck title="Throws">
      <Slide label="Fine"><Heading>Fine</Heading></Slide>
      <Slide label="Broken"><Broken /></Slide>
    </Deck>
  );
}
`;
    expect((await setContent(author, deck.id, { source: throwing })).status).toBe(200);
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    expect(findings.filter((finding) => finding.severity === "error")).toEqual([
      expect.objectContaining({ kind: "slide-failed", slide: 2, label: "Broken" }),
    ]);
  }, 90_000);

  it("checks an earlier version, and keeps the usual rules", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source: problems })).status).toBe(200);
    expect((await setContent(author, deck.id, { source: exampleDeckSource })).status).toBe(200);
    const first = await check(author, deck.id, "?version=1");
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(1);
    expect(first.body.errors).toBeGreaterThan(0);
    expect((await check(author, deck.id)).body).toMatchObject({ version: 2, errors: 0 });

    expect((await check(author, deck.id, "?version=9")).status).toBe(404);
    expect((await check(author, deck.id, "?version=abc")).status).toBe(422);
    expect((await check(author, deck.id, "?verbose=1")).status).toBe(422);
    expect((await call("GET", `/decks/${deck.id}/check`, { key: "dk_nope" })).status).toBe(401);
    // Private to its owner: a colleague is refused, another organization does not learn it exists.
    expect((await check(colleague, deck.id)).status).toBe(403);
    expect((await check(stranger, deck.id)).status).toBe(404);

    const empty = await createDeck(author);
    const none = await check(author, empty.id);
    expect(none.status).toBe(422);
    expect(none.body.error.message).toMatch(/no content/);
  }, 120_000);

  it("checks a deck's next version in the page it kept for it, finding what a new page finds", async () => {
    const deck = await createDeck(author, { title: "Kept" });
    const list = (points: string[]) => `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";
export default function Kept() {
  return (
    <Deck title="Kept">
      <Slide label="Cover"><Title>A page kept for its deck</Title></Slide>
      <Slide label="List"><Heading>Points</Heading><Bullets items={${JSON.stringify(points)}} /></Slide>
    </Deck>
  );
}
`;
    const keeping = () =>
      idleRenderers().filter(
        (renderer) => renderer.organization === author.organizationId && renderer.keeping?.includes(deck.id),
      );
    let jobs = 0;
    // Overflowing, then fitting, then overflowing again, then other problems: each version's own findings.
    for (const source of [list(forty), list(ten), list(forty), problems]) {
      expect((await setContent(author, deck.id, { source })).status).toBe(200);
      const kept = await check(author, deck.id);
      expect(kept.status).toBe(200);
      // The same renderer, one job further, keeps the deck's page (drawn in place after the first check).
      await expect
        .poll(keeping)
        .toEqual([expect.objectContaining({ jobs: jobs === 0 ? expect.any(Number) : jobs + 1 })]);
      jobs = keeping()[0]!.jobs;
      const fresh = await createDeck(author, { title: "Kept" });
      expect((await setContent(author, fresh.id, { source })).status).toBe(200);
      expect(kept.body.findings).toEqual((await check(author, fresh.id)).body.findings);
    }
    const findings = (await check(author, deck.id)).body.findings as Finding[];
    expect(findings.length).toBeGreaterThan(0);
  }, 180_000);

  it("is the MCP tool check_deck", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source: problems })).status).toBe(200);
    const res = await fetch(`${server.origin}/api/v1/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${author.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "check_deck", arguments: { id: deck.id } },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { content: { text: string }[]; isError?: boolean } };
    expect(body.result.isError).toBeFalsy();
    const result = JSON.parse(body.result.content[0]!.text) as { findings: Finding[] };
    expect(result.findings.map((finding) => finding.kind)).toContain("empty-slide");
  }, 90_000);
});
