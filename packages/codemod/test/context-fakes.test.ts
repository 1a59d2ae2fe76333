/**
 * Which hand-built objects in a test are reshaped as v1 handler contexts (test-mocks/context-literals.ts):
 * only literals made of v1 context keys, at a place a context is handed over, whose reads can follow.
 */
import { describe, expect, it } from 'vitest';
import { drivenAnswerTextNotes, reshapeContextMockText } from '../src/engine/test-mocks/context-literals.js';
import { addTestMockSites } from '../src/run/test-mocks.js';
import type { MigrationResult } from '../src/types.js';

const reshape = (text: string) => reshapeContextMockText('/p/test/a.test.ts', text, () => false);

describe('v1 handler-context fakes in tests', () => {
  it('moves each key where ServerContext has it (authInfo under http, sessionId on top)', () => {
    const { output, notes } = reshape(`handler(args, { authInfo: auth, sessionId: 's', signal: controller.signal });\n`);
    expect(output).toBe(`handler(args, { http: { authInfo: auth }, sessionId: 's', mcpReq: { signal: controller.signal } });\n`);
    expect(notes).toEqual(['1: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (authInfo → http.authInfo, signal → mcpReq.signal)']);
  });

  it('says when a handler the run migrated would no longer call the fake send', () => {
    const text = `handler(args, { sendRequest: send });\n`;
    expect(reshapeContextMockText('/p/test/a.test.ts', text, () => false, false).notes).toEqual([
      '1: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (sendRequest → mcpReq.send)',
    ]);
    expect(reshapeContextMockText('/p/test/a.test.ts', text, () => false, true).notes).toEqual([
      '1: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (sendRequest → mcpReq.send); a handler this run migrated no longer calls mcpReq.send (it returns input_required): a test passing this fake to one fails until it answers the inputRequests and calls the handler again with inputResponses',
    ]);
  });

  it('routes the awaited calls a variable-bound answering fake is passed to through the helper', () => {
    const text = `const extra = { sendRequest: mockSend };\nconst result = await handler(args, extra);\nexpect(extra.sendRequest).toHaveBeenCalled();\n`;
    const { output } = reshapeContextMockText('/p/test/a.test.ts', text, () => false, true);
    expect(output).toContain('const extra = { mcpReq: { send: mockSend } };\nconst result = await callAnsweringInputRequests(handler, args, extra);\nexpect(extra.mcpReq.send).toHaveBeenCalled();\n');
    expect(output).toContain('async function callAnsweringInputRequests(');
  });

  it('says at its line what the helper cannot make pass: a sampling answer without role, an assertion on a second argument', () => {
    const text = [
      `const mockSend = vi.fn().mockResolvedValue({`,
      `  model: 'm',`,
      `  content: { type: 'text', text: 'hi' },`,
      `});`,
      `const result = await handler(args, { sendRequest: mockSend });`,
      `expect(mockSend).toHaveBeenCalledWith(expect.objectContaining({ method: 'sampling/createMessage' }), expect.anything());`,
      `expect(mockSend).toHaveBeenCalledWith(expect.objectContaining({ method: 'sampling/createMessage' }));`,
      '',
    ].join('\n');
    const { notes } = reshapeContextMockText('/p/test/a.test.ts', text, () => false, true);
    expect(notes.filter((n) => n.startsWith('1: ')).join('\n')).toMatch(/the fake's sampling answer has no `role`, which a sampling result requires/);
    expect(notes.filter((n) => n.startsWith('6: ')).join('\n')).toMatch(/asserts more than the request the fake's send got/);
    expect(notes.filter((n) => n.startsWith('7: '))).toEqual([]);
    const valid = reshapeContextMockText('/p/test/a.test.ts', text.replace(`model: 'm',`, `model: 'm',\n  role: 'assistant',`), () => false, true).notes;
    expect(valid.join('\n')).not.toMatch(/has no `role`/);
  });

  it('renames shorthand properties and method members', () => {
    const { output } = reshape(`run(args, { requestId, async sendRequest() { return {}; } });\n`);
    expect(output).toBe(`run(args, { mcpReq: { id: requestId, async send() { return {}; } } });\n`);
  });

  const untouched: [string, string][] = [
    ['a lone correlation id in a log call', `logger.info('done', { requestId });\n`],
    ['a lone signal', `fetchAll(url, { signal });\n`],
    ['an object with a key no context has', `handler(args, { sendRequest: send, retries: 2 });\n`],
    ['an object already in the v2 shape', `handler(args, { mcpReq: { send }, sessionId: 's' });\n`],
    ['a transport message info', `transport.handleMessage(message, { authInfo, requestInfo });\n`],
    ['a comment between the properties', `handler(args, {\n  // the fake request id\n  requestId: 'r',\n  sendNotification: notify,\n});\n`],
    ['a fake whose variable is destructured', `const extra = { _meta: {}, sendNotification: notify };\nconst { sendNotification } = extra;\nhandler(args, extra);\n`],
    ['a fake whose variable is indexed', `const extra = { _meta: {}, sendNotification: notify };\nexpect(extra['sendNotification']).toBeDefined();\n`],
    ['a fake whose name is declared again inside', `const extra = { _meta: {}, sendNotification: notify };\nit('x', () => { const extra = other; expect(extra.sendNotification).toBeDefined(); });\n`],
    ['a fake returned by a method', `const fakes = { make() { return { _meta: {}, sendNotification: notify }; } };\n`],
  ];
  it.each(untouched)('leaves %s as it is', (_what, text) => {
    expect(reshape(text)).toEqual({ output: text, notes: [] });
  });

  it('leaves a fake holding a mock the test-mock stage reports', () => {
    const text = `const extra = { sendRequest: vi.fn(), _meta: {} };\nawait handler(args, extra);\n`;
    expect(reshapeContextMockText('/p/test/a.test.ts', text, (start, end) => start <= text.indexOf('{') && end >= text.indexOf('}')).output).toBe(text);
  });
});

describe('the sampling answers of the fakes a driven helper call answers with', () => {
  const DRIVEN = `expect(await callHelperAnsweringInputRequests(summarise, [server, 'x'], (args) => args[0], 'createMessage')).toBe('y');\n`;

  it('an answer with its content as a list of blocks, or without role, is noted at its line; a valid one is not', () => {
    const text = [
      `const server = { createMessage: vi.fn().mockResolvedValue({ role: 'assistant', content: [{ type: 'text', text: 'a' }], model: 'm' }) };`,
      `const other = { createMessage: vi.fn().mockResolvedValueOnce({ content: { type: 'text', text: 'b' }, model: 'm' }) };`,
      `const fine = { createMessage: vi.fn().mockResolvedValue({ role: 'assistant', content: { type: 'text', text: 'c' }, model: 'm' }) };`,
      DRIVEN,
    ].join('\n');
    expect(drivenAnswerTextNotes('/p/tests/a.test.ts', text)).toEqual([
      "1: the fake's sampling answer gives its content as a list of blocks, which a sampling result takes only when the request offered tools (otherwise one block): the migrated helper reads answers as createMessage validated a client's result (it rejected this one too; only the fake bypassed it), so it asks again and callHelperAnsweringInputRequests returns its input_required result",
      "2: the fake's sampling answer has no `role`, which a sampling result requires (a client's answer carries role: 'assistant'): the migrated helper reads answers as createMessage validated a client's result (it rejected this one too; only the fake bypassed it), so it asks again and callHelperAnsweringInputRequests returns its input_required result",
    ]);
  });

  it('an answer behind `satisfies` or `<T>` (find/resolve.ts unwrapExpression) is read like one behind `as`', () => {
    const text = [
      `const server = { createMessage: vi.fn().mockResolvedValue({ content: { type: 'text', text: 'b' }, model: 'm' } satisfies object) };`,
      `const other = { createMessage: vi.fn().mockResolvedValue(<any>{ content: { type: 'text', text: 'b' }, model: 'm' }) };`,
      DRIVEN,
    ].join('\n');
    const notes = drivenAnswerTextNotes('/p/tests/a.test.ts', text);
    expect(notes.map((n) => n.slice(0, n.indexOf(': ')))).toEqual(['1', '2']);
    for (const note of notes) expect(note).toContain("the fake's sampling answer has no `role`");
  });

  it('nothing without a driven sampling call', () => {
    const text = `const server = { createMessage: vi.fn().mockResolvedValue({ role: 'assistant', content: [], model: 'm' }) };\n`;
    expect(drivenAnswerTextNotes('/p/tests/a.test.ts', text)).toEqual([]);
    expect(drivenAnswerTextNotes('/p/tests/a.test.ts', text + DRIVEN.replace("'createMessage'", "'elicitInput'"))).toEqual([]);
  });
});

describe("an empty context handed to a handler of the server's private handler map", () => {
  const HANDLER = `const handler = (server as any)._requestHandlers.get('tools/call');\n`;

  it('becomes the first-round context the v2 seam reads, for tools/call, prompts/get and resources/read', () => {
    const text = `${HANDLER}await handler({ method: 'tools/call', params: { name: 'a' } }, {});\nawait handler({ method: "prompts/get", params: {} }, {});\n`;
    const { output, notes } = reshape(text);
    expect(output).toBe(`${HANDLER}await handler({ method: 'tools/call', params: { name: 'a' } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } });\nawait handler({ method: "prompts/get", params: {} }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } });\n`);
    expect(notes).toEqual([
      "2: the empty context handed to a tools/call or prompts/get handler of the server's _requestHandlers becomes { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } } (and at 1 more line(s): 3): v2 runs that handler inside its multi-round-trip seam, which reads ctx.mcpReq.requestState() first and throws on {}, and whose 2025-era legacy shim reads ctx.mcpReq.signal when a request it sends fails",
    ]);
  });

  it('left alone: a method outside the seam, a context with keys or a comment, a computed method, a file not reading the handler map', () => {
    for (const call of [
      `await handler({ method: 'tools/list', params: {} }, {});\n`,
      `await handler({ method: 'tools/call', params: {} }, { signal });\n`,
      `await handler({ method: 'tools/call', params: {} }, { /* none */ });\n`,
      `await handler({ method: name, params: {} }, {});\n`,
    ]) {
      expect(reshape(`${HANDLER}${call}`)).toEqual({ output: `${HANDLER}${call}`, notes: [] });
    }
    const elsewhere = `await handler({ method: 'tools/call', params: {} }, {});\n`;
    expect(reshape(elsewhere)).toEqual({ output: elsewhere, notes: [] });
  });
});

describe('the test-mock stage reshapes fakes only for code the run leaves on v2', () => {
  const TEST = `import { it } from 'vitest';\nimport { handler } from '../src/tools.js';\n\nit('runs', async () => {\n  await handler({}, { _meta: {}, requestId: 'r1' });\n});\n`;
  const resultWith = (toolsOutput: string): MigrationResult => ({
    summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 1, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 },
    files: [{ path: '/p/src/tools.ts', status: 'changed', sites: [], original: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n`, output: toolsOutput }],
  }) as unknown as MigrationResult;
  const read = (file: string) => (file === '/p/test/tools.test.ts' ? TEST : undefined);

  it('a test importing an upgraded file gets the v2 fake', () => {
    const result = addTestMockSites(resultWith(`import { McpServer } from '@modelcontextprotocol/server';\n`), ['/p/src/tools.ts', '/p/test/tools.test.ts'], read);
    const test = result.files.find((f) => f.path === '/p/test/tools.test.ts')!;
    expect(test.output).toBe(TEST.replace(`{ _meta: {}, requestId: 'r1' }`, `{ mcpReq: { _meta: {}, id: 'r1' } }`));
    expect(test.status).toBe('changed');
    expect(result.summary.filesChanged).toBe(2);
  });

  it('a test importing a file that stays on v1 is left alone', () => {
    const result = addTestMockSites(resultWith(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n// marked\n`), ['/p/src/tools.ts', '/p/test/tools.test.ts'], read);
    expect(result.files.map((f) => f.path)).toEqual(['/p/src/tools.ts']);
    expect(result.summary.filesChanged).toBe(1);
  });
});
