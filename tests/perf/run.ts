import { performance } from 'node:perf_hooks';
import { cleanupBarePage } from './lib/bare-reference';
import { cleanupClientBuild } from './lib/client';
import { load, log, machine, renderTable, type Section } from './lib/report';

// `npm run bench [filter]`: runs every benchmark of tests/perf (or those whose id contains
// the filter), each against its reference measured in this same run, then prints the table
// and, on stdout's last line, the same as JSON. Progress goes to stderr. Never part of
// `npm test`. See tests/perf/README.md.

interface Benchmark {
  id: string;
  load: () => Promise<{ run: () => Promise<Section> }>;
}

const BENCHMARKS: Benchmark[] = [
  { id: 'api-auth', load: () => import('./api-auth.bench') },
  {
    id: 'wagers-postgres',
    load: async () => ({ run: async () => (await import('./wagers.bench')).run('postgres') }),
  },
  {
    id: 'wagers-pglite',
    load: async () => ({ run: async () => (await import('./wagers.bench')).run('pglite') }),
  },
  { id: 'member-state', load: () => import('./member-state.bench') },
  { id: 'sync', load: () => import('./sync.bench') },
  { id: 'cold-start', load: () => import('./cold-start.bench') },
  { id: 'member-stats', load: () => import('./member-stats.bench') },
  { id: 'scale', load: () => import('./scale.bench') },
  { id: 'fanout', load: () => import('./fanout.bench') },
  { id: 'bundle', load: () => import('./bundle.bench') },
  { id: 'lighthouse', load: () => import('./lighthouse.bench') },
];

async function main() {
  const filter = process.argv[2];
  const selected = BENCHMARKS.filter((benchmark) => !filter || benchmark.id.includes(filter));
  if (selected.length === 0) {
    console.error(
      `No benchmark matches "${filter}". Ids: ${BENCHMARKS.map((b) => b.id).join(', ')}`,
    );
    process.exit(2);
  }
  const started = performance.now();
  const sections: (Section & { seconds: number; loadBefore: string; loadAfter: string })[] = [];
  for (const benchmark of selected) {
    const loadBefore = load();
    log(`${benchmark.id}: starting (load average ${loadBefore})`);
    const t0 = performance.now();
    let section: Section;
    try {
      section = await (await benchmark.load()).run();
    } catch (error) {
      log(
        `${benchmark.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      section = {
        id: benchmark.id,
        title: benchmark.id,
        settings: {},
        rows: [],
        notes: [],
        error: error instanceof Error ? error.message : String(error),
      };
    }
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    sections.push({ ...section, seconds, loadBefore, loadAfter: load() });
    log(`${benchmark.id}: done in ${seconds} s`);
  }
  cleanupClientBuild();
  cleanupBarePage();
  const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
  const info = machine();

  const out: string[] = [];
  out.push(`Hunch benchmarks — ${new Date().toISOString()}`);
  out.push(
    `machine: ${info.cpus} CPUs (${info.cpuModel}), ${info.memoryGiB} GiB, node ${info.node}, ${info.platform}`,
  );
  out.push(
    `total: ${totalSeconds} s; figures are noisy when the machine is shared, ratios within one run hold roughly`,
  );
  out.push('');
  out.push(renderTable(sections));
  out.push('');
  for (const section of sections) {
    out.push(`## ${section.id}: ${section.title}`);
    out.push(
      `   ${section.seconds} s, load average before ${section.loadBefore}, after ${section.loadAfter}`,
    );
    out.push(`   settings: ${JSON.stringify(section.settings)}`);
    if (section.error) out.push(`   ERROR: ${section.error}`);
    for (const note of section.notes) out.push(`   note: ${note}`);
  }
  out.push('');
  const allMet = sections.every(
    (section) => !section.error && section.rows.every((row) => row.met !== false),
  );
  out.push(
    allMet
      ? 'Every goal met.'
      : `Goals missed: ${sections.flatMap((s) => (s.error ? [s.id] : s.rows.filter((r) => r.met === false).map((r) => `${r.benchmark} ${r.metric}`))).join('; ')}`,
  );
  console.log(out.join('\n'));
  console.log(
    JSON.stringify({
      date: new Date().toISOString(),
      machine: info,
      totalSeconds,
      allMet,
      sections,
    }),
  );
  // Child processes are stopped by each benchmark; nothing else should hold the loop.
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
