import { createElement, type ComponentType, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as runtime from "@/components/player/runtime";
import { PlayerContext, type PlayerState } from "@/components/player/shell/player-context";
import { icons } from "@/components/player/vocabulary/icon/icon";
import * as contract from "@/lib/contract/prop-values";
import { vocabulary } from "@/lib/source/component-specs";
import { importEdges, sourceFiles } from "../helpers/import-graph";

// The player and the vocabulary that documents it are held together: the runtime exports exactly the
// documented components, draws exactly the documented icons, and accepts exactly the documented values.

// What `@deckhand/player` exports besides the components: the JSX runtime compiled decks call, and the
// boot script's entry point.
const nonComponentExports = ["Fragment", "jsx", "jsxs", "mountPlayer"];

const player: PlayerState = {
  config: {
    moduleUrl: "",
    format: "slides",
    mode: "present",
    slide: 0,
    title: "",
    chrome: false,
    embedded: false,
    logo: { url: "/d/example/logo", alt: "Acme" },
    diagramUrl: "/player/diagram.js",
    formulaUrl: "/player/formula.js",
  },
  revision: 0,
  slide: 0,
  count: 1,
  slides: [],
  overview: false,
  goTo: () => {},
  setOverview: () => {},
  setCount: () => {},
  registerMeta: () => {},
  reportError: () => {},
  requestParent: () => {},
};

// The least each component needs to draw something the props can change.
const requiredProps: Record<string, Record<string, unknown>> = {
  // With an image, so that the props about the slide's image draw something.
  Slide: { image: "data:image/png;base64,iVBORw0KGgo=" },
  Bullets: { items: ["One point"] },
  Code: { code: "const a = 1;" },
  Image: { src: "data:image/png;base64,iVBORw0KGgo=", alt: "A picture" },
  Icon: { name: "check" },
  Stat: { value: "42%", label: "Share" },
  Table: { columns: ["A"], rows: [["1"]] },
  Chart: { type: "bar", data: [{ label: "A", value: 1 }] },
  Timeline: { items: [{ date: "2025", title: "Launch" }] },
  Steps: { items: [{ title: "Connect" }] },
  Diagram: { code: "flowchart LR; A --> B" },
};

function render(name: string, props: Record<string, unknown>): string {
  const component = (runtime as unknown as Record<string, ComponentType<Record<string, unknown>>>)[name];
  if (!component) throw new Error(`@deckhand/player has no ${name}`);
  const children: ReactNode = name === "Deck" ? null : "Content";
  return renderToStaticMarkup(
    createElement(
      PlayerContext.Provider,
      { value: player },
      createElement(component, { ...requiredProps[name], ...props }, children),
    ),
  );
}

const contractLists = (Object.values(contract) as unknown[]).filter((value): value is readonly (string | number)[] =>
  Array.isArray(value),
);
// Every value of every list, to offer each prop the values of the others.
const allValues = [...new Set(contractLists.flat()), "not-a-value"];
const enumerated = vocabulary.flatMap((component) =>
  component.props.flatMap((prop) =>
    prop.values ? [{ component: component.name, prop: prop.name, values: prop.values }] : [],
  ),
);

describe("the player's contract", () => {
  it("exports exactly the vocabulary's components, in the contract's names", () => {
    const names = vocabulary.map((component) => component.name);
    expect(names).toEqual([...contract.componentNames]);
    expect(Object.keys(runtime).sort()).toEqual([...names, ...nonComponentExports].sort());
    for (const name of names) expect(typeof (runtime as Record<string, unknown>)[name]).toBe("function");
  });

  it("draws exactly the contract's icons", () => {
    expect(Object.keys(icons).sort()).toEqual([...contract.iconNames].sort());
    expect(new Set(contract.iconNames).size).toBe(contract.iconNames.length);
    for (const name of contract.iconNames) expect(render("Icon", { name })).not.toContain("data-missing-icon");
    expect(render("Icon", { name: "no-such-icon" })).toContain('data-missing-icon="no-such-icon"');
    // An object's inherited keys are not icons.
    expect(render("Icon", { name: "constructor" })).toContain('data-missing-icon="constructor"');
  });

  it("documents every list-valued prop with one of the contract's lists", () => {
    const literalUnion = /^(?:"[^"]*"|\d+)(?: \| (?:"[^"]*"|\d+))+$/;
    for (const component of vocabulary) {
      for (const prop of component.props) {
        const where = `${component.name}.${prop.name}`;
        if (literalUnion.test(prop.type)) expect(prop.values, `${where} lists its values by hand`).toBeDefined();
        if (!prop.values) continue;
        expect(contractLists.includes(prop.values), `${where} is not a contract list`).toBe(true);
        expect(prop.type).toBe(prop.values.map((value) => JSON.stringify(value)).join(" | "));
      }
    }
    expect(enumerated.length).toBeGreaterThan(20);
  });

  // The player's normaliser is seen from outside: each documented value draws differently, and any
  // other value (another list's, or nonsense) draws as if the prop were not given.
  for (const { component, prop, values } of enumerated) {
    it(`${component} ${prop}: ${values.join(", ")}`, () => {
      const absent = render(component, {});
      const drawn = values.map((value) => render(component, { [prop]: value }));
      expect(new Set(drawn).size).toBe(values.length);
      for (const value of allValues) {
        if (values.includes(value)) continue;
        expect(render(component, { [prop]: value }), `${prop}=${JSON.stringify(value)}`).toBe(absent);
      }
    });
  }

  it("the player imports only itself, the contract and its packages; the contract imports only itself", () => {
    // mermaid only in the Diagram renderer and katex only in the Formula renderer, builds of their own that
    // the runtime imports by URL.
    const packages = [
      "react",
      "react/jsx-runtime",
      "react-dom/client",
      "react-dom",
      "lucide",
      "sugar-high",
      "sugar-high/lang",
      "mermaid",
      "katex",
    ];
    const edges = importEdges(sourceFiles(["components/player", "lib/contract"]));
    const outside = edges
      .filter((edge) =>
        edge.from.startsWith("lib/contract/")
          ? !edge.to.startsWith("lib/contract/")
          : edge.from.startsWith("components/player/") &&
            !edge.to.startsWith("components/player/") &&
            !edge.to.startsWith("lib/contract/") &&
            !packages.includes(edge.to),
      )
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(outside).toEqual([]);
    expect(
      edges.some((edge) => edge.from.startsWith("components/player/") && edge.to.startsWith("lib/contract/")),
    ).toBe(true);
  });
});
