/**
 * A unit test that calls a registered handler directly with a fake context whose `sendRequest`
 * answers (`await handler(args, { sendRequest: mockSendRequest })`): after the migration the call
 * goes through the helper written into the test file (test-mocks/answer-rounds.ts), which answers
 * the migrated handler's inputRequests with the fake and calls it again. The project is migrated
 * by the real engine and the rewritten test module is run against the migrated handler.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationResult } from '../src/types.js';
import { migrateInPlace, tempProject } from './security/temp-project.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function registerRate(server: McpServer) {
  server.registerTool('rate_release', { description: 'Rates a release', inputSchema: { version: z.string() } }, async ({ version }, extra) => {
    const rating = await extra.sendRequest(
      { method: 'elicitation/create', params: { message: \`Rate \${version}\`, requestedSchema: { type: 'object', properties: { stars: { type: 'integer' } }, required: ['stars'] } } },
      ElicitResultSchema,
    );
    if (rating.action !== 'accept') return { content: [{ type: 'text', text: 'No rating given' }] };
    return { content: [{ type: 'text', text: \`Thanks: \${String(rating.content?.stars)} stars\` }] };
  });
}

export function createServer() {
  const server = new McpServer({ name: 'rate', version: '1.0.0' });
  registerRate(server);
  return server;
}
`;

// The legacy test's shape: handlers captured from a mock server, called with a fake extra.
const TEST = `import { vi } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerRate } from './server.js';

export async function rateWith(answer: unknown) {
  const handlers = new Map<string, Function>();
  const mockServer = {
    registerTool: vi.fn((name: string, _config: unknown, handler: Function) => {
      handlers.set(name, handler);
    }),
  } as unknown as McpServer;
  registerRate(mockServer);
  const mockSendRequest = vi.fn().mockResolvedValue(answer);
  const handler = handlers.get('rate_release')!;
  const result = await handler({ version: '1.2' }, { sendRequest: mockSendRequest });
  return { result, sent: mockSendRequest.mock.calls.map((call) => call[0]) };
}

export async function rateWithBoundFake(answer: unknown) {
  const handlers = new Map<string, Function>();
  const mockServer = {
    registerTool: vi.fn((name: string, _config: unknown, handler: Function) => {
      handlers.set(name, handler);
    }),
  } as unknown as McpServer;
  registerRate(mockServer);
  const mockSendRequest = vi.fn().mockResolvedValue(answer);
  const extra = { sessionId: 's1', sendRequest: mockSendRequest };
  const result = await handlers.get('rate_release')!({ version: '2.0' }, extra);
  return { result, sent: mockSendRequest.mock.calls.map((call) => call[0]) };
}
`;

let dir: string;
let result: MigrationResult;
type Rate = (answer: unknown) => Promise<{ result: { content?: { text: string }[]; resultType?: string }; sent: unknown[] }>;
let rateWith: Rate;
let rateWithBoundFake: Rate;

beforeAll(async () => {
  dir = tempProject('answer-rounds', { 'server.ts': SERVER, 'rate.test.ts': TEST });
  result = await migrateInPlace(dir);
  ({ rateWith, rateWithBoundFake } = (await import(pathToFileURL(join(dir, 'rate.test.ts')).href)) as { rateWith: Rate; rateWithBoundFake: Rate });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a direct handler call with an answering fake context', () => {
  it('control: the handler is migrated (it returns input_required instead of calling sendRequest)', () => {
    const server = result.files.find((f) => f.path.endsWith('server.ts'));
    expect(server?.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(readFileSync(join(dir, 'server.ts'), 'utf8')).toContain('inputRequired(');
  });

  it('goes through the helper written into the test file, which typechecks there', () => {
    const text = readFileSync(join(dir, 'rate.test.ts'), 'utf8');
    expect(text).toContain(`const result = await callAnsweringInputRequests(handler, { version: '1.2' }, { mcpReq: { send: mockSendRequest } });`);
    expect(text).toContain('async function callAnsweringInputRequests(handler: Function, ...args: any[]): Promise<any> {');
    const test = result.files.find((f) => f.path.endsWith('rate.test.ts'));
    expect(test?.notes?.join('\n')).toMatch(/the call goes through callAnsweringInputRequests/);
    // the importers check typechecks the rewritten test: no type-error site
    expect(test?.sites.filter((s) => s.method === 'type-error')).toEqual([]);
  });

  it('the test gets the answer its fake gives, once, and the fake sees the request the legacy handler sent', async () => {
    const accepted = await rateWith({ action: 'accept', content: { stars: 4 } });
    expect(accepted.result.resultType).toBeUndefined();
    expect(accepted.result.content?.[0]?.text).toBe('Thanks: 4 stars');
    expect(accepted.sent).toHaveLength(1);
    expect(accepted.sent[0]).toMatchObject({ method: 'elicitation/create', params: { message: 'Rate 1.2' } });
    const declined = await rateWith({ action: 'decline' });
    expect(declined.result.content?.[0]?.text).toBe('No rating given');
  });

  it('a fake bound to a variable goes through the helper at the call that passes it', async () => {
    const text = readFileSync(join(dir, 'rate.test.ts'), 'utf8');
    expect(text).toContain(`const extra = { sessionId: 's1', mcpReq: { send: mockSendRequest } };`);
    expect(text).toContain(`const result = await callAnsweringInputRequests(handlers.get('rate_release')!, { version: '2.0' }, extra);`);
    const accepted = await rateWithBoundFake({ action: 'accept', content: { stars: 5 } });
    expect(accepted.result.content?.[0]?.text).toBe('Thanks: 5 stars');
    expect(accepted.sent).toHaveLength(1);
    expect(accepted.sent[0]).toMatchObject({ method: 'elicitation/create', params: { message: 'Rate 2.0' } });
  });
});
