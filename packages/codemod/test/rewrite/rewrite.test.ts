/**
 * Rewrite-stage semantics on small real-world shaped projects, migrated by the real engine
 * (migrateProject with a tsconfig) and, where it matters, served to raw 2026-07-28 requests.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import type { MigrationResult, SiteResult } from '../../src/types.js';
import { callTool } from '../security/raw-rpc.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

process.env.MCP_REQUEST_STATE_KEY ??= 'rewrite-test-key-0123456789abcdef0123456789abcdef';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function migrate(name: string, files: Record<string, string>): Promise<{ dir: string; result: MigrationResult; read: (f: string) => string; sites: SiteResult[] }> {
  const dir = tempProject(`rewrite-${name}`, files);
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { dir, result, read: (f) => readFileSync(join(dir, f), 'utf8'), sites: result.files.flatMap((f) => f.sites) };
}

/** A 2026-07-28 tools/call whose envelope declares URL-mode elicitation. */
async function rawCall(handler: { fetch(r: Request): Promise<Response> }, name: string, args: Record<string, unknown>, inputResponses?: Record<string, unknown>) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
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
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-method': 'tools/call', 'mcp-name': name, 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  const json = (response.headers.get('content-type')?.includes('text/event-stream')
    ? JSON.parse(text.split('\n').find((l) => l.startsWith('data:'))!.slice(5))
    : JSON.parse(text)) as { result?: { resultType?: string; inputRequests?: Record<string, { method: string; params: Record<string, unknown> }> }; error?: { code: number } };
  return json;
}

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\n`;

describe('rewrite stage', () => {
  it('rewrites a helper imported from another file and every call site, keys named by the receiving variables', async () => {
    const { read, sites } = await migrate('helper-file', {
      'confirm.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export async function confirm(server: McpServer, message: string): Promise<boolean> {
  if (!server.server.getClientCapabilities()?.elicitation) return true;
  const answer = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
  return answer.action === 'accept' && answer.content?.ok === true;
}
`,
      'server.ts': `${V1}import { confirm } from './confirm.js';
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('drop', { inputSchema: { table: z.string() } }, async ({ table }) => {
    const dropIt = await confirm(server, \`Drop \${table}?\`);
    return { content: [{ type: 'text', text: dropIt ? 'dropped' : 'kept' }] };
  });
  server.registerTool('wipe', { inputSchema: { disk: z.string() } }, async ({ disk }) => {
    const wipeIt = await confirm(server, \`Wipe \${disk}?\`);
    return { content: [{ type: 'text', text: wipeIt ? 'wiped' : 'kept' }] };
  });
  return server;
}
`,
    });
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    const helper = read('confirm.ts');
    expect(helper).toContain('export async function confirm(server: McpServer, message: string, ctx: ServerContext, answerKey: string): Promise<boolean | InputRequiredResult>');
    expect(helper).toContain("inputRequests: { [answerKey]: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(");
    expect(helper).not.toContain('elicitInput');
    const server = read('server.ts');
    expect(server).toContain("await confirm(server, `Drop ${table}?`, ctx, 'dropIt')");
    expect(server).toContain("await confirm(server, `Wipe ${disk}?`, ctx, 'wipeIt')");
    expect(server.match(/if \(isInputRequiredResult\((dropIt|wipeIt)\)\) return \1;/g)).toHaveLength(2);
  });

  it('flags a helper that a timer also calls, keeps it for the timer and migrates a copy for the tool', async () => {
    const helper = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export async function summarize(server: McpServer, text: string): Promise<string> {
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`;
    const { read, sites } = await migrate('helper-timer', {
      'summarize.ts': helper,
      'server.ts': `${V1}import { summarize } from './summarize.js';
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('sum', { inputSchema: { text: z.string() } }, async ({ text }) => {
    const summary = await summarize(server, text);
    return { content: [{ type: 'text', text: summary }] };
  });
  setInterval(() => void summarize(server, 'daily digest'), 60_000);
  return server;
}
`,
    });
    expect(sites).toHaveLength(1);
    expect(sites[0]!.status).toBe('flagged');
    expect(sites[0]!.reason).toMatch(/timer|setInterval|fire-and-forget/);
    // The v1 upgrade still applies to the file (semantics 14); the helper keeps sending for the timer
    // (its parameters built by the function it shares with its copy), and the tool calls a migrated copy.
    const after = read('summarize.ts');
    const kept = after.slice(after.indexOf('export async function summarize('), after.indexOf('// A copy of `summarize`'));
    expect(kept).toContain('export async function summarize(server: McpServer, text: string): Promise<string> {');
    expect(kept).toContain('const reply = await server.server.createMessage(summarizeRequest(text));');
    expect(kept).not.toMatch(/inputRequired|ctx|key: string/);
    expect(after).toContain('export async function summarizeForHandlers(server: McpServer, text: string, ctx: ServerContext, replyKey: string)');
    expect(read('server.ts')).toContain('await summarizeForHandlers(server, text, ctx, ');
    expect(sites[0]!.reason).toContain('migrated for tools/call handler `sum`, which now calls `summarizeForHandlers`');
  });

  it('treats braced switch cases ending in break as exclusive paths: one request per case stays write-once', async () => {
    const { read, sites } = await migrate('switch-braced-cases', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('pick', { inputSchema: { mode: z.string() } }, async ({ mode }) => {
    let text = '';
    switch (mode) {
      case 'name': {
        const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
        text = answer.action;
        break;
      }
      case 'city': {
        const answer = await server.server.elicitInput({ message: 'City?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } });
        text = answer.action;
        break;
      }
    }
    return { content: [{ type: 'text', text }] };
  });
  return server;
}
`,
    });
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
    // Write-once: no phase state travels in requestState.
    expect(read('server.ts')).not.toContain('requestState');
  });

  it('names the pairs in sequence when the other requests are in exclusive switch cases', async () => {
    const { sites } = await migrate('switch-case-pairs', {
      'tag.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function ask(server: Server, text: string): Promise<string> {
  const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`,
      'server.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ask } from './tag.js';
export function createServer(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.text ?? '');
    const out: { summary?: string; tags?: string } = {};
    switch (request.params.name) {
      case 'save': {
        try {
          out.summary = await ask(server, 'summarize ' + text);
        } catch {}
        try {
          out.tags = await ask(server, 'tag ' + (out.summary ?? text));
        } catch {}
        break;
      }
      case 'update': {
        try {
          out.summary = await ask(server, 'summarize again ' + text);
        } catch {}
        break;
      }
    }
    return { content: [{ type: 'text', text: JSON.stringify(out) }] };
  });
  return server;
}
`,
    });
    const [site] = sites.filter((s) => s.method === 'sampling/createMessage');
    expect(site!.status).toBe('flagged');
    // The lines of server.ts as written, named with it (the request is in tag.ts): the two calls of the 'save' case; 'update' asks once, on its own path.
    expect(site!.reason).toMatch(/^requests in sequence on one path \(lines 12 of server\.ts and 15 of server\.ts; every other pair is on mutually exclusive paths\); they are not asked in one round: the second request's condition or arguments read `out.summary`, the first one's answer/);
  });

  it('asks two conditional, try-wrapped helper calls of one case in one round', async () => {
    const { sites, read } = await migrate('switch-case-guarded-pairs', {
      'tag.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function ask(server: Server, text: string): Promise<string> {
  const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`,
      'server.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ask } from './tag.js';
export function createServer(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as { text: string; summarize?: boolean; tag?: boolean };
    let summary: string | undefined;
    let tags: string | undefined;
    switch (request.params.name) {
      case 'save': {
        if (args.summarize) {
          try {
            summary = await ask(server, 'summarize ' + args.text);
          } catch {}
        }
        if (args.tag) {
          try {
            tags = await ask(server, 'tag ' + args.text);
          } catch {}
        }
        break;
      }
    }
    return { content: [{ type: 'text', text: JSON.stringify({ summary, tags }) }] };
  });
  return server;
}
`,
    });
    const asks = sites.filter((s) => s.method === 'sampling/createMessage');
    expect(asks.map((s) => s.status)).toEqual(['migrated']);
    expect(asks[0]!.reason).toMatch(/^write-once/);
    const out = read('server.ts');
    // Each call collects its pending request in place; one return after the second block asks both.
    expect(out).toContain("const summaryStep = await ask(server, 'summarize ' + args.text, ctx, 'summary');");
    expect(out).toContain("const tagsStep = await ask(server, 'tag ' + args.text, ctx, 'tags');");
    expect(out.match(/pendingInputs\.push\(/g)).toHaveLength(2);
    expect(out.indexOf('if (pendingInputs.length > 0) return inputRequired(')).toBeGreaterThan(out.indexOf('tagsStep'));
  });

  it('says why a try-wrapped helper call whose condition reads the earlier answer is not asked in the same round', async () => {
    const { sites } = await migrate('switch-case-guarded-dependent', {
      'tag.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function ask(server: Server, text: string): Promise<string> {
  const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`,
      'server.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ask } from './tag.js';
export function createServer(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as { text: string; summarize?: boolean; tag?: boolean };
    let summary: string | undefined;
    let tags: string | undefined;
    switch (request.params.name) {
      case 'save': {
        if (args.summarize) {
          try {
            summary = await ask(server, 'summarize ' + args.text);
          } catch {}
        }
        if (args.tag && !summary) {
          try {
            tags = await ask(server, 'tag ' + args.text);
          } catch {}
        }
        break;
      }
    }
    return { content: [{ type: 'text', text: JSON.stringify({ summary, tags }) }] };
  });
  return server;
}
`,
    });
    const [site] = sites.filter((s) => s.method === 'sampling/createMessage');
    expect(site!.status).toBe('flagged');
    expect(site!.reason).toContain("2 requests in sequence; they are not asked in one round: the second request's condition or arguments read `summary`, the first one's answer");
  });

  it('says why a try-wrapped helper call whose catch block has an effect is not asked in the same round', async () => {
    const { sites } = await migrate('switch-case-guarded-catch-effect', {
      'tag.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function ask(server: Server, text: string): Promise<string> {
  const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`,
      'server.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ask } from './tag.js';
export function createServer(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as { text: string; summarize?: boolean; tag?: boolean };
    let summary: string | undefined;
    let tags: string | undefined;
    switch (request.params.name) {
      case 'save': {
        if (args.summarize) {
          try {
            summary = await ask(server, 'summarize ' + args.text);
          } catch {}
        }
        if (args.tag) {
          try {
            tags = await ask(server, 'tag ' + args.text);
          } catch { await server.sendLoggingMessage({ level: 'info', data: 'no tags' }); }
        }
        break;
      }
    }
    return { content: [{ type: 'text', text: JSON.stringify({ summary, tags }) }] };
  });
  return server;
}
`,
    });
    const [site] = sites.filter((s) => s.method === 'sampling/createMessage');
    expect(site!.status).toBe('flagged');
    expect(site!.reason).toContain('they are not asked in one round: the catch block at line 20 of server.ts runs `server.sendLoggingMessage({ level: \'info\', data: \'no tags\' …`, which would repeat on the answer round');
  });

  it('flags a handler whose live value after an effect is a class instance, naming the value', async () => {
    const source = `${V1}import { effect } from '../../../../fixtures/support/effects.js';
class Ledger { entries: string[] = []; add(e: string) { this.entries.push(e); } }
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('pay', { inputSchema: { amount: z.number() } }, async ({ amount }) => {
    const ledger = new Ledger();
    effect('reserve');
    const ok = await server.server.elicitInput({ message: \`Pay \${amount}?\`, requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } });
    ledger.add(ok.action);
    return { content: [{ type: 'text', text: ledger.entries.join(',') }] };
  });
  return server;
}
`;
    const { sites } = await migrate('live-class', { 'server.ts': source });
    expect(sites).toHaveLength(1);
    expect(sites[0]!.status).toBe('flagged');
    expect(sites[0]!.reason).toContain('`ledger`');
    expect(sites[0]!.reason).toMatch(/not JSON-serialisable/);
  });

  it('gives two requests received by the same variable distinct, stable keys', async () => {
    const { read, sites } = await migrate('keys', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('two', { inputSchema: { q: z.string() } }, async ({ q }) => {
    let answer = await server.server.elicitInput({ message: q, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    const first = String(answer.content?.a);
    answer = await server.server.elicitInput({ message: first, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    return { content: [{ type: 'text', text: first + String(answer.content?.a) }] };
  });
  return server;
}
`,
    });
    expect(sites.map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const out = read('server.ts');
    expect(out).toContain("inputRequests: { answer: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(");
    expect(out).toContain("inputRequests: { answer_2: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(");
  });

  it('wires requestState verification into a server constructed in another file', async () => {
    const { read, sites } = await migrate('wiring', {
      'tools.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { effect } from '../../../../fixtures/support/effects.js';
export function registerTools(server: McpServer): void {
  server.registerTool('archive', { inputSchema: { id: z.string() } }, async ({ id }) => {
    effect('lock');
    const why = await server.server.elicitInput({ message: \`Why archive \${id}?\`, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } });
    effect('archive');
    return { content: [{ type: 'text', text: \`\${id}: \${why.action}\` }] };
  });
}
`,
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools } from './tools.js';
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} } });
  registerTools(server);
  return server;
}
`,
    });
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    const server = read('server.ts');
    expect(server).toContain('requestState: { verify: requestStateCodec.verify }');
    expect(server).toMatch(/import \{ requestStateCodec \} from '\.\/mcp-request-state\.js';/);
    expect(read('tools.ts')).toContain('requestStateCodec.mint(');
  });

  it('turns UrlElicitationRequiredError into an elicitUrl round and keeps the legacy error once answered', async () => {
    const { dir, sites } = await migrate('url', {
      'server.ts': `${V1}import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('events', { inputSchema: { account: z.string() } }, async ({ account }) => {
    if (account !== 'linked') {
      throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Connect first', url: \`https://example.com/connect?a=\${account}\`, elicitationId: 'c1' }]);
    }
    return { content: [{ type: 'text', text: 'events' }] };
  });
  return server;
}
`,
    });
    expect(sites.map((s) => s.status)).toEqual(['migrated']);
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const noUrl = await callTool(handler, { name: 'events', arguments: { account: 'bob' } });
    expect(noUrl.result).toBeUndefined(); // client without URL elicitation: the legacy error is thrown, as before
    expect(noUrl.error).toBeDefined();
    const first = await rawCall(handler, 'events', { account: 'bob' });
    expect(first.error).toBeUndefined();
    expect(first.result?.resultType).toBe('input_required');
    const request = Object.values(first.result!.inputRequests!)[0]!;
    expect(request.method).toBe('elicitation/create');
    expect(request.params).toMatchObject({ mode: 'url', message: 'Connect first', url: 'https://example.com/connect?a=bob' });
    const answered = await rawCall(handler, 'events', { account: 'bob' }, { [Object.keys(first.result!.inputRequests!)[0]!]: { action: 'accept' } });
    expect(answered.result).toBeUndefined(); // answered but still not linked: the legacy error
    expect(answered.error).toBeDefined();
    const linked = await callTool(handler, { name: 'events', arguments: { account: 'linked' } });
    expect(linked.result?.content).toEqual([{ type: 'text', text: 'events' }]);
  });

  it('re-asks on a missing or malformed answer and rejects accepted content that breaks requestedSchema, as v1 did', async () => {
    const { dir } = await migrate('validate', {
      'server.ts': `${V1}export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('greet', {}, async () => {
    const user_name = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return { content: [{ type: 'text', text: user_name.action === 'accept' ? \`hi \${String(user_name.content?.name)}\` : user_name.action }] };
  });
  return server;
}
`,
    });
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => McpServer };
    const handler = createMcpHandler(() => mod.createServer());
    const bad = await callTool(handler, { name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 12345 } } } });
    const rejected = bad.error?.message ?? (bad.result?.isError ? JSON.stringify(bad.result.content) : undefined);
    expect(rejected).toMatch(/does not match requested schema/);
    const notAnObject = await callTool(handler, { name: 'greet', arguments: {}, inputResponses: { user_name: 12345 } });
    expect(notAnObject.result?.resultType).toBe('input_required');
    expect(Object.keys(notAnObject.result!.inputRequests!)).toEqual(['user_name']);
    const wrongKey = await callTool(handler, { name: 'greet', arguments: {}, inputResponses: { other: { action: 'accept', content: { name: 'x' } } } });
    expect(wrongKey.result?.resultType).toBe('input_required');
    const good = await callTool(handler, { name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } }, extra: { action: 'cancel' } } });
    expect(good.result?.content).toEqual([{ type: 'text', text: 'hi Ada' }]);
    const declined = await callTool(handler, { name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'decline' } } });
    expect(declined.result?.content).toEqual([{ type: 'text', text: 'decline' }]);
  });
});

