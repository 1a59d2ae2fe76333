/**
 * A function asking on its optional context (`extra?.sendRequest`), called by a handler with its
 * context and by other code without one: rewritten once for both (contextless-calls.ts). The
 * callers without a context keep their call and, through an overload, their result type; a
 * function no overload can be written for keeps the handler's own copy.
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
`;

const BODY = `  let tag = 'none';
  if (extra?.sendRequest) {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Tag?', requestedSchema: { type: 'object', properties: { tag: { type: 'string' } } } } }, ElicitResultSchema);
    if (answer.action === 'accept') tag = String(answer.content?.tag);
  }
  return \`\${name}:\${tag}\`;`;

function server(call: string): string {
  return `
const server = new McpServer({ name: 'items', version: '1.0.0' });
server.registerTool('create', { description: 'Create' }, async (extra) => {
  const made = await ${call}('x', extra);
  return { content: [{ type: 'text', text: made }] };
});
export async function seed(): Promise<string> { return ${call}('seed'); }
`;
}

describe('a function called with and without the context it asks on', () => {
  it('is rewritten once: the handler asks through it, overloads keep the result type of the call without a context', async () => {
    const result = await migrateSource(`${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${BODY}\n}\n${server('createItem')}`, 'items.ts');
    const output = result.output!;
    expect(output).toContain(
      [
        '// called without `extra` it never asks: those callers get the result itself',
        'export function createItem(name: string, extra?: undefined): Promise<string>;',
        'export function createItem(name: string, extra: Extra | undefined, answerKey: string): Promise<string | InputRequiredResult>;',
        "export async function createItem(name: string, extra?: Extra, answerKey = 'answer'): Promise<string | InputRequiredResult> {",
      ].join('\n'),
    );
    expect(output).toContain("const made = await createItem('x', extra, 'made');\n  if (isInputRequiredResult(made)) return made;");
    expect(output).toContain("export async function seed(): Promise<string> { return createItem('seed'); }");
    expect(output).not.toContain('Inlined from helper');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('migrated');
    expect(site?.callers).toEqual([
      { caller: '`createItem(…)` (line 19) passes no `extra`', status: 'migrated', reason: 'without the context it never asks: it calls the rewritten function, whose overload without the context returns the result itself' },
      { caller: 'tools/call handler `create`', status: 'migrated' },
    ]);
  });

  it('overloads a class method the same way', async () => {
    const source = `${HEAD}class Items {\n  async createItem(name: string, extra?: Extra): Promise<string> {\n${BODY.replace(/^/gm, '  ')}\n  }\n}\nconst items = new Items();\n${server('items.createItem')}`;
    const result = await migrateSource(source, 'items.ts');
    expect(result.output).toContain('  createItem(name: string, extra?: undefined): Promise<string>;\n  createItem(name: string, extra: Extra | undefined, answerKey: string): Promise<string | InputRequiredResult>;\n  async createItem(');
    expect(result.sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
  });

  it('keeps the handler its own copy of a function no overload can be declared for (an arrow function)', async () => {
    const result = await migrateSource(`${HEAD}export const createItem = async (name: string, extra?: Extra): Promise<string> => {\n${BODY}\n};\n${server('createItem')}`, 'items.ts');
    expect(result.output).toContain('Inlined from helper `createItem` (kept for its callers outside request handlers)');
    expect(result.output).not.toContain('extra?: undefined');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.callers?.find((c) => c.caller === 'tools/call handler `create`')?.status).toBe('migrated');
  });

  it('keeps the flag when the handler reaches the function through a callback handed to another call', async () => {
    const source = `${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${BODY}\n}\n
async function withSpan<T>(name: string, run: () => Promise<T>): Promise<T> { return run(); }
${server('createItem').replace("await createItem('x', extra)", "await withSpan('create', async () => createItem('x', extra))")}`;
    const result = await migrateSource(source, 'items.ts');
    expect(result.output).not.toContain('extra?: undefined');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    // the arrow hands `extra` on by closure: what cannot pass is the rewritten function's input_required result back out through withSpan
    expect(site?.reason).toContain(
      'a handler reaches `createItem` through `withSpan(…)` (line 18), which runs it inside a callback it is handed: the rewritten `createItem` would return its input_required result to that callback, and `withSpan`, which the rewrite does not change, would have to hand it back to the handler',
    );
    expect(site?.reason).not.toContain('the context cannot be handed down');
    // the way down is the obstacle; the call without a context would be served by the rewritten function
    expect(site?.reason?.startsWith('a handler reaches `createItem` through `withSpan(…)` (line 18)')).toBe(true);
    expect(site?.reason).toContain(
      "its callers that pass no `extra` (`createItem(…)` (line 21)) are not what keeps it: without `extra` the rewritten function never asks, and an overload would give them the result type they have",
    );
    expect(site?.reason).not.toContain('would change what it runs');
    expect(site?.callers?.find((c) => c.caller === 'tools/call handler `create`')?.reason).toContain('is in a function this handler reaches in a way the rewrite cannot follow (a handler reaches `createItem` through `withSpan(…)`');
  });

  it("names each handler's own way down in its entry, and says a handler calling the function plainly is kept for another's", async () => {
    // two tools each wrap the call in a tracer of their own; a third reaches it through a plain call of its own
    const source = `${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${BODY}\n}\n
async function withSpan<T>(name: string, run: () => Promise<T>): Promise<T> { return run(); }
async function withAudit<T>(run: () => Promise<T>): Promise<T> { return run(); }
const server = new McpServer({ name: 'items', version: '1.0.0' });
server.registerTool('create', { description: 'Create' }, async (extra) => {
  const made = await withSpan('create', async () => createItem('x', extra));
  return { content: [{ type: 'text', text: made }] };
});
server.registerTool('import', { description: 'Import' }, async (extra) => {
  const made = await withAudit(async () => createItem('y', extra));
  return { content: [{ type: 'text', text: made }] };
});
async function copyItem(extra: Extra): Promise<string> { return createItem('z', extra); }
server.registerTool('copy', { description: 'Copy' }, async (extra) => {
  const made = await copyItem(extra);
  return { content: [{ type: 'text', text: made }] };
});
export async function seed(): Promise<string> { return createItem('seed'); }
`;
    const result = await migrateSource(source, 'items.ts');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    const entry = (tool: string) => site?.callers?.find((c) => c.caller === `tools/call handler \`${tool}\``)?.reason;
    expect(entry('create')).toContain('this handler reaches in a way the rewrite cannot follow (a handler reaches `createItem` through `withSpan(…)` (line 18)');
    expect(entry('create')).not.toContain('withAudit');
    expect(entry('import')).toContain('this handler reaches in a way the rewrite cannot follow (a handler reaches `createItem` through `withAudit(…)` (line 22)');
    expect(entry('import')).not.toContain('withSpan');
    // `copy` hands its context down plainly, and the callers without a context are not what keeps the function either
    expect(entry('copy')).toBe(
      'the request at line 8 is in a function another handler reaches in a way the rewrite cannot follow (a handler reaches `createItem` through `withSpan(…)` (line 18), which runs it inside a callback it is handed: the rewritten `createItem` would return its input_required result to that callback, and `withSpan`, which the rewrite does not change, would have to hand it back to the handler); the function is rewritten once for all its handlers, so it is left as it is for this one too',
    );
  });

  it('names every step of the way down the rewrite cannot follow, and advises on that way, not on the callers without a context', async () => {
    // a tracer's callback running a closure held in a `let` (the closure chosen at registration time)
    const source = `${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${BODY}\n}\n
async function withSpan<T>(name: string, run: () => Promise<T>): Promise<T> { return run(); }
let op: (extra: Extra) => Promise<string>;
op = async (extra: Extra) => {
  const made = await createItem('x', extra);
  return made;
};
const server = new McpServer({ name: 'items', version: '1.0.0' });
server.registerTool('create', { description: 'Create' }, async (extra) => {
  const made = await withSpan('create', async () => op(extra));
  return { content: [{ type: 'text', text: made }] };
});
export async function seed(): Promise<string> { return createItem('seed'); }
`;
    const result = await migrateSource(source, 'items.ts');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toContain('a handler reaches `createItem` through `withSpan(…)` (line 22), which runs it inside a callback it is handed');
    expect(site?.reason).toContain('; and through `op(…)` (line 22), which does not call the function it runs by name');
    expect(site?.reason).toContain('its callers that pass no `extra` (`createItem(…)` (line 25)) are not what keeps it');
    expect(site?.advice).toContain('have the handler call this function itself, passing its context');
    expect(site?.advice).not.toContain('give the handlers a function of their own');
    expect(result.output).toContain("export async function seed(): Promise<string> { return createItem('seed'); }");
  });

  it('is rewritten the same way when the request is guarded by `if (ctx)`', async () => {
    const body = BODY.replace('if (extra?.sendRequest) {', 'if (extra) {');
    const result = await migrateSource(`${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${body}\n}\n${server('createItem')}`, 'items.ts');
    expect(result.output).toContain('  if (extra) {\n');
    expect(result.output).toContain('export function createItem(name: string, extra?: undefined): Promise<string>;');
    expect(result.output).toContain("export async function seed(): Promise<string> { return createItem('seed'); }");
    expect(result.sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
  });

  it('keeps the flag when a caller hands on a value that may or may not be a context', async () => {
    // `relay` passes its own `maybe` on: whether it is a context depends on relay's callers, and one passes none
    const source = `${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${BODY}\n}\n
export async function relay(name: string, maybe: Extra | undefined): Promise<string> { return createItem(name, maybe); }
${server('createItem').replace("return createItem('seed')", "return relay('seed', undefined)")}`;
    const result = await migrateSource(source, 'items.ts');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toContain('`relay(…)` (line 21) passes no `maybe`, the argument this request is sent on');
    // relay and its callers are left as they are
    expect(result.output).toContain('export async function relay(name: string, maybe: Extra | undefined): Promise<string> { return createItem(name, maybe); }');
    expect(result.output).toContain("return relay('seed', undefined); }");
  });

  it('names a request sent on `ctx!` as such instead of saying the parameter is not the context it asks on', async () => {
    const body = BODY.replace('if (extra?.sendRequest) {', 'if (name) {').replace('await extra.sendRequest', 'await extra!.sendRequest');
    const result = await migrateSource(`${HEAD}export async function createItem(name: string, extra?: Extra): Promise<string> {\n${body}\n}\n${server('createItem')}`, 'items.ts');
    const [site] = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site?.reason).toContain('the request is sent on `extra!` (asserted present), which the rewrite does not take as the context it asks on: it adds a context parameter of its own');
    expect(site?.reason).not.toContain('is not the context it asks on');
  });

  it('needs no overloads in JavaScript: the call without a context stays as it is', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
export async function createItem(name, extra) {
${BODY}
}
${server('createItem').replace(': Promise<string>', '')}`;
    const result = await migrateSource(source, 'items.mjs');
    expect(result.output).toContain("export async function createItem(name, extra, answerKey = 'answer') {");
    expect(result.output).not.toContain('extra?: undefined');
    expect(result.output).toContain("export async function seed() { return createItem('seed'); }");
    expect(result.sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
  });
});
