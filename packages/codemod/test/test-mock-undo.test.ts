/**
 * A test-mock rewrite that does not typecheck is undone: a fake context typed by the test's own
 * type (`const extra: Fake = { requestId: 'r1', sendNotification }`) reshaped to the v2 context no longer fits
 * that type. The importers check finds the new error, the test file goes back to its text before
 * the test-mock stage with a note saying why, and no type-error is left in it: the project
 * compiles after the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { migrateProject } from './shared-library-files.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer() {
  const server = new McpServer({ name: 'undo', version: '1.0.0' });
  server.registerTool('confirm', { description: 'Asks first' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

const TEST = `import { vi } from 'vitest';
import { createServer } from './server.js';

type Fake = { requestId: string; sendNotification: (notification: unknown) => Promise<void> };

export function callWith(handler: (args: object, extra: Fake) => Promise<unknown>): Promise<unknown> {
  const extra: Fake = { requestId: 'r1', sendNotification: vi.fn(async () => {}) };
  void createServer;
  return handler({}, extra);
}
`;

let dir: string;
let result: MigrationResult;
const file = (rel: string) => result.files.find((f) => f.path === path.join(dir, rel));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-test-mock-undo-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'undo', type: 'module' }));
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), SERVER);
  fs.writeFileSync(path.join(dir, 'src', 'confirm.test.ts'), TEST);
  result = await migrateProject(['src'], { cwd: dir });
  for (const f of result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a test-mock rewrite that does not typecheck', () => {
  it('control: the handler the fake is for is migrated', () => {
    expect(file('src/server.ts')?.sites.map((s) => s.status)).toEqual(['migrated']);
  });

  it('is undone: the test keeps its text, with a note giving the compiler error of the rewrite, and no type-error site', () => {
    const test = file('src/confirm.test.ts')!;
    expect(test.output ?? test.original).toBe(TEST);
    expect(test.notes?.join('\n')).toMatch(/the test-mock rewrite of this file was undone: the rewritten test did not typecheck \(1 new error\(s\), the first at line 7: TS2353/);
    expect(test.sites.filter((s) => s.method === 'type-error')).toEqual([]);
  });

  it('the project compiles after the run', () => {
    const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json') });
    const errors = project.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error);
    expect(errors.map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, ' ')}`)).toEqual([]);
  });
});
