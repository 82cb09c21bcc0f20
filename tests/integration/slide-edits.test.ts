import { beforeAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";

// Slide-level edits (issue 38, item 2): list, replace, insert, delete and move one slide through the API.
// Each writes one version made by the visual editor's source transformations, so every byte but the
// slide's stays as it was; a stale base is a 409, a slide that does not compile a 422, and neither saves.

let owner: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  owner = await createUser();
  outsider = await createUser();
});

// Written by hand, as an agent would: a comment, odd spacing and notes, all of which must survive.
const source = `import { Deck, Slide, Title, Text } from "@deckhand/player";

// Quarterly review
export default function Review() {
  return (
    <Deck>
      <Slide label="Cover" notes="Welcome everyone.">
        <Title>Q3 review</Title>
      </Slide>
      <Slide label="Numbers">
        <Title>Revenue   grew</Title>
        <Text>Up 12% on Q2.</Text>
      </Slide>
      <Slide label="Close">
        <Title>Thanks</Title>
      </Slide>
    </Deck>
  );
}
`;

async function deckWithSource(text = source) {
  const deck = await createDeck(owner, { title: "Slides" });
  expect((await setContent(owner, deck.id, { source: text })).status).toBe(200);
  return deck.id;
}

async function newest(id: string): Promise<{ version: number; source: string }> {
  const res = await call("GET", `/decks/${id}`, { key: owner.key });
  return res.body.latestVersion;
}

describe("GET /decks/{id}/slides", () => {
  it("lists each slide's number, label, notes and TSX, exactly as written", async () => {
    const id = await deckWithSource();
    const res = await call("GET", `/decks/${id}/slides`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.editable).toBe(true);
    expect(res.body.slides.map((s: { slide: number; label: string }) => [s.slide, s.label])).toEqual([
      [1, "Cover"],
      [2, "Numbers"],
      [3, "Close"],
    ]);
    expect(res.body.slides[0].notes).toBe("Welcome everyone.");
    for (const slide of res.body.slides) expect(source).toContain(slide.source);
    expect(res.body.slides[1].source).toMatch(/^<Slide label="Numbers">[\s\S]*<\/Slide>$/);
    expect((await call("GET", `/decks/${id}/slides`, { key: outsider.key })).status).toBe(404);
    expect((await call("GET", `/decks/${id}/slides?version=2`, { key: owner.key })).status).toBe(404);
  });
});

