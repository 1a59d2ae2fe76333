/**
 * A local recomputed in the later phase (pure, not JSON) re-runs its declaration there: the locals
 * that declaration reads must be there too, carried, recomputed, or the reason they cannot be.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteResult } from '../../src/types.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'recompute-deps-key-0123456789abcdef0123456789abcdef';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function migrate(name: string, source: string): Promise<{ text: string; sites: SiteResult[] }> {
  const dir = tempProject(`recompute-deps-${name}`, { 'server.ts': source });
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { text: readFileSync(join(dir, 'server.ts'), 'utf8'), sites: result.files.flatMap((f) => f.sites) };
}

const head = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { effect } from '../../../../fixtures/support/effects.js';
interface Action { label: string; run(target: string): string }
const phrase = (a: Action, target: string): string => a.run(target);
`;

describe('a recomputed local whose declaration reads another local', () => {
  it('recomputes the pure one it reads as well, in declaration order', async () => {
    const { text, sites } = await migrate('pure', `${head}const ACTIONS: Record<string, { actions: Record<string, Action> }> = { job: { actions: { stop: { label: 'Stop', run: (t) => \`stopped \${t}\` } } } };
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('act', { inputSchema: { kind: z.string(), action: z.string(), target: z.string() } }, async ({ kind, action, target }) => {
    const def = ACTIONS[kind]!;
    const spec = def.actions[action]!;
    effect('audit');
    const ok = await server.server.elicitInput({ message: \`\${spec.label} \${target}?\`, requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: ok.action === 'accept' ? phrase(spec, target) : 'kept' }] };
  });
  return server;
}
`);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => [s.status, s.reason?.startsWith('rewrite not verified') ?? false])).toEqual([['migrated', false]]);
    // both declarations run in the asking round and again, `def` first, in the answer round
    expect(text.match(/const def = ACTIONS\[kind\]!;\s+const spec = def\.actions\[action\]!;/g)).toHaveLength(2);
  });

  it('flags with the local that can be neither carried nor recomputed, instead of emitting code that does not compile', async () => {
    const { sites } = await migrate('effectful', `${head}declare function lookup(kind: string): { actions: Record<string, Action> };
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('act', { inputSchema: { kind: z.string(), action: z.string(), target: z.string() } }, async ({ kind, action, target }) => {
    const def = lookup(kind);
    const spec = def.actions[action]!;
    effect('audit');
    const ok = await server.server.elicitInput({ message: \`\${spec.label} \${target}?\`, requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: ok.action === 'accept' ? phrase(spec, target) : 'kept' }] };
  });
  return server;
}
`);
    const [site] = sites.filter((s) => s.method === 'elicitation/create');
    expect(site!.status).toBe('flagged');
    expect(site!.reason).toMatch(/^live value `def` is not JSON-serialisable and not provably pure to recompute; the recomputed `spec` \(line 11\) reads it$/);
    expect(site!.reason).not.toMatch(/rewrite not verified/);
  });
});
