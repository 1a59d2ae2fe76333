/**
 * Files the run does not change but can break: a unit test outside the migrated paths, and a file
 * of the run the pre-filter keeps aside, each importing a module the v1-to-v2 upgrade changed. With
 * the upgraded module a `CallToolResult`'s `_meta.progressToken` is `unknown` (v1: a string or a
 * number), so their typed reads of it no longer typecheck, and no type-only repair covers that
 * (`structuredContent` reads are repaired: v1-declared-types.test.ts): each is reported at its line
 * with the compiler's message and the changed file it imports (a flagged site: exit 1); the file of
 * the run gets a marker, the one outside it is not written. A test file beside the tsconfig that it does not include is a file
 * of the run (its marker written), unless .gitignore covers it. A file importing the same module
 * that still typechecks gets no entry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';
import { IMPORTER_TYPE_ERROR_ADVICE } from '../src/run/importers-check.js';
import { IMPORTERS_SERVER as SERVER } from './importers-server.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src', 'test'] };

const FORMAT = `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function summary(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { length: text.length } };
}
`;

// in the migrated paths, without any MCP name: the pre-filter keeps it aside
const REPORT = `import { summary } from './format.js';

export function lengthOf(text: string): number {
  return summary(text)._meta?.progressToken === undefined ? 0 : text.length;
}

export function tokenOf(text: string): string | number | undefined {
  return summary(text)._meta?.progressToken;
}
`;

const UNIT_TEST = `import { summary } from '../src/format.js';

// reads the progress token the way a v1 result types it
const result = summary('abc');
export const token: string | number | undefined = result._meta?.progressToken;
`;

const STILL_FINE = `import { summary } from '../src/format.js';

export const texts = summary('abc').content.length;
`;

let dir: string;
let result: MigrationResult;
const file = (rel: string) => result.files.find((f) => f.path === path.join(dir, rel));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-importers-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'test'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'importers', type: 'module' }));
  fs.writeFileSync(path.join(dir, 'src', 'format.ts'), FORMAT);
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), SERVER);
  fs.writeFileSync(path.join(dir, 'src', 'report.ts'), REPORT);
  fs.writeFileSync(path.join(dir, 'test', 'format.test.ts'), UNIT_TEST);
  fs.writeFileSync(path.join(dir, 'test', 'content.test.ts'), STILL_FINE);
  // a test folder the tsconfig does not include (its runner transpiles it): found beside the tsconfig
  fs.mkdirSync(path.join(dir, 'tests'));
  fs.writeFileSync(path.join(dir, 'tests', 'outside.test.ts'), UNIT_TEST);
  fs.writeFileSync(path.join(dir, 'tests', 'outside-fine.spec.ts'), STILL_FINE);
  // the same test in a folder .gitignore covers: discovery's rules apply to the files beside the tsconfig too
  fs.mkdirSync(path.join(dir, 'generated'));
  fs.writeFileSync(path.join(dir, 'generated', 'outside.test.ts'), UNIT_TEST);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'generated/\n');
  result = await migrateProject(['src'], { cwd: dir });
}, 900_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('importers of changed files are typechecked and reported', () => {
  it('control: the tool is migrated and the module it imports is upgraded', () => {
    expect(file('src/server.ts')?.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(file('src/format.ts')?.output).toContain(`from '@modelcontextprotocol/server'`);
  });

  it('a unit test outside the migrated paths: its new error at its line, with the compiler message and the changed file it imports, not written', () => {
    const test = file('test/format.test.ts');
    expect(test, JSON.stringify(result.files.map((f) => f.path))).toBeDefined();
    expect(test!.status).toBe('flagged');
    expect(test!.output).toBeUndefined();
    expect(test!.original).toBe(UNIT_TEST);
    expect(test!.sites).toHaveLength(1);
    const [site] = test!.sites;
    expect(site).toMatchObject({ line: 5, method: 'type-error', status: 'flagged' });
    expect(site!.reason).toMatch(/^the migration changed src\/format\.ts, which this file imports, and this line no longer typechecks: TS2322: Type 'unknown' is not assignable to type 'string \| number \| undefined'/);
    expect(site!.snippet).toContain('result._meta?.progressToken');
    expect(site!.advice).toBe(IMPORTER_TYPE_ERROR_ADVICE);
  });

  it('a test file the tsconfig does not include is a file of the run: checked too, reported the same way, with a marker above the line', () => {
    const outside = file('tests/outside.test.ts');
    expect(outside, JSON.stringify(result.files.map((f) => f.path))).toBeDefined();
    expect(outside!.status).toBe('flagged');
    expect(outside!.sites.map((s) => [s.line, s.method])).toEqual([[5, 'type-error']]);
    expect(outside!.sites[0]!.reason).toMatch(/^the migration changed src\/format\.ts, which this file imports, and this line no longer typechecks: TS2322/);
    const lines = outside!.output!.split('\n');
    expect(lines[4]).toMatch(new RegExp(`^// ${TODO_MARKER}\\(the migration changed src/format\\.ts`));
    expect([...lines.slice(0, 4), ...lines.slice(5)].join('\n')).toBe(UNIT_TEST);
    expect(file('tests/outside-fine.spec.ts')?.sites ?? []).toEqual([]);
    expect(file('tests/outside-fine.spec.ts')?.output ?? STILL_FINE).toBe(STILL_FINE);
  });

  it('a gitignored test folder beside the tsconfig is not looked at (discovery rules)', () => {
    expect(file('generated/outside.test.ts')).toBeUndefined();
  });

  it('a file of the run the pre-filter kept aside is reported the same way, with a marker above the line and nothing else changed', () => {
    const report = file('src/report.ts');
    expect(report?.status).toBe('flagged');
    expect(report!.sites.map((s) => [s.line, s.method])).toEqual([[8, 'type-error']]);
    expect(report!.sites[0]!.advice).toBe(IMPORTER_TYPE_ERROR_ADVICE);
    const lines = report!.output!.split('\n');
    expect(lines[7]).toMatch(new RegExp(`^  // ${TODO_MARKER}\\(the migration changed src/format\\.ts, which this file imports, and this line no longer typechecks: TS2322`));
    expect([...lines.slice(0, 7), ...lines.slice(8)].join('\n')).toBe(REPORT);
  });

  it('an importer that still typechecks gets no entry; the flagged sites are counted', () => {
    expect(file('test/content.test.ts')).toBeUndefined();
    expect(result.summary.sitesFlagged).toBe(result.files.flatMap((f) => f.sites).filter((s) => s.status === 'flagged').length);
    expect(result.summary.sitesFlagged).toBeGreaterThanOrEqual(3);
  });
});
