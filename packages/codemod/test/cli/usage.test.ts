/**
 * The command line's conventions, run from the BUILT CLI: aliases peers' users type (`-h`, `-v`,
 * `-d`/`--dry`), `-` for stdout on both reports, one-line usage errors, the notice outside git, and
 * JSON report statuses that say whether anything was written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAGGED, MIGRATABLE, PLAIN, assertBuilt, cleanupProjects, commitAll, makeProject, read, runBin, sharedRun, snapshot } from './helpers.js';
import { validateJsonReport, validateSarif } from './schemas.js';

beforeAll(assertBuilt);
afterAll(cleanupProjects);

const NOTICE = /not in a git work tree/;

describe('aliases', () => {
  it('-h is --help and -v is --version', () => {
    const cwd = process.cwd();
    const help = runBin(['--help'], cwd);
    expect(runBin(['-h'], cwd)).toEqual(help);
    expect(runBin(['migrate', '-h'], cwd)).toEqual(runBin(['migrate', '--help'], cwd));
    const version = runBin(['-v'], cwd);
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(runBin(['--version'], cwd).stdout);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each([['-d'], ['--dry'], ['--dry-run']])('migrate %s writes nothing and prints the diff', (flag) => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const before = snapshot(root);
    const run = runBin(['migrate', 'src', flag], root);
    expect(run.status, run.stderr).toBe(0);
    expect(snapshot(root)).toEqual(before);
    expect(run.stdout).toMatch(/^--- a\/src\/server\.ts$/m);
    expect(run.stdout).toMatch(/^\+.*inputRequired/m);
    // a dry run writes nothing: no git notice
    expect(run.stderr).not.toMatch(NOTICE);
  });

  it('migrate --help lists the aliases and does not call the required paths defaulted', () => {
    const help = runBin(['migrate', '--help'], process.cwd()).stdout;
    expect(help).toMatch(/-d, --dry-run, --dry|-d, --dry, --dry-run/);
    expect(help).toMatch(/paths\s+Files or directories\s+\[array\] \[required\]\n/);
    expect(help).not.toContain('[default: []]');
  });
});

describe('usage errors: one line, exit 2, no stack', () => {
  it.each([
    ['--json without a value', ['check', 'src', '--json']],
    ['--sarif without a value', ['migrate', 'src', '--dry-run', '--sarif']],
    ['an unknown option', ['check', 'src', '--frobnicate']],
    ['both reports on stdout', ['check', 'src', '--json', '-', '--sarif', '-']],
  ])('%s', (_name, args) => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const before = snapshot(root);
    const run = runBin(args, root);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mcp-mrtr: \S.*\n$/);
    expect(run.stderr).not.toMatch(/crashed|\n\s+at /);
    expect(snapshot(root)).toEqual(before);
  });
});

describe('reports on stdout', () => {
  it('--sarif - prints SARIF on stdout (no file named -), the summary on stderr', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED });
    const run = runBin(['check', 'src', '--sarif', '-'], root);
    expect(run.status).toBe(1);
    expect(fs.existsSync(path.join(root, '-'))).toBe(false);
    const sarif = JSON.parse(run.stdout);
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(sarif.runs[0].results.length).toBe(2);
    expect(run.stderr).toContain('src/roots.ts:7');
  });

  it('migrate --dry-run --sarif - keeps stdout parseable (no diff mixed in)', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const run = runBin(['migrate', 'src', '--dry-run', '--sarif', '-'], root);
    expect(run.status).toBe(0);
    expect(validateSarif(JSON.parse(run.stdout))).toBe(true);
  });

  it('--json - beside --sarif <file> writes both', () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED });
    const run = runBin(['check', 'src', '--json', '-', '--sarif', 'out/mrtr.sarif'], root);
    expect(run.status).toBe(1);
    expect(validateJsonReport(JSON.parse(run.stdout))).toBe(true);
    expect(validateSarif(JSON.parse(read(root, 'out/mrtr.sarif')))).toBe(true);
  });
});

describe('git work tree', () => {
  it('outside git, migrate says so on stderr and still migrates', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const run = runBin(['migrate', 'src'], root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^mcp-mrtr: notice: src is not in a git work tree: .*--dry-run/m);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
  });

  it('inside a clean git work tree, no notice', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    commitAll(root);
    const run = runBin(['migrate', 'src'], root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(NOTICE);
  });
});

describe('JSON report: versioned, and statuses that say whether anything was written', () => {
  const files = { 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED, 'src/math.ts': PLAIN };
  const statuses = (report: { files: { path: string; status: string; sites: { status: string }[] }[] }) =>
    Object.fromEntries(report.files.map((f) => [f.path, [f.status, ...f.sites.map((s) => s.status)]]));
  const reportOf = (args: string[]) => JSON.parse(runBin(args, makeProject(files)).stdout);
  const CHECK = ['check', 'src', '--json', '-'];
  // the check report is read by two tests
  const checkReport = sharedRun(() => reportOf(CHECK));

  it.each([
    ['check', CHECK],
    ['migrate --dry-run', ['migrate', 'src', '--dry-run', '--json', '-']],
  ])('%s: would-migrate sites, would-change files, dryRun true, valid against the schema', (_name, args) => {
    const report = args === CHECK ? checkReport() : reportOf(args);
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(report.schemaVersion).toBe(1);
    expect(report.dryRun).toBe(true);
    expect(statuses(report)).toEqual({ 'src/mcp-client-capabilities.ts': ['would-create'], 'src/mcp-input-responses.ts': ['would-create'], 'src/server.ts': ['would-change', 'would-migrate'], 'src/roots.ts': ['flagged', 'flagged'] });
  });

  it('migrate: migrated sites and changed files, dryRun false, valid against the schema', () => {
    const root = makeProject(files);
    const report = JSON.parse(runBin(['migrate', 'src', '--json', '-'], root).stdout);
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(report).toMatchObject({ schemaVersion: 1, command: 'migrate', dryRun: false });
    expect(statuses(report)).toEqual({ 'src/mcp-client-capabilities.ts': ['created'], 'src/mcp-input-responses.ts': ['created'], 'src/server.ts': ['changed', 'migrated'], 'src/roots.ts': ['flagged', 'flagged'] });
  });

  it('the schema refuses a dry run that claims to have migrated, and a report without a version', () => {
    const report = checkReport();
    expect(validateJsonReport(report)).toBe(true);
    expect(validateJsonReport({ ...report, files: report.files.map((f: { status: string }) => ({ ...f, status: f.status.replace('would-', '') })) })).toBe(false);
    const { schemaVersion: _dropped, ...unversioned } = report;
    expect(validateJsonReport(unversioned)).toBe(false);
  });
});