describe('rewrite stage: tools dispatched through a table', () => {
  const LOW = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { effect } from './effects.js';
async function wipe(server: Server): Promise<CallToolResult> {
  const answer = await server.elicitInput({ message: 'Wipe?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return { content: [{ type: 'text', text: answer.action }] };
}
const handlers: Record<string, (server: Server) => Promise<CallToolResult>> = { wipe };
`;
  const EFFECTS = 'export const audit: string[] = [];\nexport function effect(name: string): void {\n  audit.push(name);\n}\n';
  const serve = (body: string) => `${LOW}export function createServer(): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
${body}
  return server;
}
`;

  it('flags a tool function run through a wrapper whose returned callback also serves another registration that asks, naming both registrations', async () => {
    const { read, sites } = await migrate('wrapper-shared', {
      'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'x', version: '1.0.0' });
  async function askReason(id: string) {
    const r = await mcp.server.elicitInput({ message: 'Why ' + id + '?', requestedSchema: { type: 'object', properties: { reason: { type: 'string' } } } });
    return r.action === 'accept' ? String(r.content?.reason) : undefined;
  }
  mcp.tool('close_ticket', { id: z.string() }, withParams(async (p) => ({ content: [{ type: 'text' as const, text: String(await askReason(p.id)) }] })));
  mcp.tool('reopen_ticket', { id: z.string() }, withParams(async (p) => ({ content: [{ type: 'text' as const, text: String(await askReason(p.id)) }] })));
  return mcp;
}
function withParams<R>(fn: (p: { id: string }) => Promise<R>) {
  return async (args: Record<string, unknown>) => fn({ id: String(args.id) });
}
`,
    });
    expect(sites).toHaveLength(1);
    expect(sites[0]!.status).toBe('flagged');
    expect(sites[0]!.reason).toMatch(/the callback `withParams\(\.\.\.\)` returns \(line 14\) runs this tool function for the registration at line 9 and another for the one at line 10; it can be rewritten for one registration only/);
    expect(read('server.ts')).not.toMatch(/ServerContext|InputRequiredResult/);
  });

  it('flags, with the real obstacle, a dispatcher that runs an effect before the call, calls it in a callback, or a tool function also called directly', async () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'effect-first',
        `  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    effect('audit');
    return handlers[request.params.name]!(server);
  });`,
        /runs `effect\('audit'\)` \(line \d+\) before the dispatching call `handlers\[request\.params\.name\]!\(server\)` \(line \d+\); it would run again on every round/,
      ],
      [
        'callback',
        `  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    return Promise.resolve().then(() => handlers[request.params.name]!(server));
  });`,
        /runs inside a nested callback of the handler, which does not return its result/,
      ],
      [
        'direct-call',
        `  server.setRequestHandler(CallToolRequestSchema, async (request) => handlers[request.params.name]!(server));
  void wipe(server);`,
        /`wipe` is also used at server\.ts:\d+, outside the table dispatch/,
      ],
    ];
    for (const [name, body, reason] of cases) {
      const { read, sites } = await migrate(`dispatch-${name}`, { 'server.ts': serve(body), 'effects.ts': EFFECTS });
      expect(sites, name).toHaveLength(1);
      expect(sites[0]!.status, name).toBe('flagged');
      expect(sites[0]!.reason, name).toMatch(reason);
      // left as it was (a marker's advice aside): no context parameter, no widened result type
      expect(read('server.ts'), name).not.toMatch(/ServerContext|InputRequiredResult/);
    }
  }, 240_000);

  it('migrates the table function, passes the context and serves a 2026-07-28 round', async () => {
    const { dir, read, sites } = await migrate('dispatch-ok', {
      'server.ts': serve(`  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const handler = handlers[request.params.name];
    if (!handler) throw new Error('unknown tool');
    return handler(server);
  });`),
      'effects.ts': EFFECTS,
    });
    expect(sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'wipe']]);
    const out = read('server.ts');
    expect(out).toContain('async function wipe(server: Server, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {');
    expect(out).toContain('Record<string, (server: Server, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>>');
    expect(out).toContain('return handler(server, ctx);');
    const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer(): McpServer };
    const first = await rawCall(createMcpHandler(mod.createServer), 'wipe', {});
    expect(first.result?.resultType).toBe('input_required');
    expect(Object.values(first.result?.inputRequests ?? {}).map((r) => r.method)).toEqual(['elicitation/create']);
  });
});
