/**
 * The jscodeshift entry (dist/jscodeshift.cjs), tested with jscodeshift's own test utilities and its
 * real CLI: for a single file it produces exactly what `mcp-mrtr migrate` writes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAGGED, MIGRATABLE, PLAIN, TEST_WITH_MOCK, assertBuilt, cleanupProjects, makeProject, packageRoot, read, repoRoot, runCli } from './helpers.js';

const require = createRequire(import.meta.url);
const transformPath = path.join(packageRoot, 'dist', 'jscodeshift.cjs');
type TestUtils = {
  applyTransform: (module: unknown, options: unknown, input: { path?: string; source: string }) => string | Promise<string>;
  runInlineTest: (module: unknown, options: unknown, input: { path?: string; source: string }, expected: string) => unknown;
};
const { applyTransform, runInlineTest } = require('jscodeshift/dist/testUtils') as TestUtils;

beforeAll(() => {
  assertBuilt();
  // jscodeshift's runInlineTest asserts with the test runner's global `expect`.
  (globalThis as { expect?: unknown }).expect ??= expect;
});
afterAll(cleanupProjects);

const cases: Array<[string, string, string]> = [
  ['migratable handler', 'src/server.ts', MIGRATABLE],
  ['flagged notification handler', 'src/roots.ts', FLAGGED],
  ['test mock', 'test/server.test.ts', TEST_WITH_MOCK],
];

describe('jscodeshift transform', () => {
  it.each(cases)('%s: same output as the CLI for the file', async (_name, rel, source) => {
    const root = makeProject({ [rel]: source });
    const transform = require(transformPath) as unknown;
    const viaJscodeshift = await applyTransform(transform, {}, { path: path.join(root, rel), source });
    expect(runCli(['migrate', rel], root).status).not.toBe(2);
    expect(viaJscodeshift).toBe(read(root, rel).trim());
    expect(viaJscodeshift).not.toBe(source.trim());
  });

  it('returns nothing for a file without legacy requests (jscodeshift counts it unmodified)', async () => {
    const transform = require(transformPath) as { default: (f: unknown, api: unknown, o: unknown) => Promise<string | undefined> };
    expect(await transform.default({ path: 'src/math.ts', source: PLAIN }, {}, {})).toBeUndefined();
  });

  it('matches the fixture case output through runInlineTest', async () => {
    const input = fs.readFileSync(path.join(repoRoot, 'fixtures/cases/behaviour-elicit-basic.input.ts'), 'utf8');
    const expected = fs.readFileSync(path.join(repoRoot, 'fixtures/cases/behaviour-elicit-basic.output.ts'), 'utf8');
    await runInlineTest(require(transformPath), {}, { path: path.join(repoRoot, 'fixtures/cases/behaviour-elicit-basic.input.ts'), source: input }, expected);
  });

  it('runs under the real jscodeshift CLI (npx jscodeshift -t dist/jscodeshift.cjs)', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/math.ts': PLAIN });
    const bin = require.resolve('jscodeshift/bin/jscodeshift.js');
    const run = spawnSync(process.execPath, [bin, '-t', transformPath, '--extensions=ts', '--parser=tsx', '--run-in-band', 'src'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 ok/);
    expect(run.stdout).toMatch(/1 unmodified/);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    expect(read(root, 'src/math.ts')).toBe(PLAIN);
  });
});
