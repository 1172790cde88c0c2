// Types of check-docs-lib.mjs, for its tests (tests/scripts/check-docs.test.ts).

export type PathReference = { ref: string; line: number };
export type Citation = { line: number; match: string; text: string };
export type RepoView = {
  exists(path: string): boolean;
  filesUnder(folder: string): string[];
};

export function pathReferences(markdown: string): PathReference[];
export function missingReadmePaths(
  readmePath: string,
  markdown: string,
  repo: RepoView,
): PathReference[];
export const OUTSIDE_CITATIONS: RegExp[];
export function findOutsideCitations(text: string): Citation[];
