/**
 * A unit test that calls a registered tool's handler, taken from the server's private
 * `_registeredTools` through a getter of its own, without a context (`await handler({ text })`, the
 * test's handler type taking one parameter): after the migration the awaited call goes through the
 * answering helper with the first round's context (test-mocks/contextless-handler-calls.ts), so a
 * handler answering without asking (its capability check's fallback) returns what it returned; a
 * call the helper cannot take is flagged at its line with a marker; a handler the run did not migrate
 * keeps its call. The project is migrated by the real engine and the rewritten test module is run
 * against the migrated handler.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationResult } from '../src/types.js';
import { migrateInPlace, tempProject } from './security/temp-project.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('summarize', { description: 'Summarizes a text', inputSchema: { text: z.string() } }, async ({ text }) => {
    if (!server.server.getClientCapabilities()?.sampling) {
      return { content: [{ type: 'text', text: 'Sampling is not supported by this client' }] };
    }
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize: \${text}\` } }], maxTokens: 100 });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  });
  server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('haiku', { description: 'Writes a haiku' }, async () => {
    if (!server.server.getClientCapabilities()?.sampling) {
      return { content: [{ type: 'text', text: 'No haiku without sampling' }] };
    }
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  });
  return server;
}
`;

const TEST = `import { vi } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServer } from './server.js';

type ToolHandler = (args: Record<string, unknown>) => Promise<unknown>;

function registeredTool(server: McpServer, name: string): ToolHandler | undefined {
  const tools = (server as unknown as { _registeredTools: Record<string, { handler: ToolHandler }> })._registeredTools;
  return tools?.[name]?.handler;
}

export async function withoutSampling() {
  const server = createServer();
  vi.spyOn(server.server, 'getClientCapabilities').mockReturnValue(undefined);
  const handler = registeredTool(server, 'summarize')!;
  return (await handler({ text: 'a long text' })) as { content: { text: string }[] };
}

export async function withSampling() {
  const server = createServer();
  vi.spyOn(server.server, 'getClientCapabilities').mockReturnValue({ sampling: {} });
  const handler = registeredTool(server, 'summarize');
  return (await handler!({ text: 'a long text' })) as { resultType?: string };
}

export function notAwaited() {
  const handler = registeredTool(createServer(), 'summarize')!;
  return handler({ text: 'x' });
}

export async function haiku() {
  const server = createServer();
  vi.spyOn(server.server, 'getClientCapabilities').mockReturnValue(undefined);
  const handler = registeredTool(server, 'haiku')!;
  return (await handler({})) as { content: { text: string }[] };
}

export async function haikuWithExtra() {
  const handler = registeredTool(createServer(), 'haiku')!;
  return await handler({ signal: new AbortController().signal });
}

export async function echo() {
  const handler = registeredTool(createServer(), 'echo')!;
  return (await handler({ text: 'hi' })) as { content: { text: string }[] };
}
`;

let dir: string;
let result: MigrationResult;
let tests: {
  withoutSampling: () => Promise<{ content: { text: string }[] }>;
  withSampling: () => Promise<{ resultType?: string }>;
  echo: () => Promise<{ content: { text: string }[] }>;
  haiku: () => Promise<{ content: { text: string }[] }>;
};
const key = process.env.MCP_REQUEST_STATE_KEY;

beforeAll(async () => {
  // the migrated server is built with the state codec's verify hook, which reads the key
  process.env.MCP_REQUEST_STATE_KEY = randomBytes(32).toString('base64url');
  dir = tempProject('contextless-calls', { 'server.ts': SERVER, 'notes.test.ts': TEST });
  result = await migrateInPlace(dir);
  tests = (await import(pathToFileURL(join(dir, 'notes.test.ts')).href)) as typeof tests;
});

afterAll(() => {
  if (key === undefined) delete process.env.MCP_REQUEST_STATE_KEY;
  else process.env.MCP_REQUEST_STATE_KEY = key;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a migrated handler called without a context', () => {
  it('control: summarize is migrated, echo is not', () => {
    const server = result.files.find((f) => f.path.endsWith('server.ts'));
    expect(server?.sites.map((s) => [s.handler, s.status])).toEqual([
      ['summarize', 'migrated'],
      ['haiku', 'migrated'],
    ]);
  });

  it("an awaited call goes through the helper with the first round's context, and the file typechecks", () => {
    const text = readFileSync(join(dir, 'notes.test.ts'), 'utf8');
    expect(text).toContain(`return (await callAnsweringInputRequests(handler, { text: 'a long text' }, { mcpReq: { requestState: () => undefined } })) as { content: { text: string }[] };`);
    expect(text).toContain(`return (await callAnsweringInputRequests(handler!, { text: 'a long text' }, { mcpReq: { requestState: () => undefined } })) as { resultType?: string };`);
    const test = result.files.find((f) => f.path.endsWith('notes.test.ts'));
    expect(test?.notes?.join('\n')).toMatch(/the test calls the handler of 'summarize', taken from the server's private map, without a context: .* the call goes through callAnsweringInputRequests/);
    expect(test?.sites.filter((s) => s.method === 'type-error')).toEqual([]);
  });

  it('the handler answers without asking as before; one that asks returns its input_required result (nothing answers it)', async () => {
    expect((await tests.withoutSampling()).content[0]!.text).toBe('Sampling is not supported by this client');
    expect((await tests.withSampling()).resultType).toBe('input_required');
  });

  it('a call the helper cannot take is flagged at its line in the original, with a marker above it; an unmigrated handler keeps its call', async () => {
    const test = result.files.find((f) => f.path.endsWith('notes.test.ts'));
    const original = TEST.split('\n');
    const flagged = test?.sites.filter((s) => s.status === 'flagged' && !s.reason?.includes("'haiku'")) ?? [];
    expect(flagged).toHaveLength(1);
    expect(original[flagged[0]!.line - 1]).toBe(`  return handler({ text: 'x' });`);
    expect(flagged[0]!.reason).toBe(`the test calls the handler of 'summarize', taken from the server's private map, without a context: this run migrated it, and the migrated handler reads its context (ctx.mcpReq) for the rounds before, so the call throws a TypeError; not driven: the call is not awaited where it is made`);
    const text = readFileSync(join(dir, 'notes.test.ts'), 'utf8');
    expect(text).toMatch(/\n {2}\/\/ @mcp-mrtr-todo\(the test calls the handler of 'summarize'[^\n]*\n {2}return handler\(\{ text: 'x' \}\);/);
    expect(text).toContain(`return (await handler({ text: 'hi' })) as { content: { text: string }[] };`);
    expect((await tests.echo()).content[0]!.text).toBe('hi');
  });

  it("a handler registered without an input schema takes only its context: the first round's replaces the empty one it was called with", async () => {
    const text = readFileSync(join(dir, 'notes.test.ts'), 'utf8');
    expect(text).toContain(`return (await callAnsweringInputRequests(handler, { mcpReq: { requestState: () => undefined } })) as { content: { text: string }[] };`);
    expect((await tests.haiku()).content[0]!.text).toBe('No haiku without sampling');
    const test = result.files.find((f) => f.path.endsWith('notes.test.ts'));
    expect(test?.notes?.join('\n')).toMatch(/the test calls the handler of 'haiku', .* in place of the empty one it was called with \(registered without an input schema, the handler takes only its context\)/);
  });

  it('one called with a context that is not empty is flagged with why, its call kept', () => {
    const test = result.files.find((f) => f.path.endsWith('notes.test.ts'));
    const flagged = test?.sites.filter((s) => s.status === 'flagged' && s.reason?.includes("'haiku'")) ?? [];
    expect(flagged).toHaveLength(1);
    expect(TEST.split('\n')[flagged[0]!.line - 1]).toBe(`  return await handler({ signal: new AbortController().signal });`);
    expect(flagged[0]!.reason).toMatch(/; not driven: the tool was registered without an input schema, so the call's argument is the handler's context, and it is not an empty one the first round's can replace$/);
    expect(readFileSync(join(dir, 'notes.test.ts'), 'utf8')).toContain(`return await handler({ signal: new AbortController().signal });`);
  });
});
