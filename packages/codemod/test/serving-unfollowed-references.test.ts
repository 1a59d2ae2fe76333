/**
 * Legacy requests made through a reference the find stage does not follow: a duck-typed getter
 * returning the SDK's bound method, a method read into a variable and invoked with `.call(...)`.
 * The engine finds no site there, yet the request is made; served by `serveStdio`, a 2026-07-28
 * request has no session to send it on, it throws and the catch around it silently turns the
 * feature off. Before switching, the serving stage looks for code reading a legacy request method by
 * name in the files the hosting serves: with one, the hosting is kept and flagged naming it, and the
 * reference is reported as a flagged site of its own. Comments, type declarations and the requests
 * the run found or migrated are not such references.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import type { FileResult } from '../src/types.js';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';
import path from 'node:path';
import { TEST_DIR, virtualProject } from './find-helpers.js';
import { findSites } from '../src/engine/find/index.js';
import { unfollowedReferences } from '../src/engine/serving/unfollowed-references.js';

vi.setConfig({ testTimeout: 900_000 });

// A getter handing out the SDK's elicitation sender, bound, when there is one.
const CONFIRM = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type Confirm = (request: { message: string; requestedSchema: Record<string, unknown> }) => Promise<{ action: string; content?: Record<string, unknown> }>;

/** The server's elicitation sender (elicitInput), when its SDK has one. */
export function confirmer(server: McpServer): Confirm | null {
  const low = (server as unknown as { server?: Record<string, unknown> }).server;
  const send = low?.['elicitInput'];
  return typeof send === 'function' ? (send.bind(low) as Confirm) : null;
}
`;

const CLEANER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { confirmer } from './confirm.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'cleaner', version: '1.0.0' });
  server.registerTool('purge_cache', { description: 'Purge a cache directory', inputSchema: { dir: z.string() } }, async ({ dir }) => {
    const confirm = confirmer(server);
    if (confirm) {
      try {
        const reply = await confirm({ message: \`Purge \${dir}?\`, requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } });
        if (reply.action !== 'accept' || reply.content?.yes !== true) return { content: [{ type: 'text', text: 'kept' }] };
      } catch {
        // no way to confirm: purge anyway
      }
    }
    return { content: [{ type: 'text', text: \`purged \${dir}\` }] };
  });
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

// The method read off the server into a variable and invoked with .call, in the hosting's own file.
const JOBS = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export function createServer(): Server {
  const server = new Server({ name: 'jobs', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'describe_job', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const id = String(request.params.arguments?.id ?? '');
    let summary = 'no summary';
    const sample = (server as any)?.createMessage;
    if (sample) {
      try {
        const r = await sample.call(server, { messages: [{ role: 'user', content: { type: 'text', text: \`Describe job \${id}\` } }], maxTokens: 50 });
        if (r.content.type === 'text') summary = r.content.text;
      } catch {
        // sampling unavailable
      }
    }
    return { content: [{ type: 'text', text: \`\${id}: \${summary}\` }] };
  });
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

// A request the engine recognises and migrates, a comment and an interface naming elicitInput: the
// hosting is switched.
const KNOWN = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** What a server able to ask has (elicitInput); the tool below asks through server.server.elicitInput. */
export interface Asker {
  elicitInput(params: { message: string }): Promise<unknown>;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'known', version: '1.0.0' });
  server.registerTool('rename', { description: 'Rename', inputSchema: { from: z.string() } }, async ({ from }) => {
    const answer = await server.server.elicitInput({ message: \`New name for \${from}?\`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'unchanged' }] };
    return { content: [{ type: 'text', text: \`renamed to \${String(answer.content?.name)}\` }] };
  });
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

let project: MigratedProject;
const file = (name: string): FileResult => project.file(name)!;

beforeAll(async () => {
  project = await migrateTempProject('unfollowed', { 'src/cleaner/confirm.ts': CONFIRM, 'src/cleaner/server.ts': CLEANER, 'src/jobs/server.ts': JOBS, 'src/known/server.ts': KNOWN });
}, 900_000);

afterAll(removeTempProjects);

describe('a request made through a reference the engine does not follow', () => {
  it('keeps the hosting of a server whose helper hands out the bound SDK method, naming the user\'s line and what to do', () => {
    const server = file('cleaner/server.ts');
    expect(server.output ?? CLEANER).toContain('await createServer().connect(new StdioServerTransport());');
    expect(server.output ?? '').not.toMatch(/^\s*(await )?serveStdio\(/m);
    const hosting = server.sites.find((s) => s.method === 'serving')!;
    expect(hosting).toMatchObject({ line: 23, status: 'flagged' });
    expect(hosting.reason).toContain(
      "not rewritten: confirm.ts:8 (confirmer) reads the legacy request method elicitInput through a reference the codemod does not follow (`low?.['elicitInput']`), so the request made through it is neither migrated nor flagged at its call: served by serveStdio / createMcpHandler, a 2026-07-28 request has no session to send it on, so it would throw",
    );
    expect(hosting.reason).toMatch(/make the request where the codemod follows it \(or migrate it by hand\), then switch the hosting$/);
  });

  it('reports that reference as a flagged site of its own, with a marker', () => {
    const confirm = file('cleaner/confirm.ts');
    expect(confirm.sites.map((s) => [s.line, s.method, s.status])).toEqual([[8, 'elicitation/create', 'flagged']]);
    expect(confirm.sites[0]!.reason).toMatch(/the codemod does not follow the request made through it/);
    expect(confirm.output).toContain(`// ${TODO_MARKER}(`);
  });

  it('keeps the hosting in the file that reads the method into a variable and invokes it with .call', () => {
    const jobs = file('jobs/server.ts');
    expect(jobs.output ?? JOBS).toContain('await createServer().connect(new StdioServerTransport());');
    expect(jobs.sites.map((s) => [s.line, s.method, s.status])).toEqual([
      [11, 'sampling/createMessage', 'flagged'],
      [25, 'serving', 'flagged'],
    ]);
    expect(jobs.sites[1]!.reason).toContain('not rewritten: server.ts:11 (createServer) reads the legacy request method createMessage through a reference the codemod does not follow (`(server as any)?.createMessage`)');
  });

  it('switches the hosting when the only references are a request the run migrated, a comment and an interface', () => {
    const known = file('known/server.ts');
    expect(known.sites.map((s) => [s.method, s.status])).toEqual([
      ['elicitation/create', 'migrated'],
      ['serving', 'migrated'],
    ]);
    expect(known.output).toContain('serveStdio(createServer);');
  });
});

