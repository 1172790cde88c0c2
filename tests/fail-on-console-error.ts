import { afterEach, beforeEach } from 'vitest';

// A test that logs an unexpected console.error fails (docs/conventions.md, Tests). A test that
// expects one spies on console.error itself (vi.spyOn(console, 'error').mockImplementation()).
let errors: unknown[][] = [];
const original = console.error;

beforeEach(() => {
  errors = [];
  console.error = (...args: unknown[]) => {
    errors.push(args);
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  if (errors.length > 0) {
    const first = errors[0]!.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
    throw new Error(`Unexpected console.error during the test (${errors.length}): ${first}`);
  }
});
