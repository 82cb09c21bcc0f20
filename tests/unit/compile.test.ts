import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { compileDeck, MAX_NESTING } from "@/lib/source/compile";

const header = `import { Deck, Slide, Beat, Heading, Text } from "@deckhand/player";\n`;

function slidesDeck(body: string): string {
  return `${header}export default function TestDeck() {\n  return <Deck>${body}</Deck>;\n}\n`;
}

async function compileRefusal(source: string, format: "slides" | "webpage" = "slides"): Promise<AppError> {
  try {
    await compileDeck({ source, format });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const apiError = error as AppError;
    expect(apiError.code).toBe("compile_failed");
    return apiError;
  }
  throw new Error("expected the deck to be refused");
}

describe("compileDeck refusals", () => {
  it("reports a syntax error with its line and column", async () => {
    const source = `${header}export default function TestDeck() {\n  return <Deck>\n    <Slide label="One">}</Slide>\n  </Deck>;\n}\n`;
    const error = await compileRefusal(source);
    expect(error.message).toMatch(/^Line 4:24: The character "}" is not valid inside a JSX element/);
  });

  it("refuses an import of react, even when unused", async () => {
    const source = `import React from "react";\n${slidesDeck(`<Slide label="One" />`)}`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 1:19: Cannot import "react"');
    expect(error.message).toContain('only from "@deckhand/player"');
  });

  it("refuses a relative import", async () => {
    const source = `import { helper } from "./helper";\n${slidesDeck(`<Slide label={helper} />`)}`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Cannot import "./helper"');
  });

  it("refuses a subpath of the player", async () => {
    const source = `import { Chart } from "@deckhand/player/charts";\n${slidesDeck(`<Slide label="One"><Chart /></Slide>`)}`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Cannot import "@deckhand/player/charts"');
    expect(error.message).toContain("no subpaths");
  });

  it("refuses an unknown named import and lists the vocabulary", async () => {
    const source = `import { Deck, Slide, Paragraf } from "@deckhand/player";\nexport default () => <Deck><Slide label="One"><Paragraf /></Slide></Deck>;\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 1:23: "Paragraf" is not a component of "@deckhand/player".');
    expect(error.message).toContain("Available: Deck, Slide, Beat,");
    expect(error.message).not.toContain("deckhand-player:");
  });

  it("refuses an unknown named import even when it is never used", async () => {
    const source = `import { Deck, Slide, Marquee } from "@deckhand/player";\nexport default () => <Deck><Slide label="One" /></Deck>;\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 1:23: "Marquee" is not a component of "@deckhand/player".');
  });

  it("refuses an unused unknown import written after the code, over lines and renamed", async () => {
    const source = `export default () => <Deck><Slide label="One" /></Deck>;\nimport {\n  Deck,\n  Slide,\n  Marquee as M,\n} from "@deckhand/player";\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 5:3: "Marquee" is not a component of "@deckhand/player".');
  });

  it("takes an import written inside a string or a comment for text, not an import", async () => {
    const source = slidesDeck(
      `<Slide label={\`import { Marquee } from "@deckhand/player";\`}>{/* import { Ticker } from "@deckhand/player"; */}</Slide>`,
    );
    await expect(compileDeck({ source, format: "slides" })).resolves.toMatchObject({
      outline: ['import { Marquee } from "@deckhand/player";'],
    });
  });

  it("suggests the closest component for a near miss", async () => {
    const source = `import { Deck, Slides } from "@deckhand/player";\nexport default () => <Deck><Slides label="One" /></Deck>;\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Did you mean "Slide"?');
  });

  it("maps common non-vocabulary names to the component to use", async () => {
    const source = `import { Deck, Slide, Paragraph } from "@deckhand/player";\nexport default () => <Deck><Slide label="One"><Paragraph /></Slide></Deck>;\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('"Paragraph" is not a component of "@deckhand/player". Did you mean "Text"?');
  });

  it('refuses require("x")', async () => {
    const source = `const fs = require("fs");\n${slidesDeck(`<Slide label={String(fs)} />`)}`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 1:20: require() is not allowed: require("fs")');
  });

  it("refuses require(variable)", async () => {
    const source = `const name = "fs";\nconst fs = require(name);\n${slidesDeck(`<Slide label={String(fs)} />`)}`;
    const error = await compileRefusal(source);
    expect(error.message).toContain("Line 2:12: require() is not allowed in a deck module");
  });

  it('refuses import("x")', async () => {
    const source = `${header}export default function TestDeck() {\n  void import("x");\n  return <Deck><Slide label="One" /></Deck>;\n}\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain('Line 3:15: Dynamic import() is not allowed: import("x")');
  });

  it("refuses import(variable), which esbuild plugins never see", async () => {
    const source = `${header}export default function TestDeck({ name }: { name: string }) {\n  void import(name);\n  return <Deck><Slide label="One" /></Deck>;\n}\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain("Line 3:8: Dynamic import() is not allowed.");
  });

  it("refuses import.meta", async () => {
    const source = slidesDeck(`<Slide label={import.meta.url} />`);
    const error = await compileRefusal(source);
    expect(error.message).toContain("import.meta is not available in a deck module");
    expect(error.message).toMatch(/^Line 3:\d+:/);
  });

  it("refuses a module without a default export", async () => {
    const source = `${header}export function TestDeck() {\n  return <Deck><Slide label="One" /></Deck>;\n}\n`;
    const error = await compileRefusal(source);
    expect(error.message).toContain("no default export");
  });

  it("refuses a slides deck without a Slide", async () => {
    const error = await compileRefusal(slidesDeck(`<Heading>Alone</Heading>`));
    expect(error.message).toContain("A slides deck needs at least one <Slide>");
  });

  it("refuses a webpage deck without a Beat", async () => {
    const error = await compileRefusal(slidesDeck(`<Slide label="One" />`), "webpage");
    expect(error.message).toContain("A webpage deck needs at least one <Beat>");
  });
});

