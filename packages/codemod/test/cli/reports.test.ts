import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/report/json.js';
import { toSarif } from '../../src/report/sarif.js';
import { formatTextReport } from '../../src/report/text.js';
import type { MigrationResult } from '../../src/types.js';
import { validateJsonReport, validateSarif } from './schemas.js';

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'mrtr-report-'));
const file = (rel: string) => path.join(cwd, rel);

function sampleResult(): MigrationResult {
  return {
    summary: { sitesFound: 4, sitesMigrated: 2, sitesFlagged: 2, filesChanged: 2, filesFailed: 1 },
    files: [
      {
        path: file('src/tools.ts'),
        status: 'changed',
        original: 'a\n',
        output: 'b\n',
        sites: [
          { line: 10, column: 5, method: 'elicitation/create', kind: 'elicitation', status: 'migrated', handler: 'delete_file' },
          { line: 20, column: 7, method: 'sampling/createMessage', kind: 'sampling', status: 'migrated' },
        ],
      },
      {
        path: file('src/roots watcher.ts'),
        status: 'flagged',
        original: 'x\n',
        output: '// @mcp-mrtr-todo\nx\n',
        sites: [
          { line: 3, column: 11, method: 'roots/list', kind: 'roots', status: 'flagged', reason: 'called from a notification handler', advice: 'move it into a tool' },
          { line: 9, column: 1, method: 'test-mock', status: 'flagged', reason: 'test mock for elicitInput' },
        ],
      },
      { path: file('src/broken.ts'), status: 'failed', sites: [], error: 'parse error: ; expected (1:9)' },
      { path: file('src/plain.ts'), status: 'unchanged', sites: [], original: '', output: '' },
    ],
    packageJsonChanges: [
      {
        path: file('package.json'),
        removed: { '@modelcontextprotocol/sdk': '^1.17.0' },
        added: { '@modelcontextprotocol/server': '^2.4.0' },
        original: '{}',
        output: '{ }',
      },
    ],
  };
}

describe('JSON report', () => {
  it('has the contract shape with relative paths and leaves out files with nothing to say', () => {
    const report = toJsonReport(sampleResult(), { cwd, command: 'migrate' });
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(report.summary).toEqual({ sitesFound: 4, sitesMigrated: 2, sitesFlagged: 2, filesChanged: 2, filesFailed: 1 });
    expect(report.files.map((f) => [f.path, f.status])).toEqual([
      ['src/tools.ts', 'changed'],
      ['src/roots watcher.ts', 'flagged'],
      ['src/broken.ts', 'failed'],
    ]);
    expect(report.files[1]!.sites[0]).toMatchObject({ line: 3, method: 'roots/list', status: 'flagged', reason: 'called from a notification handler' });
    expect(report.packageJson).toEqual([{ path: 'package.json', removed: { '@modelcontextprotocol/sdk': '^1.17.0' }, added: { '@modelcontextprotocol/server': '^2.4.0' } }]);
  });
  it('the shape validator rejects a flagged site without a reason', () => {
    const report = toJsonReport(sampleResult(), { cwd, command: 'migrate' });
    delete (report.files[1]!.sites[0] as { reason?: string }).reason;
    expect(validateJsonReport(report)).toBe(false);
  });
});

describe('SARIF report', () => {
  it('is valid SARIF 2.1.0 with one result per flagged site and per failed file', () => {
    const sarif = toSarif(sampleResult(), { cwd, command: 'migrate' });
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors, null, 1)).toBe(true);
    const run = sarif.runs[0] as { results: any[]; tool: { driver: { rules: any[] } } };
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine])).toEqual([
      ['mcp-mrtr/unmigrated-roots', 'warning', 'src/roots%20watcher.ts', 3],
      ['mcp-mrtr/legacy-test-mock', 'warning', 'src/roots%20watcher.ts', 9],
      ['mcp-mrtr/file-error', 'error', 'src/broken.ts', 1],
    ]);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    expect(run.results[0].message.text).toContain('called from a notification handler');
  });
  it('under check also reports the sites migrate would rewrite', () => {
    const sarif = toSarif(sampleResult(), { cwd, command: 'check' });
    expect(validateSarif(sarif)).toBe(true);
    const ids = (sarif.runs[0] as { results: any[] }).results.map((r) => r.ruleId);
    expect(ids).toEqual(['mcp-mrtr/legacy-elicitation', 'mcp-mrtr/legacy-sampling', 'mcp-mrtr/unmigrated-roots', 'mcp-mrtr/legacy-test-mock', 'mcp-mrtr/file-error']);
  });
  it('the schema validator rejects a malformed log', () => {
    const sarif = toSarif(sampleResult(), { cwd, command: 'migrate' }) as any;
    sarif.runs[0].results[0].level = 'fatal';
    expect(validateSarif(sarif)).toBe(false);
  });
});

