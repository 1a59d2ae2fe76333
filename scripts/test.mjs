#!/usr/bin/env node
/**
 * `npm test`: every package's tests through turbo; extra arguments go to turbo
 * (`npm test -- --filter=@mcp-mrtr/surface`).
 *
 * Two tasks at a time: the codemod's tests (the longest by far) and the plugin's run side by side, so
 * the plugin's finish inside the codemod's time on a 2-core machine instead of after it. Each
 * package's tests write only their own temporary directories.
 *
 * Colour is decided here, where the real stdout is visible: turbo pipes each task's output, and
 * vitest's colour library colours a pipe or a file unless NO_COLOR is set (it does not look at
 * whether its output is a terminal). Without a terminal (and no FORCE_COLOR): NO_COLOR for the tasks,
 * --no-color for turbo.
 *
 * Tasks served from turbo's cache (the build that `npm run typecheck` ran first, perhaps into a
 * terminal that takes colour) would replay their log as it was recorded, colour codes included:
 * only tasks that run now print their output (`--output-logs=new-only`).
 */
import { spawnSync } from 'node:child_process';

const env = { ...process.env };
// an explicit FORCE_COLOR (a CI log that renders colour) wins, as it does for every tool that reads it
const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
const colour = forced || (Boolean(process.stdout.isTTY) && !('NO_COLOR' in env));
if (!colour) {
  env.NO_COLOR = '1';
  delete env.FORCE_COLOR;
}
const args = ['run', 'test', '--concurrency=2', colour ? '--color' : '--no-color', '--output-logs=new-only', ...process.argv.slice(2)];
// npm puts node_modules/.bin on PATH for its scripts
const run = spawnSync('turbo', args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
if (run.error) throw run.error;
process.exitCode = run.status ?? 1;
