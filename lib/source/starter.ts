import type { DeckFormat } from "@/lib/contract/deck";

// The module a new deck opens with in the editor, before its first version: a title and one section,
// so the preview shows something and the outline has labels to click.
export function starterSource(format: DeckFormat, title: string): string {
  const text = `{${JSON.stringify(title)}}`;
  if (format === "webpage") {
    return `import { Deck, Beat, Title, Heading, Text } from "@deckhand/player";

export default function Page() {
  return (
    <Deck title=${text}>
      <Beat label="Hero" height="screen" layout="center">
        <Title subtitle="What this page is about">${text}</Title>
      </Beat>
      <Beat label="First section">
        <Heading>First section</Heading>
        <Text>Write the first section here.</Text>
      </Beat>
    </Deck>
  );
}
`;
  }
  return `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";

export default function Presentation() {
  return (
    <Deck>
      <Slide label="Title">
        <Title subtitle="A subtitle">${text}</Title>
      </Slide>
      <Slide label="Agenda">
        <Heading>Agenda</Heading>
        <Bullets items={["First point", "Second point", "Third point"]} />
      </Slide>
    </Deck>
  );
}
`;
}
