/**
 * Senders reached indirectly, and the analysis that decides their form: receivers typed by a
 * project's own interface, timers raced against a request, task-augmented requests, and the
 * purity of code that re-runs on every round (binding a method, filling a list of one's own).
 */
import { describe, expect, it } from 'vitest';
import { findSites } from '../src/engine/find/index.js';
import { firstEffect } from '../src/engine/rewrite/purity.js';
import { taskAugmentation } from '../src/engine/rewrite/tasks.js';
import { timeoutWrapperOf } from '../src/engine/rewrite/timeout.js';
import { addSource, virtualProject } from './find-helpers.js';

const project = virtualProject();
const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
`;

function sitesIn(code: string) {
  return findSites(addSource(project, code), { typeChecked: true });
}

describe('receivers typed by a locally declared slice of the SDK server', () => {
  it('finds requests on an interface whose method has the SDK types, or the SDK shape structurally', () => {
    const sites = sitesIn(`${V1}
interface Wired { elicitInput(p: ElicitRequest['params']): Promise<ElicitResult> }
type Sampler = { createMessage(p: { messages: unknown[]; maxTokens: number }): Promise<{ content: unknown; model: string }> };
interface Lister { listRoots: () => Promise<{ roots: Array<{ uri: string }> }> }
let wired: Wired | undefined;
export async function ask(sampler: Sampler, lister: Lister) {
  await wired!.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: {} } });
  await sampler.createMessage({ messages: [], maxTokens: 5 });
  return lister.listRoots();
}
`);
    expect(sites.map((s) => [s.line, s.method, s.shape])).toEqual([
      [9, 'elicitation/create', 'server-method'],
      [10, 'sampling/createMessage', 'server-method'],
      [11, 'roots/list', 'server-method'],
    ]);
  });

  it('does not take a look-alike: an implemented method, or a signature of another shape', () => {
    const sites = sitesIn(`
class Prompter { async elicitInput(message: string): Promise<string> { return message; } }
interface Dialog { elicitInput(message: string): Promise<string> }
interface Llm { createMessage(prompt: string): Promise<{ content: string }> }
export async function run(p: Prompter, d: Dialog, llm: Llm) {
  await p.elicitInput('a');
  await d.elicitInput('b');
  await llm.createMessage('c');
}
`);
    expect(sites).toEqual([]);
  });
});

describe('timeout races around a request', () => {
  const raced = (code: string) => {
    const site = sitesIn(`${V1}${code}`)[0]!;
    return () => timeoutWrapperOf(site);
  };

  it('drops an inline Promise.race against a timer that can only reject', () => {
    const wrapper = raced(`
export function make(server: McpServer) {
  return async () => {
    const r = await Promise.race([
      server.server.createMessage({ messages: [], maxTokens: 5 }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('slow')), 1000)),
    ]);
    return r.model;
  };
}
`)();
    expect(wrapper?.expr.getText()).toMatch(/^Promise\.race\(/);
    expect(wrapper?.note).toContain('is dropped');
  });

  it('drops a project timeout helper that races its parameter against a rejecting timer', () => {
    const wrapper = raced(`
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('late')), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
export async function go(server: McpServer) {
  return (await withTimeout(server.server.createMessage({ messages: [], maxTokens: 5 }), 500)).model;
}
`)();
    expect(wrapper?.expr.getText()).toMatch(/^withTimeout\(/);
  });

  it('flags a racer that resolves with a value of its own, naming it', () => {
    const check = raced(`
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export async function go(server: McpServer) {
  const r = await Promise.race([server.server.createMessage({ messages: [], maxTokens: 5 }), sleep(100).then(() => undefined)]);
  return r;
}
`);
    expect(check).toThrow(/races against `sleep\(100\)\.then\(\(\) => undefined\)` \(line \d+\), which may resolve with a value of its own/);
  });

  it('flags a race against a timer promise created before it (its rejection would go unhandled)', () => {
    const check = raced(`
