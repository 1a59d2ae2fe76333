/**
 * A repository's own checks, run the same way before and after the migration: its typecheck
 * (`tsc --noEmit` with its own TypeScript) and its own test suite.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { runStep } from './exec.mjs';
import { parseTestOutput } from './tests.mjs';

const require = createRequire(import.meta.url);

/** The repository's own tsc (nearest node_modules upward from pkgDir, within root), else ours. */
function findTsc(pkgDir, root) {
  for (let dir = pkgDir; ; dir = dirname(dir)) {
    const tsc = join(dir, 'node_modules/typescript/bin/tsc');
    if (existsSync(tsc)) return { tsc, own: true };
    if (dir === root || relative(root, dir).startsWith('..') || dirname(dir) === dir) break;
  }
  return { tsc: join(dirname(require.resolve('typescript/package.json')), 'bin/tsc'), own: false };
}

/** @returns {Promise<{ errors: number|null, tsconfig?: string, ownTsc?: boolean, code?: number|null, timedOut?: boolean }>} */
export async function typecheck({ pkgDir, root, tsconfig, log, timeoutS }) {
  const config = tsconfig ?? (existsSync(join(pkgDir, 'tsconfig.json')) ? 'tsconfig.json' : undefined);
  if (!config || !existsSync(resolve(pkgDir, config))) return { errors: null, note: 'no tsconfig' };
  const { tsc, own } = findTsc(pkgDir, root);
  const run = await runStep('node', [tsc, '--noEmit', '--pretty', 'false', '-p', config], { cwd: pkgDir, log, timeoutS });
  const errors = [...run.output.matchAll(/error TS\d+:/g)].length;
  // tsc exiting non-zero with no diagnostic (a crash, a timeout) is not "0 errors".
  const broken = run.timedOut || (run.code !== 0 && errors === 0);
  return { errors: broken ? null : errors, tsconfig: config, ownTsc: own, code: run.code, timedOut: run.timedOut, note: broken ? (run.timedOut ? 'tsc timed out' : `tsc exit ${run.code}`) : undefined };
}

const NO_TEST_SCRIPT = /no test specified/;

function testCommand(pkgDir, pm, override) {
  if (override === 'none') return undefined;
  if (override) return ['bash', ['-c', override]];
  let script;
  try { script = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).scripts?.test; } catch { /* none */ }
  if (!script || NO_TEST_SCRIPT.test(script)) return undefined;
  if (pm === 'pnpm') return ['corepack', ['pnpm', 'run', 'test']];
  if (pm === 'yarn') return ['corepack', ['yarn', 'run', 'test']];
  return ['npm', ['run', 'test']];
}

/** @returns {Promise<{ passed: number|null, failed: number|null, runner?: string, code?: number|null, timedOut?: boolean, note?: string }>} */
export async function runTests({ pkgDir, pm, override, log, timeoutS }) {
  const command = testCommand(pkgDir, pm, override);
  if (!command) return { passed: null, failed: null, note: 'no test script' };
  const run = await runStep(command[0], command[1], { cwd: pkgDir, log, timeoutS });
  const counts = parseTestOutput(run.output);
  return {
    passed: counts?.passed ?? null,
    failed: counts?.failed ?? null,
    runner: counts?.runner,
    code: run.code,
    timedOut: run.timedOut,
    note: run.timedOut ? 'timed out' : counts ? undefined : `no test summary (exit ${run.code})`,
  };
}