describe('which references the scan reports (one file, typed)', () => {
  let cases = 0;
  const scan = (code: string): string[] => {
    // outside test/: the scan leaves test files alone (a test's fake is not served by the hosting)
    const file = virtualProject().createSourceFile(path.join(TEST_DIR, '..', '__virtual_src__', `case${cases++}.ts`), code, { overwrite: true });
    const ctx = { typeChecked: true };
    return unfollowedReferences(file, (f) => findSites(f, ctx), ctx).map((r) => `${r.node.getStartLineNumber()} ${r.name} ${r.method}`);
  };
  const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { inputRequired } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
`;

  it('reports a bound method handed out, a method read off an any-typed server, a computed member and a destructured method passed on', () => {
    expect(
      scan(`${HEAD}export const ask = typeof server.server.elicitInput === 'function' ? server.server.elicitInput.bind(server.server) : null;
export const sample = (server as any).createMessage;
export const roots = server.server['listRoots'];
const { elicitInput } = server.server;
export const registry = [elicitInput];
`),
    ).toEqual(['4 elicitInput elicitation/create', '5 createMessage sampling/createMessage', '6 listRoots roots/list', '7 elicitInput elicitation/create']);
  });

  it('reports the wire method given to a sender it does not know, not a table key, a comparison, a case or a handler registration', () => {
    expect(
      scan(`${HEAD}declare const channel: { push(message: unknown): Promise<unknown> };
export const answer = channel.push({ method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } });
export const labels = { 'sampling/createMessage': 'sampling' };
export function kind(m: { method: string }) {
  if (m.method === 'roots/list') return 'roots';
  switch (m.method) {
    case 'elicitation/create':
      return 'elicitation';
  }
  return undefined;
}
declare const client: { setRequestHandler(method: string, h: () => unknown): void };
client.setRequestHandler('elicitation/create', () => ({ action: 'cancel' }));
`),
    ).toEqual(["5 'elicitation/create' elicitation/create"]);
  });

  it('does not report a request object nothing hands on (what a migrated handler leaves of one), but one handed to a sender it does not know', () => {
    expect(
      scan(`${HEAD}declare const channel: { push(message: unknown): Promise<unknown> };
export function left(prompt: string) {
  const request = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 10 } };
  return request.params.maxTokens;
}
export function unused() {
  const request = { method: 'roots/list' as const };
}
export function sent() {
  const request = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };
  return channel.push(request);
}
`),
    ).toEqual(["13 'elicitation/create' elicitation/create"]);
  });

  it('does not report comments, type declarations, existence checks, look-alikes, the v2 builders or the requests it found', () => {
    expect(
      scan(`${HEAD}// server.server.elicitInput is read below
interface Asker { elicitInput(p: { message: string }): Promise<unknown>; createMessage: unknown }
type Sender = McpServer['server']['createMessage'];
export const canAsk = typeof server.server.elicitInput === 'function' && !!server.server.listRoots;
class Chat { createMessage(text: string) { return text; } }
export const posted = new Chat().createMessage('hi');
export const builder = inputRequired.createMessage({ messages: [], maxTokens: 1 });
export async function direct() { return server.server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }); }
export async function viaCall() { return server.server.createMessage.call(server.server, { messages: [], maxTokens: 1 }); }
const bound = server.server.listRoots.bind(server.server);
export async function viaAlias() { return bound(); }
async function withSender(send: McpServer['server']['elicitInput']) { return send({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }); }
export const passed = withSender(server.server.elicitInput.bind(server.server));
export type Unused = [Asker, Sender];
`),
    ).toEqual([]);
  });
});
