// The few browser globals the client's data modules read at import (session.ts reads
// localStorage), for test files that run in Node's environment because they start the
// real server (tests/server/harness.ts: jose and PGlite need Node's crypto and Blob, which
// jsdom replaces). Import it first.

/** A Storage in memory (localStorage's interface). */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const scope = globalThis as unknown as Record<string, unknown>;
// No `window`: PGlite would take Node for a browser.
if (scope.localStorage === undefined) {
  scope.localStorage = new MemoryStorage();
  scope.sessionStorage = new MemoryStorage();
}
