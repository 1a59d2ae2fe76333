/**
 * A project's unit test calling the server's own prompts/get request handler with an empty context
 * (`_requestHandlers.get('prompts/get')`, then `handler(request, {})`) while the createMessage mock
 * it assigned on the server throws (`mockImplementation(async () => { throw ... })`): the v1 handler
 * rejected with the mock's error, and so does the migrated one, through the SDK's 2025-era legacy
 * shim, which sends the migrated handler's request with that mock and, when it fails, reads
 * `ctx.mcpReq.signal.aborted` before it answers the failure. The empty context becomes the first
 * round's context with a signal (`engine/test-mocks/protocol-handler-contexts.ts`): without one the
 * shim throws "Cannot read properties of undefined (reading 'aborted')" and the test sees that
 * TypeError instead of the failure (`fixtures/test-mocks/failing-leg`). The project is migrated by
 * the BUILT CLI, typechecked, and its tests run for real with vitest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, migrateProject, projectForFile, runProjectTests, typecheckProject, withBug } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/failing-leg');
const TEST_FILE = 'test/server.test.ts';
const FAILS = 'fails when the model fails';

interface Report {
  files: { path: string; notes?: string[]; sites: { line: number; method: string; status: string }[] }[];
}

const project = projectForFile(PROJECT, 'mcp-mrtr-failing-shim-leg-');

describe("a unit test whose mock fails the request the SDK's legacy shim sends for the migrated handler", () => {
  it('the tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 2, []);
  });

  it('after the migration the failing request reaches the test as its error, not as a TypeError of the shim', async () => {
    const { report } = await migrateProject<Report>(project.dir, 0);
    const server = report.files.find((f) => f.path.endsWith('src/server.ts'))!;
    expect(server.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['sampling/createMessage migrated']);
    const test = report.files.find((f) => f.path.endsWith(TEST_FILE))!;
    expect(test.notes?.some((n) => n.includes('whose 2025-era legacy shim reads ctx.mcpReq.signal when a request it sends fails'))).toBe(true);

    const migrated = fs.readFileSync(path.join(project.dir, TEST_FILE), 'utf8');
    expect(migrated).not.toContain(TODO_MARKER);
    expect(migrated).toContain("callAsClientOfServerMocks(server, handler!, { method: 'prompts/get', params: { name: 'brief', arguments: { topic: 'the sea' } } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } })).rejects.toThrow('model down');");

    const tsc = typecheckProject(project.dir, ['src', 'test']);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    expectTestOutcomes(project.dir, [], 2, []);
  });

  it("the error the test sees is the shim's answer to the failed request", () => {
    const testFile = path.join(project.dir, TEST_FILE);
    // the test reports the error it caught, whole (vitest abbreviates an assertion's received value)
    const reports = "await $1.catch((error: Error) => { throw new Error(`seen ${error.constructor.name}: ${error.message}`); });";
    withBug(testFile, /await expect\((callAsClientOfServerMocks\(.*\))\)\.rejects\.toThrow\('model down'\);/, reports, () => {
      const failure = runProjectTests(project.dir, [TEST_FILE]).find((o) => o.title === FAILS)!;
      expect(failure.status).toBe('failed');
      const message = failure.failureMessages!.join('\n');
      expect(message).toContain("seen ProtocolError: Fulfilling input required by 'prompts/get' failed: model down");
    });
  });
});
