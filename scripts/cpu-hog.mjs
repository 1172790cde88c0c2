#!/usr/bin/env node
// Runs a command while every core is kept busy, the way a laptop is busy with a browser, a
// video call and an editor: the test suite must pass like this too.
//
//   node scripts/cpu-hog.mjs -- npm test
//   node scripts/cpu-hog.mjs --threads 1 -- npx playwright test
//
// One spinning worker thread per core (or --threads N), at the same priority as the command;
// they stop when the command exits, and the command's exit code is this script's. The time the
// command took is printed at the end.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const args = process.argv.slice(2);
const separator = args.indexOf('--');
if (separator === -1 || separator === args.length - 1) {
  console.error('usage: node scripts/cpu-hog.mjs [--threads N] -- <command> [args…]');
  process.exit(2);
}
const options = args.slice(0, separator);
const [command, ...commandArgs] = args.slice(separator + 1);
const threadsAt = options.indexOf('--threads');
const threads = threadsAt === -1 ? availableParallelism() : Number(options[threadsAt + 1]);
if (!Number.isInteger(threads) || threads < 1) {
  console.error('--threads takes a whole number of at least 1');
  process.exit(2);
}

const SPIN = `
  const { parentPort } = require('node:worker_threads');
  let stop = false;
  parentPort.on('message', () => { stop = true; });
  const spin = () => {
    const until = Date.now() + 50;
    while (Date.now() < until) Math.sqrt(Math.random());
    if (!stop) setImmediate(spin);
  };
  spin();
`;
const hogs = Array.from({ length: threads }, () => new Worker(SPIN, { eval: true }));
console.log(
  `cpu-hog: ${threads} busy thread(s) while running: ${[command, ...commandArgs].join(' ')}`,
);

const started = Date.now();
const child = spawn(command, commandArgs, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
const stopHogs = async () => Promise.all(hogs.map((hog) => hog.terminate()));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', async (code, signal) => {
  await stopHogs();
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`cpu-hog: the command ${code === 0 ? 'passed' : 'failed'} in ${minutes} min`);
  process.exit(code ?? (signal ? 1 : 0));
});
