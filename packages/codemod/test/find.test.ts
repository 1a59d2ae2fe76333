import { describe, expect, it } from 'vitest';
import { findHandlers, findRegistrations, findSites } from '../src/engine/find/index.js';
import { addSource, virtualProject } from './find-helpers.js';

const project = virtualProject();
const V1 = `import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
`;

function sitesOf(code: string, opts: { ext?: string; typeChecked?: boolean } = {}) {
  const sf = addSource(project, code, opts.ext ?? '.ts');
  return findSites(sf, { typeChecked: opts.typeChecked ?? true }).map((s) => ({
    line: s.line,
    method: s.method,
    shape: s.shape,
    receiverName: s.receiverName,
    awaited: s.awaited,
  }));
}

describe('findSites: v1 and v2 server shapes (typed)', () => {
  it('finds the three methods on McpServer.server, with receiver names', () => {
    const sites = sitesOf(`${V1}
const mcp = new McpServer({ name: 'x', version: '1' });
mcp.registerTool('t', {}, async () => {
  const user_name = await mcp.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
  const summary = await mcp.server.createMessage({ messages: [], maxTokens: 10 });
  await mcp.server.listRoots();
  return { content: [{ type: 'text', text: String(user_name.action) + summary.model }] };
});
`);
    expect(sites).toEqual([
      { line: 7, method: 'elicitation/create', shape: 'server-method', receiverName: 'user_name', awaited: true },
      { line: 8, method: 'sampling/createMessage', shape: 'server-method', receiverName: 'summary', awaited: true },
      { line: 9, method: 'roots/list', shape: 'server-method', receiverName: undefined, awaited: true },
    ]);
  });

  it('resolves low-level Server, this.server, aliases, helpers, bind/call and destructuring', () => {
    const sites = sitesOf(`${V1}
const low = new Server({ name: 'x', version: '1' }, { capabilities: {} });
class Tools { constructor(private server: Server) {}
  async a() { return this.server.listRoots(); } }
export async function confirm(server: Server, message: string) {
  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
export async function viaAlias(mcp: McpServer) {
  const s = mcp.server;
  const roots = await s.listRoots();
  const ask = s.elicitInput.bind(s);
  const reply = await ask({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
  const { createMessage } = low;
  const sample = await createMessage({ messages: [], maxTokens: 1 });
  const viaCall = await low.createMessage.call(low, { messages: [], maxTokens: 1 });
  return [roots, reply, sample, viaCall];
}
`);
    expect(sites.map((s) => [s.line, s.method, s.shape, s.receiverName])).toEqual([
      [7, 'roots/list', 'server-method', 'a'],
      [9, 'elicitation/create', 'server-method', 'answer'],
      [14, 'roots/list', 'server-method', 'roots'],
      [16, 'elicitation/create', 'alias-call', 'reply'],
      [18, 'sampling/createMessage', 'alias-call', 'sample'],
      [19, 'sampling/createMessage', 'alias-call', 'viaCall'],
    ]);
  });

  it('finds sendRequest (member and destructured), server.request, url errors and the completion notifier', () => {
    const sites = sitesOf(`${V1}
import { ElicitResultSchema, ListRootsResultSchema, CreateMessageResultSchema, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
const mcp = new McpServer({ name: 'x', version: '1' });
mcp.tool('a', async (extra) => {
  const choice = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
  return { content: [{ type: 'text', text: choice.action }] };
});
mcp.tool('b', async ({ sendRequest }) => {
  const sampled = await sendRequest({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 3 } }, CreateMessageResultSchema);
  const notLegacy = await sendRequest({ method: 'ping' }, CreateMessageResultSchema);
  return { content: [{ type: 'text', text: sampled.model + String(notLegacy) }] };
});
export async function roots() { return mcp.server.request({ method: 'roots/list' }, ListRootsResultSchema); }
export function needUrl() { throw new UrlElicitationRequiredError([{ mode: 'url', message: 'go', url: 'https://x', elicitationId: 'e' }]); }
export const notify = mcp.server.createElicitationCompletionNotifier('e');
`);
    expect(sites.map((s) => [s.line, s.method, s.shape])).toEqual([
      [8, 'elicitation/create', 'send-request'],
      [12, 'sampling/createMessage', 'send-request'],
      [16, 'roots/list', 'server-request'],
      [17, 'elicitation/create', 'url-elicitation-error'],
      [18, 'elicitation/create', 'completion-notifier'],
    ]);
  });

  it('takes UrlElicitationRequiredError as a site only when thrown (directly or through a variable), not when returned', () => {
    const sites = sitesOf(`${V1}
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
export function fromError(data: { elicitations: never[] }) {
  return new UrlElicitationRequiredError(data.elicitations, 'needs a URL flow');
}
export function kept(data: { elicitations: never[] }) {
  const error = new UrlElicitationRequiredError(data.elicitations);
  return error;
}
export function thrownLater(data: { elicitations: never[] }) {
  const error = new UrlElicitationRequiredError(data.elicitations);
  throw error;
}
export function thrown(data: { elicitations: never[] }) {
  throw new UrlElicitationRequiredError(data.elicitations);
}
`);
    expect(sites.map((s) => [s.line, s.method, s.shape])).toEqual([
      [14, 'elicitation/create', 'url-elicitation-error'],
      [18, 'elicitation/create', 'url-elicitation-error'],
    ]);
  });

  it('finds v2 push style ctx.mcpReq.* and instance server methods', () => {
    const sites = sitesOf(`import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.registerTool('t', { inputSchema: z.object({}) }, async (_args, ctx) => {
  const user_name = await ctx.mcpReq.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  const s = await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });
  const r = await ctx.mcpReq.send({ method: 'roots/list' });
  const i = await server.server.listRoots();
  return { content: [{ type: 'text', text: user_name.action + String(s) + String(r) + String(i) }] };
});
`);
    expect(sites.map((s) => [s.line, s.method, s.shape, s.receiverName])).toEqual([
      [5, 'elicitation/create', 'ctx-method', 'user_name'],
      [6, 'sampling/createMessage', 'ctx-method', 's'],
      [7, 'roots/list', 'ctx-send', 'r'],
      [8, 'roots/list', 'server-method', 'i'],
    ]);
  });

  it('finds raw JSON-RPC request objects handed to a send call', () => {
    const sites = sitesOf(`
export async function push(transport: { send(m: unknown): Promise<void> }) {
  await transport.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
  const msg = { jsonrpc: '2.0', id: 8, method: 'roots/list' };
  await transport.send(msg);
  console.log('elicitation/create is gone');
  const note = { jsonrpc: '2.0', method: 'roots/list' };
  return note;
}
`);
    expect(sites.map((s) => [s.line, s.method, s.shape])).toEqual([
      [3, 'sampling/createMessage', 'raw-jsonrpc'],
      [5, 'roots/list', 'raw-jsonrpc'],
    ]);
  });
});

