import os from 'node:os';

// The shared printer of `npm run bench`: one row per figure (Hunch, the reference measured in
// the same run, their ratio and the goal), a table for people and the same as JSON on the
// last line of stdout for machines.

export interface Row {
  benchmark: string;
  metric: string;
  unit: string;
  /** Hunch's figure (or the measured value of a fixed budget). */
  subject: number | null;
  /** The reference measured in the same run, or the fixed budget. */
  reference: number | null;
  /** subject / reference for "higher is better" figures, null when not meaningful. */
  ratio: number | null;
  /** The goal as text, e.g. "≥ 0.7×" or "≤ 100 KB". */
  goal: string;
  /** true / false, or null when the row is only reported (no goal). */
  met: boolean | null;
}

export interface Section {
  id: string;
  title: string;
  /** Settings and runs, as stated in the output (connections, duration, data, …). */
  settings: Record<string, unknown>;
  rows: Row[];
  notes: string[];
  /** Set when the benchmark could not run at all; its rows are then empty. */
  error?: string;
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** The load average now (other work on the machine skews every figure; ratios hold roughly). */
export function load(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A "higher is better" comparison: ratio = subject / reference, met when ratio ≥ min. */
export function atLeast(
  benchmark: string,
  metric: string,
  unit: string,
  subject: number,
  reference: number,
  min: number,
): Row {
  const ratio = reference > 0 ? subject / reference : null;
  return {
    benchmark,
    metric,
    unit,
    subject: round(subject, 1),
    reference: round(reference, 1),
    ratio: ratio === null ? null : round(ratio, 3),
    goal: `≥ ${min}×`,
    met: ratio !== null && ratio >= min,
  };
}

/** A "lower is better" comparison (latency): ratio = subject / reference, met when ratio ≤ max. */
export function atMost(
  benchmark: string,
  metric: string,
  unit: string,
  subject: number,
  reference: number,
  max: number,
): Row {
  const ratio = reference > 0 ? subject / reference : null;
  return {
    benchmark,
    metric,
    unit,
    subject: round(subject, 2),
    reference: round(reference, 2),
    ratio: ratio === null ? null : round(ratio, 3),
    goal: `≤ ${max}× ref`,
    met: ratio !== null && ratio <= max,
  };
}

/** A figure reported beside its reference with no goal. */
export function reported(
  benchmark: string,
  metric: string,
  unit: string,
  subject: number | null,
  reference: number | null = null,
): Row {
  const ratio = subject !== null && reference ? subject / reference : null;
  return {
    benchmark,
    metric,
    unit,
    subject: subject === null ? null : round(subject, 2),
    reference: reference === null ? null : round(reference, 2),
    ratio: ratio === null ? null : round(ratio, 3),
    goal: '(reported)',
    met: null,
  };
}

/** A fixed budget: met when value ≤ budget (or ≥ for scores). */
export function budget(
  benchmark: string,
  metric: string,
  unit: string,
  value: number | null,
  limit: number,
  direction: 'max' | 'min',
): Row {
  const met = value === null ? false : direction === 'max' ? value <= limit : value >= limit;
  return {
    benchmark,
    metric,
    unit,
    subject: value === null ? null : round(value, 1),
    reference: limit,
    ratio: null,
    goal: `${direction === 'max' ? '≤' : '≥'} ${limit} ${unit}`,
    met,
  };
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? 'yes' : 'NO';
  return String(value);
}

export function renderTable(sections: Section[]): string {
  const header = ['benchmark', 'metric', 'Hunch', 'reference', 'ratio', 'goal', 'met'];
  const lines = [header];
  for (const section of sections) {
    if (section.error) lines.push([section.title, 'could not run', '–', '–', '–', '–', 'NO']);
    for (const row of section.rows) {
      lines.push([
        row.benchmark,
        `${row.metric} (${row.unit})`,
        cell(row.subject),
        cell(row.reference),
        cell(row.ratio),
        row.goal,
        cell(row.met),
      ]);
    }
  }
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    `| ${line.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    format(lines[0]!),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...lines.slice(1).map(format),
  ].join('\n');
}

/** Progress and details go to stderr, so stdout holds only the table and the JSON line. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function sortNumbers(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}
