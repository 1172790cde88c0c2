import { ConfigError, loadConfig, type Config } from './config';

// What the operator's command lines (npm run backup / restore / admin) share: where they
// print, and reading the configuration with a bad variable said in one line, not a stack trace.

export interface CliOutput {
  out(line: string): void;
  error(line: string): void;
}

export const consoleOutput: CliOutput = {
  out: (line) => console.log(line),
  error: (line) => console.error(line),
};

/** The configuration, or undefined once its errors are printed (the command then exits 1). */
export function loadConfigOrSay(env: NodeJS.ProcessEnv, output: CliOutput): Config | undefined {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.error(error.message);
    return undefined;
  }
}