describe('text report', () => {
  it('gives counts by status and kind, flagged file:line with reasons, changes, and ends with the marker search', () => {
    const text = formatTextReport(sampleResult(), { cwd, command: 'migrate', paths: ['src'], formatter: { kind: 'hint', command: 'npx prettier --write src/tools.ts' } });
    expect(text).toMatch(/migrated\s+2\s+\(elicitation 1, sampling 1\)/);
    expect(text).toMatch(/flagged\s+2\s+\(roots 1, test mocks 1\)/);
    expect(text).toContain('src/roots watcher.ts:3  roots/list: called from a notification handler');
    expect(text).toContain('move it into a tool');
    expect(text).toMatch(/Unit tests that mock legacy requests \(1\)[^\n]*\n {2}src\/roots watcher\.ts:9  test-mock: test mock for elicitInput/);
    expect(text).toContain('src/broken.ts: parse error');
    expect(text).toMatch(/Files changed \(2\):\n {2}src\/tools.ts\n {2}src\/roots watcher.ts/);
    expect(text).toContain('- @modelcontextprotocol/sdk@^1.17.0');
    expect(text).toContain('+ @modelcontextprotocol/server@^2.4.0');
    expect(text).toContain('npx prettier --write src/tools.ts');
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe("Find every site left to do: grep -rn --exclude-dir=node_modules --include='*.[jt]s' --include='*.[jt]sx' --include='*.[cm][jt]s' '@mcp-mrtr-todo' src");
  });
  it("credits notes to who wrote them: the official codemod's under its heading, this tool's repairs and notes under its own", () => {
    const result = sampleResult();
    result.files[0] = { ...result.files[0]!, notes: ['2: RequestHandlerExtra renamed to ServerContext', "7: 'shape' is a zod raw shape"], officialNotes: ['2: RequestHandlerExtra renamed to ServerContext'] };
    // a test file's notes come from the test-mock rewrite alone: nothing of them is the official codemod's
    result.files[1] = { ...result.files[1]!, notes: ['4: a v1 handler-context fake, reshaped'] };
    const text = formatTextReport(result, { cwd, command: 'migrate', paths: ['src'] });
    expect(text).toContain('The official v1-to-v2 upgrade asks you to check (1):\n  src/tools.ts:2: RequestHandlerExtra renamed to ServerContext\n\n');
    expect(text).toContain("mcp-mrtr's own repairs and notes to check (2):\n  src/tools.ts:7: 'shape' is a zod raw shape\n  src/roots watcher.ts:4: a v1 handler-context fake, reshaped\n\n");
    const json = toJsonReport(result, { cwd, command: 'migrate' });
    expect(json.files.map((f) => f.officialNotes)).toEqual([['2: RequestHandlerExtra renamed to ServerContext'], undefined, undefined]);
    expect(validateJsonReport(json), JSON.stringify(validateJsonReport.errors)).toBe(true);
  });
  it("lists a migrated site's notes (what the migration changes for its users): under migrate in a section of their own, under check beneath the site", () => {
    const result = sampleResult();
    const reason = "write-once: the handler re-runs from the top; note: a client that fails to answer now fails the call; note: the form asks for 'apiKey', which looks like a secret";
    result.files[0]!.sites[0] = { ...result.files[0]!.sites[0]!, reason };
    const migrate = formatTextReport(result, { cwd, command: 'migrate', paths: ['src'] });
    expect(migrate).toContain("Migrated, with notes to read (1):\n  src/tools.ts:10  elicitation/create (delete_file): a client that fails to answer now fails the call; the form asks for 'apiKey', which looks like a secret\n");
    expect(formatTextReport(result, { cwd, command: 'migrate', paths: ['src'], dryRun: true })).toContain('Would migrate, with notes to read (1):');
    const check = formatTextReport(result, { cwd, command: 'check', paths: ['src'] });
    expect(check).toContain("src/tools.ts:10:5  elicitation/create (delete_file)  migrate\n      note: a client that fails to answer now fails the call\n      note: the form asks for 'apiKey', which looks like a secret\n");
    // a migrated site without notes has no such section
    expect(formatTextReport(sampleResult(), { cwd, command: 'migrate', paths: ['src'] })).not.toContain('with notes to read');
  });
  it('check lists every legacy site with what migrate would do', () => {
    const text = formatTextReport(sampleResult(), { cwd, command: 'check', paths: ['src'] });
    expect(text).toContain('src/tools.ts:10:5  elicitation/create (delete_file)  migrate');
    expect(text).toContain('src/roots watcher.ts:3:11  roots/list  flag: called from a notification handler');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Migrate with: mcp-mrtr migrate src');
  });
});
