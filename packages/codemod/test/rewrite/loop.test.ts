/**
 * Loop form: requests inside loops (ask until valid, ask per item) migrated with the loop position
 * in requestState, driven round by round with raw 2026-07-28 calls; shapes it does not take stay
 * flagged with their specific reason.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteResult } from '../../src/types.js';
import { callTool, type McpFetchHandler } from '../security/raw-rpc.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'rewrite-test-key-0123456789abcdef0123456789abcdef';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\n`;

function server(tools: string): string {
  return `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
${tools}
  return server;
}
`;
}

async function migrate(name: string, source: string): Promise<{ dir: string; sites: SiteResult[] }> {
  const dir = tempProject(`loop-${name}`, { 'server.ts': source });
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { dir, sites: result.files.flatMap((f) => f.sites) };
}

async function serve(dir: string): Promise<McpFetchHandler> {
  const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
  return createMcpHandler(() => mod.createServer());
}

describe('loop form', () => {
  it('caps a loop the legacy code does not bound at 20 rounds, and re-asks a missing answer with the same position', async () => {
    const { dir, sites } = await migrate(
      'cap',
      server(`  server.registerTool('code', { inputSchema: { who: z.string() } }, async ({ who }) => {
    let tries = 0;
    while (true) {
      const reply = await server.server.elicitInput({ message: \`Code for \${who} (try \${tries + 1})\`, requestedSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } });
      if (reply.action !== 'accept') return { content: [{ type: 'text', text: 'stopped' }] };
      if (reply.content?.code === '1234') return { content: [{ type: 'text', text: \`ok after \${tries}\` }] };
      tries++;
    }
  });`),
    );
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    expect(sites[0]!.reason).toMatch(/at most 20/);
    const handler = await serve(dir);
    let round = await callTool(handler, { name: 'code', arguments: { who: 'ada' } });
    expect(round.result?.inputRequests?.reply?.params.message).toBe('Code for ada (try 1)');
    // A retry without the answer asks the same question again.
    const again = await callTool(handler, { name: 'code', arguments: { who: 'ada' }, requestState: round.result!.requestState! });
    expect(again.result?.inputRequests?.reply?.params.message).toBe('Code for ada (try 1)');
    for (let i = 1; i < 20; i++) {
      round = await callTool(handler, { name: 'code', arguments: { who: 'ada' }, requestState: round.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { code: 'nope' } } } });
      expect(round.result?.inputRequests?.reply?.params.message).toBe(`Code for ada (try ${i + 1})`);
    }
    const last = await callTool(handler, { name: 'code', arguments: { who: 'ada' }, requestState: round.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { code: 'nope' } } } });
    const failure = last.error?.message ?? (last.result?.isError ? JSON.stringify(last.result.content) : undefined);
    expect(failure).toMatch(/No answer accepted after 20 rounds \(tools\/call:code\)/);
    const good = await callTool(handler, { name: 'code', arguments: { who: 'ada' }, requestState: round.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { code: '1234' } } } });
    expect(good.result?.content).toEqual([{ type: 'text', text: 'ok after 19' }]);
  });

  it('walks a for-of over argument items one round per item, carrying the accumulator', async () => {
    const { dir, sites } = await migrate(
      'items',
      server(`  server.registerTool('tag', { inputSchema: { files: z.array(z.string()) } }, async ({ files }) => {
    const tags: string[] = [];
    for (const file of files) {
      const reply = await server.server.elicitInput({ message: \`Tag for \${file}?\`, requestedSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } });
      tags.push(\`\${file}=\${reply.action === 'accept' ? String(reply.content?.tag) : '-'}\`);
    }
    return { content: [{ type: 'text', text: tags.join(',') }] };
  });`),
    );
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    const handler = await serve(dir);
    const args = { files: ['a.ts', 'b.ts'] };
    const first = await callTool(handler, { name: 'tag', arguments: args });
    expect(first.result?.inputRequests?.reply?.params.message).toBe('Tag for a.ts?');
    const second = await callTool(handler, { name: 'tag', arguments: args, requestState: first.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { tag: 'x' } } } });
    expect(second.result?.inputRequests?.reply?.params.message).toBe('Tag for b.ts?');
    const done = await callTool(handler, { name: 'tag', arguments: args, requestState: second.result!.requestState!, inputResponses: { reply: { action: 'decline' } } });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'a.ts=x,b.ts=-' }]);
    // The state is bound to the arguments: other items start over.
    const other = await callTool(handler, { name: 'tag', arguments: { files: ['z.ts'] }, requestState: second.result!.requestState!, inputResponses: { reply: { action: 'decline' } } });
    expect(other.result?.inputRequests?.reply?.params.message).toBe('Tag for z.ts?');
  });

  it('keeps the flag, with the reason, for loop shapes it does not take', async () => {
    const elicit = (msg: string) => `await server.server.elicitInput({ message: ${msg}, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })`;
    const { sites } = await migrate(
      'flagged',
      server(`  const audit: string[] = [];
  server.registerTool('effect_first', {}, async () => {
    for (let i = 0; i < 3; i++) {
      audit.push('asked');
      const r = ${elicit("'ok?'")};
      if (r.action === 'accept') break;
    }
    return { content: [{ type: 'text', text: audit.join() }] };
  });
  server.registerTool('in_try', {}, async () => {
    let ok = false;
    while (!ok) {
      try {
        const r = ${elicit("'ok?'")};
        ok = r.action === 'accept';
      } catch {
        return { content: [{ type: 'text', text: 'failed' }] };
      }
    }
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  server.registerTool('set_items', { inputSchema: { names: z.array(z.string()) } }, async ({ names }) => {
    const seen = new Set(names);
    let n = 0;
    for (const name of seen) {
      const r = ${elicit('name')};
      if (r.action === 'accept') n++;
    }
    return { content: [{ type: 'text', text: String(n) }] };
  });
  server.registerTool('grows', { inputSchema: { names: z.array(z.string()) } }, async ({ names }) => {
    for (const name of names) {
      const r = ${elicit('name')};
      if (r.action === 'accept' && names.length < 5) names.push(name + '!');
    }
    return { content: [{ type: 'text', text: names.join() }] };
  });
  server.registerTool('two', {}, async () => {
    for (let i = 0; i < 2; i++) {
      const a = ${elicit("'a?'")};
      const b = ${elicit("'b?'")};
      if (a.action === b.action) break;
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });`),
    );
    expect(sites.map((s) => s.status)).toEqual(new Array(6).fill('flagged'));
    const reasons = sites.map((s) => s.reason ?? '');
    expect(reasons[0]).toMatch(/inside a for loop .*`audit\.push\('asked'\)`.*would repeat on the answer round/);
    expect(reasons[1]).toMatch(/inside a while loop .*nested inside a statement of the loop body/);
    expect(reasons[2]).toMatch(/cannot prove `seen` is an array/);
    expect(reasons[3]).toMatch(/the loop body changes `names`/);
    expect(reasons[4]).toMatch(/the handler makes 2 requests/);
    expect(reasons[5]).toMatch(/the handler makes 2 requests/);
  });
  it('migrates an ask-until-valid counter loop in plain JS (no type syntax in the output)', async () => {
    const dir = tempProject('loop-js', {
      'server.mjs': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function createServer() {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('name', { inputSchema: { prefix: z.string() } }, async ({ prefix }) => {
    let name = '';
    for (let attempt = 0; attempt < 2 && !name; attempt++) {
      const reply = await server.server.elicitInput({ message: attempt === 0 ? 'Name?' : 'Again?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      if (reply.action === 'accept' && typeof reply.content?.name === 'string' && reply.content.name.length > 1) name = reply.content.name;
    }
    return { content: [{ type: 'text', text: name ? prefix + name : 'no name' }] };
  });
  return server;
}
`,
    });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    expect(result.files.flatMap((f) => f.sites).map((s) => s.status)).toEqual(['migrated']);
    const mod = (await import(pathToFileURL(join(dir, 'server.mjs')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const first = await callTool(handler, { name: 'name', arguments: { prefix: 'Dr ' } });
    expect(first.result?.inputRequests?.reply?.params.message).toBe('Name?');
    const second = await callTool(handler, { name: 'name', arguments: { prefix: 'Dr ' }, requestState: first.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { name: 'X' } } } });
    expect(second.result?.inputRequests?.reply?.params.message).toBe('Again?');
    const exhausted = await callTool(handler, { name: 'name', arguments: { prefix: 'Dr ' }, requestState: second.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { name: 'Y' } } } });
    expect(exhausted.result?.content).toEqual([{ type: 'text', text: 'no name' }]);
    const valid = await callTool(handler, { name: 'name', arguments: { prefix: 'Dr ' }, requestState: second.result!.requestState!, inputResponses: { reply: { action: 'accept', content: { name: 'Who' } } } });
    expect(valid.result?.content).toEqual([{ type: 'text', text: 'Dr Who' }]);
  });

  it('writes the loop and the code after it once: both rounds call one function of the carried locals and the position', async () => {
    const { dir, sites } = await migrate(
      'once',
      server(`  server.registerTool('label', { inputSchema: { items: z.array(z.string()) } }, async ({ items }) => {
    const labels: string[] = [];
    for (const item of items) {
      const reply = await server.server.elicitInput({ message: \`Label for \${item}?\`, requestedSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } });
      if (reply.action !== 'accept') continue;
      labels.push(\`\${item}=\${String(reply.content?.label)}\`);
    }
    return { content: [{ type: 'text', text: \`labelled: \${labels.join(', ')}\` }] };
  });`),
    );
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    const out = (await import('node:fs')).readFileSync(join(dir, 'server.ts'), 'utf8');
    expect(out.split('labels.push(').length - 1).toBe(1);
    expect(out.split('labelled: ${labels.join').length - 1).toBe(1);
    expect(out.split('.length; itemIndex++) {').length - 1).toBe(1);
    const handler = await serve(dir);
    const first = await callTool(handler, { name: 'label', arguments: { items: ['a', 'b'] } });
    expect(first.result?.inputRequests?.reply?.params).toMatchObject({ message: 'Label for a?' });
    const again = await callTool(handler, { name: 'label', arguments: { items: ['a', 'b'] }, requestState: first.result!.requestState as string });
    expect(again.result?.inputRequests?.reply?.params).toMatchObject({ message: 'Label for a?' });
    const second = await callTool(handler, { name: 'label', arguments: { items: ['a', 'b'] }, inputResponses: { reply: { action: 'accept', content: { label: 'x' } } }, requestState: first.result!.requestState as string });
    expect(second.result?.inputRequests?.reply?.params).toMatchObject({ message: 'Label for b?' });
    const done = await callTool(handler, { name: 'label', arguments: { items: ['a', 'b'] }, inputResponses: { reply: { action: 'decline' } }, requestState: second.result!.requestState as string });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'labelled: a=x' }]);
    const none = await callTool(handler, { name: 'label', arguments: { items: [] } });
    expect(none.result?.content).toEqual([{ type: 'text', text: 'labelled: ' }]);
  });
});
