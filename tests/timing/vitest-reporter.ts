import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { slowestFiles } from './slowest-files';

/** Vitest: after the run, the slowest test files (import, setup files and tests). */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    if (testModules.length === 0) return;
    const times = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: path.relative(process.cwd(), module.moduleId),
        project: module.project.name,
        seconds:
          (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000,
        tests: [...module.children.allTests()].length,
      };
    });
    process.stdout.write(`\n${slowestFiles(times)}\n`);
  }
}
