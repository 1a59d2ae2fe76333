/** Runs a project's own vitest tests in a subprocess (as its users would) and reads each test's outcome. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from './helpers.js';

const VITEST = path.join(repoRoot, 'node_modules/vitest/vitest.mjs');

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
 * Every test's outcome by title, for the given test files (all when empty). `set`: variables to set
 * in the tests' environment, or (undefined) to leave out of it.
 */
export function runProjectTests(root: string, files: string[], set: Record<string, string | undefined> = {}): TestOutcome[] {
  const out = path.join(root, `.vitest-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const inherited = Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && !(k in set));
  const env = Object.fromEntries([...inherited, ...Object.entries(set).filter(([, v]) => v !== undefined)]);
  const run = spawnSync(process.execPath, [VITEST, 'run', '--root', root, '--no-cache', '--reporter=json', `--outputFile=${out}`, ...files], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
    timeout: 300_000,
  });
  if (!fs.existsSync(out)) throw new Error(`vitest wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { testResults: { assertionResults: TestOutcome[] }[] };
  fs.rmSync(out);
  return report.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({ title: a.title, status: a.status, ...(a.status === 'passed' ? {} : { failureMessages: a.failureMessages }) })),
  );
}

export const failingTests = (outcomes: TestOutcome[]): string[] => outcomes.filter((o) => o.status !== 'passed').map((o) => o.title).sort();

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
