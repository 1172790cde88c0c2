// Types of ./server-bundle.mjs, for the TypeScript that imports it (the tests' global setups).
export const root: string;
export function at(...parts: string[]): string;
export const SERVER_SOURCES: string[];
export function run(command: string, args: string[]): void;
export function isStale(output: string, sources: string[]): boolean;
export function ensureServerBundle(bundle: string): void;
