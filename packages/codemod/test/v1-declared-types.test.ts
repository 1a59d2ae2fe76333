/**
 * Reads of a result property that v2 declares wider than v1 (`CallToolResult.structuredContent`:
 * `unknown`, v1 an object; `Tool.outputSchema`: its `properties` `unknown`) are asserted back to
 * v1's declared type where they no longer compile: in a file of the run (the upgrade's repair), and
 * in a unit test outside the run's paths that the tsconfig holds (the importers check's repair,
 * written, and listed as outside the given paths with why). A v2 change the repair does not cover
 * (`_meta.progressToken`) stays reported at its line. A v1 project without the v2 packages
 * installed (under the system temp directory: Node's lookup cannot reach the repository's v2), the
 * outputs written and checked by the real tsc after installing v2; the emitted JavaScript of each
 * repaired file is the original's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateProject } from './shared-library-files.js';
import { formatTextReport } from '../src/report/text.js';
import { toJsonReport } from '../src/report/json.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';
import { validateJsonReport } from './cli/schemas.js';
import { CHILD_PROCESS_TIMEOUT_MS } from './child-timeouts.js';

const REPO_MODULES = path.resolve(TEST_DIR, '../../../node_modules');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src', 'test'] };

const FORMAT = `import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

export function summary(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { metadata: { length: text.length } } };
}

export function listed(): Tool[] {
  return [{ name: 'summary', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { metadata: { type: 'object' } } } }];
}

// in the run: the upgrade's own repair
export function metadataOf(result: CallToolResult): unknown {
  return result.structuredContent?.metadata;
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { summary } from './format.js';

export function createServer() {
  const server = new McpServer({ name: 'reads', version: '1.0.0' });
  server.registerTool('confirm', { description: 'Asks first' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } } });
    return summary(answer.action);
  });
  return server;
}
`;

// outside the run's paths (src), held by the tsconfig (test)
const UNIT_TEST = `import { listed, summary } from '../src/format.js';

const result = summary('abc');
export const metadata = result.structuredContent?.metadata;
export const { metadata: again } = result.structuredContent!;
const record = (value: Record<string, unknown> | undefined) => value;
export const passed = record(result.structuredContent);
export const schema = listed()[0]!.outputSchema?.properties?.metadata;
export const token: string | number | undefined = result._meta?.progressToken;
`;

const SC = '{ [key: string]: unknown } | undefined';
const OS = "{ [key: string]: unknown; type: 'object'; properties?: { [key: string]: object }; required?: string[] } | undefined";
const REPAIRED_TEST = `import { listed, summary } from '../src/format.js';

const result = summary('abc');
export const metadata = (result.structuredContent as ${SC})?.metadata;
export const { metadata: again } = (result.structuredContent as ${SC})!;
const record = (value: Record<string, unknown> | undefined) => value;
export const passed = record((result.structuredContent as ${SC}));
export const schema = (listed()[0]!.outputSchema as ${OS})?.properties?.metadata;
export const token: string | number | undefined = result._meta?.progressToken;
`;

let dir: string;
let result: MigrationResult;
const file = (rel: string) => result.files.find((f) => f.path === path.join(dir, rel));

function link(name: string): void {
  const target = path.join(dir, 'node_modules', name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(path.join(REPO_MODULES, name), target, 'dir');
}

function tsc(): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [path.join(REPO_MODULES, 'typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const emitted = (text: string) => ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;

let tscBefore: ReturnType<typeof tsc>;
let tscAfter: ReturnType<typeof tsc>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-v1-types-'));
  for (const [rel, text] of Object.entries({ 'src/format.ts': FORMAT, 'src/server.ts': SERVER, 'test/format.test.ts': UNIT_TEST, 'tsconfig.json': JSON.stringify(TSCONFIG) })) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'reads', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } }));
  for (const name of ['@modelcontextprotocol/sdk', 'zod', '@types/node']) link(name);
  tscBefore = tsc();
  result = await migrateProject(['src'], { cwd: dir });
  for (const f of result.files) if (f.output !== undefined && f.output !== f.original) fs.writeFileSync(f.path, f.output);
  // the user's next step: install v2, then typecheck
  link('@modelcontextprotocol/server');
  tscAfter = tsc();
}, 900_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reads of a result property v2 declares wider than v1', () => {
  it('control: the project compiled before; the tool is migrated and the module the test imports is upgraded', () => {
    expect(tscBefore.status, tscBefore.output).toBe(0);
    expect(file('src/server.ts')?.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(file('src/format.ts')?.output).toContain(`from '@modelcontextprotocol/server'`);
  });

  it('a file of the run: the upgrade asserts v1 type on the read, with a note', () => {
    const format = file('src/format.ts')!;
    expect(format.output).toContain(`return (result.structuredContent as ${SC})?.metadata;`);
    expect(format.notes).toContainEqual(expect.stringMatching(/^13: 'result\.structuredContent' is typed wider by v2 than v1 declared it: read as v1's type/));
    expect(format.sites).toEqual([]);
  });

  it('a test outside the run held by the tsconfig: each broken read repaired, written, and listed as outside the given paths with why', () => {
    const test = file('test/format.test.ts')!;
    expect(test.status).toBe('changed');
    expect(test.output).toBe(REPAIRED_TEST);
    expect(test.outsidePaths).toMatch(/^tsconfig\.json holds this file and the migration's v2 types broke 4 read\(s\) of a result in it: each asserted back to v1's declared type/);
    expect(test.notes?.map((n) => n.split(':')[0])).toEqual(['4', '5', '7', '8']);
  });

  it('the v2 change no repair covers stays reported at its line', () => {
    const test = file('test/format.test.ts')!;
    expect(test.sites.map((s) => [s.line, s.method, s.status])).toEqual([[9, 'type-error', 'flagged']]);
    expect(test.sites[0]!.reason).toMatch(/TS2322/);
  });

  it('the real tsc with v2 installed: only that line fails', () => {
    const errors = tscAfter.output.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors, tscAfter.output).toHaveLength(1);
    expect(errors[0]).toMatch(/\btest\/format\.test\.ts\(9,\d+\): error TS2322/);
  });

  it('no runtime change: the emitted JavaScript of each repaired file is the original one', () => {
    expect(emitted(file('test/format.test.ts')!.output!)).toBe(emitted(UNIT_TEST));
    expect(emitted(file('src/format.ts')!.output!)).toBe(emitted(FORMAT));
  });

  it('the reports list the file outside the given paths with why, dry run included', () => {
    const text = formatTextReport(result, { cwd: dir, command: 'migrate', dryRun: true, paths: ['src'] });
    expect(text).toMatch(/Files that would change \(\d+\):[^]*\n {2}test\/format\.test\.ts {2}\(outside the given paths: tsconfig\.json holds this file/);
    const json = toJsonReport(result, { cwd: dir, command: 'migrate', dryRun: true });
    expect(json.files.find((f) => f.path === 'test/format.test.ts')?.outsidePaths).toBe(file('test/format.test.ts')!.outsidePaths);
    expect(validateJsonReport(json), JSON.stringify(validateJsonReport.errors)).toBe(true);
  });
});
