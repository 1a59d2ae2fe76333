/**
 * Phase form: each request's parameters are written once per handler, above the phase switch (a
 * `const` when they read only the handler's unchanged parameters, a function of the locals they
 * read otherwise), and are still evaluated with the values they had where the legacy code built them.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool } from '../security/raw-rpc.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'request-params-test-key-0123456789abcdef0123456789';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\nimport { effect } from '../../../../fixtures/support/effects.js';\n`;

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('request parameters in the phase form', () => {
  it('builds each request once: a const for one reading the arguments, a function for one reading a local', async () => {
    const dir = tempProject('request-params-once', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('plan', { inputSchema: { city: z.string() } }, async ({ city }) => {
    effect('log');
    const when = await server.server.elicitInput({ message: \`When in \${city}?\`, requestedSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] } });
    if (when.action !== 'accept') return { content: [{ type: 'text', text: 'no' }] };
    const day = String(when.content?.day);
    const who = await server.server.elicitInput({ message: \`Who comes on \${day}?\`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return { content: [{ type: 'text', text: \`\${city} \${day} \${String(who.content?.name)}\` }] };
  });
  return server;
}
`,
    });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    expect(result.files.flatMap((f) => f.sites).map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const out = readFileSync(join(dir, 'server.ts'), 'utf8');
    expect(occurrences(out, 'When in ${city}?')).toBe(1);
    expect(occurrences(out, 'Who comes on ${day}?')).toBe(1);
    expect(out).toContain('const whenRequest: ElicitRequestFormParams = {');
    expect(out).toContain('const whoRequest = (day: string): ElicitRequestFormParams => ({');
    expect(out.indexOf('const whoRequest')).toBeLessThan(out.indexOf('if (state === undefined)'));

    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const first = await callTool(handler, { name: 'plan', arguments: { city: 'Oslo' } });
    expect(first.result?.inputRequests?.when?.params).toMatchObject({ message: 'When in Oslo?' });
    const second = await callTool(handler, { name: 'plan', arguments: { city: 'Oslo' }, inputResponses: { when: { action: 'accept', content: { day: 'Monday' } } }, requestState: first.result!.requestState as string });
    expect(second.result?.inputRequests?.who?.params).toMatchObject({ message: 'Who comes on Monday?' });
    // a retry without the answer asks the same question again, rebuilt from the carried local
    const again = await callTool(handler, { name: 'plan', arguments: { city: 'Oslo' }, requestState: second.result!.requestState as string });
    expect(again.result?.inputRequests?.who?.params).toMatchObject({ message: 'Who comes on Monday?' });
    const done = await callTool(handler, { name: 'plan', arguments: { city: 'Oslo' }, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: second.result!.requestState as string });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Oslo Monday Ada' }]);
  });

  it('reads arguments the handler changes before asking where the request was built, not above the phase switch', async () => {
    const dir = tempProject('request-params-changed', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('tag', { inputSchema: { item: z.object({ label: z.string() }) } }, async ({ item }) => {
    item.label = item.label.toUpperCase();
    effect('log');
    const tag = await server.server.elicitInput({ message: \`Tag for \${item.label}?\`, requestedSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } });
    effect('save');
    const ok = await server.server.elicitInput({ message: \`Save \${String(tag.content?.tag)}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: \`\${item.label} \${ok.action}\` }] };
  });
  return server;
}
`,
    });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    expect(result.files.flatMap((f) => f.sites).map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const out = readFileSync(join(dir, 'server.ts'), 'utf8');
    expect(out).toContain('const tagRequest = (): ElicitRequestFormParams => ({');
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const first = await callTool(handler, { name: 'tag', arguments: { item: { label: 'bug' } } });
    expect(first.result?.inputRequests?.tag?.params).toMatchObject({ message: 'Tag for BUG?' });
  });

  it('passes a property chain an earlier guard narrowed (not its local), so the request is built once and still compiles', async () => {
    const dir = tempProject('request-params-chain', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('trip', { inputSchema: { city: z.string() } }, async ({ city }) => {
    const dates = await server.server.elicitInput({ message: \`When in \${city}?\`, requestedSchema: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] } });
    if (dates.action !== 'accept' || !dates.content) return { content: [{ type: 'text', text: 'no' }] };
    const count = await server.server.elicitInput({ message: \`How many from \${String(dates.content.from)}?\`, requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });
    return { content: [{ type: 'text', text: \`\${String(dates.content.from)} x\${String(count.content?.n)}\` }] };
  });
  return server;
}
`,
    });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    expect(result.files.flatMap((f) => f.sites).map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const out = readFileSync(join(dir, 'server.ts'), 'utf8');
    expect(occurrences(out, 'How many from')).toBe(1);
    expect(out).toMatch(/const countRequest = \(from: [^)]+\): ElicitRequestFormParams => \(\{/);
    expect(out).toContain('countRequest(dates.content.from)');
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const first = await callTool(handler, { name: 'trip', arguments: { city: 'Oslo' } });
    const second = await callTool(handler, { name: 'trip', arguments: { city: 'Oslo' }, inputResponses: { dates: { action: 'accept', content: { from: 'May' } } }, requestState: first.result!.requestState as string });
    expect(second.result?.inputRequests?.count?.params).toMatchObject({ message: 'How many from May?' });
    const again = await callTool(handler, { name: 'trip', arguments: { city: 'Oslo' }, requestState: second.result!.requestState as string });
    expect(again.result?.inputRequests?.count?.params).toMatchObject({ message: 'How many from May?' });
    const done = await callTool(handler, { name: 'trip', arguments: { city: 'Oslo' }, inputResponses: { count: { action: 'accept', content: { n: 2 } } }, requestState: second.result!.requestState as string });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'May x2' }]);
  });
});
