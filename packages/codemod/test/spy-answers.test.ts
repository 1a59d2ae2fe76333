/**
 * Which contextless calls of a migrated handler the test's spies answer (engine/test-mocks/spy-answers.ts):
 * only spies in the calling test's own function, before the call, on the server the handler was taken
 * from, each with fixed answers. Every other call keeps the first round's helper (its result comes
 * back unanswered) and the spy its flag. In-memory texts through the reshape the test-mock stage runs.
 */
import { describe, expect, it } from 'vitest';
import { reshapeContextMockText } from '../src/engine/test-mocks/context-literals.js';

const HEAD = `import { vi } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/server';
import { createServer } from './server.js';

function registeredTool(server: McpServer, name: string) {
  return (server as any)._registeredTools[name].handler;
}
`;

const ANSWER = `{ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }`;

/** The reshaped text of a test file whose one test is `body`, its handler migrated with a codec when `codec`. */
function reshaped(body: string, { codec = true, file = 'tools.test.ts', head = HEAD } = {}): string {
  const codecOf = (name: string) => (name === 'draft' && codec ? './mcp-request-state.js' : undefined);
  return reshapeContextMockText(file, `${head}\n${body}`, () => false, true, new Set(['draft']), codecOf).output;
}

const DRIVEN = `callAnsweringFromServerMocks(handler, { id: 't1' }, server.server`;
const FIRST_ROUND = `callAnsweringInputRequests(handler, { id: 't1' }, { mcpReq: { requestState: () => undefined } })`;

describe('calls the spies answer', () => {
  it('a fixed answer on <server>.server before the call: driven, opening the state with the codec it imports', () => {
    const out = reshaped(`export async function drafts() {
  const server = createServer();
  vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
  const handler = registeredTool(server, 'draft');
  return await handler({ id: 't1' });
}
`);
    expect(out).toContain(`return await ${DRIVEN}, requestStateCodec.verify);`);
    expect(out).toContain(`import { createServer } from './server.js';\nimport { requestStateCodec } from './mcp-request-state.js';`);
    expect(out).toContain('async function callAnsweringFromServerMocks(handler: Function, args: unknown, server: any,');
    expect(out).not.toContain('async function callAnsweringInputRequests');
  });

  it('two driven calls in one file: the codec imported once, after the last import', () => {
    const call = `export async function drafts() {
  const server = createServer();
  vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
  const handler = registeredTool(server, 'draft');
  return await handler({ id: 't1' });
}
`;
    const out = reshaped(call + call.replace('drafts', 'drafts2'));
    expect(out.split(`return await ${DRIVEN}, requestStateCodec.verify);`)).toHaveLength(3);
    expect(out.match(/import \{ requestStateCodec \} from '\.\/mcp-request-state\.js';\n/g)).toHaveLength(1);
    expect(out).toContain(`import { createServer } from './server.js';\nimport { requestStateCodec } from './mcp-request-state.js';\n\nfunction registeredTool`);
  });

  it('a handler whose file imports no codec (write-once): driven without an opener, no import added', () => {
    const out = reshaped(
      `export async function drafts() {
  const server = createServer();
  const spy = vi.spyOn(server.server, 'createMessage').mockResolvedValueOnce(${ANSWER});
  const handler = registeredTool(server, 'draft');
  await handler({ id: 't1' });
  return spy.mock.calls;
}
`,
      { codec: false },
    );
    expect(out).toContain(`  await ${DRIVEN});`);
    expect(out).not.toContain('requestStateCodec');
  });

  it('a JavaScript test gets the helper without annotations', () => {
    const out = reshaped(
      `export async function drafts() {
  const server = createServer();
  vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
  const handler = server._registeredTools['draft'].handler;
  return await handler({ id: 't1' });
}
`,
      { file: 'tools.test.js', head: `import { vi } from 'vitest';\nimport { createServer } from './server.js';\n` },
    );
    expect(out).toContain(`return await ${DRIVEN}, requestStateCodec.verify);`);
    expect(out).toContain('async function callAnsweringFromServerMocks(handler, args, server, openState) {');
  });

  // A type assertion (`<T>x`, TypeScript files only) is stripped like `as`, with find/resolve.ts unwrapExpression:
  // on the spy's target (spy-answers.ts) and on the handler taken from the getter (contextless-handler-calls.ts).
  it('a type-asserted spy target and handler: driven like their `as` forms', () => {
    const out = reshaped(`export async function drafts() {
  const server = createServer();
  vi.spyOn((<any>server).server, 'createMessage').mockResolvedValue(${ANSWER});
  const handler = <(args: unknown) => Promise<unknown>>registeredTool(server, 'draft');
  return await handler({ id: 't1' });
}
`);
    expect(out).toContain(`return await callAnsweringFromServerMocks(handler, { id: 't1' }, (<any>server).server, requestStateCodec.verify);`);
  });

  it.each([
    ['an implementation (answers computed from the request)', `vi.spyOn(server.server, 'createMessage').mockImplementation(async () => (${ANSWER}));`],
    ['a rejection', `vi.spyOn(server.server, 'createMessage').mockRejectedValue(new Error('down'));`],
    ['a spy calling through', `vi.spyOn(server.server, 'createMessage');`],
    ['a spy on another server', `vi.spyOn(createServer().server, 'createMessage').mockResolvedValue(${ANSWER});`],
    ['a spy after the call', null],
  ])('%s: the first round only', (_, spy) => {
    const out = reshaped(`export async function drafts() {
  const server = createServer();
  ${spy ?? ''}
  const handler = registeredTool(server, 'draft');
  const result = await handler({ id: 't1' });
  ${spy === null ? `vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});` : ''}
  return result;
}
`);
    expect(out).toContain(`const result = await ${FIRST_ROUND};`);
    expect(out).not.toContain('callAnsweringFromServerMocks');
  });

  it('a spy in another function (a beforeEach) does not answer the call', () => {
    const out = reshaped(`let server: McpServer;
export function setUp() {
  server = createServer();
  vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
}
export async function drafts() {
  const handler = registeredTool(server, 'draft');
  return await handler({ id: 't1' });
}
`);
    expect(out).toContain(`return await ${FIRST_ROUND};`);
    expect(out).not.toContain('callAnsweringFromServerMocks');
  });

  it('a spy variable configured again with an implementation does not answer', () => {
    const out = reshaped(`export async function drafts() {
  const server = createServer();
  const spy = vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
  spy.mockImplementation(async () => (${ANSWER}));
  const handler = registeredTool(server, 'draft');
  return await handler({ id: 't1' });
}
`);
    expect(out).toContain(`return await ${FIRST_ROUND};`);
  });

  it("a handler registered without an input schema takes only its context: the first round's replaces the test's empty one, and the spies answer nothing (their helper calls handler(args, ctx))", () => {
    const body = `export async function drafts() {
  const server = createServer();
  vi.spyOn(server.server, 'createMessage').mockResolvedValue(${ANSWER});
  const handler = registeredTool(server, 'draft');
  return await handler({});
}
`;
    const out = reshapeContextMockText('tools.test.ts', `${HEAD}\n${body}`, () => false, true, new Set(['draft']), () => './mcp-request-state.js', new Set(['draft'])).output;
    expect(out).toContain(`return await callAnsweringInputRequests(handler, { mcpReq: { requestState: () => undefined } });`);
    expect(out).not.toContain('callAnsweringFromServerMocks');
  });
});
