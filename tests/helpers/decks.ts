import { call, type TestUser } from "./api";

// A small valid deck-tsx module with one slide per label.
export function deckSource(labels: string[] = ["Intro"], extra = ""): string {
  const slides = labels
    .map((label) => `      <Slide label=${JSON.stringify(label)}>\n        <Title>${label}</Title>\n      </Slide>`)
    .join("\n");
  return `import { Deck, Slide, Title } from "@deckhand/player";\n${extra}\nexport default function Presentation() {\n  return (\n    <Deck>\n${slides}\n    </Deck>\n  );\n}\n`;
}

export async function createDeck(user: TestUser, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/decks", { key: user.key, body: { title: "Test deck", ...body } });
  if (res.status !== 201) throw new Error(`create_deck answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; [field: string]: unknown };
}

export async function setContent(user: TestUser, deckId: string, body: Record<string, unknown> = {}) {
  return call("PUT", `/decks/${deckId}/content`, { key: user.key, body: { source: deckSource(), ...body } });
}

// A deck with this content, made public: its id and the slug of its share link.
export async function publishDeck(user: TestUser, content: { source: string; tokensCss?: string }) {
  const deck = await createDeck(user);
  const saved = await setContent(user, deck.id, content);
  if (saved.status !== 200) throw new Error(`set_deck_content answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  const published = await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } });
  if (published.status !== 200) throw new Error(`update_deck answered ${published.status}`);
  return { id: deck.id, slug: published.body.publicSlug as string };
}
