/**
 * A repository's own checks, run the same way before and after the migration: its typecheck
 * (`tsc --noEmit` with its own TypeScript) and its own test suite.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { runStep } from './exec.mjs';
import { pnpmSpec } from './install.mjs';
import { parseTestOutput } from './tests.mjs';
import ts from 'typescript';

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

function isSolutionConfig(file) {
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return Array.isArray(config?.references) && config.references.length > 0 && Array.isArray(config.files) && config.files.length === 0 && !config.include;
}

/** @returns {Promise<{ errors: number|null, tsconfig?: string, ownTsc?: boolean, code?: number|null, timedOut?: boolean }>} */
export async function typecheck({ pkgDir, root, tsconfig, log, timeoutS }) {
  // `build:<file>` in repos.tsv: a composite project whose references must be built to be checked.
  const forceBuild = tsconfig?.startsWith('build:') ?? false;
  const named = forceBuild ? tsconfig.slice('build:'.length) : tsconfig;
  const config = named ?? (existsSync(join(pkgDir, 'tsconfig.json')) ? 'tsconfig.json' : undefined);
  if (!config || !existsSync(resolve(pkgDir, config.split(/\s+/)[0]))) return { errors: null, note: 'no tsconfig' };
  const { tsc, own } = findTsc(pkgDir, root);
  // A solution-style config (no files of its own, only references) checks nothing under `-p`:
  // build its references instead (emitting into the scratch copy is harmless).
  const solution = forceBuild || isSolutionConfig(resolve(pkgDir, config));
  // `build:` may name several projects, separated by spaces: `tsc -b` takes them all.
  const args = solution ? ['-b', ...config.split(/\s+/), '--pretty', 'false'] : ['--noEmit', '--pretty', 'false', '-p', config];
  const run = await runStep('node', [tsc, ...args], { cwd: pkgDir, log, timeoutS });
  const errors = [...run.output.matchAll(/error TS\d+:/g)].length;
  // tsc exiting non-zero with no diagnostic (a crash, a timeout) is not "0 errors".
  const broken = run.timedOut || (run.code !== 0 && errors === 0);
  return { errors: broken ? null : errors, tsconfig: config, mode: solution ? 'build' : 'noEmit', ownTsc: own, code: run.code, timedOut: run.timedOut, note: broken ? (run.timedOut ? 'tsc timed out' : `tsc exit ${run.code}`) : undefined };
}

const NO_TEST_SCRIPT = /no test specified/;

function testCommand(pkgDir, pm, override) {
  if (override === 'none') return undefined;
  if (override) return ['bash', ['-c', override]];
  let script;
  try { script = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).scripts?.test; } catch { /* none */ }
  if (!script || NO_TEST_SCRIPT.test(script)) return undefined;
  if (pm === 'pnpm') return ['corepack', [pnpmSpec(pkgDir), 'run', 'test']];
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
