import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testMocksStage } from '../../src/run/test-mocks.js';
import type { FileResult } from '../../src/types.js';
import type { RunEnv } from '../../src/run/state.js';
import { ROOT } from './helpers.js';

const TEST_FILE = `import { expect, it, vi } from 'vitest';
import { createServer } from '../src/server.js';

it('asks', async () => {
  const server = createServer();
  vi.spyOn(server.server, 'elicitInput').mockImplementation(async (params) => ({ action: params.message ? 'accept' : 'decline' }));
  expect(server).toBeDefined();
});
`;
const testPath = path.join(ROOT, 'test/ask.test.ts');
const server = (status: 'migrated' | 'flagged'): FileResult => ({ path: path.join(ROOT, 'src/server.ts'), status: 'changed', sites: [{ line: 6, column: 5, method: 'elicitation/create', status }] });

function run(env: Partial<RunEnv>, serverStatus: 'migrated' | 'flagged'): Map<string, FileResult> {
  // the test file was left out of the run's project: reported unchanged, with no text
  const results = new Map<string, FileResult>([
    [server(serverStatus).path, server(serverStatus)],
    [testPath, { path: testPath, status: 'unchanged', sites: [] }],
  ]);
  testMocksStage({ env: { manifests: true, ...env }, results });
  return results;
}

describe('test-mock stage', () => {
  it('flags a mock of a request the run migrated, in a test file it reads again, with a marker', () => {
    const results = run({ testMocks: { read: (f) => (f === testPath ? TEST_FILE : undefined) } }, 'migrated');
    const test = results.get(testPath)!;
    expect(test.status).toBe('flagged');
    expect(test.sites.map((s) => [s.line, s.method, s.status])).toEqual([[6, 'test-mock', 'flagged']]);
    expect(test.original).toBe(TEST_FILE);
    expect(test.output).toContain('// @mcp-mrtr-todo(test vi.spyOn for elicitInput');
  });

  it('leaves mocks of requests still sent alone, and does nothing when the run does not ask for it', () => {
    const read = (f: string) => (f === testPath ? TEST_FILE : undefined);
    expect(run({ testMocks: { read } }, 'flagged').get(testPath)).toEqual({ path: testPath, status: 'unchanged', sites: [] });
    expect(run({}, 'migrated').get(testPath)).toEqual({ path: testPath, status: 'unchanged', sites: [] });
  });
});
