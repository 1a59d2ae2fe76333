import { describe, expect, it } from 'vitest';
import type { SourceFile } from 'ts-morph';
import { findRegistrations, findSites } from '../src/engine/find/index.js';
import { computeReaches } from '../src/engine/reach/index.js';
import { addSource, virtualProject } from './find-helpers.js';

function reachesOf(files: SourceFile[], typeChecked = true) {
  const ctx = { typeChecked };
  const sites = files.flatMap((f) => findSites(f, ctx));
  const regs = files.map((f) => findRegistrations(f, ctx));
  const reaches = computeReaches({ sites, handlers: regs.flatMap((r) => r.handlers), others: regs.flatMap((r) => r.others), sourceFiles: files });
  return reaches.map((r) => ({
    line: r.site.line,
    file: r.site.sourceFile.getBaseName(),
    handlers: r.handlers.map((h) => `${h.handler.name ?? h.handler.method}:${h.path.length}`),
    contexts: r.nonHandlerContexts.map((c) => c.context),
  }));
}

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
`;

describe('computeReaches', () => {
  it('follows helpers across files to every handler that calls them', () => {
    const project = virtualProject();
    const helper = addSource(project, `${HEAD}
export async function confirmAction(server: Server, message: string) {
  const confirmed = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return confirmed.action === 'accept';
}
`, '.ts', 'reach-helper.ts');
    const main = addSource(project, `${HEAD}
import { confirmAction } from './reach-helper.js';
export function createServer() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  mcp.registerTool('delete', {}, async () => {
    if (!(await confirmAction(mcp.server, 'Delete?'))) return { content: [] };
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  mcp.registerTool('reset', {}, async () => {
    const ok = await Promise.all([1, 2].map(async () => confirmAction(mcp.server, 'Reset?')));
    return { content: [{ type: 'text', text: String(ok) }] };
  });
  return mcp;
}
`, '.ts', 'reach-main.ts');
    expect(reachesOf([helper, main])).toEqual([{ line: 5, file: 'reach-helper.ts', handlers: ['delete:1', 'reset:2'], contexts: [] }]);
  });

  it('names a unit test that calls a helper directly as test code, not module-level code', () => {
    const project = virtualProject();
    const helper = addSource(project, `${HEAD}
export async function confirmAction(server: Server, message: string) {
  const confirmed = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return confirmed.action === 'accept';
}
export function createServer() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  mcp.registerTool('delete', {}, async () => {
    if (!(await confirmAction(mcp.server, 'Delete?'))) return { content: [] };
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  return mcp;
}
`, '.ts', 'reach-tested.ts');
    const test = addSource(project, `import { describe, it, expect } from 'vitest';
import { confirmAction } from './reach-tested.js';
const fake = { elicitInput: async () => ({ action: 'accept' }) } as never;
describe('confirmAction', () => {
  it('accepts', async () => {
    expect(await confirmAction(fake, 'ok?')).toBe(true);
  });
});
`, '.ts', 'reach-tested.test.ts');
    // A top-level call outside a test file stays module-level code.
    const script = addSource(project, `import { confirmAction } from './reach-tested.js';
await confirmAction({} as never, 'at start-up');
`, '.ts', 'reach-startup.ts');
    expect(reachesOf([helper, test, script])).toEqual([{ line: 5, file: 'reach-tested.ts', handlers: ['delete:1'], contexts: ['test-code', 'module-scope'] }]);
    const ctx = { typeChecked: true };
    const files = [helper, test];
    const regs = files.map((f) => findRegistrations(f, ctx));
    const [reach] = computeReaches({ sites: files.flatMap((f) => findSites(f, ctx)), handlers: regs.flatMap((r) => r.handlers), others: regs.flatMap((r) => r.others), sourceFiles: files });
    expect(reach!.nonHandlerContexts.map((c) => c.description)).toEqual(['the test `confirmAction` (reach-tested.test.ts:4)']);
  });

  it('reports every non-handler context, and a helper reached from both a tool and a timer', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { EventEmitter } from 'node:events';
declare const app: { post(path: string, fn: (req: unknown, res: unknown) => Promise<void>): void };
const mcp = new McpServer({ name: 'x', version: '1' });
const bus = new EventEmitter();
async function summarize(text: string) {
  const summary = await mcp.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return summary;
}
mcp.server.oninitialized = async () => {
  await mcp.server.listRoots();
};
mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
  await mcp.server.listRoots();
});
setInterval(async () => {
  await summarize('tick');
}, 1000);
bus.on('change', async () => {
  await mcp.server.listRoots();
});
app.post('/hook', async () => {
  await mcp.server.listRoots();
});
mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
  await mcp.server.listRoots();
  return { tools: [] };
});
mcp.registerTool('sum', {}, async () => {
  void mcp.server.listRoots();
  const s = await summarize('x');
  return { content: [{ type: 'text', text: s.model }] };
});
await mcp.server.listRoots();
export async function neverCalled() { return mcp.server.listRoots(); }
`);
    expect(reachesOf([sf])).toEqual([
      { line: 10, file: sf.getBaseName(), handlers: ['sum:1'], contexts: ['timer'] },
      { line: 14, file: sf.getBaseName(), handlers: [], contexts: ['lifecycle-hook'] },
      { line: 17, file: sf.getBaseName(), handlers: [], contexts: ['notification-handler'] },
      { line: 23, file: sf.getBaseName(), handlers: [], contexts: ['event-emitter'] },
      { line: 26, file: sf.getBaseName(), handlers: [], contexts: ['http-route'] },
      { line: 29, file: sf.getBaseName(), handlers: [], contexts: ['non-mrtr-request-handler'] },
      { line: 33, file: sf.getBaseName(), handlers: [], contexts: ['detached-promise'] },
      { line: 37, file: sf.getBaseName(), handlers: [], contexts: ['module-scope'] },
      { line: 38, file: sf.getBaseName(), handlers: [], contexts: ['unreachable'] },
    ]);
  });

  it('reaches per-tool functions of a low-level dispatcher (switch and map) in plain JS', () => {
    const project = virtualProject();
    const sf = addSource(project, `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const server = new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } });
async function pick(srv) { const choice = await srv.elicitInput({ message: 'Pick', requestedSchema: { type: 'object', properties: {} } }); return choice; }
const tools = {
  async gamma() { const roots = await server.listRoots(); return { content: [], roots }; },
};
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'pick': return { content: [], picked: await pick(server) };
    default: return tools[request.params.name]();
  }
});
`, '.cjs');
    expect(reachesOf([sf], false)).toEqual([
      { line: 4, file: sf.getBaseName(), handlers: ['tools/call:1'], contexts: [] },
      { line: 6, file: sf.getBaseName(), handlers: ['gamma:0'], contexts: [] },
    ]);
  });
});

