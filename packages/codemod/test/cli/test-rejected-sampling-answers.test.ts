/**
 * A unit test whose fake sampling answer no real client can send (content as a list of blocks on a
 * request that offers no tools; the v1 `createMessage` rejected that from a client, only the fake
 * standing in for it bypassed the check) exercises behaviour the migration removes: the migrated
 * helper reads answers as `createMessage` validated them and asks again. The report says so in its
 * test-mock section, JSON and text, with the test's file, line and title, the summary counts it,
 * and the test gets a marker; the other test of the file is driven and passes
 * (`fixtures/test-mocks/sampling-answers`). The project is migrated by the BUILT CLI and its tests
 * run for real with vitest, before and after.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot, runCli } from './helpers.js';
import { failingTests, projectForFile, readReport, runProjectTests } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/sampling-answers');
const TEST_FILE = 'test/summary.test.ts';

interface Report {
  summary: { sitesFlagged: number; sitesMigrated: number };
  files: { path: string; notes?: string[]; sites: { line: number; method: string; status: string; reason?: string }[] }[];
}

const project = projectForFile(PROJECT, 'mcp-mrtr-sampling-answers-');

describe('a unit test whose fake sampling answer no client can send', () => {
  it('control: both tests pass on the v1 helper before the migration', () => {
    const outcomes = runProjectTests(project.dir, []);
    expect(outcomes.map((o) => o.title).sort()).toEqual(['reads the first text block of a list', 'returns the model summary']);
    expect(failingTests(outcomes)).toEqual([]);
  });

  it('is reported as exercising removed behaviour (JSON, text, summary), marked, and the only test failing after', async () => {
    const run = await runCli(['migrate', '.', '--json', 'report.json'], project.dir);
    expect(run.status, run.stderr).toBe(1);
    const report = readReport<Report>(project.dir);
    expect(report.files.find((f) => f.path.endsWith('src/summary.ts'))!.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['sampling/createMessage migrated']);
    const test = report.files.find((f) => f.path.endsWith(TEST_FILE))!;
    expect(test.sites.map((s) => `${s.line} ${s.method} ${s.status}`)).toEqual(['18 test-mock flagged']);
    const reason = test.sites[0]!.reason!;
    expect(reason).toContain('test "reads the first text block of a list" (line 16) exercises behaviour no real client can produce');
    expect(reason).toContain('gives its content as a list of blocks');
    expect(report.summary.sitesFlagged).toBe(1);
    expect(test.notes?.join('\n') ?? '').not.toContain("the fake's sampling answer");

    const text = run.stdout;
    expect(text).toMatch(/Unit tests that mock legacy requests \(1\)/);
    expect(text).toContain(`${TEST_FILE}:18  test-mock: test "reads the first text block of a list" (line 16) exercises behaviour no real client can produce`);

    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    const lines = migrated.split('\n');
    const at = lines.findIndex((l) => l.includes("it('reads the first text block of a list'"));
    expect(lines[at - 1]).toMatch(new RegExp(`^  // ${TODO_MARKER}\\(test "reads the first text block of a list" \\(line 16\\) exercises behaviour no real client can produce`));
    expect(lines.filter((l) => l.includes(TODO_MARKER))).toHaveLength(1);

    const outcomes = runProjectTests(project.dir, []);
    expect(outcomes).toHaveLength(2);
    expect(failingTests(outcomes)).toEqual(['reads the first text block of a list']);
  });

  it('a second run adds no second marker', async () => {
    await runCli(['migrate', '.', '--json', 'report-2.json'], project.dir);
    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    expect(migrated.split('\n').filter((l) => l.includes(TODO_MARKER))).toHaveLength(1);
  });
});
