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