const ASK = `await server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })`;

/** The dispatched tools the reach stage resolves: for each site, the handlers (tool name and the dispatching call's line). */
function dispatchOf(files: SourceFile[]) {
  const ctx = { typeChecked: true };
  const sites = files.flatMap((f) => findSites(f, ctx));
  const regs = files.map((f) => findRegistrations(f, ctx));
  return computeReaches({ sites, handlers: regs.flatMap((r) => r.handlers), others: regs.flatMap((r) => r.others), sourceFiles: files }).map((r) => ({
    line: r.site.line,
    handlers: r.handlers.map((h) => `${h.handler.name ?? '?'}@${h.handler.dispatch ? h.handler.dispatch.call.getStartLineNumber() : 'direct'}`),
    contexts: r.nonHandlerContexts.map((c) => c.description),
  }));
}

describe('computeReaches: tools dispatched through a table', () => {
  it('a Record indexed by the tool name, directly and through a looked-up variable; a Map.get lookup', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { CallToolRequestSchema, GetPromptRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
type H = (args: unknown, server: Server) => Promise<{ content: [] }>;
async function wipe(args: unknown, server: Server) { ${ASK}; return { content: [] as [] }; }
const byName: Record<string, H> = { wipe, other: async (a, server) => { ${ASK}; return { content: [] as [] }; } };
const prompts = new Map([['p', async (server: Server) => { ${ASK}; return { messages: [] }; }]]);
export function build(server: Server) {
  server.setRequestHandler(CallToolRequestSchema, async (req) => byName[req.params.name]!(req.params.arguments, server));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const fn = byName[req.params.uri];
    if (!fn) throw new Error('none');
    return fn(undefined, server) as never;
  });
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const fn = prompts.get(req.params.name)!;
    return fn(server) as never;
  });
}
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 6, handlers: ['wipe@10', 'wipe@14'], contexts: [] },
      { line: 7, handlers: ['other@10', 'other@14'], contexts: [] },
      { line: 8, handlers: ['p@18'], contexts: [] },
    ]);
  });

  it('an array of { name, handler } found with .find, and registered in for-of and forEach loops', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const LIST = [
  { name: 'a', handler: async (server: Server) => { ${ASK}; return { content: [] }; } },
  { name: 'b', async handler(server: Server) { ${ASK}; return { content: [] }; } },
];
const MORE = [...LIST, { name: 'c', handler: async (server: Server) => { ${ASK}; return { content: [] }; } }];
export function build(server: Server, mcp: McpServer) {
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = LIST.find((t) => t.name === req.params.name);
    if (!tool) throw new Error('unknown');
    return tool.handler(server) as never;
  });
  for (const t of MORE) mcp.registerTool(t.name, {}, async () => t.handler(mcp.server) as never);
  MORE.forEach((t) => mcp.registerTool(t.name, {}, async () => t.handler(mcp.server) as never));
}
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 6, handlers: ['a@14', 'a@16', 'a@17'], contexts: [] },
      { line: 7, handlers: ['b@14', 'b@16', 'b@17'], contexts: [] },
      { line: 9, handlers: ['c@16', 'c@17'], contexts: [] },
    ]);
  });

  it('class-based tools: instances in a table reach their own execute (and a base helper), a base-typed parameter reaches every override', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
abstract class Base {
  abstract name: string;
  constructor(protected server: Server) {}
  protected async confirm() { const r = ${ASK}; return r.action === 'accept'; }
  abstract execute(): Promise<{ content: [] }>;
}
class Drop extends Base { name = 'drop'; async execute() { await this.confirm(); return { content: [] as [] }; } }
class Plain extends Base { name = 'plain'; async execute() { return { content: [] as [] }; } }
class Loose extends Base { name = 'loose'; async execute() { ${ASK.replace('server', 'this.server')}; return { content: [] as [] }; } }
export function build(mcp: McpServer) {
  for (const tool of [new Drop(mcp.server), new Plain(mcp.server)]) mcp.registerTool(tool.name, {}, async () => tool.execute());
}
export function register(mcp: McpServer, tool: Base) {
  for (const t of [tool]) mcp.registerTool(t.name, {}, async () => t.execute());
}
export function registerOne(mcp: McpServer, tools: Base[]) {
  for (const t of tools) mcp.registerTool(t.name, {}, async () => t.execute());
}
`);
    expect(dispatchOf([sf])).toEqual([
      // the helper in the base: reached from Drop.execute via both registrations that can run it
      { line: 7, handlers: ['drop@14', 'drop@17', 'drop@20'], contexts: [] },
      // Loose is never in a literal table, but a base-typed entry or table runs every override
      { line: 12, handlers: ['loose@17', 'loose@20'], contexts: [] },
    ]);
  });

  it('entries added after the declaration: Object.assign, assignment by key, push, Map.set', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
type H = (server: Server) => Promise<{ content: [] }>;
const registry: Record<string, H> = {};
Object.assign(registry, { a: async (server: Server) => { ${ASK}; return { content: [] as [] }; } });
registry['b'] = async (server) => { ${ASK}; return { content: [] as [] }; };
const list: Array<{ name: string; run: H }> = [];
list.push({ name: 'c', run: async (server) => { ${ASK}; return { content: [] as [] }; } });
const byMap = new Map<string, H>();
byMap.set('d', async (server) => { ${ASK}; return { content: [] as [] }; });
export function build(server: Server) {
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name === 'c') return list.find((t) => t.name === req.params.name)!.run(server) as never;
    if (req.params.name === 'd') return byMap.get(req.params.name)!(server) as never;
    return registry[req.params.name]!(server) as never;
  });
}
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 7, handlers: ['a@17'], contexts: [] },
      { line: 8, handlers: ['b@17'], contexts: [] },
      { line: 10, handlers: ['c@15'], contexts: [] },
      { line: 12, handlers: ['d@16'], contexts: [] },
    ]);
  });

  it('entries built by a project factory, and registrations named by a member (tool.name, this.name)', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
function defineTool(name: string, handler: (server: Server) => Promise<unknown>) {
  return { name, handler };
}
const makeAsk = (name: string) => ({ name, handler: async (server: Server) => { ${ASK}; return {}; } });
const tools = [
  defineTool('a', async (server) => { ${ASK}; return {}; }),
  makeAsk('b'),
];
export function build(mcp: McpServer) {
  for (const tool of tools) mcp.registerTool(tool.name, {}, async () => tool.handler(mcp.server) as never);
}
async function confirmFirst(server: Server) { ${ASK}; return true; }
export class ToolBase {
  name = 'base_tool';
  constructor(private mcp: McpServer) {}
  register() {
    this.mcp.registerTool(this.name, {}, async () => {
      await confirmFirst(this.mcp.server);
      return { content: [] };
    });
  }
}
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 7, handlers: ['b@13'], contexts: [] },
      { line: 9, handlers: ['a@13'], contexts: [] },
      { line: 15, handlers: ['?@direct'], contexts: [] },
    ]);
  });

  it('a registry a function fills with Object.assign and returns, indexed through a looked-up variable', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
type ToolHandler = (services: { server: Server }, args: unknown) => Promise<unknown>;
async function emptyTrash(server: Server) { ${ASK}; return {}; }
function createToolRegistry(): Record<string, ToolHandler> {
  const registry: Record<string, ToolHandler> = {};
  Object.assign(registry, { list: async () => ({}) } satisfies Record<string, ToolHandler>);
  if (process.env.WRITES) Object.assign(registry, { empty_trash: ({ server }, _args) => emptyTrash(server) } satisfies Record<string, ToolHandler>);
  return registry;
}
const toolRegistry = createToolRegistry();
export function build(server: Server) {
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const handler = toolRegistry[request.params.name];
    if (!handler) throw new Error('unknown');
    return handler({ server }, request.params.arguments) as never;
  });
}
`.replace("import { Server }", "import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nimport { Server }"));
    expect(dispatchOf([sf])).toEqual([{ line: 6, handlers: ['empty_trash@18'], contexts: [] }]);
  });

  it('the lookup returned by a project function: a getter of the handler, of the entry, two getters deep, called directly', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const confirmTool = { name: 'confirm', handler: async (args: any, server: Server) => { ${ASK}; return { content: [] }; } };
const allTools = [confirmTool];
export const toolHandlerFor = (name: string) => allTools.find((t) => t.name === name)?.handler;
const registry = { wipe: { run: async (server: Server) => { ${ASK}; return {}; } } };
function getTool(name: string) { return registry[name as 'wipe']; }
function runnerOf(name: string) {
  const tool = getTool(name);
  if (!tool) return undefined;
  return tool.run;
}
const byName = new Map([['ping', async (server: Server) => { ${ASK}; return {}; }]]);
const pingFor = (name: string) => byName.get(name);
export function build(server: Server, mcp: McpServer) {
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const handler = toolHandlerFor(req.params.name);
    if (!handler) throw new Error('unknown tool');
    return await handler(req.params.arguments, server);
  });
  mcp.registerTool('wipe', {}, async () => getTool('wipe')!.run(mcp.server) as never);
  mcp.registerTool('wipe2', {}, async () => {
    const run = runnerOf('wipe');
    return run!(mcp.server) as never;
  });
  mcp.registerTool('ping', {}, async () => pingFor('ping')!(mcp.server) as never);
}
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 5, handlers: ['confirm@21'], contexts: [] },
      { line: 8, handlers: ['wipe@23', 'wipe@26'], contexts: [] },
      { line: 15, handlers: ['ping@28'], contexts: [] },
    ]);
  });

  it('a tool function passed to a wrapper returning the registration callback is reached through the call of that parameter, bound at its registration', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import { z } from 'zod';
const mcp = new McpServer({ name: 'x', version: '1' });
async function askReason(id: string) {
  const r = await mcp.server.elicitInput({ message: \`Why close \${id}?\`, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } });
  return r.action === 'accept' ? String(r.content?.reason) : undefined;
}
async function closeTicket(p: { id: string }) {
  const reason = await askReason(p.id);
  return { content: [{ type: 'text' as const, text: reason ? \`closed \${p.id}: \${reason}\` : 'cancelled' }] };
}
async function reopenTicket(p: { id: string }) {
  const server = mcp.server;
  ${ASK};
  return { content: [{ type: 'text' as const, text: p.id }] };
}
function withParams<R>(fn: (p: { id: string }) => Promise<R>) {
  return async (args: Record<string, unknown>) => fn({ id: String(args.id) });
}
mcp.tool('close_ticket', { id: z.string() }, withParams(closeTicket));
mcp.tool('reopen_ticket', { id: z.string() }, withParams(reopenTicket));
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 7, handlers: ['close_ticket@20'], contexts: [] },
      { line: 16, handlers: ['reopen_ticket@20'], contexts: [] },
    ]);
  });

  it('a function stored in a member of a typed object is called through that member (a factory option, a deps callback)', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
interface DefineToolOptions<T> { name: string; parse: (raw: unknown) => T; handler: (args: T) => Promise<unknown> }
interface Tool { name: string; handler: (raw: unknown) => Promise<unknown> }
let wired: Server | undefined;
function defineTool<T>(options: DefineToolOptions<T>): Tool {
  return { name: options.name, handler: async (raw) => options.handler(options.parse(raw)) };
}
const createTool = defineTool({
  name: 'create',
  parse: (raw) => String(raw),
  handler: async (args) => { const server = wired!; ${ASK}; return args; },
});
const TOOLS: Tool[] = [createTool];
interface ScopeDeps { resolveScope(): Promise<string | null> }
async function askScope(server: Server) { ${ASK}; return 'local'; }
function registerScopeTools(mcp: McpServer, deps: ScopeDeps) {
  mcp.registerTool('import', {}, async () => ({ content: [], scope: await deps.resolveScope() }));
}
export function build(mcp: McpServer) {
  wired = mcp.server;
  registerScopeTools(mcp, { resolveScope: () => askScope(mcp.server) });
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    return tool!.handler(request.params.arguments) as never;
  });
}
`.replace("import { Server }", "import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nimport { Server }"));
    expect(dispatchOf([sf])).toEqual([
      { line: 14, handlers: ['create@27'], contexts: [] },
      { line: 18, handlers: ['import@direct'], contexts: [] },
    ]);
  });

  it('a function declared on its own and named by a property of an interface-typed object is called through that member (a lazily loaded domain handler)', () => {
    const project = virtualProject();
    const types = addSource(project, `export interface Domain { tools(): string[]; run(tool: string, args: Record<string, unknown>): Promise<{ content: [] }> }
`, '.ts', 'domain-types.ts');
    const billing = addSource(project, `${HEAD}
import type { Domain } from './domain-types.js';
let wired: Server | undefined;
export function wire(server: Server) { wired = server; }
async function run(tool: string, args: Record<string, unknown>) {
  const server = wired!;
  ${ASK};
  return { content: [] as [] };
}
async function refund(tool: string, args: Record<string, unknown>) {
  const server = wired!;
  ${ASK};
  return { content: [] as [] };
}
export const billing: Domain = { tools: () => ['invoice'], run };
export const refunds: Domain = { tools: () => ['refund'], run: refund };
const loose = { run };
`, '.ts', 'domain-billing.ts');
    const main = addSource(project, `${HEAD}
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Domain } from './domain-types.js';
const loaded = new Map<string, Domain>();
async function domainFor(name: string): Promise<Domain> {
  const cached = loaded.get(name);
  if (cached) return cached;
  const { billing } = await import('./domain-billing.js');
  loaded.set(name, billing);
  return billing;
}
export function build(server: Server) {
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const domain = await domainFor(request.params.name.split('_')[0]!);
    return domain.run(request.params.name, request.params.arguments ?? {});
  });
}
`, '.ts', 'domain-main.ts');
    expect(reachesOf([types, billing, main])).toEqual([
      { line: 9, file: 'domain-billing.ts', handlers: ['tools/call:1'], contexts: [] },
      { line: 14, file: 'domain-billing.ts', handlers: ['tools/call:1'], contexts: [] },
    ]);
  });

  it('a private method bound into an object a method returns, typed by its return type, is called through that member', () => {
    const project = virtualProject();
    const main = addSource(project, `${HEAD}
interface Access { confirm(what: string): Promise<boolean> }
async function remove(h: Access, what: string): Promise<string> {
  return (await h.confirm(what)) ? 'removed' : 'kept';
}
class FilesHandler {
  constructor(private readonly server: McpServer) {}
  private async confirm(what: string): Promise<boolean> {
    const server = this.server.server;
    const answer = ${ASK};
    return answer.action === 'accept';
  }
  private access(): Access {
    return { confirm: this.confirm.bind(this) };
  }
  async handle(what: string): Promise<string> {
    const h = this.access();
    return remove(h, what);
  }
}
export function build(server: McpServer) {
  const files = new FilesHandler(server);
  server.registerTool('remove', { description: 'Remove' }, async () => {
    const text = await files.handle('a.txt');
    return { content: [{ type: 'text' as const, text }] };
  });
}
`, '.ts', 'bound-members.ts');
    expect(reachesOf([main])).toEqual([{ line: 12, file: 'bound-members.ts', handlers: ['remove:3'], contexts: [] }]);
  });

  it("a plugin's typed tools table registered by a loader through the member (registerTool(name, cfg, def.handler))", () => {
    const project = virtualProject();
    const types = addSource(project, `${HEAD}
export interface ToolDefinition { description: string; handler: (args: any, extra: unknown) => Promise<any> }
export interface ToolDefinitions { [toolName: string]: ToolDefinition }
export interface Plugin { name: string; tools?: ToolDefinitions }
export function loadPlugin(server: McpServer, plugin: Plugin) {
  for (const [toolName, toolDef] of Object.entries(plugin.tools ?? {})) registerOne(server, toolName, toolDef);
}
function registerOne(server: McpServer, toolName: string, toolDef: ToolDefinition) {
  server.registerTool(toolName, { description: toolDef.description }, toolDef.handler as any);
}
`, '.ts', 'plugin-core.ts');
    const plugin = addSource(project, `${HEAD}
import type { Plugin, ToolDefinitions } from './plugin-core.js';
let current: Server | undefined;
class Explainer { async explain(server: Server) { ${ASK}; return 'x'; } }
const explainer = new Explainer();
export const tools: ToolDefinitions = {
  explain_error: { description: 'Explain', handler: async (_args, _extra) => ({ content: [], text: await explainer.explain(current!) }) },
};
export const plugin: Plugin = { name: 'p', tools: { roots_list: { description: 'Roots', async handler() { const server = current!; ${ASK}; return {}; } } } };
`, '.ts', 'plugin-tools.ts');
    expect(dispatchOf([types, plugin])).toEqual([
      { line: 6, handlers: ['explain_error@direct'], contexts: [] },
      { line: 11, handlers: ['roots_list@direct'], contexts: [] },
    ]);
  });

  it('a class extending McpServer registers tools from a table by member name; the handler variable is assigned per branch and called in a tracer callback', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
async function createService(name: string, extra?: RequestHandlerExtra<any, any>) {
  if (extra?.sendRequest) await extra.sendRequest({ method: 'elicitation/create', params: { message: name, requestedSchema: { type: 'object', properties: {} } } }, {} as never);
  return { name };
}
const allTools = [{ method: 'create_service', description: 'Create' }];
function traced<T>(run: () => Promise<T>): Promise<T> { return run(); }
export class KongServer extends McpServer {
  registerAll(enhanced: boolean) {
    allTools.forEach((tool) => {
      let handler: (args: any, extra: RequestHandlerExtra<any, any>) => Promise<any>;
      if (enhanced) {
        handler = async () => { throw new Error('off'); };
      } else {
        handler = async (args: any, extra: RequestHandlerExtra<any, any>) => {
          let result;
          switch (tool.method) {
            case 'create_service':
              result = await createService(args.name, extra);
              break;
          }
          return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
        };
      }
      const tracedHandler = async (args: any, extra: RequestHandlerExtra<any, any>): Promise<any> => traced(async () => handler(args, extra));
      this.tool(tool.method, tool.description, {}, tracedHandler);
    });
  }
}
`);
    expect(dispatchOf([sf])).toEqual([{ line: 6, handlers: ['?@direct'], contexts: [] }]);
  });

  it("a project's own registration wrapper: every function its callers pass is a handler, named by the name they pass, with the context the wrapper's callback type declares", () => {
    const project = virtualProject();
    const compat = addSource(project, `${HEAD}
type Callback = (args: Record<string, unknown>, extra: unknown) => unknown;
function checkedCallback(value: unknown, name: string): Callback {
  if (typeof value !== 'function') throw new Error(\`no callback for \${name}\`);
  return value as Callback;
}
export function addTool(server: McpServer, name: string, description: string, cb: Callback): unknown;
export function addTool(server: McpServer, name: string, ...rest: unknown[]): unknown {
  const callback = checkedCallback(rest.pop(), name);
  return (server.registerTool as any)(name, { description: String(rest[0]) }, callback);
}
export function addPlainTool(server: McpServer, name: string, cb: Callback) {
  server.registerTool(name, {}, cb as never);
}
`, '.ts', 'reach-wrapper-compat.ts');
    const tools = addSource(project, `${HEAD}
import { addTool, addPlainTool } from './reach-wrapper-compat.js';
interface ScopeDeps { pickScope(): Promise<string | null> }
export function registerImportTools(mcp: McpServer, deps: ScopeDeps) {
  addTool(mcp, 'import_key', 'Import a key', async (_args, _extra) => ({ content: [], scope: await deps.pickScope() }));
  addPlainTool(mcp, 'wipe', async () => { const server = mcp.server; ${ASK}; return { content: [] }; });
}
`, '.ts', 'reach-wrapper-tools.ts');
    const main = addSource(project, `${HEAD}
import { registerImportTools } from './reach-wrapper-tools.js';
async function askScope(server: Server) { ${ASK}; return 'local'; }
async function main() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  registerImportTools(mcp, { pickScope: () => askScope(mcp.server) });
  await askScope(mcp.server);
}
main().catch(() => process.exit(1));
`, '.ts', 'reach-wrapper-main.ts');
    const regs = [compat, tools, main].map((f) => findRegistrations(f, { typeChecked: true }));
    const handlers = regs.flatMap((r) => r.handlers).map((h) => ({ name: h.name, at: h.registrationCall.getSourceFile().getBaseName(), contextIndex: h.contextIndex }));
    expect(handlers).toEqual([
      { name: 'import_key', at: 'reach-wrapper-tools.ts', contextIndex: 1 },
      { name: 'wipe', at: 'reach-wrapper-tools.ts', contextIndex: 1 },
    ]);
    expect(dispatchOf([compat, tools, main])).toEqual([
      { line: 8, handlers: ['wipe@direct'], contexts: [] },
      // the start-up call of the module is named with its text and line
      { line: 5, handlers: ['import_key@direct'], contexts: ['module-level code (the start-up call `main()` (line 11))'] },
    ]);
  });

  it('a tool function called as a shorthand member of an object of functions (tools.create(...) on { create })', () => {
    const project = virtualProject();
    const ops = addSource(project, `${HEAD}
export async function createItem(server: Server, name: string) { ${ASK}; return name; }
export const itemTools = { createItem };
`, '.ts', 'reach-shorthand-ops.ts');
    const main = addSource(project, `${HEAD}
import { itemTools } from './reach-shorthand-ops.js';
export function build(mcp: McpServer) {
  mcp.registerTool('create', {}, async () => ({ content: [{ type: 'text' as const, text: await itemTools.createItem(mcp.server, 'a') }] }));
}
`, '.ts', 'reach-shorthand-main.ts');
    expect(dispatchOf([ops, main])).toEqual([{ line: 4, handlers: ['create@direct'], contexts: [] }]);
  });

  it('a table no handler looks up is named in the unreachable reason', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
const server = new Server({ name: 'x', version: '1' });
export const orphanTools = {
  wipe: async () => { ${ASK}; return { content: [] }; },
};
`);
    expect(dispatchOf([sf])).toEqual([
      { line: 6, handlers: [], contexts: ['the function stored as `wipe` in a table (line 5) is not looked up and called by any tools/call, prompts/get or resources/read handler'] },
    ]);
  });
});

describe('computeReaches: across module systems', () => {
  it('follows renamed ES imports and CommonJS require destructuring (plain JS)', () => {
    const project = virtualProject();
    const helper = addSource(project, `async function confirmAction(server, message) {
  const confirmed = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return confirmed.action === 'accept';
}
module.exports = { confirmAction };
`, '.cjs', 'cjs-helper.cjs');
    const main = addSource(project, `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { confirmAction } = require('./cjs-helper.cjs');
function createServer() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  mcp.tool('wipe', async () => ({ content: [], ok: await confirmAction(mcp.server, 'Wipe?') }));
  return mcp;
}
module.exports = { createServer };
`, '.cjs', 'cjs-main.cjs');
    const esmHelper = addSource(project, `export default async function summarize(server, text) {
  return server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 9 });
}
export async function listAll(server) { return server.listRoots(); }
`, '.mjs', 'esm-helper.mjs');
    const esmMain = addSource(project, `import sum, { listAll as roots } from './esm-helper.mjs';
