import { describe, expect, it } from "vitest";
import { matchIdentities, slideVersions } from "@/components/app/editor/thumbnail-versions";
import { deleteSlide, duplicateSlide, moveSlide, outlineSlides } from "@/lib/source/transform/edit";

// The slide rail's thumbnail keys: a slide's picture is asked again only when its own text, the code
// around the slides or the theme changed, and a thumbnail follows its slide through moves and deletions.

const deck = (titles: string[]) =>
  `import { Deck, Slide, Heading } from "@deckhand/player";\n\nexport default function D() {\n  return (\n    <Deck>\n${titles
    .map((title) => `      <Slide label="${title}">\n        <Heading>${title}</Heading>\n      </Slide>`)
    .join("\n")}\n    </Deck>\n  );\n}\n`;

const versionsOf = (source: string, tokens = ":root{}") =>
  slideVersions(source, tokens, outlineSlides(source, "slides"), 0);

describe("slide thumbnail versions", () => {
  const source = deck(["One", "Two", "Three", "Four"]);
  const versions = versionsOf(source);

  it("change only for the slide whose text changed", () => {
    const edited = versionsOf(source.replace("<Heading>Three</Heading>", "<Heading>Three!</Heading>"));
    expect(edited.map((version, index) => version === versions[index])).toEqual([true, true, false, true]);
  });

  it("change for every slide when the code around the slides or the theme changes", () => {
    const around = versionsOf(source.replace("export default function D", "const x = 1;\nexport default function D"));
    expect(around.some((version, index) => version === versions[index])).toBe(false);
    expect(versionsOf(source, ":root{--color-bg:#000}").some((v, index) => v === versions[index])).toBe(false);
  });

  it("move with their slide", () => {
    const moved = versionsOf(moveSlide(source, "slides", 0, 3));
    expect(moved).toEqual([versions[1], versions[2], versions[3], versions[0]]);
  });

  it("fall back to the whole module and the place when slides are made in code", () => {
    const mapped = `import { Deck, Slide } from "@deckhand/player";\nexport default () => <Deck>{[1, 2].map((n) => <Slide key={n} />)}</Deck>;\n`;
    const made = slideVersions(mapped, "", outlineSlides(mapped, "slides"), 2);
    expect(made).toHaveLength(2);
    expect(made[0]).not.toBe(made[1]);
  });
});

describe("thumbnail identities", () => {
  const source = deck(["One", "Two", "Three", "Four"]);
  let last = 0;
  const first = matchIdentities([], versionsOf(source), () => ++last);

  it("are new for a new rail, in order", () => {
    expect(first.map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
  });

  it("follow a moved slide and survive a deletion before them", () => {
    const moved = matchIdentities(first, versionsOf(moveSlide(source, "slides", 3, 0)), () => ++last);
    expect(moved.map((entry) => entry.id)).toEqual([4, 1, 2, 3]);
    const deleted = matchIdentities(first, versionsOf(deleteSlide(source, "slides", 1)), () => ++last);
    expect(deleted.map((entry) => entry.id)).toEqual([1, 3, 4]);
  });

  it("stay with an edited slide (its old picture is kept until the new one is drawn), and a copy is new", () => {
    const edited = matchIdentities(first, versionsOf(source.replace(">Two<", ">Two, edited<")), () => ++last);
    expect(edited.map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(edited[1]!.version).not.toBe(first[1]!.version);
    const copied = matchIdentities(first, versionsOf(duplicateSlide(source, "slides", 0)), () => ++last);
    expect(copied.map((entry) => entry.id).slice(0, 2)).toEqual([1, last]);
    expect(copied.map((entry) => entry.id).slice(2)).toEqual([2, 3, 4]);
  });
});
