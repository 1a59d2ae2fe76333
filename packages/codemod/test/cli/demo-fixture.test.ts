/**
 * The demo server in fixtures/demo is a working v1 server before migration: every tool, the prompt and
 * the roots listener run against the real v1 SDK client over an in-memory transport.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// Loaded by URL: the fixture lives outside this package's tsconfig rootDir.
const demoServer = new URL('../../../../fixtures/demo/src/server.ts', import.meta.url).href;
const { cachedRoots, createServer } = (await import(demoServer)) as { cachedRoots: () => string[]; createServer: () => McpServer };

async function connect() {
  const server = createServer();
  const client = new Client({ name: 'v1-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const message = req.params.message;
    asked.push(message);
    if (message.startsWith('New project')) return { action: 'accept', content: { name: 'atlas', language: 'typescript' } };
    if (message.startsWith('Which template')) return { action: 'accept', content: { template: 'web-app' } };
    if (message.startsWith('What should')) return { action: 'accept', content: { focus: 'security' } };
    if (message.startsWith('Deploy')) return { action: 'decline' };
    return { action: 'accept', content: { confirm: true } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'demo-llm', role: 'assistant', content: { type: 'text', text: 'Short.' } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///home/ada/atlas', name: 'atlas' }] }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, asked };
}

const text = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0]!.text);

describe('fixtures/demo (v1, before migration)', () => {
  it('serves every tool and the prompt through server-to-client requests', async () => {
    const { client, asked } = await connect();
    expect(text(await client.callTool({ name: 'delete_file', arguments: { path: 'notes/old.md' } }))).toBe('Deleted notes/old.md.');
    expect(text(await client.callTool({ name: 'deploy', arguments: { service: 'api', env: 'production' } }))).toBe('Deployment of api cancelled.');
    expect(text(await client.callTool({ name: 'create_project', arguments: {} }))).toBe('Created atlas (typescript) from template web-app.');
    expect(text(await client.callTool({ name: 'summarize', arguments: { text: 'Long text.' } }))).toBe('Summary (demo-llm): Short.');
    expect(text(await client.callTool({ name: 'list_workspace', arguments: {} }))).toContain('root atlas: file:///home/ada/atlas');
    const prompt = await client.getPrompt({ name: 'code_review', arguments: { code: 'eval(x)' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('for security');
    expect(asked).toEqual([
      'Delete notes/old.md? This cannot be undone.',
      'Deploy api to production?',
      'New project: name and language?',
      'Which template for atlas?',
      'What should the review focus on?',
    ]);
    await client.sendRootsListChanged();
    await expect.poll(() => cachedRoots()).toEqual(['file:///home/ada/atlas']);
  });
});
