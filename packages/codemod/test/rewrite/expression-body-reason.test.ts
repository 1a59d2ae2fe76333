/**
 * A handler written as an arrow without a block is left as it is when its request is reached through
 * a call: the reason says whether the body is that call or an expression holding it, and names the call.
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const server = (handler: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';

async function pickLevel(server: Server): Promise<string> {
  const answer = await server.elicitInput({ message: 'Level?', requestedSchema: { type: 'object', properties: { level: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.level) : 'normal';
}

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'levels', version: '1.0.0' });
  mcp.registerTool('level', { inputSchema: { q: z.string() } }, ${handler});
  return mcp;
}
`;

describe('expression-bodied handler: the reason', () => {
  it('says the body holds the call when the call is nested in the returned object', async () => {
    const result = await migrateSource(server("async ({ q }) => ({ content: [{ type: 'text' as const, text: q + (await pickLevel(mcp.server)) }] })"), 'server.ts');
    const site = result.sites.find((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toMatch(/^the handler's body is an expression holding the call `pickLevel\(\.\.\.\)` \(an arrow without a block\), through which the request is reached/);
  });

  it('names the call at the head of a promise chain', async () => {
    const result = await migrateSource(server("async () => pickLevel(mcp.server).then((level) => ({ content: [{ type: 'text' as const, text: level }] }))"), 'server.ts');
    const site = result.sites.find((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toMatch(/^the handler's body is an expression holding the call `pickLevel\(\.\.\.\)`/);
  });
});
