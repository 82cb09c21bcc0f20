import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";
import { buildAuthoringBrief } from "@/lib/source/instructions";
import { vocabulary } from "@/lib/source/component-specs";

// Decks that use Logo and Diagram compile like any other: the Mermaid source as a string child (one
// template literal), as the `code` prop, or built in the module; near misses and the names models reach
// for ("Mermaid", "Flowchart", "BrandLogo") are refused with a pointer to the right component.

const deck = `import { Deck, Slide, Title, Heading, Logo, Diagram, Columns, Text } from "@deckhand/player";

const steps = ["Sign up", "First deck", "Share"];
const chain = \`flowchart LR
  \${steps.map((step, index) => \`S\${index}[\${step}]\`).join(" --> ")}\`;

export default function Branded() {
  return (
    <Deck title="Branded">
      <Slide label="Cover" layout="center" background="primary">
        <Logo size="lg" />
        <Title>Onboarding</Title>
      </Slide>
      <Slide label="Flow">
        <Logo placement="top-right" tone="mono" alt="Northwind" />
        <Heading>A team activates in three steps</Heading>
        <Diagram title="Activation">{\`flowchart LR
  A[Sign up] --> B[First deck]
  B --> C{Shared?}\`}</Diagram>
      </Slide>
      <Slide label="Sequence">
        <Columns ratio="2:1">
          <Diagram alt="The editor saves through the API" code={\`sequenceDiagram
  Editor->>API: Save\`} />
          <Text>Every save is a version.</Text>
        </Columns>
      </Slide>
      <Slide label="Built">
        <Diagram code={chain} />
      </Slide>
    </Deck>
  );
}
`;

async function refusal(source: string): Promise<AppError> {
  try {
    await compileDeck({ source, format: "slides" });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("compile_failed");
    return error as AppError;
  }
  throw new Error("expected the deck to be refused");
}

describe("compileDeck with Logo and Diagram", () => {
  it("compiles and reads the outline", async () => {
    const { outline, compiledJs } = await compileDeck({ source: deck, format: "slides" });
    expect(outline).toEqual(["Cover", "Flow", "Sequence", "Built"]);
    expect(compiledJs).toMatch(/\bLogo\b/);
    expect(compiledJs).toMatch(/\bDiagram\b/);
    // The Mermaid source reaches the player as written.
    expect(compiledJs).toContain("A[Sign up] --> B[First deck]");
  });

  it("suggests Diagram for Mermaid and Flowchart, and for a near miss", async () => {
    for (const wrong of ["Mermaid", "Flowchart", "Diagramm"]) {
      const error = await refusal(deck.replace("Logo, Diagram,", `Logo, Diagram, ${wrong},`));
      expect(error.message).toContain(`"${wrong}" is not a component`);
      expect(error.message).toContain('Did you mean "Diagram"?');
    }
  });

  it("suggests Logo for BrandLogo and Wordmark", async () => {
    for (const wrong of ["BrandLogo", "Wordmark"]) {
      const error = await refusal(deck.replace("Logo, Diagram,", `Logo, Diagram, ${wrong},`));
      expect(error.message).toContain('Did you mean "Logo"?');
    }
  });

  it("documents both in the brief with a compiling example each", async () => {
    const brief = buildAuthoringBrief();
    for (const name of ["Logo", "Diagram"]) {
      const spec = vocabulary.find((component) => component.name === name)!;
      expect(spec.example).toBeDefined();
      expect(brief).toContain(`  example: ${spec.example}`);
      const source = `import { Deck, Slide, ${name} } from "@deckhand/player";\nexport default function D() {\n  return (\n    <Deck>\n      <Slide label="One">\n        ${spec.example}\n      </Slide>\n    </Deck>\n  );\n}\n`;
      const { outline } = await compileDeck({ source, format: "slides" });
      expect(outline).toEqual(["One"]);
    }
    expect(brief).toContain("<Logo>, never an <Image>");
    expect(brief).toContain("Mermaid");
  });
});
