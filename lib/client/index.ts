// The typed client for code in this repository: the package in packages/client (published as
// @deckhand/client), imported from its source.
export * from "../../packages/client/src/index";