describe('findSites: requests through untyped aliases, private fields and agent classes', () => {
  it('finds lowLevel.request through `(server as any).server ?? server`, a `#server` field and an McpAgent subclass', () => {
    const sf = addSource(
      project,
      `${V1}
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpAgent } from 'agents/mcp';
export async function ask(server: McpServer, message: string) {
  const lowLevel = (server as any).server ?? server;
  return lowLevel.request({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
}
export class Session {
  #server: Server;
  constructor(server: Server) { this.#server = server; }
  roots() { return this.#server.listRoots(); }
}
export class Agent extends McpAgent {
  async init() {
    const agent = this;
    await agent.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
    await this.elicitInput({ message: 'n', requestedSchema: { type: 'object', properties: {} } });
  }
}
`,
    );
    const sites = findSites(sf, { typeChecked: true });
    expect(sites.map((s) => [s.line, s.method, s.shape, s.obstacle === undefined ? 'sdk' : 'agent'])).toEqual([
      [9, 'elicitation/create', 'server-request', 'sdk'],
      [14, 'roots/list', 'server-method', 'sdk'],
      [19, 'elicitation/create', 'server-method', 'agent'],
      [20, 'elicitation/create', 'server-method', 'agent'],
    ]);
    expect(sites[2]!.obstacle).toContain('sent by the agent class `Agent`');
  });

  it('does not take another class\'s elicitInput, or one of a class that is not an McpAgent, for an agent request', () => {
    const sites = sitesOf(`
class Base { async elicitInput(p: { message: string; requestedSchema: object }) { return p.message; } }
export class Helper extends Base {
  async run() { return this.elicitInput({ message: 'm', requestedSchema: {} }); }
}
class McpAgent { elicitInput(p: object) { return p; } }
export class Local extends McpAgent { run() { return this.elicitInput({ message: 'm', requestedSchema: {} }); } }
`);
    expect(sites).toEqual([]);
  });
});

