import { describe, expect, it, vi } from 'vitest';
import type { SourceFile } from 'ts-morph';
import { findRegistrations, findSites } from '../src/engine/find/index.js';
import { computeReaches } from '../src/engine/reach/index.js';
import { addSource, virtualProject } from './find-helpers.js';

// The first typed query loads the SDK's declaration files (seconds on a busy 2-core machine).
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

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
      { line: 6, file: sf.getBaseName(), handlers: ['tools/call:0'], contexts: [] },
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