export function register(server) {
  server.registerTool('digest', {}, async () => ({ content: [], s: await sum(server, 'x'), r: await roots(server) }));
}
`, '.mjs', 'esm-main.mjs');
    expect(reachesOf([helper, main, esmHelper, esmMain], false)).toEqual([
      { line: 2, file: 'cjs-helper.cjs', handlers: ['wipe:1'], contexts: [] },
      { line: 2, file: 'esm-helper.mjs', handlers: ['digest:1'], contexts: [] },
      { line: 4, file: 'esm-helper.mjs', handlers: ['digest:1'], contexts: [] },
    ]);
  });
});

describe('computeReaches: why nothing reaches a request', () => {
  function reasonsOf(code: string) {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}${code}`);
    const ctx = { typeChecked: true };
    const regs = findRegistrations(sf, ctx);
    return computeReaches({ sites: findSites(sf, ctx), handlers: regs.handlers, others: regs.others, sourceFiles: [sf] }).map((r) => [
      r.site.line,
      ...r.nonHandlerContexts.map((c) => `${c.context}: ${c.description}`),
    ]);
  }

  it('names an uncalled helper with its line, a request returned by a public API, and a request function handed to other code', () => {
    expect(
      reasonsOf(`
export async function confirm(server: Server, message: string) {
  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
export class Session {
  #server: Server;
  constructor(server: Server) { this.#server = server; }
  elicit(params: { message: string; requestedSchema: { type: 'object'; properties: {} } }) {
    return this.#server.elicitInput(params);
  }
  private async refresh() { return this.#server.listRoots(); }
  run(tool: { execute(ctx: object): Promise<void> }) {
    return tool.execute({ ask: (message: string) => this.#server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } }) });
  }
}
`),
    ).toEqual([
      [5, 'unreachable: function `confirm` (line 4) is not called from any tools/call, prompts/get or resources/read handler in the files of this run'],
      [
        12,
        'unreachable: method `Session.elicit` (line 11) exposes the request as an API to other code (it returns the request\'s answer) and no tools/call, prompts/get or resources/read handler of this run calls it: its callers decide the round; migrate the callers or the framework',
      ],
      [14, 'unreachable: method `Session.refresh` (line 14) is not called from any tools/call, prompts/get or resources/read handler in the files of this run'],
      [16, 'unreachable: the request function `ask` is handed to other code in the object passed to `tool.execute(...)` (line 16): its callers decide the round; migrate the callers or the framework'],
    ]);
  });
  it('names a request member of an object a method returns, with the calls the object is handed to', () => {
    expect(
      reasonsOf(`
type Load = (args: object, ctx: { ask(message: string): Promise<unknown> }) => Promise<string>;
export class Host {
  #server: Server;
  #loads: Load[] = [];
  constructor(server: Server) { this.#server = server; }
  #context() {
    return {
      ask: (message: string) => this.#server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } }),
    };
  }
  async read(i: number) { return this.#loads[i]!({}, this.#context()); }
}
`),
    ).toEqual([
      [
        11,
        'unreachable: the request function `ask` is a member of the object returned by method `Host.#context` (line 9), which is passed to `this.#loads[i]!(...)` (line 14): the code it is handed to decides the round; migrate that code or the framework',
      ],
    ]);
  });

  it('names the connection set-up when a request is sent after connecting the same server', () => {
    expect(
      reasonsOf(`
export class Link {
  #server: Server;
  roots: unknown[] = [];
  constructor(server: Server) { this.#server = server; }
  async connect(transport: Parameters<Server['connect']>[0]) {
    await this.#server.connect(transport);
    const listed = await this.#server.listRoots();
    this.roots = listed.roots;
  }
}
export async function main(server: Server, transport: Parameters<Server['connect']>[0]) {
  await server.connect(transport);
  await Promise.all([1].map(async () => server.createMessage({ messages: [], maxTokens: 1 })));
}
`),
    ).toEqual([
      [10, 'lifecycle-hook: connection set-up in method `Link.connect` after `this.#server.connect(transport)` (line 9)'],
      [16, 'lifecycle-hook: connection set-up in function `main` after `server.connect(transport)` (line 15)'],
    ]);
  });

  it('names a public method returning the request that only tests call as the API it exposes, not the test', () => {
    const project = virtualProject();
    const session = addSource(project, `${HEAD}
export class Session {
  #server: Server;
  constructor(server: Server) { this.#server = server; }
  public async requestRoots() {
    return this.#server.listRoots();
  }
}
`, '.ts', 'api-session.ts');
    const test = addSource(project, `import { describe, it } from 'vitest';
import { Session } from './api-session.js';
declare const session: Session;
describe('session', () => {
  it('lists roots', async () => {
    await session.requestRoots();
  });
});
`, '.ts', 'api-session.test.ts');
    const ctx = { typeChecked: true };
    const reaches = computeReaches({ sites: findSites(session, ctx), handlers: [], others: [], sourceFiles: [session, test] });
    expect(reaches.map((r) => r.nonHandlerContexts.map((c) => `${c.context}: ${c.description}`))).toEqual([
      [
        "unreachable: method `Session.requestRoots` (line 7) exposes the request as an API to other code (it returns the request's answer); only tests call it (api-session.test.ts), no tools/call, prompts/get or resources/read handler of this run: its callers decide the round; migrate the callers or the framework",
        'test-code: the test `session` (api-session.test.ts:4)',
      ],
    ]);
  });

  it('names the file of an uncalled caller in another file than the request', () => {
    const project = virtualProject();
    const helper = addSource(project, `${HEAD}
export async function confirm(server: Server) {
  ${ASK};
}
`, '.ts', 'unreached-helper.ts');
    const caller = addSource(project, `${HEAD}
import { confirm } from './unreached-helper.js';
export const blockers = { guard: async (server: Server) => confirm(server) };
`, '.ts', 'unreached-caller.ts');
    const ctx = { typeChecked: true };
    const reaches = computeReaches({ sites: findSites(helper, ctx), handlers: [], others: [], sourceFiles: [helper, caller] });
    expect(reaches.map((r) => r.nonHandlerContexts.map((c) => c.description))).toEqual([
      ['the function stored as `guard` in a table (unreached-caller.ts:5) is not looked up and called by any tools/call, prompts/get or resources/read handler'],
    ]);
  });
});

