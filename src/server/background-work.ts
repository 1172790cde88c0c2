// Work a bus listener starts off the request's path (an inbox entry, a push): counted, so tests
// and a shutdown can wait until it is done, and its failure logged instead of lost.

export interface BackgroundWork {
  /** Counts `work` until it settles; a failure goes to `onError`. */
  track(work: Promise<void>): void;
  /** Resolves once nothing tracked is in flight. */
  idle(): Promise<void>;
}

export function createBackgroundWork(onError: (error: unknown) => void): BackgroundWork {
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  return {
    track(work) {
      inFlight += 1;
      void work.catch(onError).finally(() => {
        inFlight -= 1;
        if (inFlight === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    },
    idle() {
      return inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}
