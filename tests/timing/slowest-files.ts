// Both runners end with the files that took the most time, so a suite that grows slower
// shows where, in every run (locally and in CI's log), without anyone asking for it.

export interface FileTime {
  /** The file's path, relative to the repository. */
  file: string;
  /** The runner's project ("server-pglite", "chromium", …). */
  project: string;
  /** Seconds the file's tests took, summed (a file's tests may run side by side). */
  seconds: number;
  tests: number;
}

export const SLOWEST_SHOWN = 15;

export function slowestFiles(times: FileTime[], count = SLOWEST_SHOWN): string {
  const total = times.reduce((sum, time) => sum + time.seconds, 0);
  const slowest = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const width = Math.max(...slowest.map((time) => time.file.length), 10);
  const lines = slowest.map(
    (time) =>
      `  ${time.seconds.toFixed(1).padStart(7)} s  ${time.file.padEnd(width)}  ${time.project} · ${time.tests} ${time.tests === 1 ? 'test' : 'tests'}`,
  );
  return [
    `The ${slowest.length} slowest of ${times.length} test files (${total.toFixed(0)} s of test time in all):`,
    ...lines,
  ].join('\n');
}