describe('computeReaches: calls the type checker resolves to another declaration of the method', () => {
  const CONFIRMER = `${HEAD}
export interface Confirmer {
  confirm(message: string): Promise<boolean>;
}
/** Satisfies Confirmer structurally (no implements clause). */
export class FormConfirmer {
  constructor(private readonly server: Server) {}
  async confirm(message: string): Promise<boolean> {
    const answer = await this.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }
}
`;
  const TOOL_BASE = `${HEAD}
import type { Confirmer } from './virtual-confirmer.js';
export abstract class ToolBase {
  abstract readonly name: string;
  constructor(protected readonly confirmer: Confirmer) {}
  protected abstract execute(args: Record<string, unknown>): Promise<string>;
  async invoke(args: Record<string, unknown>) {
    return { content: [{ type: 'text' as const, text: await this.execute(args) }] };
  }
  register(mcp: McpServer) {
    mcp.registerTool(this.name, {}, this.invoke.bind(this));
  }
}
`;

  it('a tool base class calling a service through an interface, and a subclass execute() called by the base', () => {
    const project = virtualProject();
    const confirmer = addSource(project, CONFIRMER, '.ts', 'virtual-confirmer.ts');
    const base = addSource(project, TOOL_BASE, '.ts', 'virtual-tool-base.ts');
    const tool = addSource(project, `import { ToolBase } from './virtual-tool-base.js';
export class DropTool extends ToolBase {
  readonly name = 'drop';
  protected async execute(args: Record<string, unknown>): Promise<string> {
    if (!(await this.confirmer.confirm(\`Drop \${String(args.table)}?\`))) return 'kept';
    return 'dropped';
  }
}
`, '.ts', 'virtual-drop-tool.ts');
    const files = [confirmer, base, tool];
    const ctx = { typeChecked: true };
    const regs = files.map((f) => findRegistrations(f, ctx));
    const [reach] = computeReaches({ sites: files.flatMap((f) => findSites(f, ctx)), handlers: regs.flatMap((r) => r.handlers), others: [], sourceFiles: files });
    expect(reach!.nonHandlerContexts).toEqual([]);
    expect(reach!.handlers.map((h) => h.path.map((p) => [p.call.getExpression().getText(), p.virtualThrough]))).toEqual([
      [
        ['this.execute', 'the base-class method `ToolBase.execute` (virtual-tool-base.ts:8)'],
        ['this.confirmer.confirm', 'the interface member `Confirmer.confirm` (virtual-confirmer.ts:5)'],
      ],
    ]);
  });

  it('a sibling subclass, a class that does not satisfy the interface and an unrelated method of the same name are not callers', () => {
    const project = virtualProject();
    const confirmer = addSource(project, CONFIRMER, '.ts', 'virtual-confirmer.ts');
    const base = addSource(project, TOOL_BASE, '.ts', 'virtual-tool-base.ts');
    const other = addSource(project, `import { ToolBase } from './virtual-tool-base.js';
export interface Prompter {
  confirm(message: string, level: 'low' | 'high'): Promise<'yes' | 'no'>;
}
export class ListTool extends ToolBase {
  readonly name = 'list';
  protected async execute(): Promise<string> {
    return 'a, b';
  }
  async run(prompter: Prompter) {
    return prompter.confirm('List?', 'low');
  }
}
export class AuditTool extends ToolBase {
  readonly name = 'audit';
  protected async execute(): Promise<string> {
    return this.listing.execute();
  }
  private readonly listing = { execute: async () => 'none' };
}
`, '.ts', 'virtual-other-tools.ts');
    const drop = addSource(project, `import { ToolBase } from './virtual-tool-base.js';
import { FormConfirmer } from './virtual-confirmer.js';
export class DropTool extends ToolBase {
  readonly name = 'drop';
  protected async execute(): Promise<string> {
    return (await new FormConfirmer(null!).confirm('Drop?')) ? 'dropped' : 'kept';
  }
}
`, '.ts', 'virtual-drop-direct.ts');
    const files = [confirmer, base, other, drop];
    const ctx = { typeChecked: true };
    const regs = files.map((f) => findRegistrations(f, ctx));
    const [reach] = computeReaches({ sites: files.flatMap((f) => findSites(f, ctx)), handlers: regs.flatMap((r) => r.handlers), others: [], sourceFiles: files });
    // one path only: the base's this.execute() to DropTool.execute, which calls FormConfirmer directly
    expect(reach!.handlers.map((h) => h.path.map((p) => [p.call.getExpression().getText(), p.virtualThrough]))).toEqual([
      [
        ['this.execute', 'the base-class method `ToolBase.execute` (virtual-tool-base.ts:8)'],
        ["new FormConfirmer(null!).confirm", undefined],
      ],
    ]);
    expect(reach!.nonHandlerContexts).toEqual([]);
  });
});

