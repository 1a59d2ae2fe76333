/**
 * A round after effects inside a nested block resumes there (nested-round.ts) only when the answer
 * round can recompute everything declared outside the block: the code before the round must not
 * change it, directly or through a function it hands an object to.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteResult } from '../../src/types.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'nested-round-key-0123456789abcdef0123456789abcdef';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function migrate(name: string, source: string): Promise<{ text: string; sites: SiteResult[] }> {
  const dir = tempProject(`nested-round-${name}`, { 'server.ts': source });
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { text: readFileSync(join(dir, 'server.ts'), 'utf8'), sites: result.files.flatMap((f) => f.sites) };
}

/** A tool whose `enrich` block runs `before` (with effects) and then asks for a summary of `lines`. */
function server(before: string, extra = ''): string {
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { effect } from '../../../../fixtures/support/effects.js';
interface Entry { text: string; summary?: string; tags: string[] }
declare function loadLines(id: string): Promise<string[]>;
${extra}
async function summarize(server: McpServer, lines: string[]): Promise<string> {
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: lines.join(' ') } }], maxTokens: 60 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('note', { inputSchema: { id: z.string(), text: z.string(), enrich: z.boolean() } }, async ({ id, text, enrich }) => {
    const entry: Entry = { text, tags: [] };
    if (enrich) {
      ${before}
      entry.summary = await summarize(server, lines);
    }
    return { content: [{ type: 'text', text: \`\${entry.text}: \${entry.summary ?? '-'}\` }] };
  });
  return server;
}
`;
}

const sampling = (sites: SiteResult[]) => sites.filter((s) => s.method === 'sampling/createMessage');

describe('a round after effects in a nested block', () => {
  it('resumes inside the block, the lines read once and carried in the state', async () => {
    const { text, sites } = await migrate('plain', server(`effect('open');
      const lines = [...(await loadLines(id)), text];`));
    expect(sampling(sites).map((s) => [s.status, s.reason?.startsWith('one round resumed inside the block at line 15') ?? false])).toEqual([['migrated', true]]);
    // the first round's code returns the state it leaves; the round mints that state (or the one it got back)
    expect(text).toContain("return { phase: 1, args: argumentsDigest('tools/call:note#1', args), lines };");
    expect(text).toContain('const { lines } = current;');
    expect(text).toContain('requestState: await requestStateCodec.mint(current, ctx)');
    // the effect and the read run in the asking round only
    expect(text.match(/effect\('open'\)/g)).toHaveLength(1);
    expect(text.match(/await loadLines\(id\)/g)).toHaveLength(1);
  });

  it('is refused when the code before the round changes a local declared outside the block', async () => {
    const { sites } = await migrate('outer-write', server(`effect('open');
      const lines = await loadLines(id);
      entry.text = lines.join(' ');`));
    const [site] = sampling(sites);
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toMatch(/would resume inside its block after the code before it, but `entry\.text = lines\.join\(' '\)` \(line \d+\) may change `entry`, declared outside the block: the answer round recomputes it from the top, so the change would be lost/);
  });

  it('is refused when an object declared outside the block is handed to a function that changes it', async () => {
    const { sites } = await migrate('handed-on', server(`effect('open');
      const lines = await loadLines(id);
      tagWith(entry, lines);`, `function tagWith(target: Entry, lines: string[]): void { target.tags.push(...lines.slice(0, 1)); }`));
    const [site] = sampling(sites);
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toContain('`tagWith(entry, lines)` (line');
    expect(site?.reason).toContain('may change `entry`, declared outside the block');
  });

  it('is refused when the code before the round can leave the handler', async () => {
    const { sites } = await migrate('early-return', server(`effect('open');
      const lines = await loadLines(id);
      if (lines.length === 0) return { content: [{ type: 'text', text: 'nothing stored' }] };`));
    const [site] = sampling(sites);
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toMatch(/the code before the round can leave the block \(`return \{ content: .*`, line \d+\)/);
  });

  it('resumes when the function it hands the object to only reads it', async () => {
    const { sites } = await migrate('read-only', server(`effect('open');
      const lines = [describe(entry), ...(await loadLines(id))];`, `function describe(e: Entry): string { return e.tags.length > 0 ? e.tags.join(',') : e.text; }`));
    expect(sampling(sites).map((s) => s.status)).toEqual(['migrated']);
  });
});
