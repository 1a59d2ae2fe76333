/**
 * A project's unit test whose mock on the server fails the sampling request (`srv.createMessage =
 * vi.fn().mockRejectedValue(...)`, a client that cannot be asked) and whose handler's catch falls
 * back still passes after the migration, for the reason it passed before: its call of the server's
 * own tools/call request handler goes through the helper of `engine/test-mocks/shim-answered-calls.ts`
 * that initializes the server as a 2025-era client not declaring sampling, and the migrated
 * capability check fails into that catch. A client that declares sampling and fails the request now
 * fails the call (the request site's note says so; shown here by declaring it). Failing mocks stay
 * flagged, with why, where that is not so: a test that reads the mock (it is no longer called), and
 * a request no catch takes the failure of (`fixtures/test-mocks/failing-sampling`). The project is
 * migrated by the BUILT CLI and its tests run for real with vitest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, withBug } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/failing-sampling');
const TEST_FILE = 'test/server.test.ts';
const FALLBACK = 'keeps the default title when the client cannot be asked';
const READS_MOCK = 'asks the model once before keeping the default title';
const NO_CATCH = 'fails when the client cannot list its folders';

interface Report {
  files: { path: string; notes?: string[]; sites: { line: number; method: string; status: string; reason?: string }[] }[];
}

const project = projectForFile(PROJECT, 'mcp-mrtr-failing-sampling-');

describe('unit tests whose mock on the server fails the request', () => {
  it('the tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('migrate drives the failing mock under a catch as a client not declaring sampling; the two it cannot drive are flagged and fail', async () => {
    const { report } = await migrateProject<Report>(project.dir, 1);
    const server = report.files.find((f) => f.path.endsWith('src/server.ts'))!;
    expect(server.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['sampling/createMessage migrated', 'roots/list migrated']);
    expect(server.sites[0]!.reason).toContain('a client that fails to answer now fails the call instead of reaching the catch (line 22)');
    const test = report.files.find((f) => f.path.endsWith(TEST_FILE))!;
    expect(test.sites.map((s) => `${s.line} ${s.method} ${s.status}`)).toEqual(['20 test-mock migrated', '28 test-mock migrated', '36 test-mock flagged', '44 test-mock flagged']);
    const [, driven, readsMock, noCatch] = test.sites;
    expect(driven!.reason).toContain('first initializes the server as a 2025-era client that does not declare sampling, for which the migrated capability check fails into that catch');
    expect(driven!.reason).toContain('a client that declares sampling and fails the request now fails the call');
    expect(readsMock!.reason).toContain('the mock is never called, and the test reads createMessage (line 40)');
    expect(noCatch!.reason).toContain('not every migrated roots/list request fails for such a client, where its legacy failure went, into a catch that does not read the error');
    expect(test.notes?.filter((n) => n.includes('the call goes through callAsClientOfServerMocksWithout'))).toHaveLength(1);

    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    expect(migrated.split('\n').filter((l) => l.includes(TODO_MARKER))).toHaveLength(2);
    expect(migrated).toContain("await callAsClientOfServerMocksWithout(server, ['createMessage'], handler!, { method: 'tools/call', params: { name: 'save_note', arguments: { text: 'milk' } } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } });");

    expectTestOutcomes(project.dir, [], 5, [READS_MOCK, NO_CATCH]);
  });

  it("the driven test tests the migrated handler's fallback; as a client declaring sampling the failure fails the call", () => {
    const serverFile = path.join(project.dir, 'src/server.ts');
    withBug(serverFile, /let title = 'Untitled';/, "let title = 'Untitled!';", () => {
      expect(failingTests(runProjectTests(project.dir, [TEST_FILE]))).toEqual([READS_MOCK, NO_CATCH, FALLBACK].sort());
    });
    const testFile = path.join(project.dir, TEST_FILE);
    // declaring sampling, with the abort signal a connection's context has (the shim reads it when a leg fails)
    const declaring = "callAsClientOfServerMocks(server, handler!, { method: 'tools/call', params: { name: 'save_note', arguments: { text: 'milk' } } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } })";
    withBug(testFile, /callAsClientOfServerMocksWithout\(server, \['createMessage'\], handler!, .*\}\)(?=;)/, declaring, () => {
      const outcomes = runProjectTests(project.dir, [TEST_FILE]);
      expect(failingTests(outcomes)).toEqual([READS_MOCK, NO_CATCH, FALLBACK].sort());
      expect(outcomes.find((o) => o.title === FALLBACK)!.failureMessages!.join('\n')).toContain("expected 'Fulfilling input required by"); // the shim's result for a failed leg (vitest abbreviates the rest)
    });
  });
});