describe('computeReaches: callers that pass no argument to send the request on', () => {
  it('names a call omitting the argument (or passing undefined) without following it up; a parameter handed on is tracked one caller further', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
const ELICIT = { method: 'elicitation/create' as const, params: { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } } };
export async function op(id: string, extra?: Extra) {
  if (extra?.sendRequest) await extra.sendRequest(ELICIT, ElicitResultSchema);
  return id;
}
async function viaParameter(id: string, extra?: Extra) { return op(id, extra); }
async function startup() {
  await op('a');
  await op('b', undefined);
  await viaParameter('c');
}
export function build(mcp: McpServer) {
  mcp.registerTool('t', {}, async (_args, extra) => ({ content: [{ type: 'text' as const, text: await viaParameter('d', extra) }] }));
  void startup;
}
`, '.ts', 'reach-contextless.ts');
    const [reach] = dispatchOf([sf]);
    expect(reach!.line).toBe(9);
    // the handler passes its extra through viaParameter; startup() itself is never reached
    expect(reach!.handlers).toEqual(['t@direct']);
    expect([...reach!.contexts].sort()).toEqual(['`op(…)` (line 14) passes no `extra`', '`op(…)` (line 15) passes no `extra`', '`viaParameter(…)` (line 16) passes no `extra`']);
  });

  it('follows every caller of a function whose argument has a default, or whose request is not sent on a parameter', () => {
    const project = virtualProject();
    const sf = addSource(project, `${HEAD}
async function withDefault(id: string, server: Server = globalServer) { ${ASK}; return id; }
async function onModule(id: string) { ${ASK}; return id; }
const globalServer = new Server({ name: 'x', version: '1' }, { capabilities: {} });
const server = globalServer;
export async function startup() {
  await withDefault('a');
  await onModule('b');
}
`, '.ts', 'reach-contextless-defaults.ts');
    const reaches = dispatchOf([sf]);
    // both are followed up to the exported start-up function that nothing in the run calls
    expect(reaches.map((r) => r.contexts.length)).toEqual([1, 1]);
    for (const r of reaches) expect(r.contexts[0]).toMatch(/startup/);
    expect(reaches.flatMap((r) => r.contexts).some((c) => c.includes('passes no'))).toBe(false);
  });
});

describe('reach through namespace imports, barrels and objects of functions', () => {
  const OPS = `${HEAD}
export async function createThing(name: string, server: Server) {
  const r = await server.elicitInput({ message: 'Create ' + name + '?', requestedSchema: { type: 'object', properties: {} } });
  return r.action === 'accept';
}
`;
  const MAIN = (imports: string, call: string) => `${HEAD}
${imports}
export function createServer() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  mcp.registerTool('create', {}, async () => {
    const ok = await ${call}('a', mcp.server);
    return { content: [{ type: 'text' as const, text: String(ok) }] };
  });
  return mcp;
}
`;
  /** The reaches of the site in `<prefix>-ops.ts` (the other files given by suffix). */
  function reachOfOps(prefix: string, files: Record<string, string>) {
    const project = virtualProject();
    const sfs = Object.entries(files).map(([suffix, code]) => addSource(project, code, '.ts', `${prefix}-${suffix}.ts`));
    return reachesOf(sfs).map((r) => ({ file: r.file, handlers: r.handlers, contexts: r.contexts }));
  }
  const REACHED = (prefix: string) => [{ file: `${prefix}-ops.ts`, handlers: ['create:1'], contexts: [] }];

  it('follows a call through a namespace import, also of a barrel holding `export *` or `export * as`', () => {
    expect(reachOfOps('ns-direct', { ops: OPS, main: MAIN(`import * as ops from './ns-direct-ops.js';`, 'ops.createThing') })).toEqual(REACHED('ns-direct'));
    expect(reachOfOps('ns-star', { ops: OPS, index: `export * from './ns-star-ops.js';\n`, main: MAIN(`import * as ops from './ns-star-index.js';`, 'ops.createThing') })).toEqual(REACHED('ns-star'));
    expect(reachOfOps('ns-as', { ops: OPS, index: `export * as ops from './ns-as-ops.js';\n`, main: MAIN(`import { ops } from './ns-as-index.js';`, 'ops.createThing') })).toEqual(REACHED('ns-as'));
  });

  it('follows a call of the name a barrel re-exports the function under', () => {
    expect(reachOfOps('re-as', { ops: OPS, index: `export { createThing as make } from './re-as-ops.js';\n`, main: MAIN(`import { make } from './re-as-index.js';`, 'make') })).toEqual(REACHED('re-as'));
    expect(reachOfOps('re-ns', { ops: OPS, index: `export { createThing as make } from './re-ns-ops.js';\n`, main: MAIN(`import * as ops from './re-ns-index.js';`, 'ops.make') })).toEqual(REACHED('re-ns'));
    expect(reachOfOps('re-local', { ops: OPS, index: `import { createThing } from './re-local-ops.js';\nexport { createThing as make };\n`, main: MAIN(`import { make } from './re-local-index.js';`, 'make') })).toEqual(REACHED('re-local'));
    const asDefault = OPS.replace('export async function createThing', 'export default async function createThing');
    expect(reachOfOps('re-default', { ops: asDefault, index: `export { default as make } from './re-default-ops.js';\n`, main: MAIN(`import { make } from './re-default-index.js';`, 'make') })).toEqual(REACHED('re-default'));
    expect(reachOfOps('re-import-as', { ops: OPS, index: `export { createThing } from './re-import-as-ops.js';\n`, main: MAIN(`import { createThing as mk } from './re-import-as-index.js';`, 'mk') })).toEqual(REACHED('re-import-as'));
  });

  it('follows a call through an object of functions under keys of its own, and through a constant naming the function', () => {
    expect(reachOfOps('obj-key', { ops: OPS + `export const ops = { make: createThing };\n`, main: MAIN(`import { ops } from './obj-key-ops.js';`, 'ops.make') })).toEqual(REACHED('obj-key'));
    expect(reachOfOps('obj-ns', { ops: OPS, main: MAIN(`import * as o from './obj-ns-ops.js';\nconst ops = { make: o.createThing };`, 'ops.make') })).toEqual(REACHED('obj-ns'));
    expect(reachOfOps('obj-shorthand', { ops: OPS, main: MAIN(`import { createThing } from './obj-shorthand-ops.js';\nconst ops = { createThing };`, 'ops.createThing') })).toEqual(REACHED('obj-shorthand'));
    expect(reachOfOps('const-alias', { ops: OPS, main: MAIN(`import { createThing } from './const-alias-ops.js';\nconst make = createThing;`, 'make') })).toEqual(REACHED('const-alias'));
  });

  it('does not take a `let` naming the function, or a key holding something else, for the function', () => {
    // a `let` can be assigned another function before the call: the call is not known to run this one
    const viaLet = reachOfOps('let-alias', { ops: OPS, main: MAIN(`import { createThing } from './let-alias-ops.js';\nlet make = createThing;\nexport function swap(f: typeof createThing) { make = f; }`, 'make') });
    expect(viaLet[0]!.handlers).toEqual([]);
    const otherKey = reachOfOps('other-key', { ops: OPS + `async function other(_n: string, _s: Server) { return true; }\nexport const ops = { make: other, createThing };\n`, main: MAIN(`import { ops } from './other-key-ops.js';`, 'ops.make') });
    expect(otherKey[0]!.handlers).toEqual([]);
  });
});
