// A hang guard: `signal` (an event, a process line, a promise of the code under test), or a
// rejection saying what never came once `limitMs` has passed. It waits for nothing itself: a
// missing signal fails at once with what was seen, instead of at the test's own time limit.
// The one timer the waiting rule (eslint.config.js, tests) lets a test helper start freely.

export function hangGuard<T>(
  signal: Promise<T>,
  limitMs: number,
  failure: () => string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_resolve, reject) => {
    // eslint-disable-next-line no-restricted-syntax -- a hang guard: it only rejects if the signal never comes
    timer = setTimeout(() => reject(new Error(failure())), limitMs);
  });
  return Promise.race([signal, guard]).finally(() => clearTimeout(timer));
}
