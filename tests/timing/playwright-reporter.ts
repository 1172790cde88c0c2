import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { slowestFiles, type FileTime } from './slowest-files';

/** Playwright: after the run, the spec files whose tests took the most time (retries included). */
export default class SlowestFilesReporter implements Reporter {
  private readonly times = new Map<string, FileTime>();

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name ?? '';
    const file = path.relative(process.cwd(), test.location.file);
    const key = `${project} ${file}`;
    const time = this.times.get(key) ?? { file, project, seconds: 0, tests: 0 };
    time.seconds += result.duration / 1000;
    if (result.retry === 0) time.tests += 1;
    this.times.set(key, time);
  }

  onEnd() {
    if (this.times.size > 0) process.stdout.write(`\n${slowestFiles([...this.times.values()])}\n`);
  }

  printsToStdio() {
    return false;
  }
}