// Nesting the parser and the walks would follow with recursion past the stack: refused with the compiler's
// message, on this thread's stack (the request thread's, as a serverless instance compiles) like the worker's.
describe("compileDeck and deep nesting", () => {
  const withConstant = (value: string) =>
    `${header}const x = ${value};\nexport default function TestDeck() {\n  return <Deck><Slide label="One"><Text>{String(x)}</Text></Slide></Deck>;\n}\n`;
  const elements = (depth: number) =>
    slidesDeck(`<Slide label="One">${"<Text>".repeat(depth)}x${"</Text>".repeat(depth)}</Slide>`);

  it.each([
    ["3,000 nested [", withConstant(`${"[".repeat(3000)}${"]".repeat(3000)}`), "Line 2:3010: "],
    ["1,500 nested template literals", withConstant(`${"`${".repeat(1500)}1${"}`".repeat(1500)}`), "Line 2:4510: "],
    ["600 nested template literals", withConstant(`${"`${".repeat(600)}1${"}`".repeat(600)}`), "Line 2:1810: "],
    ["300 nested elements", elements(300), ""],
    ["a chain of 1,500 calls", withConstant(`[1]${".map((v) => v)".repeat(1500)}`), ""],
    ["a sum of 10,000 terms", withConstant(`((a: number) => ${Array(10_000).fill("a").join(" + ")})(1)`), ""],
  ])("refuses %s as compile_failed, pointing at the deepest bracket", async (_, source, where) => {
    const error = await compileRefusal(source);
    expect(error.message).toBe(
      `${where}The module nests too deeply: more than ${MAX_NESTING} levels of brackets, template literals, elements, calls or functions inside each other. Flatten it: put parts in variables or helper components`,
    );
  });

  // esbuild's parser (Go) overflowed its stack on 200,000 nested brackets (400 KB, within the 1 MB source
  // limit) and stopped its service: every later compile of the process failed ("The service is no longer
  // running"). Such a source is refused before esbuild; one whose brackets the source check cannot see (here
  // after a quote in JSX text) stops esbuild, which is restarted, and is refused. Either way the next compiles.
  it("refuses 200,000 nested brackets before esbuild, and one that stops esbuild anyway; the next module compiles", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const before = await compileRefusal(withConstant(deep));
    expect(before.message).toMatch(/^Line 2:200010: The module nests too deeply/);
    const hidden = slidesDeck(`<Slide label="One"><Text>it's {String(${deep})}</Text></Slide>`);
    const stopped = await compileRefusal(hidden);
    expect(stopped.message).toMatch(/^The module nests too deeply/);
    expect((await compileDeck({ source: withConstant("[1]"), format: "slides" })).outline).toEqual(["One"]);
  }, 60_000);

  it("compiles what real decks nest: 100 brackets, 40 elements, a chain of 100 calls", async () => {
    for (const source of [
      withConstant(`${"[".repeat(100)}${"]".repeat(100)}`),
      elements(40),
      withConstant(`[1]${".map((v) => v)".repeat(100)}`),
    ]) {
      expect((await compileDeck({ source, format: "slides" })).outline).toEqual(["One"]);
    }
  });
});

