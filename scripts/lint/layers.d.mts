// The types of scripts/lint/layers.mjs, for the tests that import it.
import type { ESLint } from "eslint";

export type Layer = { name: string; units: string[]; ranks?: string[][]; alone?: boolean; also?: string[] };
export const layers: Layer[];
export function unitOf(file: string): string;
export function mayImportFile(from: string, to: string): boolean;
export const layersPlugin: ESLint.Plugin;
