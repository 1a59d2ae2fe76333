import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';

process.env.MCP_REQUEST_STATE_KEY ??= 'reference-test-key-0123456789abcdef0123456789';

async function connect(capabilities: Record<string, object>, answer: (params: unknown) => unknown) {
  const { createServer } = await import('./reference-server.js');
  const handler = createMcpHandler(createServer);
  const client = new Client({ name: 't', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if ('elicitation' in capabilities) client.setRequestHandler('elicitation/create', async (req) => answer(req.params) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: (u, i) => handler.fetch(new Request(u, i)) }));
  return client;
}

describe('reference migrated server (real v2 client pinned to 2026-07-28)', () => {
  let calls: string[];
  beforeAll(async () => ({ calls } = await import('./reference-server.js')));
  it('write-once form: asks, validates, completes', async () => {
    let asked = 0;
    const client = await connect({ elicitation: {} }, () => (asked++ === 0 ? { action: 'accept', content: { name: 12345 } } : { action: 'accept', content: { name: 'Ada' } }));
    const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hi, Ada' }]);
    expect(asked).toBe(2);
  });
  it('write-once form: decline reaches the legacy branch', async () => {
    const client = await connect({ elicitation: {} }, () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'no name (decline)' }]);
  });
  it('phase form with helper: effects run once, state carried', async () => {
    calls.length = 0;
    const client = await connect({ elicitation: {} }, (p) => ((p as { message: string }).message.startsWith('first') ? { action: 'accept', content: { a: 'x' } } : { action: 'accept', content: { confirm: true } }));
    const result = await client.callTool({ name: 'wizard', arguments: { topic: 't' } });
    expect(result.content).toEqual([{ type: 'text', text: 't:2:x:true' }]);
    expect(calls).toEqual(['start', 'middle', 'end']);
  });
  it('phase form: helper fail-open without elicitation capability still completes (state-only round)', async () => {
    calls.length = 0;
    const client = await connect({ roots: {} }, () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'purge', arguments: { what: 'cache' } });
    expect(result.content).toEqual([{ type: 'text', text: 'ok=true' }]);
    expect(calls).toEqual(['audit', 'purged']);
  });
});
