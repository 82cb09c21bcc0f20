// The module `@deckhand/player`: what a compiled deck imports (the vocabulary and the JSX runtime),
// plus `mountPlayer` for the frame document's boot script. Built by scripts/build-player.ts into one
// ES module and mapped to "@deckhand/player" by the frame's import map, so the deck and the player share
// one React.
export { jsx, jsxs, Fragment } from "react/jsx-runtime";
export { Deck, Slide, Beat } from "./structure";
export { Columns, Stack, Grid, Box } from "./vocabulary/layout";
export { Title, Heading, Text, Bullets, Quote, Code } from "./vocabulary/type";
export { Link } from "./vocabulary/link/link";
export { Formula } from "./vocabulary/formula/formula";
export { Image, Icon } from "./vocabulary/media";
export { Logo } from "./vocabulary/logo";
export { Stat, Table, Chart } from "./vocabulary/data";
export { Timeline, Steps } from "./vocabulary/sequence";
export { Diagram } from "./vocabulary/diagram";
export { mountPlayer } from "./shell/mount";
