/**
 * No false rewrites: the engine (check = the site report, dry run = the outputs; one call gives
 * both with `write: false`) over large bodies of real non-MCP-server code finds no site, changes no
 * byte and fails on no file. The pre-filter is switched off so every file goes through the full
 * find/reach analysis, not just the text scan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/helpers.js';
import { migrateProject } from '../shared-library-files.js';
import type { MigrationResult } from '../../src/types.js';
import { copiedPath, copyToTemp, removeTree, snapshotTree } from './copy-tree.js';
import { REPO_ROOT, negativeCorpus, positiveControl } from './corpus.js';

const scanned: Record<string, number> = {};
const tempDirs: string[] = [];

afterAll(() => {
  for (const dir of tempDirs) removeTree(dir);
  const total = Object.values(scanned).reduce((a, b) => a + b, 0);
  console.log(`false positives (engine): ${total} files scanned`, scanned);
});

async function scan(name: string, base: string, files: string[]): Promise<{ dir: string; result: MigrationResult }> {
  const dir = copyToTemp(`fp-${name}`, base, files);
  tempDirs.push(dir);
  const result = await migrateProject([dir], { cwd: dir, write: false, prefilter: false });
  return { dir, result };
}

/** Every corpus file was really analysed (discovery did not skip it). */
function expectAllAnalysed(dir: string, result: MigrationResult, files: string[]): void {
  const seen = new Set(result.files.map((f) => f.path));
  expect(files.filter((rel) => !seen.has(join(dir, copiedPath(rel))))).toEqual([]);
}

function expectNothingToDo(dir: string, result: MigrationResult, before: Map<string, Buffer>): void {
  const reported = result.files.filter((f) => f.sites.length > 0 || f.status === 'failed' || f.status === 'changed' || f.status === 'flagged' || f.status === 'created');
  expect(
    reported.map((f) => ({ path: f.path.slice(dir.length + 1), status: f.status, error: f.error, sites: f.sites.map((s) => `${s.line}:${s.column} ${s.method} ${s.status} ${s.snippet ?? ''}`) })),
  ).toEqual([]);
  for (const f of result.files) if (f.output !== undefined && f.original !== undefined) expect(f.output === f.original, f.path).toBe(true);
  expect(result.summary).toMatchObject({ sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 });
  expect(result.packageJsonChanges).toEqual([]);
  const after = snapshotTree(dir);
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  for (const [rel, bytes] of before) expect(after.get(rel)!.equals(bytes), rel).toBe(true);
}

describe('engine: no false rewrites on real non-MCP code', () => {
  for (const group of negativeCorpus()) {
    it(`${group.name} (${group.files.length} files): no site, no change, no failure`, async () => {
      const { dir, result } = await scan(group.name, group.base, group.files);
      const before = snapshotTree(dir);
      expectAllAnalysed(dir, result, group.files);
      expectNothingToDo(dir, result, before);
      scanned[group.name] = group.files.length;
    });
  }

  it('already-MRTR code (fixture outputs with every site migrated): no site, no change', async () => {
    const casesDir = join(REPO_ROOT, 'fixtures/cases');
    const outputs = readdirSync(casesDir)
      .filter((f) => /\.output\.[cm]?[jt]s$/.test(f))
      .filter((f) => !readFileSync(join(casesDir, f), 'utf8').includes('@mcp-mrtr-todo'))
      .sort();
    const support = readdirSync(join(REPO_ROOT, 'fixtures/support')).map((f) => `support/${f}`);
    const dir = copyToTemp('fp-mrtr', join(REPO_ROOT, 'fixtures'), [...outputs.map((f) => `cases/${f}`), ...support]);
    tempDirs.push(dir);
    const before = snapshotTree(dir);
    const result = await migrateProject([dir], { cwd: dir, write: false, prefilter: false });
    expectAllAnalysed(dir, result, outputs.map((f) => `cases/${f}`));
    expectNothingToDo(dir, result, before);
    scanned['mrtr-fixture-outputs'] = outputs.length;
    // Vacuous until the fixtures land; the fixture set is expected to grow past a handful.
    expect(outputs.length).toBeGreaterThan(0);
  });

  it('positive control: the SDK-bundled legacy server examples ARE reported (the scan is live)', async () => {
    const control = positiveControl();
    expect(control.files.length).toBe(2);
    const { result } = await scan(control.name, control.base, control.files);
    for (const rel of control.files) {
      const file = result.files.find((f) => f.path.endsWith(rel));
      expect(file?.sites.length ?? 0, rel).toBeGreaterThan(0);
    }
  });
});

describe('CLI: check and migrate --dry-run on real non-MCP code', () => {
  for (const group of negativeCorpus().filter((g) => g.name.startsWith('sdk-'))) {
    it(`${group.name}: check exits 0 with no site, migrate --dry-run prints no diff, no byte changed`, async () => {
      const dir = copyToTemp(`fp-cli-${group.name}`, group.base, group.files);
      tempDirs.push(dir);
      const before = snapshotTree(dir);
      const jsonOut = `${dir}-check.json`;
      tempDirs.push(jsonOut);
      const check = await runCli(['check', dir, '--json', jsonOut], dir);
      const report = JSON.parse(readFileSync(jsonOut, 'utf8'));
      expect(report.summary.sitesFound, check.stdout).toBe(0);
      expect(check.status, check.stdout + check.stderr).toBe(0);
      const dry = await runCli(['migrate', dir, '--dry-run'], dir);
      expect(dry.status, dry.stdout + dry.stderr).toBe(0);
      expect(dry.stdout).not.toMatch(/^\+\+\+ /m);
      const after = snapshotTree(dir);
      for (const [rel, bytes] of before) expect(after.get(rel)!.equals(bytes), rel).toBe(true);
    });
  }
});
