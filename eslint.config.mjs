import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { layersPlugin } from "./scripts/lint/layers.mjs";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".data/",
      "next-env.d.ts",
      "public/",
      "dist/",
      "packages/client/dist/",
      "packages/client/src/openapi.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat["recommended-latest"],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  // The server logs through lib/core/log.ts (levels, request ids, JSON in production), never the console.
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "server/**/*.{ts,tsx}"],
    rules: { "no-console": "error" },
  },
  // Imports go down the layers (scripts/lint/layers.mjs); tests may import anything.
  {
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    ignores: ["tests/**"],
    plugins: { deckhand: layersPlugin },
    rules: { "deckhand/layers": "error" },
  },
);
