/**
 * Fixture runner: every `fixtures/cases/<case>.input.*` is migrated by the engine (all cases in one
 * run on a temp copy, with `fixtures/support` beside it and the repository's node_modules reachable,
 * typed through a tsconfig) and must give
 *   - `<case>.output.*` byte for byte,
 *   - the site report of `<case>.case.json` `sites` (line, method, status; reason when given),
 *   - nothing new on a second run over the outputs (idempotent).
 * Files the rewrite creates (the requestState codec module) must equal the file of the same name in
 * `fixtures/cases`.
 *
 * `UPDATE_FIXTURES=1` writes the outputs, created files and `sites` instead (review the diff!);
 * `FIXTURE_FILTER=flag-,reach-` limits what it writes to cases with those name prefixes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateProject } from '../src/index.js';
import type { FileResult, MigrationResult, SiteResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const CASES = path.join(REPO, 'fixtures/cases');
const SUPPORT = path.join(REPO, 'fixtures/support');
const UPDATE = process.env.UPDATE_FIXTURES === '1';
const FILTER = (process.env.FIXTURE_FILTER ?? '').split(',').filter(Boolean);
const selected = (name: string) => FILTER.length === 0 || FILTER.some((prefix) => name.startsWith(prefix));
const INPUT = /^(.+)\.input\.([cm]?[jt]sx?)$/;

interface Case {
  name: string;
  ext: string;
  input: string;
  output: string;
  caseJson: string;
}

const cases: Case[] = fs
  .readdirSync(CASES)
  .map((file) => INPUT.exec(file))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({
    name: m[1]!,
    ext: m[2]!,
    input: path.join(CASES, m[0]),
    output: path.join(CASES, `${m[1]}.output.${m[2]}`),
    caseJson: path.join(CASES, `${m[1]}.case.json`),
  }))
  .sort((a, b) => a.name.localeCompare(b.name));

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    allowJs: true,
    noEmit: true,
  },
  include: ['cases', 'support'],
};

/** A temp project: cases/ (the given files), support/, tsconfig.json, node_modules → the repo's. */
function makeProject(files: Map<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-fixtures-'));
  fs.mkdirSync(path.join(dir, 'cases'));
  fs.cpSync(SUPPORT, path.join(dir, 'support'), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixtures', private: true, type: 'module' }, null, 2));
  for (const [name, text] of files) fs.writeFileSync(path.join(dir, 'cases', name), text);
  return dir;
}

const dirs: string[] = [];
let first: MigrationResult;
let second: MigrationResult;
let firstDir: string;
let secondDir: string;

function fileResult(result: MigrationResult, dir: string, name: string): FileResult | undefined {
  return result.files.find((f) => f.path === path.join(dir, 'cases', name));
}

function outputOf(result: MigrationResult, dir: string, name: string): string {
  const file = fileResult(result, dir, name);
  if (!file) throw new Error(`no result for ${name}`);
  return file.output ?? file.original ?? '';
}

beforeAll(async () => {
  const inputs = new Map(cases.map((c) => [path.basename(c.input), fs.readFileSync(c.input, 'utf8')]));
  firstDir = makeProject(inputs);
  dirs.push(firstDir);
  first = await migrateProject(['cases'], { cwd: firstDir, tsconfig: path.join(firstDir, 'tsconfig.json') });

  // second run: the outputs (and created files) in place of the inputs
  const outputs = new Map<string, string>();
  for (const c of cases) outputs.set(path.basename(c.input), outputOf(first, firstDir, path.basename(c.input)));
  for (const created of first.files.filter((f) => f.status === 'created')) outputs.set(path.relative(path.join(firstDir, 'cases'), created.path), created.output!);
  secondDir = makeProject(outputs);
  dirs.push(secondDir);
  second = await migrateProject(['cases'], { cwd: secondDir, tsconfig: path.join(secondDir, 'tsconfig.json') });

  if (UPDATE) {
    for (const c of cases.filter((k) => selected(k.name))) {
      fs.writeFileSync(c.output, outputOf(first, firstDir, path.basename(c.input)));
      const actual = fileResult(first, firstDir, path.basename(c.input))?.sites ?? [];
      const sites = actual.map((s) => ({ line: s.line, method: s.method, status: s.status, ...(s.reason ? { reason: s.reason } : {}) }));
      const json = fs.existsSync(c.caseJson) ? (JSON.parse(fs.readFileSync(c.caseJson, 'utf8')) as Record<string, unknown>) : { description: c.name };
      // A case.json whose sites still hold is left as written (its layout, and fields such as
      // `callers` that this writer does not produce).
      if (Array.isArray(json.sites) && sitesMatch(json.sites as Array<Partial<SiteResult>>, actual)) continue;
      json.sites = sites;
      fs.writeFileSync(c.caseJson, JSON.stringify(json, null, 2) + '\n');
    }
    for (const created of first.files.filter((f) => f.status === 'created')) {
      const target = path.join(CASES, path.relative(path.join(firstDir, 'cases'), created.path));
      if (!fs.existsSync(target)) fs.writeFileSync(target, created.output!);
    }
  }
}, 900_000);

/** Whether every expected site's given fields equal the reported site at the same position. */
function sitesMatch(expected: Array<Partial<SiteResult>>, actual: SiteResult[]): boolean {
  return (
    expected.length === actual.length &&
    expected.every((site, i) => Object.keys(site).every((k) => JSON.stringify(actual[i]![k as keyof SiteResult]) === JSON.stringify(site[k as keyof SiteResult])))
  );
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('fixtures/cases', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it('creates only files that fixtures/cases holds, byte for byte', () => {
    for (const created of first.files.filter((f) => f.status === 'created')) {
      const rel = path.relative(path.join(firstDir, 'cases'), created.path);
      const expected = path.join(CASES, rel);
      expect(fs.existsSync(expected), `${rel} is created by the migration but missing from fixtures/cases (UPDATE_FIXTURES=1)`).toBe(true);
      expect(created.output).toBe(fs.readFileSync(expected, 'utf8'));
    }
  });

  it('a second run over the outputs changes nothing and creates nothing', () => {
    const changed = second.files.filter((f) => f.status === 'created' || (f.output !== undefined && f.original !== undefined && f.output !== f.original));
    expect(changed.map((f) => path.basename(f.path))).toEqual([]);
  });

  for (const c of cases) {
    describe(c.name, () => {
      const name = path.basename(c.input);
      it('migrates to the expected output, byte for byte', () => {
        const file = fileResult(first, firstDir, name);
        expect(file?.status, file?.error).not.toBe('failed');
        expect(fs.existsSync(c.output), `${path.basename(c.output)} is missing (run with UPDATE_FIXTURES=1 and review)`).toBe(true);
        expect(outputOf(first, firstDir, name)).toBe(fs.readFileSync(c.output, 'utf8'));
      });

      it('reports the sites of case.json', () => {
        expect(fs.existsSync(c.caseJson), `${path.basename(c.caseJson)} is missing`).toBe(true);
        const expected = (JSON.parse(fs.readFileSync(c.caseJson, 'utf8')) as { sites?: Array<Partial<SiteResult>> }).sites;
        expect(expected, `${path.basename(c.caseJson)} has no "sites"`).toBeDefined();
        const actual = fileResult(first, firstDir, name)?.sites ?? [];
        expect(actual.length).toBe(expected!.length);
        expected!.forEach((site, i) => {
          const got = actual[i]!;
          const picked = Object.fromEntries(Object.keys(site).map((k) => [k, got[k as keyof SiteResult]]));
          expect(picked).toEqual(site);
        });
      });

      it('is stable on a second run', () => {
        const again = fileResult(second, secondDir, name);
        expect(again?.output ?? again?.original).toBe(outputOf(first, firstDir, name));
        const firstSites = (fileResult(first, firstDir, name)?.sites ?? []).filter((s) => s.status === 'flagged').length;
        const flaggedAgain = (again?.sites ?? []).filter((s) => s.status === 'flagged').length;
        expect(flaggedAgain).toBe(firstSites);
      });
    });
  }
});