describe('findSites: look-alikes are not sites', () => {
  it('ignores a user elicitInput function, another library createMessage, client handlers and strings (typed)', () => {
    const sites = sitesOf(`import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
function elicitInput(message: string) { return message.toUpperCase(); }
class Chat { createMessage(x: { text: string }) { return x.text; } listRoots() { return []; } }
const chat = new Chat();
const server = new Chat();
export function run() {
  elicitInput('hello');
  chat.createMessage({ text: 'hi' });
  server.listRoots();
  const client = new Client({ name: 'c', version: '1' });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' as const }));
  return 'elicitation/create';
}
`);
    expect(sites).toEqual([]);
  });

  it('ignores the same look-alikes in plain JS (syntactic mode)', () => {
    const sites = sitesOf(
      `function elicitInput(message) { return message; }
const chat = require('chat-lib');
elicitInput('x');
chat.createMessage({ text: 'hi' });
client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
`,
      { ext: '.js', typeChecked: false },
    );
    expect(sites).toEqual([]);
  });
});

describe('findSites: plain JS (syntactic fallback)', () => {
  it('finds helpers taking the server, this.server, destructured sendRequest and aliases', () => {
    const sites = sitesOf(
      `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
async function confirmAction(server, message) {
  const confirmed = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return confirmed.action === 'accept';
}
class Wizard { constructor(server) { this.server = server; }
  async roots() { const list = await this.server.listRoots(); return list; } }
function register(mcp) {
  mcp.tool('x', async (args, { sendRequest }) => {
    const out = await sendRequest({ method: 'roots/list' });
    const s = mcp.server;
    const summary = await s.createMessage({ messages: [], maxTokens: 1 });
    return { content: [] , out, summary };
  });
}
module.exports = { confirmAction, Wizard, register };
`,
      { ext: '.cjs', typeChecked: false },
    );
    expect(sites.map((s) => [s.line, s.method, s.shape, s.receiverName])).toEqual([
      [3, 'elicitation/create', 'server-method', 'confirmed'],
      [7, 'roots/list', 'server-method', 'list'],
      [10, 'roots/list', 'send-request', 'out'],
      [12, 'sampling/createMessage', 'server-method', 'summary'],
    ]);
  });
});

describe('findHandlers / findRegistrations', () => {
  it('finds McpServer registrations of tools, prompts and resources with names', () => {
    const sf = addSource(
      project,
      `${V1}
const mcp = new McpServer({ name: 'x', version: '1' });
mcp.registerTool('greet', { inputSchema: { n: z.string() } }, async ({ n }) => ({ content: [{ type: 'text', text: n }] }));
mcp.tool('old', async () => ({ content: [] }));
mcp.registerPrompt('p', {}, async () => ({ messages: [] }));
mcp.prompt('p2', async () => ({ messages: [] }));
async function readIt(uri: URL) { return { contents: [{ uri: uri.href, text: 'x' }] }; }
mcp.resource('static', 'file:///a', readIt);
mcp.registerResource('tmpl', new ResourceTemplate('file:///{p}', { list: undefined }), {}, async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));
`,
    );
    const handlers = findHandlers(sf, { typeChecked: true });
    expect(handlers.map((h) => [h.registration, h.method, h.name, h.fn.getKindName()])).toEqual([
      ['registerTool', 'tools/call', 'greet', 'ArrowFunction'],
      ['tool', 'tools/call', 'old', 'ArrowFunction'],
      ['registerPrompt', 'prompts/get', 'p', 'ArrowFunction'],
      ['prompt', 'prompts/get', 'p2', 'ArrowFunction'],
      ['resource', 'resources/read', 'static', 'FunctionDeclaration'],
      ['registerResource', 'resources/read', 'tmpl', 'ArrowFunction'],
    ]);
  });

  it('finds low-level handlers with switch and map dispatch, and non-MRTR registrations', () => {
    const sf = addSource(
      project,
      `${V1}
import { CallToolRequestSchema, GetPromptRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } });
async function alpha() { return { content: [] }; }
async function beta() { return { content: [] }; }
const tools = { gamma: async () => ({ content: [] }), delta: alpha };
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'alpha': return alpha();
    case 'beta': return await beta();
    default: throw new Error('unknown');
  }
});
server.setRequestHandler(GetPromptRequestSchema, async (request) => {
  const fn = tools[request.params.name as keyof typeof tools];
  return fn() as never;
});
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {});
`,
    );
    const { handlers, others } = findRegistrations(sf, { typeChecked: true });
    expect(handlers.map((h) => [h.method, h.registration, (h.dispatchTargets ?? []).map((t) => t.getText().slice(0, 20))])).toEqual([
      ['tools/call', 'setRequestHandler', ['async function alpha', 'async function beta(']],
      ['prompts/get', 'setRequestHandler', ['async () => ({ conte', 'async function alpha']],
    ]);
    expect(others.map((o) => [o.kind, o.method])).toEqual([
      ['request', 'tools/list'],
      ['notification', 'RootsListChangedNotificationSchema'],
    ]);
  });
});