export async function go(server: McpServer) {
  const timer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 100));
  return Promise.race([server.server.createMessage({ messages: [], maxTokens: 5 }), timer]);
}
`);
    expect(check).toThrow(/promise created before the race/);
  });

  it('is not a timeout race: a helper that does more than race its argument', () => {
    const wrapper = raced(`
async function logged<T>(p: Promise<T>): Promise<T> { console.error('asking'); return p; }
export async function go(server: McpServer) { return logged(server.server.createMessage({ messages: [], maxTokens: 5 })); }
`)();
    expect(wrapper).toBeUndefined();
  });
});

describe('task-augmented requests', () => {
  it('names the task property and the polling request', () => {
    const site = sitesIn(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
const mcp = new McpServer({ name: 'x', version: '1' });
mcp.registerTool('t', {}, async (extra) => {
  const t = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, task: { ttl: 1000 } } }, CreateTaskResultSchema);
  const s = await extra.sendRequest({ method: 'tasks/get', params: { taskId: t.task.taskId } }, GetTaskResultSchema);
  return { content: [{ type: 'text', text: s.status }] };
});
`)[0]!;
    expect(taskAugmentation(site)).toBe(
      'the request at line 5 is task-augmented (`task` at line 5): the client answers with a task handle that `tasks/get` at line 6 polls; an MRTR input request is answered inline and has no task form',
    );
  });

  it('sees `task` in the request options too, and nothing in a plain request', () => {
    const [withOption, plain] = sitesIn(`${V1}
export async function go(server: McpServer) {
  await server.server.createMessage({ messages: [], maxTokens: 5 }, { task: { ttl: 1000 } });
  await server.server.createMessage({ messages: [], maxTokens: 5 }, { timeout: 1000 });
}
`);
    expect(taskAugmentation(withOption!)).toMatch(/^the request at line 5 is task-augmented \(`task` at line 5\): the client answers with a task handle to poll through tasks\/get/);
    expect(taskAugmentation(plain!)).toBeUndefined();
  });
});

describe('purity of code that re-runs on each round', () => {
  const effectOf = (code: string) => {
    const sf = addSource(project, code);
    const fn = sf.getFunctionOrThrow('check');
    return firstEffect([fn.getBodyOrThrow()], fn)?.description;
  };

  it('filling a collection the code made itself is not an effect; changing one it was given is', () => {
    expect(effectOf(`export function check(words: string[]) { const found: string[] = []; const seen = new Set<string>(); for (const w of words) { if (!seen.has(w)) found.push(w); seen.add(w); } return found; }`)).toBeUndefined();
    expect(effectOf(`export function check(words: string[]) { words.push('x'); return words; }`)).toBe("words.push('x')");
    expect(effectOf(`const shared: string[] = []; export function check(w: string) { const list = shared; list.push(w); }`)).toBe('list.push(w)');
    expect(effectOf(`export function check(w: string) { let list: string[] = []; list.push(w); list = []; return list; }`)).toBe('list.push(w)');
  });

  it('a debug line through a logger is not an effect; an info line or an MCP log notification is', () => {
    expect(effectOf(`declare const log: { debug(m: string): void }; export function check(r: number, t: number) { log.debug('risk ' + r); return r < t; }`)).toBeUndefined();
    expect(effectOf(`declare const log: { info(m: string): void }; export function check(r: number) { log.info('risk ' + r); return r; }`)).toBe("log.info('risk ' + r)");
    expect(effectOf(`declare const ctx: { mcpReq: { log(l: string, d: unknown): void } }; export function check(r: number) { ctx.mcpReq.log('debug', r); }`)).toBe("ctx.mcpReq.log('debug', r)");
  });

  it('binding a function is not an effect; a socket-like bind is', () => {
    expect(effectOf(`${V1}export function check(server: McpServer) { return server.server.elicitInput.bind(server.server); }`)).toBeUndefined();
    expect(effectOf(`interface Sock { bind(port: number): void } export function check(s: Sock) { s.bind(8080); }`)).toBe('s.bind(8080)');
  });
});

