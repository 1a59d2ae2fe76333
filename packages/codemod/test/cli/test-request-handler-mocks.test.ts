/**
 * A project's unit tests that assign mocks on a low-level server's request methods
 * (`srv.createMessage = vi.fn()...`, `server.listRoots = vi.fn()...`) and call the server's own
 * tools/call request handler (`_requestHandlers.get('tools/call')`) on a server no client
 * initialized still pass after the migration: the SDK's legacy shim behind that handler answers the
 * migrated handler's input_required with those mocks once the helper of
 * `engine/test-mocks/shim-answered-calls.ts` has initialized the server as a 2025-era client
 * declaring their capabilities (`fixtures/test-mocks/request-handler-mocks`: a mock assigned through
 * a same-file function given the server, one assigned directly, a tool that asks nothing, and a
 * rejecting mock, which stays flagged: the legacy handler saw its error, the migrated one never
 * does). The project is migrated by the BUILT CLI and its tests run for real with vitest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, withBug } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/request-handler-mocks');
const TEST_FILE = 'test/server.test.ts';

interface Report {
  files: { path: string; notes?: string[]; sites: { line: number; method: string; status: string }[] }[];
}

const project = projectForFile(PROJECT, 'mcp-mrtr-request-handler-mocks-');

describe('unit tests assigning mocks on the server whose own request handler they call', () => {
  it('the tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 4, []);
  });

  it('migrate routes the calls through the initializing helper, and only the rejection test fails against the migrated server', async () => {
    const { report } = await migrateProject<Report>(project.dir, 1); // the rejecting mock is flagged
    const server = report.files.find((f) => f.path.endsWith('src/server.ts'))!;
    expect(server.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['sampling/createMessage migrated', 'roots/list migrated']);
    const test = report.files.find((f) => f.path.endsWith(TEST_FILE))!;
    // the assigned mocks answer through the shim: rewritten, not flagged
    expect(test.sites.map((s) => `${s.line} ${s.method} ${s.status}`)).toEqual(['14 test-mock migrated', '37 test-mock migrated', '44 test-mock flagged']);
    expect(test.notes?.filter((n) => n.includes('the call goes through callAsClientOfServerMocks'))).toHaveLength(2);

    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    expect(migrated.split('\n').filter((l) => l.includes(TODO_MARKER))).toHaveLength(1);
    expect(migrated).toContain("await callAsClientOfServerMocks(server, handler!, { method: 'tools/call', params: { name: 'save_note', arguments: { text: 'milk' } } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } });");
    // the tool that asks nothing keeps its call
    expect(migrated).toContain("await callTool(server)({ method: 'tools/call', params: { name: 'count_words'");

    expectTestOutcomes(project.dir, [], 4, ['fails when the model fails']);
  });

  it('the tests still test the migrated handler: a bug in it fails them; without the helper the shim refuses', () => {
    const serverFile = path.join(project.dir, 'src/server.ts');
    withBug(serverFile, /`A title for: \$\{text\}`/, '`A title: ${text}`', () => {
      expect(failingTests(runProjectTests(project.dir, [TEST_FILE]))).toEqual(['fails when the model fails', 'titles a saved note with the client model']);
    });
    const testFile = path.join(project.dir, TEST_FILE);
    withBug(testFile, /callAsClientOfServerMocks\(server, handler!, /g, 'handler!(', () => {
      const outcomes = runProjectTests(project.dir, [TEST_FILE]);
      expect(failingTests(outcomes)).toEqual(['fails when the model fails', 'lists the folders the client shares', 'titles a saved note with the client model']);
      expect(outcomes.find((o) => o.title === 'titles a saved note with the client model')!.failureMessages!.join('\n')).toContain('Cannot request input');
    });
  });
});