describe("compileDeck outline", () => {
  it("reads string literal labels in source order", async () => {
    const source = slidesDeck(`
      <Slide label="Cover"><Heading>Hi</Heading></Slide>
      <Slide label="  The   problem ">x</Slide>
      <Slide label="Close" />`);
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Cover", "The problem", "Close"]);
  });

  it("reads a template literal label without expressions", async () => {
    const source = slidesDeck("<Slide label={`Results`} />");
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Results"]);
  });

  it('numbers slides whose label is missing or computed as "Slide N"', async () => {
    const source = `const name = "Dynamic";\n${slidesDeck('<Slide label="First" /><Slide /><Slide label={`${name}!`} /><Slide label={name} />')}`;
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["First", "Slide 2", "Slide 3", "Slide 4"]);
  });

  it("follows a renamed import and a local that collides with jsx", async () => {
    const source = `import { Deck, Slide as S } from "@deckhand/player";\nconst jsx = "not the runtime";\nexport default () => <Deck><S label="Renamed">{jsx}</S><><S label="In fragment" /></></Deck>;\n`;
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Renamed", "In fragment"]);
  });

  it("reads Beats for a webpage deck and ignores Slides there", async () => {
    const source = `${header}export default () => (\n  <Deck>\n    <Beat label="Hero" />\n    <Beat>middle</Beat>\n    <Beat label="Footer" />\n  </Deck>\n);\n`;
    const { outline } = await compileDeck({ source, format: "webpage" });
    expect(outline).toEqual(["Hero", "Beat 2", "Footer"]);
  });

  it("finds slides inside helper components and namespace imports", async () => {
    const source = `import * as P from "@deckhand/player";\nfunction Intro() { return <P.Slide label="Intro" />; }\nexport default () => <P.Deck><Intro /><P.Slide label="Body" /></P.Deck>;\n`;
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Intro", "Body"]);
  });
});

describe("compileDeck output", () => {
  it("imports only from @deckhand/player, including the JSX runtime", async () => {
    const source = slidesDeck(`<Slide label="One"><><Heading>Hi</Heading><Text>there</Text></></Slide>`);
    const { compiledJs } = await compileDeck({ source, format: "slides" });
    const program = parse(compiledJs, { ecmaVersion: "latest", sourceType: "module" });
    const sources = program.body.flatMap((statement) =>
      statement.type === "ImportDeclaration" ||
      statement.type === "ExportAllDeclaration" ||
      (statement.type === "ExportNamedDeclaration" && statement.source)
        ? [statement.source?.value]
        : [],
    );
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(["@deckhand/player"]));
    expect(compiledJs).toMatch(/import \{[^}]*\bjsx\b[^}]*\} from "@deckhand\/player"/);
    expect(compiledJs).toMatch(/import \{[^}]*\bFragment\b[^}]*\} from "@deckhand\/player"/);
    expect(compiledJs).not.toContain('jsx-runtime"');
  });

  it("accepts type-only imports of player types", async () => {
    const source = `import type { SlideProps } from "@deckhand/player";\nimport { type DeckProps, Deck, Slide } from "@deckhand/player";\nconst props: SlideProps & DeckProps = { label: "Typed" } as never;\nexport default () => <Deck><Slide label="Typed" {...props} /></Deck>;\n`;
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Typed"]);
  });

  it("compiles a 300-line module of 60 slides", async () => {
    const slides = Array.from(
      { length: 60 },
      (_, index) =>
        `      <Slide label="Slide ${index}">\n        <Heading>Point ${index}</Heading>\n        <Text>Detail</Text>\n      </Slide>`,
    ).join("\n");
    const source = slidesDeck(`\n${slides}\n`);
    expect(source.split("\n").length).toBeGreaterThanOrEqual(240);
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toHaveLength(60);
  });
});
