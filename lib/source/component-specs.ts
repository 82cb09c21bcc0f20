// The deck component vocabulary: the one description of what `@deckhand/player` exports to a deck module.
// The compiler's import allow-list, the authoring brief and the AI prompts are derived from it, so a
// component or prop that is not described here does not exist. Prop types are TypeScript text because
// their readers are people and models, not tsc; a prop that takes one of a list has its text written from
// the list in lib/contract/prop-values.ts, the same one the player normalises the prop with.
// The components are described by group in component-specs-layout.ts, component-specs-text.ts and
// component-specs-media.ts; the theme tokens they read, in theme-tokens.ts.

import { frameComponent, layoutComponents } from "./component-specs-layout";
import { mediaComponents } from "./component-specs-media";
import { textComponents } from "./component-specs-text";

export type PropSpec = {
  name: string;
  /** TypeScript type as text, e.g. '"left" | "center"'. */
  type: string;
  /** The values the player accepts, when the prop takes one of a list; `type` is written from them. */
  values?: readonly (string | number)[];
  required?: boolean;
  doc: string;
};

export type ComponentSpec = {
  /** One of the contract's `componentNames` (tests/unit/player-contract.test.ts holds them together). */
  name: string;
  group: "structure" | "layout" | "type" | "media" | "data";
  /** One line. */
  doc: string;
  props: PropSpec[];
  /** What children it takes; absent when it takes none. */
  children?: string;
  /** A short JSX example, shown in the brief, for components whose data props need one. */
  example?: string;
};

// In the contract's order (componentNames), which the imports of printed modules follow.
export const vocabulary: readonly ComponentSpec[] = [
  ...layoutComponents,
  ...textComponents,
  ...mediaComponents,
  frameComponent,
];

export const vocabularyNames: ReadonlySet<string> = new Set(vocabulary.map((component) => component.name));
