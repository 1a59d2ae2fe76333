/**
 * Which calls of a server's own request handler go through the initializing helper
 * (engine/test-mocks/shim-answered-calls.ts): only in a test that assigns a createMessage / listRoots
 * mock on that server before the call (directly or through a same-file function it gives the
 * server). A call whose mock in effect fails the request (`mockRejectedValue`) goes through the
 * helper that does not declare that member's capability when the run allows it for the member (every
 * migrated site of its request fails, for such a client, into the catch of its legacy failure) and
 * the test does not read the member; otherwise it stays as it is. In-memory texts through the
 * reshape the test-mock stage runs.
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

const WITHOUT = `await callAsClientOfServerMocksWithout(server, ['createMessage'], handler!, { method: 'tools/call', params: { name: 'save', arguments: {} } }, ctx)`;
const FAILING = "(server as any).createMessage = vi.fn().mockRejectedValue(new Error('down'));";

/** `undeclared`: the run lets a failing createMessage mock be driven as a client not declaring sampling. */
function reshaped(body: string, file = 'notes.test.ts', undeclared = false): string {
  const text = `${HEAD}\n${body}`;
  return reshapeContextMockText(file, text, () => false, true, new Set(), undefined, new Set(), new Map([['createMessage', undeclared], ['listRoots', false]])).output;
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
    ['a rejecting mock (its request not failing into the catch of its legacy failure)', FAILING],
    ['an elicitInput mock (the shim sends elicitation itself)', "(server as any).elicitInput = vi.fn().mockResolvedValue({ action: 'decline' });"],
  ])('%s: the call stays as it is', (_, setUp) => {
    const out = reshaped(setUp === null ? test('', 'answerSampling(server);') : test(setUp));
    expect(out).toContain(CALL);
    expect(out).not.toContain('callAsClientOfServerMocks');
  });

  it('a rejecting mock of a request that fails into its catch for a client not declaring it: the helper declaring none of its capability, appended once', () => {
    const out = reshaped(test(FAILING) + test(FAILING), 'notes.test.ts', true);
    expect(out.split(WITHOUT)).toHaveLength(3);
    expect(out.match(/async function callAsClientOfServerMocksWithout\(server: any, withheld: string\[\], handler: Function, \.\.\.args: any\[\]\): Promise<any> \{/g)).toHaveLength(1);
    expect(out).toContain('if (Object.prototype.hasOwnProperty.call(server, member) && !withheld.includes(member)) capabilities[capability] = {};');
    // it initializes the server even when it declares nothing
    expect(out).toContain('  if (server.getClientCapabilities() === undefined) {');
    expect(out).not.toContain('async function callAsClientOfServerMocks(');
  });

  it('the mock in effect is the one set last: a failing one replaced by an answering one is answered, and the other way round', () => {
    expect(reshaped(test(`${FAILING}\n  answerSampling(server);`), 'notes.test.ts', true)).toContain(ROUTED);
    const out = reshaped(test(`answerSampling(server);\n  ${FAILING}`), 'notes.test.ts', true);
    expect(out).toContain(WITHOUT);
    expect(out).not.toContain(ROUTED);
  });

  it('a failing createMessage with an answering listRoots: only sampling withheld', () => {
    const out = reshaped(test(`${FAILING}\n  (server as any).listRoots = vi.fn().mockResolvedValue({ roots: [] });`), 'notes.test.ts', true);
    expect(out).toContain(WITHOUT);
  });

  it.each([
    ['the test reads the member (the mock is no longer called)', test(FAILING, 'expect((server as any).createMessage).toHaveBeenCalled();')],
    ['the test reads the member by element access', test(FAILING, "expect((server as any)['createMessage']).toHaveBeenCalled();")],
  ])('a rejecting mock the run allows, but %s: the call stays as it is', (_, body) => {
    const out = reshaped(body, 'notes.test.ts', true);
    expect(out).toContain(CALL);
    expect(out).not.toContain('callAsClientOfServerMocks');
  });

  it('the failing mock is reported as answering only when every call it is in effect for is driven', async () => {
    const { answeringMocksIn } = await import('../src/engine/test-mocks/context-literals.js');
    const text = `${HEAD}\n${test(FAILING)}`;
    const members = new Map([['createMessage', true]]);
    const driven = answeringMocksIn('notes.test.ts', text, new Set(), () => undefined, new Set(), members);
    const at = text.indexOf(FAILING.slice(0, -1));
    expect([...driven.mocks]).toEqual([at]);
    expect([...driven.undeclared]).toEqual([at]);
    const read = `${HEAD}\n${test(FAILING, 'expect((server as any).createMessage).toHaveBeenCalled();')}`;
    const undriven = answeringMocksIn('notes.test.ts', read, new Set(), () => undefined, new Set(), members);
    expect([...undriven.mocks, ...undriven.undeclared]).toEqual([]);
  });
});
