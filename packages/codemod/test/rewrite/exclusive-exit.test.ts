/**
 * A request point that itself leaves the handler (a thrown UrlElicitationRequiredError) is on a path
 * exclusive with every request after it: the reason of a flag must not call them "in sequence", and
 * without effects on the way the pair is served write-once (one round per path).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteResult } from '../../src/types.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'exclusive-exit-key-0123456789abcdef0123456789abcdef';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function migrate(name: string, source: string): Promise<{ dir: string; sites: SiteResult[] }> {
  const dir = tempProject(`exclusive-exit-${name}`, { 'server.ts': source });
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { dir, sites: result.files.flatMap((f) => f.sites) };
}

/** A 2026-07-28 tools/call whose envelope declares form and URL elicitation. */
async function call(handler: { fetch(r: Request): Promise<Response> }, args: Record<string, unknown>, inputResponses?: Record<string, unknown>) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'events',
      arguments: args,
      ...(inputResponses ? { inputResponses } : {}),
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      },
    },
  };
  const response = await handler.fetch(
    new Request('http://test.local/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-method': 'tools/call', 'mcp-name': 'events', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  const json = (response.headers.get('content-type')?.includes('text/event-stream')
    ? JSON.parse(text.split('\n').find((l) => l.startsWith('data:'))!.slice(5))
    : JSON.parse(text)) as { result?: { resultType?: string; content?: unknown; inputRequests?: Record<string, { method: string; params: Record<string, unknown> }> }; error?: { code: number } };
  return json;
}

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
`;

describe('a thrown URL elicitation and a later request', () => {
  it('flags with the module-level mutation before them, not "requests in sequence"', async () => {
    const { sites } = await migrate('set', `${HEAD}const pendingLinks = new Set<string>();
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('link', { inputSchema: { account: z.string(), viaError: z.boolean() } }, async ({ account, viaError }, extra) => {
    if (viaError) {
      if (pendingLinks.has(account)) {
        pendingLinks.delete(account);
      } else {
        pendingLinks.add(account);
        throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Link first', url: 'https://example.com/link', elicitationId: 'e1' }]);
      }
    }
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { mode: 'url', message: 'Open', url: 'https://example.com/open', elicitationId: 'e2' } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`);
    const flagged = sites.filter((s) => s.status === 'flagged' && s.method === 'elicitation/create');
    expect(flagged).toHaveLength(2);
    for (const site of flagged) {
      expect(site.reason).not.toMatch(/in sequence/);
      // the mutation on the throw's own path, named with the throw it precedes
      expect(site.reason).toMatch(/^`pendingLinks\.add\(account\)` \(line 12\) runs before the UrlElicitationRequiredError thrown at line 13 and may have an effect, so it must run only once, and a UrlElicitationRequiredError is thrown: only rewritten in the write-once form$/);
    }
  });

  it('migrates a guard that throws and a request after it write-once, each path asking its own round', async () => {
    const { dir, sites } = await migrate('guard', `${HEAD}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('events', { inputSchema: { account: z.string() } }, async ({ account }) => {
    if (account !== 'linked') {
      throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Connect first', url: 'https://example.com/connect', elicitationId: 'c1' }]);
    }
    const answer = await server.server.elicitInput({ message: 'Which calendar?', requestedSchema: { type: 'object', properties: { calendar: { type: 'string' } }, required: ['calendar'] } });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.calendar) : answer.action }] };
  });
  return server;
}
`);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const unlinked = await call(handler, { account: 'bob' });
    expect(unlinked.result?.resultType).toBe('input_required');
    expect(Object.values(unlinked.result!.inputRequests!).map((r) => (r.params as { mode?: string }).mode)).toEqual(['url']);
    const linked = await call(handler, { account: 'linked' });
    expect(linked.result?.resultType).toBe('input_required');
    const [key, request] = Object.entries(linked.result!.inputRequests!)[0]!;
    expect((request.params as { message?: string }).message).toBe('Which calendar?');
    const answered = await call(handler, { account: 'linked' }, { [key]: { action: 'accept', content: { calendar: 'work' } } });
    expect(answered.result?.content).toEqual([{ type: 'text', text: 'work' }]);
  });
});
