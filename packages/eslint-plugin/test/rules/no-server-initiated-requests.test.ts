import { NON_HANDLER_ADVICE } from '@mcp-mrtr/surface';
import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import rule from '../../src/rules/no-server-initiated-requests.js';
import { CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester, typedTester } from '../helpers/rule-tester.js';

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst mcp = new McpServer({ name: 'x', version: '1' });\n`;
const LOW = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nimport { CallToolRequestSchema, ElicitResultSchema, ListRootsResultSchema, CreateMessageResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nconst server = new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } });\n`;

const inHandler = (messageId = 'legacyRequest') => ({ messageId });

/** Cases written in plain JavaScript: run through both parsers. */
const shared = {
  valid: [
    // client side: answering legacy requests is not sending them
    `client.setRequestHandler('elicitation/create', async (request) => ({ action: 'accept', content: {} }));`,
    `import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nclient.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));`,
    `client.setRequestHandler(ElicitRequestSchema, async () => { const r = await ui.elicitInput(); return r; });`,
    // look-alikes: own functions and unrelated libraries
    `async function elicitInput(message) { return prompt(message); }\nawait elicitInput('name?');`,
    `const chat = new ChatClient();\nawait chat.createMessage({ text: 'hi' });`,
    `const { createMessage } = chatSdk;\nawait createMessage({ text: 'hi' });`,
    `await anthropic.messages.create({ model: 'x', messages: [] });`,
    `await slack.listRoots();`,
    `import { Client as Core } from '@slack/web-api';\nconst core = new Core(token);\nawait core.listRoots();`,
    `function watch(observer) { return observer.createMessage({ text: 'hi' }); }`,
    // strings in logs and docs
    `console.log('server sent elicitation/create, sampling/createMessage and roots/list');\nconst doc = 'call mcp.server.elicitInput() to ask the user';`,
    // generic senders with other methods, or without evidence
    `await extra.sendRequest({ method: 'ping' }, EmptyResultSchema);`,
    `await client.request({ method: 'tools/call', params: { name: 't' } }, CallToolResultSchema);`,
    `await client.request({ method: 'roots/list' }, ListRootsResultSchema);`,
    `ws.send(JSON.stringify({ type: 'message' }));\nres.send({ method: 'elicitation/create' });`,
    `await this.request({ method: 'elicitation/create', params }, ElicitResultSchema);`,
    // the SDK rebuilding the error from error data (client side), not throwing it
    `static fromError(code, message, data) { if (data) return new UrlElicitationRequiredError(data.elicitations, message); }`.replace('static ', 'function '),
    // a JSON-RPC *response* is not a request
    `const reply = { jsonrpc: '2.0', id: 1, result: { action: 'accept' } };`,
  ],
  invalid: [
    { code: V1 + `mcp.tool('t', {}, async () => { const r = await mcp.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }); return { content: [] }; });`, errors: [inHandler()] },
    { code: V1 + `mcp.registerTool('t', {}, async () => { await mcp.server.createMessage({ messages: [], maxTokens: 10 }); await mcp.server.listRoots(); return { content: [] }; });`, errors: [inHandler(), inHandler()] },
    // low-level Server, schema registration
    { code: LOW + `server.setRequestHandler(CallToolRequestSchema, async (req, extra) => { await server.elicitInput({ message: 'x', requestedSchema: {} }); return { content: [] }; });`, errors: [inHandler()] },
    // the SDK's server class under another name: an aliased import, a namespace import, a require
    {
      code: `import { Server as Core } from '@modelcontextprotocol/sdk/server/index.js';\nconst core = new Core({ name: 'x', version: '1' }, {});\ncore.setRequestHandler(CallToolRequestSchema, async () => { await core.elicitInput({ message: 'x', requestedSchema: {} }); return { content: [] }; });`,
      errors: [{ messageId: 'legacyRequest', line: 3 }],
    },
    {
      code: `import * as sdk from '@modelcontextprotocol/sdk/server/index.js';\nconst core = new sdk.Server({ name: 'x', version: '1' }, {});\ncore.setRequestHandler(CallToolRequestSchema, async () => { await core.listRoots(); return { content: [] }; });`,
      errors: [{ messageId: 'legacyRequest', line: 3 }],
    },
    {
      code: `const { Server: Core } = require('@modelcontextprotocol/sdk/server/index.js');\nconst core = new Core({ name: 'x', version: '1' }, {});\ncore.setRequestHandler(CallToolRequestSchema, async () => { await core.createMessage({ messages: [], maxTokens: 5 }); return { content: [] }; });`,
      errors: [{ messageId: 'legacyRequest', line: 3 }],
    },
    // this.server in a class
    { code: `class Tools {\n  constructor(server) { this.server = server; }\n  async ask() { return this.server.elicitInput({ message: 'x', requestedSchema: {} }); }\n}`, errors: [inHandler()] },
    // alias of the inner server
    { code: V1 + `const s = mcp.server;\nmcp.tool('t', {}, async () => { const roots = await s.listRoots(); return { content: [] }; });`, errors: [inHandler()] },
    // .bind reference and the calls through it; .call
    { code: V1 + `const ask = mcp.server.elicitInput.bind(mcp.server);\nmcp.tool('t', {}, async () => { await ask({ message: 'x', requestedSchema: {} }); return { content: [] }; });`, errors: [{ messageId: 'legacyRequest', line: 3 }, { messageId: 'legacyRequest', line: 4 }] },
    { code: V1 + `mcp.tool('t', {}, async () => { await mcp.server.createMessage.call(mcp.server, { messages: [], maxTokens: 5 }); return { content: [] }; });`, errors: [inHandler()] },
    // destructured methods
    { code: V1 + `mcp.tool('t', {}, async () => { const { elicitInput, listRoots: roots } = mcp.server; await elicitInput({ message: 'x', requestedSchema: {} }); await roots(); return { content: [] }; });`, errors: [inHandler(), inHandler(), inHandler(), inHandler()] },
    // extra.sendRequest with the method or only the schema
    { code: V1 + `mcp.tool('t', {}, async (args, extra) => { await extra.sendRequest({ method: 'elicitation/create', params: { message: 'x', requestedSchema: {} } }, ElicitResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async (args, extra) => { const req = { method: 'sampling/createMessage', params: {} };\n  await extra.sendRequest(req, CreateMessageResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async (args, extra) => { await extra.sendRequest(request, ListRootsResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    // destructured sendRequest
    { code: V1 + `mcp.tool('t', {}, async (args, { sendRequest }) => { await sendRequest({ method: 'roots/list' }, ListRootsResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    // server.request({ method })
    { code: LOW + `server.setRequestHandler(CallToolRequestSchema, async () => { await server.request({ method: 'sampling/createMessage', params: {} }, CreateMessageResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async () => { await mcp.server.request({ method: 'elicitation/create', params: {} }, ElicitResultSchema); return { content: [] }; });`, errors: [inHandler()] },
    // v2 push style
    { code: `server.registerTool('t', {}, async (args, ctx) => { await ctx.mcpReq.elicitInput({ message: 'x', requestedSchema: {} }); await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 1 }); await ctx.mcpReq.send({ method: 'roots/list' }); return { content: [] }; });`, errors: [inHandler(), inHandler(), inHandler()] },
    { code: `server.registerTool('t', {}, async (args, { mcpReq }) => { await mcpReq.elicitInput({ message: 'x', requestedSchema: {} }); return { content: [] }; });`, errors: [inHandler()] },
    { code: `server.registerTool('t', {}, async (args, ctx) => { const { requestSampling } = ctx.mcpReq; await requestSampling({ messages: [] }); return { content: [] }; });`, errors: [inHandler(), inHandler()] },
    // v2 instance server
    { code: `import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 'x', version: '1' });\nserver.registerTool('t', {}, async () => { await server.createMessage({ messages: [] }); return { content: [] }; });`, errors: [inHandler()] },
    // raw JSON-RPC request objects sent by server code
    { code: `server.registerTool('t', {}, async () => { transport.send({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: { message: 'x' } }); return { content: [] }; });`, errors: [inHandler()] },
    { code: `const ASK = { jsonrpc: '2.0', id: 1, method: 'roots/list', params: {} };\nexport default ASK;`, errors: [{ messageId: 'legacyRequest' }] },
    // URL elicitation error and completion notifier
    { code: V1 + `mcp.tool('t', {}, async () => { throw new UrlElicitationRequiredError([{ mode: 'url', url: 'https://x', message: 'Log in', elicitationId: 'e1' }]); });`, errors: [inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async () => { const err = new UrlElicitationRequiredError([]);\n  throw err; });`, errors: [inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async () => { const notify = mcp.server.createElicitationCompletionNotifier('e1'); await notify(); return { content: [] }; });`, errors: [inHandler()] },
    // helper called from a handler: has an MRTR form
    { code: V1 + `async function confirm(server, message) { const r = await server.server.elicitInput({ message, requestedSchema: {} }); return r.action === 'accept'; }\nmcp.tool('t', {}, async () => { if (!(await confirm(mcp, 'Sure?'))) return { content: [] }; return { content: [] }; });`, errors: [inHandler()] },
    // wrapped handler
    { code: V1 + `mcp.tool('t', {}, withLogging(async () => { await mcp.server.listRoots(); return { content: [] }; }));`, errors: [inHandler()] },
    // fire-and-forget inside a handler: no MRTR form either
    { code: V1 + `mcp.tool('t', {}, async () => { mcp.server.listRoots().then((r) => cache.set(r)).catch(() => {}); return { content: [] }; });`, errors: [{ messageId: 'detachedRequest' }] },
    { code: `server.registerTool('t', {}, async (args, ctx) => { void ctx.mcpReq.elicitInput({ message: 'x', requestedSchema: {} }); return { content: [] }; });`, errors: [{ messageId: 'detachedRequest' }] },
    { code: V1 + `mcp.tool('t', {}, async () => { const p = mcp.server.listRoots(); return { content: [{ type: 'text', text: String((await p).roots.length) }] }; });`, errors: [inHandler()] },
    // handler passed by name
    { code: V1 + `async function handle() { await mcp.server.listRoots(); return { content: [] }; }\nmcp.tool('t', {}, handle);`, errors: [inHandler()] },
  ],
};

/** Sites outside any MRTR-capable handler: the message says there is no MRTR form, with advice. */
const outside = [
  { code: V1 + `mcp.server.oninitialized = async () => { await mcp.server.listRoots(); };`, context: 'lifecycle-hook' },
  { code: V1 + `setInterval(async () => { await mcp.server.createMessage({ messages: [] }); }, 1000);`, context: 'timer' },
  { code: LOW + `server.setNotificationHandler(RootsListChangedNotificationSchema, async () => { await server.listRoots(); });`, context: 'notification-handler' },
  { code: LOW + `server.setRequestHandler(ListToolsRequestSchema, async () => { await server.listRoots(); return { tools: [] }; });`, context: 'non-mrtr-request-handler' },
  { code: V1 + `const roots = await mcp.server.listRoots();`, context: 'module-scope' },
  { code: V1 + `process.on('SIGHUP', async () => { await mcp.server.elicitInput({ message: 'x', requestedSchema: {} }); });`, context: 'event-emitter' },
  { code: V1 + `app.post('/hook', async (req, res) => { await mcp.server.createMessage({ messages: [] }); res.end(); });`, context: 'http-route' },
  // helper reached only from a timer
  { code: V1 + `async function refresh() { await mcp.server.listRoots(); }\nsetTimeout(refresh, 10);`, context: 'timer' },
  // resource-template list and completable callbacks are not resources/read
  { code: V1 + `mcp.resource('r', new ResourceTemplate('x://{id}', { list: async () => { await mcp.server.listRoots(); return { resources: [] }; } }), async (uri) => ({ contents: [] }));`, context: 'non-mrtr-request-handler' },
  { code: V1 + `mcp.prompt('p', { lang: completable(z.string(), async () => { await mcp.server.listRoots(); return []; }) }, async () => ({ messages: [] }));`, context: 'non-mrtr-request-handler' },
] as const;

/** The sender arrives typed, not named like a server: a local interface, the SDK's `Server` on a parameter. */
const WIRED = `import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
interface Wired { elicitInput(p: ElicitRequest['params']): Promise<ElicitResult> }
let wired: Wired | undefined;
export function wire(w: Wired) { wired = w; }
export async function askChoice(msg: string) { return wired!.elicitInput({ message: msg, requestedSchema: { type: 'object', properties: {} } }); }`;
const typedSenders = [
  { code: WIRED, errors: [{ messageId: 'legacyRequest', line: 5 }] },
  // a type alias with two legacy methods is server-shaped without MCP type names
  { code: `type Wire = { createMessage(p: object): Promise<unknown>; listRoots(): Promise<unknown> };
const link: Wire = getLink();
export const roots = () => link.listRoots();`, errors: [{ messageId: 'legacyRequest' }] },
  { code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function confirmWith(s: Server, q: string) { const r = await s.elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }); return r.action === 'accept'; }`, errors: [{ messageId: 'legacyRequest', line: 2 }] },
  { code: `import { Server as LowLevel } from '@modelcontextprotocol/sdk/server/index.js';
export async function sample(conn: LowLevel) { return conn.createMessage({ messages: [], maxTokens: 5 }); }`, errors: [{ messageId: 'legacyRequest' }] },
  { code: `import * as sdk from '@modelcontextprotocol/sdk/server/index.js';
export async function roots(conn: sdk.Server) { return conn.listRoots(); }`, errors: [{ messageId: 'legacyRequest' }] },
  { code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function confirmWith(srv: Server, q: string) { await srv.elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } }); }`, errors: [{ messageId: 'legacyRequest' }] },
];
const typedLookAlikes = [
  // a chat client's own createMessage, declared locally, is not a server
  `interface Chat { createMessage(text: string): Promise<string> }
let chat: Chat | undefined;
export const hi = () => chat!.createMessage('hi');`,
  // node's http Server is not an MCP server, whatever the parameter is called
  `import { Server } from 'node:http';
export async function f(server: Server) { await server.listRoots(); return server.listen(3000); }`,
];

const tsOnly = {
  valid: [
    CANONICAL_OUTPUT,
    ...typedLookAlikes,
    // a project's own class named McpAgent is not the agents package's
    `class McpAgent { elicitInput(p: object) { return p; } }\nexport class A extends McpAgent { run() { return this.elicitInput({ message: 'm', requestedSchema: {} }); } }`,
  ],
  invalid: [
    ...typedSenders,
    { code: `class S { constructor(private server: Server) {}\n  async run() { return (this.server as Server).elicitInput({ message: 'x', requestedSchema: {} }); } }`, errors: [inHandler()] },
    // an untyped alias of the low-level server, a private `#server` field, an McpAgent subclass sending itself
    { code: LOW + `export async function ask(s: unknown) { const lowLevel = (s as any).server ?? s; return lowLevel.request({ method: 'elicitation/create', params: { message: 'm', requestedSchema: {} } }, ElicitResultSchema); }`, errors: [inHandler()] },
    { code: LOW + `export class Session { #server: Server; constructor(s: Server) { this.#server = s; }\n  roots() { return this.#server.listRoots(); } }`, errors: [inHandler()] },
    { code: `import { McpAgent } from 'agents/mcp';\nexport class A extends McpAgent { async init() { const agent = this; await agent.elicitInput({ message: 'm', requestedSchema: {} }); await this.elicitInput({ message: 'n', requestedSchema: {} }); } }`, errors: [inHandler(), inHandler()] },
    { code: V1 + `mcp.tool('t', {}, async (_a: unknown, extra: RequestHandlerExtra) => { await extra.sendRequest({ method: 'roots/list' } as const, ListRootsResultSchema); return { content: [] }; });`, errors: [inHandler()] },
  ],
};

describe('no-server-initiated-requests', () => {
  tsTester.run('typescript', asTesterRule(rule), {
    valid: [...shared.valid, ...tsOnly.valid],
    invalid: [
      ...shared.invalid,
      ...tsOnly.invalid,
      ...outside.map((c) => ({ code: c.code, errors: [{ messageId: 'legacyRequestOutsideHandler' }] })),
    ],
  });
  jsTester.run('javascript', asTesterRule(rule), {
    valid: shared.valid,
    invalid: [...shared.invalid, ...outside.map((c) => ({ code: c.code, errors: [{ messageId: 'legacyRequestOutsideHandler' }] }))],
  });
  typedTester.run('type information', asTesterRule(rule), {
    valid: [
      // named like a server but typed as something else
      `class ChatServer { createMessage(x: unknown) { return x; } }\nexport async function f(server: ChatServer) { await server.createMessage({}); }`,
      ...typedLookAlikes,
    ],
    invalid: [
      ...typedSenders,
      { code: `class ChatServer { createMessage(x: unknown) { return x; } }\nexport async function f(server: any) { await server.createMessage({}); }`, errors: [inHandler()] },
    ],
  });

  it('names the replacement and, outside handlers, the advice from the surface table', () => {
    const linter = new Linter({ configType: 'flat' });
    const config = { plugins: { m: { rules: { r: rule } } }, rules: { 'm/r': 'error' } } as unknown as Linter.Config;
    const inside = linter.verify(V1 + `mcp.tool('t', {}, async () => { await mcp.server.elicitInput({}); return { content: [] }; });`, config);
    expect(inside).toHaveLength(1);
    expect(inside[0].message).toContain('inputRequired.elicit(');
    expect(inside[0].message).toContain('elicitation/create');
    for (const c of outside) {
      const messages = linter.verify(c.code, config);
      expect(messages.map((m) => m.message)).toEqual([expect.stringContaining(NON_HANDLER_ADVICE[c.context])]);
    }
  });
});
