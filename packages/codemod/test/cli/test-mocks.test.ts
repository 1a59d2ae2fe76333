import { describe, expect, it } from 'vitest';
import { addTestMockSites, scanTestMocks } from '../../src/report/test-mocks.js';

const vitestFile = `import { describe, expect, it, vi } from 'vitest';
import { createServer } from '../src/server.js';

describe('confirm', () => {
  it('deletes after confirmation', async () => {
    const server = createServer();
    vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'accept', content: { confirm: true } });
    const extra = {
      signal: new AbortController().signal,
      sendRequest: vi.fn().mockResolvedValue({ roots: [] }),
    };
    server.server.createMessage = vi.fn(async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } }));
    expect(await handler({}, extra)).toBeDefined();
  });
});
`;

describe('test-mock finder', () => {
  it('finds spies, mock functions and assigned fakes of legacy requests, with lines and kinds', () => {
    const { sites } = scanTestMocks('/p/test/confirm.test.ts', vitestFile);
    expect(sites.map((s) => [s.line, s.method, s.kind, s.status])).toEqual([
      [7, 'test-mock', 'elicitation', 'flagged'],
      [10, 'test-mock', undefined, 'flagged'],
      [12, 'test-mock', 'sampling', 'flagged'],
    ]);
    expect(sites[0]!.reason).toContain('elicitInput');
    expect(sites[0]!.advice).toContain('inputResponses');
  });

  it('puts a marker above each mock once (idempotent) and keeps indentation', () => {
    const first = scanTestMocks('/p/test/confirm.test.ts', vitestFile).output;
    expect(first).toContain("    // @mcp-mrtr-todo(test vi.spyOn for elicitInput [elicitation/create]: migrated handlers");
    expect(first).toMatch(/\n {6}\/\/ @mcp-mrtr-todo\(test mock function for sendRequest[^\n]*\n {6}sendRequest: vi\.fn/);
    expect(first.split('@mcp-mrtr-todo').length - 1).toBe(3);
    expect(scanTestMocks('/p/test/confirm.test.ts', first).output).toBe(first);
  });

  it('finds jest fakes written as methods and arrow functions', () => {
    const jestFile = `const extra = { async sendRequest() { return { action: 'accept' }; } };
const ctx = { mcpReq: { elicitInput: async () => ({ action: 'decline' }) } };
jest.spyOn(srv, 'listRoots');
`;
    expect(scanTestMocks('/p/__tests__/x.ts', jestFile).sites.map((s) => s.line)).toEqual([1, 2, 3]);
  });

  it('ignores non-test files, unrelated mocks and real calls', () => {
    expect(scanTestMocks('/p/src/server.ts', `const x = { sendRequest: async () => 1 };`).sites).toEqual([]);
    expect(scanTestMocks('/p/a.test.ts', `vi.spyOn(api, 'fetch'); const o = { send: vi.fn() }; await server.server.elicitInput({});`).sites).toEqual([]);
  });

  it('adds the sites to a result and counts them', () => {
    const result = addTestMockSites(
      { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [], packageJsonChanges: [] },
      ['/p/test/confirm.test.ts', '/p/src/a.ts'],
      (f) => (f.endsWith('.test.ts') ? vitestFile : 'export {};'),
    );
    expect(result.summary).toEqual({ sitesFound: 3, sitesMigrated: 0, sitesFlagged: 3, filesChanged: 1, filesFailed: 0 });
    expect(result.files.map((f) => [f.path, f.status])).toEqual([['/p/test/confirm.test.ts', 'flagged']]);
  });
});