describe("slide edits", () => {
  it("replaces one slide, splicing only its bytes, as one new version", async () => {
    const id = await deckWithSource();
    const old = (await call("GET", `/decks/${id}/slides`, { key: owner.key })).body.slides[1].source as string;
    const text = `<Slide label="Numbers">\n        <Title>Revenue grew 12%</Title>\n      </Slide>`;
    const res = await call("PUT", `/decks/${id}/slides/2`, {
      key: owner.key,
      body: { source: text, basedOnVersion: 1 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), version: 2 });
    const start = source.indexOf(old);
    expect((await newest(id)).source).toBe(source.slice(0, start) + text + source.slice(start + old.length));
    const versions = await call("GET", `/decks/${id}/versions`, { key: owner.key });
    expect(versions.body.map((v: { version: number; prompt: string }) => [v.version, v.prompt])).toEqual([
      [2, "Replaced slide 2"],
      [1, null],
    ]);
  });

  it("refuses a stale base with 409 and a slide that does not compile with 422, saving nothing", async () => {
    const id = await deckWithSource();
    const text = `<Slide label="Close"><Title>Bye</Title></Slide>`;
    expect((await call("PUT", `/decks/${id}/slides/3`, { key: owner.key, body: { source: text } })).status).toBe(200);
    const stale = await call("PUT", `/decks/${id}/slides/3`, {
      key: owner.key,
      body: { source: text, basedOnVersion: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toMatch(/made on version 1, but the deck's newest is 2; nothing was saved/);

    const broken = await call("PUT", `/decks/${id}/slides/1`, {
      key: owner.key,
      body: { source: `<Slide label="Cover"><Title>{require("fs")}</Title></Slide>` },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe("compile_failed");
    expect(broken.body.error.message).toMatch(/require\(\) is not allowed/);

    for (const bad of [
      `<Slide><Title>A</Title></Slide><Slide><Title>B</Title></Slide>`,
      `<Title>Not a slide</Title>`,
      `<Slide><Title>Unclosed</Title>`,
    ]) {
      const res = await call("PUT", `/decks/${id}/slides/1`, { key: owner.key, body: { source: bad } });
      expect(res.status, bad).toBe(422);
      expect(res.body.error.code, bad).not.toBe("internal");
    }
    expect((await call("PUT", `/decks/${id}/slides/4`, { key: owner.key, body: { source: text } })).status).toBe(422);
    expect((await newest(id)).version).toBe(2);
    expect((await call("PUT", `/decks/${id}/slides/1`, { key: outsider.key, body: { source: text } })).status).toBe(
      404,
    );
  });

  it("inserts, moves and deletes one slide each, every other byte kept", async () => {
    const id = await deckWithSource();
    const first = `<Slide label="Agenda">\n  <Title>Agenda</Title>\n</Slide>`;
    const inserted = await call("POST", `/decks/${id}/slides`, { key: owner.key, body: { after: 0, source: first } });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    const v2 = (await newest(id)).source;
    // Indented like its neighbours, before the cover; the rest as it was.
    const cover = source.indexOf(`<Slide label="Cover"`);
    expect(v2).toBe(
      `${source.slice(0, cover)}<Slide label="Agenda">\n        <Title>Agenda</Title>\n      </Slide>\n      ${source.slice(cover)}`,
    );

    expect((await call("POST", `/decks/${id}/slides/1/move`, { key: owner.key, body: { to: 4 } })).status).toBe(200);
    const labels = async () =>
      (await call("GET", `/decks/${id}/slides`, { key: owner.key })).body.slides.map((s: { label: string }) => s.label);
    expect(await labels()).toEqual(["Cover", "Numbers", "Close", "Agenda"]);

    const deleted = await call("DELETE", `/decks/${id}/slides/4?basedOnVersion=3`, { key: owner.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.version).toBe(4);
    expect((await newest(id)).source).toBe(source);
    expect((await call("DELETE", `/decks/${id}/slides/1?basedOnVersion=3`, { key: owner.key })).status).toBe(409);
    const tooFar = await call("POST", `/decks/${id}/slides`, { key: owner.key, body: { after: 9, source: first } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.error.message).toMatch(/after: the deck has 3 slides; insert after 0 \(first\) to 3 \(last\)/);
  });

  it("imports a player component the new slide uses and the module does not yet", async () => {
    const id = await deckWithSource();
    const text = `<Slide label="Points"><Bullets items={["One", "Two"]} /></Slide>`;
    const res = await call("PUT", `/decks/${id}/slides/3`, { key: owner.key, body: { source: text } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await newest(id)).source).toContain(
      `import { Deck, Slide, Title, Text, Bullets } from "@deckhand/player";`,
    );
  });

  it("refuses slides made in code, saying why", async () => {
    const mapped = `import { Deck, Slide, Title } from "@deckhand/player";
const names = ["A", "B"];
export default function D() {
  return <Deck>{names.map((name) => <Slide key={name} label={name}><Title>{name}</Title></Slide>)}</Deck>;
}
`;
    const id = await deckWithSource(mapped);
    expect((await call("GET", `/decks/${id}/slides`, { key: owner.key })).body.editable).toBe(false);
    const res = await call("PUT", `/decks/${id}/slides/1`, {
      key: owner.key,
      body: { source: `<Slide><Title>X</Title></Slide>` },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/made in code \(with \.map.*set_deck_content/);
  });
});
