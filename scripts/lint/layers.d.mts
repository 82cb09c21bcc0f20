import type { ESLint } from "eslint";

export type Layer = { name: string; units: string[]; alone?: boolean; also?: string[] };
export const layers: Layer[];
export function unitOf(file: string): string;
export function mayImport(from: string, to: string): boolean;
export function layerOf(unit: string): string | undefined;
export function specifierPath(fromFile: string, specifier: string): string | undefined;
export const layersPlugin: ESLint.Plugin;
