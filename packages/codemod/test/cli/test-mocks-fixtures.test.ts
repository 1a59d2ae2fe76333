/**
 * Fixture pairs of unit tests that mock legacy requests: `fixtures/test-mocks/cases/<case>.input.*`
 * goes through the engine (official v1→v2 upgrade of the test file's imports) and the test-mock
 * stage exactly as the CLI runs them (`addTestMockSites`), and must give `<case>.output.*` byte for
 * byte and the sites in `<case>.sites.json`. The jscodeshift path (`migrateSource` as one file of
 * many: the run's own test-mock stage) must agree, a second run must change nothing, and files where nothing is rewritten must
 * be byte-identical to the input apart from the marker lines.
 * `UPDATE_FIXTURES=1` writes the outputs and sites instead (review the diff!).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEGACY_METHODS, TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateSource } from '../../src/migrate.js';
import { addTestMockSites } from '../../src/run/test-mocks.js';
import type { FileResult } from '../../src/types.js';
import { repoRoot } from './helpers.js';

const CASES = path.join(repoRoot, 'fixtures/test-mocks/cases');
const UPDATE = process.env.UPDATE_FIXTURES === '1';
const cases = fs
  .readdirSync(CASES)
  .filter((f) => /\.input\.[cm]?[jt]s$/.test(f))
  .map((f) => {
    const [name, ext] = [f.replace(/\.input\..*$/, ''), f.replace(/^.*\.input\./, '')];
    return { name, ext, input: path.join(CASES, f), output: path.join(CASES, `${name}.output.${ext}`), sites: path.join(CASES, `${name}.sites.json`) };
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-test-mocks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function migrateTestFile(text: string, name: string, ext: string): Promise<{ file: FileResult; engineOutput: string }> {
  const own = await migrateSource(text, `test/${name}.test.${ext}`, { cwd: dir });
  const { created: _created, ...file } = own;
  // The run these tests belong to migrated the server's requests of every kind: their mocks matter.
  const server: FileResult = { path: 'src/server.ts', status: 'changed', sites: LEGACY_METHODS.map((method, i) => ({ line: i + 1, column: 1, method, status: 'migrated' })) };
  const result = addTestMockSites(
    { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [server, file], packageJsonChanges: [] },
    [],
    () => undefined,
  );
  return { file: result.files.find((f) => f.path === file.path)!, engineOutput: own.output ?? text };
}

const withoutMarkers = (text: string) => text.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n');

describe.each(cases)('test-mock fixture $name', ({ name, ext, input, output, sites }) => {
  it('migrates to the expected output and sites; jscodeshift agrees; a second run changes nothing', async () => {
    const text = fs.readFileSync(input, 'utf8');
    const { file, engineOutput } = await migrateTestFile(text, name, ext);
    const got = file.output ?? text;
    const gotSites = file.sites.map((s) => ({ line: s.line, status: s.status, reason: s.reason }));
    if (UPDATE) {
      fs.writeFileSync(output, got);
      fs.writeFileSync(sites, JSON.stringify(gotSites, null, 2) + '\n');
    }
    expect(got).toBe(fs.readFileSync(output, 'utf8'));
    expect(gotSites).toEqual(JSON.parse(fs.readFileSync(sites, 'utf8')));
    const viaJscodeshift = await migrateSource(text, `test/${name}.test.${ext}`, { cwd: dir }, { oneFileOfMany: true });
    expect(viaJscodeshift.output ?? text).toBe(got);
    expect(viaJscodeshift.sites.map((s) => ({ line: s.line, status: s.status, reason: s.reason }))).toEqual(gotSites);

    const again = await migrateTestFile(got, name, ext);
    expect(again.file.output ?? got).toBe(got);
    expect(again.file.sites.filter((s) => s.status === 'migrated')).toEqual([]);
    expect(again.file.sites.length).toBe(gotSites.filter((s) => s.status === 'flagged').length);

    if (gotSites.every((s) => s.status === 'flagged') && engineOutput === text) {
      expect(withoutMarkers(got)).toBe(text);
    }
  });
});
