/**
 * The jscodeshift entry (dist/jscodeshift.cjs), tested with jscodeshift's own test utilities and its
 * real CLI: for a single file it produces exactly what `mcp-mrtr migrate` writes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAGGED, MIGRATABLE, PLAIN, TEST_WITH_MOCK, TWO_STEP, assertBuilt, cleanupProjects, makeProject, packageRoot, read, repoRoot, runCli } from './helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

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
  ['stateful HTTP hosting', 'src/http.ts', fs.readFileSync(path.join(repoRoot, 'fixtures/cases/serving-http-express-sessions.input.ts'), 'utf8')],
];

describe('jscodeshift transform', () => {
  it.each(cases)('%s: same output as the CLI for the file', async (_name, rel, source) => {
    // the CLI reports a test's mock when its run migrates the request the mock fakes, so the server
    // the test drives is migrated in the same run (jscodeshift, one file at a time, marks every mock)
    const server: Record<string, string> = rel.startsWith('test/') ? { 'src/server.ts': MIGRATABLE } : {};
    const root = makeProject({ [rel]: source, ...server });
    const transform = require(transformPath) as unknown;
    const viaJscodeshift = await applyTransform(transform, {}, { path: path.join(root, rel), source });
    expect((await runCli(['migrate', rel, ...Object.keys(server)], root)).status).not.toBe(2);
    expect(viaJscodeshift).toBe(read(root, rel).trim());
    expect(viaJscodeshift).not.toBe(source.trim());
  });

  it('returns a file without legacy requests unchanged (jscodeshift counts it unmodified)', async () => {
    const transform = require(transformPath) as { default: (f: unknown, api: unknown, o: unknown) => Promise<string | undefined> };
    expect(await transform.default({ path: 'src/math.ts', source: PLAIN }, {}, {})).toBe(PLAIN);
  });

  it('runInlineTest: a multi-round handler comes out as the CLI writes it; the codec module is written unless --dry', async () => {
    const root = makeProject({ 'src/trip.ts': TWO_STEP });
    const cli = makeProject({ 'src/trip.ts': TWO_STEP });
    expect((await runCli(['migrate', 'src'], cli)).status).toBe(0);
    const expected = read(cli, 'src/trip.ts');
    const createdByCli = fs.readdirSync(path.join(cli, 'src')).filter((f) => f !== 'trip.ts').sort();
    expect(createdByCli).toEqual(['mcp-client-capabilities.ts', 'mcp-input-responses.ts', 'mcp-request-state.ts']);
    const transform = require(transformPath);
    await runInlineTest(transform, { dry: true }, { path: path.join(root, 'src/trip.ts'), source: TWO_STEP }, expected);
    expect(fs.readdirSync(path.join(root, 'src'))).toEqual(['trip.ts']);
    await runInlineTest(transform, {}, { path: path.join(root, 'src/trip.ts'), source: TWO_STEP }, expected);
    for (const created of createdByCli) expect(read(root, `src/${created}`)).toBe(read(cli, `src/${created}`));
  });

  it('passes --stateKeyEnv through to the generated codec module', async () => {
    const root = makeProject({ 'src/trip.ts': TWO_STEP });
    await applyTransform(require(transformPath), { stateKeyEnv: 'TRIP_STATE_KEY' }, { path: path.join(root, 'src/trip.ts'), source: TWO_STEP });
    const created = fs.readdirSync(path.join(root, 'src')).filter((f) => f !== 'trip.ts').sort();
    expect(created).toEqual(['mcp-client-capabilities.ts', 'mcp-input-responses.ts', 'mcp-request-state.ts']);
    const codec = read(root, 'src/mcp-request-state.ts');
    expect(codec).toContain('process.env.TRIP_STATE_KEY');
    expect(codec).not.toContain('MCP_REQUEST_STATE_KEY');
  });

  it('runs under the real jscodeshift CLI (npx jscodeshift -t dist/jscodeshift.cjs)', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/math.ts': PLAIN });
    const bin = require.resolve('jscodeshift/bin/jscodeshift.js');
    const run = spawnSync(process.execPath, [bin, '-t', transformPath, '--extensions=ts', '--parser=tsx', '--run-in-band', 'src'], { cwd: root, encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 ok/);
    expect(run.stdout).toMatch(/1 unmodified/);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    expect(read(root, 'src/math.ts')).toBe(PLAIN);
  });
});
