/**
 * The rewritten unit tests still test the server. A legacy v1 project (`fixtures/test-mocks/project`:
 * a server whose tools elicit, sample and list roots, its vitest tests that spy on `elicitInput` /
 * `createMessage` / `listRoots`, and one test that calls a handler with a fake `extra`) is migrated
 * by the BUILT CLI; then the project's own tests run for real with vitest (a subprocess) against the
 * migrated server: the rewritten ones pass, the flagged one is only marked. Deliberate bugs in the
 * migrated handler make the rewritten tests fail, so they still test something.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, typecheckProject, withBug } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/project');

/** A test the rewrite's answer form is written for, on a 2026-07-28 client (no legacy shim involved). */
const ERA_2026_TEST = `import { expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServer, trash } from '../src/server.js';

it('deletes after confirmation on 2026-07-28', async () => {
  const handler = createMcpHandler(createServer);
  const confirm = vi.fn().mockResolvedValue({ action: 'accept', content: { confirm: true } });
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler('elicitation/create', (request) => confirm(request.params));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: (u, i) => handler.fetch(new Request(u, i)) }));
  const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/z.txt' } });
  expect(result.content).toEqual([{ type: 'text', text: 'Deleted /tmp/z.txt' }]);
  expect(trash).toContain('/tmp/z.txt');
  expect(confirm).toHaveBeenCalledTimes(1);
});
`;

const project = projectForFile(PROJECT, 'mcp-mrtr-tested-');

describe('unit tests that mock legacy requests, migrated with the server', () => {
  it('the legacy tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 7, []);
  });

  it('migrate rewrites the five mechanical spies, flags the fake extra, and the rewritten tests pass against the migrated server', async () => {
    const { report } = await migrateProject<{ files: { path: string; sites: { line: number; method: string; status: string; reason?: string }[] }[] }>(project.dir, 1); // one flagged site left
    const mocks = report.files.flatMap((f) => f.sites.filter((s) => s.method === 'test-mock').map((s) => ({ file: path.basename(f.path), line: s.line, status: s.status })));
    expect(mocks).toEqual([
      { file: 'handler.test.ts', line: 6, status: 'flagged' },
      { file: 'tools.test.ts', line: 17, status: 'migrated' },
      { file: 'tools.test.ts', line: 30, status: 'migrated' },
      { file: 'tools.test.ts', line: 44, status: 'migrated' },
      { file: 'tools.test.ts', line: 53, status: 'migrated' },
      { file: 'tools.test.ts', line: 66, status: 'migrated' },
    ]);
    const migrated = fs.readFileSync(path.join(project.dir, 'test/tools.test.ts'), 'utf8');
    expect(migrated).not.toContain('spyOn');
    expect(migrated).not.toContain(TODO_MARKER);

    // The flagged file: byte-identical apart from the marker line.
    const handlerTest = fs.readFileSync(path.join(project.dir, 'test/handler.test.ts'), 'utf8');
    const markerLines = handlerTest.split('\n').filter((l) => l.includes(TODO_MARKER));
    expect(markerLines).toHaveLength(1);
    expect(handlerTest.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(fs.readFileSync(path.join(PROJECT, 'test/handler.test.ts'), 'utf8'));

    expectTestOutcomes(project.dir, ['test/tools.test.ts'], 6, []);
    // The flagged test is what the report says: it no longer works against the migrated handler.
    const direct = runProjectTests(project.dir, ['test/handler.test.ts']);
    expect(failingTests(direct)).toEqual(['thanks for the rating']);
    expect(direct[0]!.failureMessages!.join('\n')).toMatch(/TypeError: Cannot read properties of undefined \(reading 'inputResponses'\)/);
  });

  it('the rewritten test file typechecks (tsc --strict) against the migrated server', () => {
    const run = typecheckProject(project.dir, ['src', 'test/tools.test.ts']);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a migrated handler that stops asking fails the rewritten tests', () => {
    // never asking, the handler reads the action of an answer it never got: every test that answers fails
    withBug(path.join(project.dir, 'src/server.ts'), /if \(confirmation === undefined\) \{/, 'if (false) {', () => {
      expect(failingTests(runProjectTests(project.dir, ['test/tools.test.ts']))).toEqual(['deletes after confirmation', 'keeps the file on decline', 'keeps the file when the user unticks the box']);
    });
  });

  it('a migrated handler that ignores the answer fails the rewritten tests', () => {
    withBug(path.join(project.dir, 'src/server.ts'), /confirmation\.content\?\.confirm !== true/, 'false', () => {
      expect(failingTests(runProjectTests(project.dir, ['test/tools.test.ts']))).toEqual(['keeps the file when the user unticks the box']);
    });
  });

  it('the answer form of the rewrite also drives the migrated server on a 2026-07-28 client', () => {
    fs.writeFileSync(path.join(project.dir, 'test/era-2026.test.ts'), ERA_2026_TEST);
    expect(runProjectTests(project.dir, ['test/era-2026.test.ts'])).toEqual([{ title: 'deletes after confirmation on 2026-07-28', status: 'passed' }]);
    withBug(path.join(project.dir, 'src/server.ts'), /if \(confirmation === undefined\) \{/, 'if (false) {', () => {
      expect(failingTests(runProjectTests(project.dir, ['test/era-2026.test.ts']))).toEqual(['deletes after confirmation on 2026-07-28']);
    });
  });
});
