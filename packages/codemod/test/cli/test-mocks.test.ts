import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import type { LegacyMethod } from '@mcp-mrtr/surface';
import { scanTestMocks } from '../../src/engine/test-mocks/index.js';
import { addTestMockSites } from '../../src/run/test-mocks.js';
import type { FileResult } from '../../src/types.js';

/** A server file of the run in which the given requests were migrated. */
function migratedSource(...methods: LegacyMethod[]): FileResult {
  return { path: '/p/src/server.ts', status: 'changed', sites: methods.map((method, i) => ({ line: i + 1, column: 1, method, status: 'migrated' as const })) };
}

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
    expect(first).toContain("    // @mcp-mrtr-todo(test vi.spyOn for elicitInput (elicitation/create): migrated handlers");
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

  it('adds the sites to a result and counts every site of the result again (the migrated server sites too)', () => {
    const result = addTestMockSites(
      { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [migratedSource('elicitation/create', 'sampling/createMessage')], packageJsonChanges: [] },
      ['/p/test/confirm.test.ts', '/p/src/a.ts'],
      (f) => (f.endsWith('.test.ts') ? vitestFile : 'export {};'),
    );
    expect(result.summary).toEqual({ sitesFound: 5, sitesMigrated: 2, sitesFlagged: 3, filesChanged: 1, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
    expect(result.files.map((f) => [f.path, f.status])).toEqual([['/p/src/server.ts', 'changed'], ['/p/test/confirm.test.ts', 'flagged']]);
  });

  it('reports only mocks of requests the run migrated: a mock of a request still sent keeps working', () => {
    const none = addTestMockSites(
      { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [], packageJsonChanges: [] },
      ['/p/test/confirm.test.ts'],
      () => vitestFile,
    );
    expect(none.summary).toEqual({ sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
    expect(none.files).toEqual([]);
    const samplingOnly = addTestMockSites(
      { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [migratedSource('sampling/createMessage')], packageJsonChanges: [] },
      ['/p/test/confirm.test.ts'],
      (f) => (f.endsWith('.test.ts') ? vitestFile : 'export {};'),
    );
    const testFile = samplingOnly.files.find((f) => f.path === '/p/test/confirm.test.ts')!;
    // the elicitInput spy (line 7) is left alone; the generic sendRequest fake and the createMessage fake are reported
    expect(testFile.sites.map((s) => [s.line, s.kind])).toEqual([[10, undefined], [12, 'sampling']]);
    expect(testFile.output!.split('\n').filter((l) => !l.includes('@mcp-mrtr-todo')).join('\n')).toBe(vitestFile);
    expect(testFile.output!.split('@mcp-mrtr-todo').length - 1).toBe(2);
  });
});

const v2Head = `import { expect, it, vi } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createServer } from '../src/server.js';
`;

function inlineTest(spy: string, after = ''): string {
  return `${v2Head}
it('asks', async () => {
  const server = createServer();
  ${spy}
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  await client.callTool({ name: 'delete_file', arguments: {} });
  ${after}
});
`;
}

describe('test-mock rewrite into client answers', () => {
  it('rewrites a fixed-answer spy in a test that builds its client: fn() mock, declared capability, answer handler', () => {
    const text = inlineTest(`const ask = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });`, 'expect(ask).toHaveBeenCalledTimes(1);');
    const { sites, output } = scanTestMocks('/p/test/a.test.ts', text);
    expect(sites.map((s) => [s.line, s.status])).toEqual([[7, 'migrated']]);
    expect(sites[0]!.reason).toMatch(/rewritten: the fixed answer now comes from the test client's elicitation\/create handler/);
    expect(output).toContain(`const ask = vi.fn().mockResolvedValue({ action: 'decline' });`);
    expect(output).toContain(`const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {}, url: {} } } });\n  client.setRequestHandler('elicitation/create', (request) => ask(request.params));\n`);
    expect(output).not.toContain('@mcp-mrtr-todo');
    expect(scanTestMocks('/p/test/a.test.ts', output)).toEqual({ sites: [], output });
  });

  it('names an unbound spy without clashing with names in the file', () => {
    const text = inlineTest(`const elicitInputAnswer = 1; vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'cancel' });`);
    const { output } = scanTestMocks('/p/test/a.test.ts', text);
    expect(output).toContain(`const elicitInputAnswer2 = vi.fn().mockResolvedValue({ action: 'cancel' });`);
    expect(output).toContain(`(request) => elicitInputAnswer2(request.params)`);
  });

  it('takes mockReturnValue(Promise.resolve(x)) and chained Once answers as fixed answers', () => {
    const text = inlineTest(`vi.spyOn(server.server, 'createMessage').mockReturnValueOnce(Promise.resolve(a)).mockResolvedValue(b);`);
    const { sites, output } = scanTestMocks('/p/test/a.test.ts', text);
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('const createMessageAnswer = vi.fn().mockReturnValueOnce(Promise.resolve(a)).mockResolvedValue(b);');
  });

  it('with rewrite off, or for shapes that are not mechanical, only marks (file otherwise byte-identical)', () => {
    const mechanical = inlineTest(`vi.spyOn(server.server, 'listRoots').mockResolvedValue({ roots: [] });`);
    const marked = scanTestMocks('/p/test/a.test.ts', mechanical, { rewrite: false });
    expect(marked.sites.map((s) => s.status)).toEqual(['flagged']);
    const notMechanical = [
      [inlineTest(`const ask = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });`, 'expect(ask.mock.calls[0]).toBeDefined();'), 'used beyond call counting'],
      [inlineTest(`vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' }).mockName('x');`), '.mockName(...) is not a fixed answer'],
      [inlineTest(`const [ask] = [vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' })];`), 'inside a larger expression'],
      [inlineTest(`vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });`, `client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' }));`), 'already registers'],
      [inlineTest(`vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' }); vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'cancel' });`), 'more than one elicitInput mock'],
      [mechanical.replace("from '@modelcontextprotocol/client'", "from './my-client.js'"), 'does not import Client from @modelcontextprotocol/client'],
    ] as const;
    for (const [text, why] of notMechanical) {
      const { sites, output } = scanTestMocks('/p/test/a.test.ts', text);
      expect(sites.every((s) => s.status === 'flagged'), why).toBe(true);
      expect(sites.some((s) => s.reason!.includes(why)), `${why}: ${sites.map((s) => s.reason).join(' | ')}`).toBe(true);
      expect(output.split('\n').filter((l) => !l.includes('@mcp-mrtr-todo')).join('\n')).toBe(text);
    }
  });

  it('rewrites through a same-file helper only when the test passes it the spied server and every parameter', () => {
    const helper = `${v2Head}
async function connect(server: ReturnType<typeof createServer>, name = 't') {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name, version: '1' });
  await client.connect(a);
  return client;
}
`;
    const ok = `${helper}
it('asks', async () => {
  const server = createServer();
  const ask = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });
  const client = await connect(server, 'x');
  await client.callTool({ name: 'delete_file', arguments: {} });
  expect(ask).toHaveBeenCalledOnce();
});
`;
    const { sites, output } = scanTestMocks('/p/test/h.test.ts', ok);
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain(`async function connect(server: ReturnType<typeof createServer>, name = 't', answers: InputAnswers = {}) {`);
    expect(output).toContain(`const client = await connect(server, 'x', { 'elicitation/create': ask });`);
    expect(output).toContain(`import { Client, InMemoryTransport, type RequestTypeMap, type ResultTypeMap } from '@modelcontextprotocol/client';`);

    const otherServer = ok.replace(`connect(server, 'x')`, `connect(createServer(), 'x')`);
    expect(scanTestMocks('/p/test/h.test.ts', otherServer).sites[0]!.reason).toContain('does not pass the spied server (server)');
    const defaulted = ok.replace(`connect(server, 'x')`, `connect(server)`);
    expect(scanTestMocks('/p/test/h.test.ts', defaulted).sites[0]!.reason).toContain('does not pass every parameter');
  });

  it('never moves an answer out of its scope or before its declaration', () => {
    const nested = inlineTest(`if (server) { vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' }); }`);
    expect(scanTestMocks('/p/test/a.test.ts', nested).sites[0]!.reason).toContain('in a block that does not contain the client');
    const helperFirst = `${v2Head}
const connect = async server => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  return client;
};
it('asks', async () => {
  const server = createServer();
  const client = await connect(server);
  const ask = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });
  await client.callTool({ name: 'delete_file', arguments: {} });
  expect(ask).toHaveBeenCalled();
});
`;
    expect(scanTestMocks('/p/test/h.test.js', helperFirst).sites[0]!.reason).toContain('set up after the helper connects the client');
    // Spy first: rewritten, and the parenthesis-less arrow helper gets its parentheses.
    const spyFirst = helperFirst.replace(/(  const client = await connect\(server\);\n)(  const ask = [^\n]*\n)/, '$2$1');
    const { sites, output } = scanTestMocks('/p/test/h.test.js', spyFirst);
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('const connect = async (server, answers = {}) => {');
    expect(output).toContain(`const client = await connect(server, { 'elicitation/create': ask });`);
    const parsed = ts.createSourceFile('h.js', output, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS) as unknown as { parseDiagnostics: unknown[] };
    expect(parsed.parseDiagnostics).toEqual([]);
  });

  it('counts rewritten mocks as migrated and the file as changed', () => {
    const text = inlineTest(`vi.spyOn(server.server, 'createMessage').mockResolvedValue({ model: 'm', role: 'assistant', content: { type: 'text', text: 'x' } });`);
    const result = addTestMockSites(
      { summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 0, filesFailed: 0 }, files: [migratedSource('sampling/createMessage')], packageJsonChanges: [] },
      ['/p/test/s.test.ts'],
      (f) => (f.endsWith('.test.ts') ? text : 'export {};'),
    );
    // the server's migrated createMessage and the rewritten mock
    expect(result.summary).toEqual({ sitesFound: 2, sitesMigrated: 2, sitesFlagged: 0, filesChanged: 1, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
    expect(result.files.filter((f) => f.path === '/p/test/s.test.ts').map((f) => [f.status, f.sites.map((s) => [s.line, s.method, s.kind, s.status])])).toEqual([['changed', [[7, 'test-mock', 'sampling', 'migrated']]]]);
  });
});
