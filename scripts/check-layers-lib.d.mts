// Types of check-layers-lib.mjs, for its tests (tests/scripts/check-layers.test.ts).

export const COMPOSITION_FILES: Set<string>;
export const COMPOSITION: string;
export const KERNEL: string;
export function importsOf(text: string): string[];
export function resolveImport(file: string, target: string): string;
export function nodeOf(file: string): string | null;
export function folderGraph(files: Record<string, string>): Map<string, string[]>;
export function cyclesOf(edgeKeys: Iterable<string>): string[][];
export function layerProblems(edges: Map<string, string[]>, allowed: string[]): string[];
export function layersOf(edgeKeys: Iterable<string>): string[][];
