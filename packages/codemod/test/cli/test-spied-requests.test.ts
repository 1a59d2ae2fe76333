/**
 * A project's unit tests that spy on the request method of the server a handler was registered on
 * (`vi.spyOn(server.server, 'createMessage').mockResolvedValue(...)`) and call that handler, taken
 * from the server's private `_registeredTools`, without a context still pass after the migration:
 * the call goes through the helper of `engine/test-mocks/spy-answers.ts`, which answers the migrated
 * handler's inputRequests with the spy (called with the request's params), opens the sealed
 * requestState with the generated codec (its key set by the generated test setup file) and retries.
 * `fixtures/test-mocks/spied-requests`: a phased handler (an audit line before the request, carried
 * in the state), a write-once one, a spy with a rejection (not a fixed answer: flagged). The project
 * is migrated by the BUILT CLI and its tests run for real with vitest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, withBug } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/spied-requests');
const TEST_FILE = 'src/tools.test.ts';

interface Report {
  files: { path: string; notes?: string[]; sites: { line: number; method: string; status: string; reason?: string }[] }[];
}

const project = projectForFile(PROJECT, 'mcp-mrtr-spied-requests-');

describe('unit tests spying on the request methods of the server a handler was taken from', () => {
  it('the tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('migrate drives the calls with the spies, and only the test of a rejection fails against the migrated handlers', async () => {
    const { report } = await migrateProject<Report>(project.dir, 1); // the rejecting spy is flagged
    const tools = report.files.find((f) => f.path.endsWith('src/tools.ts'))!;
    expect(tools.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['sampling/createMessage migrated', 'elicitation/create migrated']);
    const test = report.files.find((f) => f.path.endsWith(TEST_FILE))!;
    // the spies answering a driven call are that call's rewrite; the rejecting one is flagged
    expect(test.sites.filter((s) => s.method === 'test-mock').map((s) => `${s.line} ${s.status}`)).toEqual(['23 migrated', '37 migrated', '60 flagged', '76 migrated']);
    expect(test.sites.find((s) => s.line === 60)!.reason).toMatch(/not rewritten: \.mockRejectedValue\(\.\.\.\) is not a fixed answer/);
    expect(test.notes?.filter((n) => n.includes('the call goes through callAnsweringFromServerMocks'))).toHaveLength(3);

    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    expect(migrated).toContain("import { requestStateCodec } from './mcp-request-state.js';");
    expect(migrated).toContain("await callAnsweringFromServerMocks(handler, { threadId: 't1', intent: 'accept' }, server.server, requestStateCodec.verify)");
    expect(migrated.split('\n').filter((l) => l.includes(TODO_MARKER))).toHaveLength(1);
    // the handler carries state between its rounds: the test reads it back through the codec
    expect(fs.readFileSync(path.join(project.dir, 'src/tools.ts'), 'utf8')).toContain('requestStateCodec.mint(');

    expectTestOutcomes(project.dir, [], 5, ['fails when the model fails']);
  });

  it('the driven tests still test the migrated handler: a bug in it fails them', () => {
    const tools = path.join(project.dir, 'src/tools.ts');
    // the answer read on the retry
    withBug(tools, /`Draft: \$\{reply\.content\.text\}`/, '`Draft: ${reply.model}`', () => {
      expect(failingTests(runProjectTests(project.dir, [TEST_FILE]))).toEqual(['drafts with the client model', 'fails when the model fails']);
    });
    // the request's params the spy is called with
    withBug(tools, /that says: \$\{intent\}/, 'that says: ${threadId}', () => {
      expect(failingTests(runProjectTests(project.dir, [TEST_FILE]))).toEqual(['asks the model once, with the intent in the prompt', 'fails when the model fails']);
    });
  });
});
