/**
 * What `npm test` writes into a redirected log: nothing from passing tests but their one-line
 * summaries (no table rows, no warnings from a validator set up wrongly). That it has no colour
 * codes is tested in a fresh clone (repo/packed.test.ts): it takes a forced build, and a build here
 * would rewrite the dist/ files the tests running beside this one load.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot, repoRoot } from '../cli/helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const require = createRequire(import.meta.url);
const VITEST = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

/** The environment of a plain shell: no colour preference set either way. */
function plainEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return env;
}

function vitest(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [VITEST, 'run', ...args], { cwd, encoding: 'utf8', env: { ...plainEnv(), NO_COLOR: '1' }, timeout: CHILD_PROCESS_TIMEOUT_MS });
}

describe('npm test output', () => {
  it('the plugin inventory test: no "meta-schema not available" from its schema checks', () => {
    const run = vitest(path.join(repoRoot, 'packages/eslint-plugin'), ['test/plugin.test.ts']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toContain('meta-schema not available');
  });

  it('the behaviour test: a one-line summary, no console.table rows', () => {
    const run = vitest(packageRoot, ['test/behaviour/behaviour.test.ts', '-t', 'behaviour-braceless-if-branch']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^behaviour: \d+ scenario\(s\) where the 2026-07-28 peer behaved like the legacy one/m);
    expect(run.stdout).not.toMatch(/\(index\)|[┌│└]/);
  });
});
