import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Zod stays in src/domain/schemas: a rule file, and the client's mutators that validate with
// the rules, bundle without it, so the dashboard's path carries no zod. ESLint refuses a rule
// file's own zod import; this follows every import a module makes, however indirect.

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOMAIN = path.join(ROOT, 'src/domain');
const CLIENT_DATA = path.join(ROOT, 'src/client/data');

/** What of zod, or of our schemas, a bundle of `entry` takes in (packages other than zod left out). */
async function zodReachedFrom(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    plugins: [
      {
        name: 'packages-but-zod-external',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
            /^zod(\/|$)/.test(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const metafile: Metafile = result.metafile;
  return Object.keys(metafile.inputs).filter(
    (input) => input.includes('node_modules/zod/') || input.startsWith('src/domain/schemas/'),
  );
}

const ruleFiles = readdirSync(DOMAIN).filter((name) => name.endsWith('.ts'));
const mutatorFiles = readdirSync(CLIENT_DATA).filter((name) => /(^|-)mutators\.ts$/.test(name));

describe('schemas apart from the rules', () => {
  it('finds the files it checks', () => {
    expect(ruleFiles).toContain('bets.ts');
    expect(mutatorFiles).toEqual(expect.arrayContaining(['mutators.ts', 'bet-mutators.ts']));
  });

  it.each(ruleFiles)('src/domain/%s reaches no zod', async (name) => {
    expect(await zodReachedFrom(path.join(DOMAIN, name))).toEqual([]);
  });

  it.each(mutatorFiles)('src/client/data/%s validates without zod', async (name) => {
    expect(await zodReachedFrom(path.join(CLIENT_DATA, name))).toEqual([]);
  });
});
