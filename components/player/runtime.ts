// The module `@deckhand/player`: what a compiled deck imports (the vocabulary and the JSX runtime),
// plus `mountPlayer` for the frame document's boot script. Built by scripts/build-player.ts into one
// ES module and mapped to "@deckhand/player" by the frame's import map, so the deck and the player share
// one React.
export { jsx, jsxs, Fragment } from "react/jsx-runtime";
export { Deck, Slide, Beat } from "./structure";
export { Columns, Stack, Grid, Box } from "./vocabulary/layout/layout";
export { Title } from "./vocabulary/title/title";
export { Heading } from "./vocabulary/heading/heading";
export { Text } from "./vocabulary/text/text";
export { Bullets } from "./vocabulary/bullets/bullets";
export { Quote } from "./vocabulary/quote/quote";
export { Code } from "./vocabulary/code/code";
export { Link } from "./vocabulary/link/link";
export { Formula } from "./vocabulary/formula/formula";
export { Image } from "./vocabulary/image/image";
export { Icon } from "./vocabulary/icon/icon";
export { Logo } from "./vocabulary/logo/logo";
export { Stat } from "./vocabulary/stat/stat";
export { Table } from "./vocabulary/table/table";
export { Chart } from "./vocabulary/chart/chart";
export { Timeline, Steps } from "./vocabulary/sequence/sequence";
export { Diagram } from "./vocabulary/diagram/diagram";
export { Frame } from "./vocabulary/frame/frame";
export { mountPlayer } from "./shell/mount";
