/**
 * A fixture project of fixtures/test-mocks for a CLI test file, as its users would have it: copied
 * to a temp dir with the repository's node_modules, migrated by the built CLI, typechecked with
 * tsc, its own vitest tests run in a subprocess with each test's outcome read back.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { CHILD_PROCESS_TIMEOUT_MS, NESTED_TEST_TIMEOUT_MS } from '../child-timeouts.js';
import { assertBuilt, repoRoot, runCli, type CliRun } from './helpers.js';

const VITEST = path.join(repoRoot, 'node_modules/vitest/vitest.mjs');
const TSC = path.join(repoRoot, 'node_modules/typescript/bin/tsc');

/** The node arguments of a vitest run of `files` (all when empty) in the project at `root`, its JSON report written to `out`. */
export function vitestRunArgs(root: string, out: string, files: string[]): string[] {
  const timeouts = [`--testTimeout=${NESTED_TEST_TIMEOUT_MS}`, `--hookTimeout=${NESTED_TEST_TIMEOUT_MS}`];
  return [VITEST, 'run', '--root', root, '--no-cache', ...timeouts, '--reporter=json', `--outputFile=${out}`, ...files];
}

export interface TestOutcome {
  title: string;
  status: string;
  failureMessages?: string[];
}

/** Copies a fixture project to a fresh temp dir with the repository's node_modules reachable. */
export function freshProjectFrom(project: string, prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(project, root, { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

/**
 * A fresh copy of `project` for the calling test file: made before its tests (the built CLI checked
 * first), removed after them. `dir` is read inside tests and hooks, once the copy exists.
 */
export function projectForFile(project: string, prefix: string): { readonly dir: string } {
  let dir: string | undefined;
  beforeAll(() => {
    assertBuilt();
    dir = freshProjectFrom(project, prefix);
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir(): string {
      if (dir === undefined) throw new Error('the project is made in beforeAll: read dir inside a test');
      return dir;
    },
  };
}

/** The JSON report a `migrate --json <name>` run wrote in the project. */
export function readReport<R>(root: string, name = 'report.json'): R {
  return JSON.parse(fs.readFileSync(path.join(root, name), 'utf8')) as R;
}

/** Runs tsc --strict (the repository's base options, no emit, no ambient types) on the project's `include`. */
export function typecheckProject(root: string, include: string[]): { status: number | null; stdout: string; stderr: string } {
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.base.json'), compilerOptions: { noEmit: true, types: [] }, include }));
  return spawnSync(process.execPath, [TSC, '-p', root], { cwd: root, encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
}

/**
 * Every test's outcome by title, for the given test files (all when empty). `set`: variables to set
 * in the tests' environment, or (undefined) to leave out of it.
 */
export function runProjectTests(root: string, files: string[], set: Record<string, string | undefined> = {}): TestOutcome[] {
  const out = path.join(root, `.vitest-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const inherited = Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && !(k in set));
  const env = Object.fromEntries([...inherited, ...Object.entries(set).filter(([, v]) => v !== undefined)]);
  const run = spawnSync(process.execPath, vitestRunArgs(root, out, files), {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
    timeout: CHILD_PROCESS_TIMEOUT_MS,
  });
  if (!fs.existsSync(out)) throw new Error(`vitest wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { testResults: { assertionResults: TestOutcome[] }[] };
  fs.rmSync(out);
  return report.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({ title: a.title, status: a.status, ...(a.status === 'passed' ? {} : { failureMessages: a.failureMessages }) })),
  );
}

export const failingTests = (outcomes: TestOutcome[]): string[] => outcomes.filter((o) => o.status !== 'passed').map((o) => o.title).sort();

/**
 * Runs the project's tests (`files`, all when empty; `set` as for runProjectTests) and expects
 * `count` outcomes of which exactly `failing` (sorted titles) did not pass.
 */
export function expectTestOutcomes(root: string, files: string[], count: number, failing: string[], set?: Record<string, string | undefined>): TestOutcome[] {
  const outcomes = runProjectTests(root, files, set);
  expect(outcomes).toHaveLength(count);
  expect(failingTests(outcomes)).toEqual(failing);
  return outcomes;
}

/** A site of a file in the JSON report, as the CLI tests read it: `callers` for a helper's site, `reason` where the report gives one. */
export interface ReportSite {
  line: number;
  method: string;
  status: string;
  reason?: string;
  callers?: { caller: string; status: string; reason?: string }[];
}

/** Runs the built CLI's `migrate <target> --json report.json` in the project, expects its exit status, and reads the report. */
export async function migrateProject<R>(root: string, status: number, target = '.'): Promise<{ run: CliRun; report: R }> {
  const run = await runCli(['migrate', target, '--json', 'report.json'], root);
  expect(run.status, run.stdout + run.stderr).toBe(status);
  return { run, report: readReport<R>(root) };
}

/** Applies one deliberate bug to a migrated file, runs `run`, and restores the file afterwards. */
export function withBug(file: string, pattern: RegExp, replacement: string, run: () => void): void {
  const good = fs.readFileSync(file, 'utf8');
  const bad = good.replace(pattern, replacement);
  expect(bad, `the bug ${pattern} must apply to the migrated file`).not.toBe(good);
  fs.writeFileSync(file, bad);
  try {
    run();
  } finally {
    fs.writeFileSync(file, good);
  }
}
