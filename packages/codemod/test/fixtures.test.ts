/**
 * Fixture runner: every `fixtures/cases/<case>.input.*` is migrated by the engine in a run of its
 * own (a temp project holding that case alone, with `fixtures/support` beside it and the
 * repository's node_modules reachable, typed through a tsconfig), so a case cannot change another's
 * output and a case that fails names itself. The runs share one `LibraryFiles` (TypeScript's lib
 * files and the packages' declaration files parsed once, engine/library-files.ts), which halves
 * what the isolation costs. Each case must give
 *   - `<case>.output.*` byte for byte,
 *   - the site report of `<case>.case.json` `sites` (line, method, status; reason when given),
 *   - only created files (the requestState codec module) equal to the file of the same name in
 *     `fixtures/cases`,
 *   - nothing new on a second run over the outputs (idempotent): one run over every case's output
 *     and created files together, as a project holding them all would be migrated again.
 *
 * `UPDATE_FIXTURES=1` writes the outputs, created files and `sites` instead (review the diff!);
 * `FIXTURE_FILTER=flag-,reach-` limits what it writes to cases with those name prefixes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryFiles, migrateProject } from '../src/index.js';
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
const libraryFiles = new LibraryFiles();
/** Each case's own run, by case name (a case whose run threw has none). */
const firstRuns = new Map<string, Run>();

interface Run {
  dir: string;
  result: MigrationResult;
}

function fileResult({ result, dir }: Run, name: string): FileResult | undefined {
  return result.files.find((f) => f.path === path.join(dir, 'cases', name));
}

function outputOf(run: Run, name: string): string {
  const file = fileResult(run, name);
  if (!file) throw new Error(`no result for ${name}`);
  return file.output ?? file.original ?? '';
}

function createdFiles({ result, dir }: Run): Array<{ rel: string; text: string }> {
  return result.files.filter((f) => f.status === 'created').map((f) => ({ rel: path.relative(path.join(dir, 'cases'), f.path), text: f.output! }));
}

/** One run of the engine over a temp project holding `files` in cases/. */
async function migrateFiles(files: Map<string, string>): Promise<Run> {
  const dir = makeProject(files);
  dirs.push(dir);
  const result = await migrateProject(['cases'], { cwd: dir, tsconfig: path.join(dir, 'tsconfig.json') }, undefined, { libraryFiles });
  return { dir, result };
}

/** `UPDATE_FIXTURES=1`: the case's output, created files and sites written from its run. */
function updateCase(c: Case, first: Run): void {
  const name = path.basename(c.input);
  fs.writeFileSync(c.output, outputOf(first, name));
  const actual = fileResult(first, name)?.sites ?? [];
  const sites = actual.map((s) => ({ line: s.line, method: s.method, status: s.status, ...(s.reason ? { reason: s.reason } : {}) }));
  const json = fs.existsSync(c.caseJson) ? (JSON.parse(fs.readFileSync(c.caseJson, 'utf8')) as Record<string, unknown>) : { description: c.name };
  // A case.json whose sites still hold is left as written (its layout, and fields such as
  // `callers` that this writer does not produce).
  if (!(Array.isArray(json.sites) && sitesMatch(json.sites as Array<Partial<SiteResult>>, actual))) {
    json.sites = sites;
    fs.writeFileSync(c.caseJson, JSON.stringify(json, null, 2) + '\n');
  }
  for (const created of createdFiles(first)) {
    const target = path.join(CASES, created.rel);
    if (!fs.existsSync(target)) fs.writeFileSync(target, created.text);
  }
}

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

  for (const c of cases) {
    describe(c.name, () => {
      const name = path.basename(c.input);
      let first: Run;

      beforeAll(async () => {
        first = await migrateFiles(new Map([[name, fs.readFileSync(c.input, 'utf8')]]));
        firstRuns.set(c.name, first);
        if (UPDATE && selected(c.name)) updateCase(c, first);
      });

      it('migrates to the expected output, byte for byte', () => {
        const file = fileResult(first, name);
        expect(file?.status, file?.error).not.toBe('failed');
        expect(fs.existsSync(c.output), `${path.basename(c.output)} is missing (run with UPDATE_FIXTURES=1 and review)`).toBe(true);
        expect(outputOf(first, name)).toBe(fs.readFileSync(c.output, 'utf8'));
      });

      it('reports the sites of case.json', () => {
        expect(fs.existsSync(c.caseJson), `${path.basename(c.caseJson)} is missing`).toBe(true);
        const expected = (JSON.parse(fs.readFileSync(c.caseJson, 'utf8')) as { sites?: Array<Partial<SiteResult>> }).sites;
        expect(expected, `${path.basename(c.caseJson)} has no "sites"`).toBeDefined();
        const actual = fileResult(first, name)?.sites ?? [];
        expect(actual.length).toBe(expected!.length);
        expected!.forEach((site, i) => {
          const got = actual[i]!;
          const picked = Object.fromEntries(Object.keys(site).map((k) => [k, got[k as keyof SiteResult]]));
          expect(picked).toEqual(site);
        });
      });

      it('creates only files that fixtures/cases holds, byte for byte', () => {
        for (const created of createdFiles(first)) {
          const expected = path.join(CASES, created.rel);
          expect(fs.existsSync(expected), `${created.rel} is created by the migration but missing from fixtures/cases (UPDATE_FIXTURES=1)`).toBe(true);
          expect(created.text).toBe(fs.readFileSync(expected, 'utf8'));
        }
      });
    });
  }

  describe('a second run over every output and created file', () => {
    let second: Run;

    beforeAll(async () => {
      const outputs = new Map<string, string>();
      for (const c of cases) {
        const first = firstRuns.get(c.name);
        if (!first) continue;
        outputs.set(path.basename(c.input), outputOf(first, path.basename(c.input)));
        for (const created of createdFiles(first)) outputs.set(created.rel, created.text);
      }
      second = await migrateFiles(outputs);
    }, 900_000);

    it('changes nothing and creates nothing', () => {
      const changed = second.result.files.filter((f) => f.status === 'created' || (f.output !== undefined && f.original !== undefined && f.output !== f.original));
      expect(changed.map((f) => path.basename(f.path))).toEqual([]);
    });

    for (const c of cases) {
      it(`${c.name}: same output, as many sites flagged`, () => {
        const name = path.basename(c.input);
        const first = firstRuns.get(c.name);
        expect(first, `${c.name} has no run of its own`).toBeDefined();
        const again = fileResult(second, name);
        expect(again?.output ?? again?.original).toBe(outputOf(first!, name));
        const flaggedFirst = (fileResult(first!, name)?.sites ?? []).filter((s) => s.status === 'flagged').length;
        const flaggedAgain = (again?.sites ?? []).filter((s) => s.status === 'flagged').length;
        expect(flaggedAgain).toBe(flaggedFirst);
      });
    }
  });

  it('the runs share the parsed declaration files (unshared, isolation costs more than three times one run)', () => {
    expect(libraryFiles.reused).toBeGreaterThan(cases.length);
  });
});
