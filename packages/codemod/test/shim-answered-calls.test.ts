/**
 * Which calls of a server's own request handler go through the initializing helper
 * (engine/test-mocks/shim-answered-calls.ts): only in a test that assigns a createMessage / listRoots
 * mock on that server before the call (directly or through a same-file function it gives the
 * server), not a rejecting one. In-memory texts through the reshape the test-mock stage runs.
 */
import { describe, expect, it } from 'vitest';
import { reshapeContextMockText } from '../src/engine/test-mocks/context-literals.js';

const HEAD = `import { it, vi } from 'vitest';
import { createServer } from './server.js';

const server = createServer();
const other = createServer();
function answerSampling(srv: any): void {
  srv.createMessage = vi.fn().mockResolvedValue({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' });
}
`;

const CALL = `await handler!({ method: 'tools/call', params: { name: 'save', arguments: {} } }, ctx)`;
const ROUTED = `await callAsClientOfServerMocks(server, handler!, { method: 'tools/call', params: { name: 'save', arguments: {} } }, ctx)`;

function reshaped(body: string, file = 'notes.test.ts'): string {
  const text = `${HEAD}\n${body}`;
  return reshapeContextMockText(file, text, () => false, true, new Set(), undefined, new Set(), new Set(['createMessage', 'listRoots'])).output;
}

const test = (setUp: string, after = '') => `it('saves', async () => {
  const ctx = { mcpReq: { requestState: () => undefined } };
  ${setUp}
  const handler = (server as any)._requestHandlers.get('tools/call');
  ${CALL};
  ${after}
});
`;

describe('request-handler calls the shim answers with assigned mocks', () => {
  it('a mock set through a same-file function given the server: routed, the helper appended once', () => {
    const out = reshaped(test('answerSampling(server);') + test("(server as any).listRoots = vi.fn().mockResolvedValue({ roots: [] });"));
    expect(out.split(ROUTED)).toHaveLength(3);
    expect(out.match(/async function callAsClientOfServerMocks\(server: any, handler: Function, \.\.\.args: any\[\]\): Promise<any> \{/g)).toHaveLength(1);
  });

  it('a type-asserted server (<any>server, stripped by find/resolve.ts unwrapExpression like `as`): routed', () => {
    const out = reshaped(test('answerSampling(<any>server);').replace('(server as any)._requestHandlers', '(<any>server)._requestHandlers'));
    expect(out).toContain(ROUTED);
  });

  it('a JavaScript test gets the helper without annotations', () => {
    const out = reshaped(test('answerSampling(server);').replace('handler!', 'handler'), 'notes.test.js');
    expect(out).toContain('async function callAsClientOfServerMocks(server, handler, ...args) {');
  });

  it.each([
    ['no mock in the test', ''],
    ['a mock set after the call', null],
    ['a mock on another server', 'answerSampling(other);'],
    ['a rejecting mock', "(server as any).createMessage = vi.fn().mockRejectedValue(new Error('down'));"],
    ['an elicitInput mock (the shim sends elicitation itself)', "(server as any).elicitInput = vi.fn().mockResolvedValue({ action: 'decline' });"],
  ])('%s: the call stays as it is', (_, setUp) => {
    const out = reshaped(setUp === null ? test('', 'answerSampling(server);') : test(setUp));
    expect(out).toContain(CALL);
    expect(out).not.toContain('callAsClientOfServerMocks');
  });
});
