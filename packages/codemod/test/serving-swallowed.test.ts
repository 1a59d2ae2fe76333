/**
 * Hosting and requests that fail open: a request the run leaves flagged, whose failure the code
 * swallows (a helper awaited in `try { ... } catch {}` by the handler), would fail for every
 * 2026-07-28 client once the hosting is `serveStdio` (no session to send it on), and the catch
 * would take its fallback. Such hosting is flagged with that reason, not switched; a
 * server elsewhere in the run that does not import those requests is still switched.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileResult } from '../src/types.js';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';
import { servedFiles } from '../src/engine/serving/swallowed-requests.js';
import { addSource, virtualProject } from './find-helpers.js';

vi.setConfig({ testTimeout: 900_000 });


// A helper that throws on an empty answer, awaited by the handler inside a catch that keeps going.
const SAMPLING = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export async function summarize(server: Server, text: string): Promise<string> {
  const r = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize: \${text}\` } }], maxTokens: 100 });
  if (r.content.type !== 'text' || !r.content.text) throw new Error('empty summary');
  return r.content.text;
}

export async function tag(server: Server, text: string): Promise<string[]> {
  const r = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Tags: \${text}\` } }], maxTokens: 30 });
  return r.content.type === 'text' ? r.content.text.split(',').map((t) => t.trim()) : [];
}
`;

// Two helper requests in sequence on the 'save' path, each nested in the switch, the second asked only
// when the first gave no summary (so not in the same round): flagged.
const SERVER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { summarize, tag } from './sampling.js';

export function createServer(): Server {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as { text: string; autoSummary?: boolean; autoTag?: boolean };
    switch (request.params.name) {
      case 'save': {
        let summary: string | undefined;
        let tags: string[] = [];
        if (args.autoSummary) {
          try {
            summary = await summarize(server, args.text);
          } catch {
            // sampling unavailable: save without a summary
          }
        }
        if (args.autoTag && !summary) {
          try {
            tags = await tag(server, args.text);
          } catch {
            // sampling unavailable: save without tags
          }
        }
        return { content: [{ type: 'text', text: \`saved \${summary ?? '-'} [\${tags.join('|')}]\` }] };
      }
      default:
        throw new Error(\`unknown tool \${request.params.name}\`);
    }
  });
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

// Another server of the same run, with no request of its own: its hosting is switched.
const OTHER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'clock', version: '1.0.0' });
  server.registerTool('now', { description: 'The time' }, async () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }));
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

// A server loading its domain handlers on first use, through a dynamic import cached in a Map: the
// handler module (no static import reaches it) confirms with a request whose failure it swallows.
const TICKETS_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

type DomainHandler = (server: McpServer, id: string) => Promise<string>;
const loaded = new Map<string, DomainHandler>();

async function handlerFor(domain: string): Promise<DomainHandler> {
  let handler = loaded.get(domain);
  if (!handler) {
    const mod = await import('./domains/tickets.js');
    handler = mod.closeTicket;
    loaded.set(domain, handler);
  }
  return handler;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'tickets', version: '1.0.0' });
  server.registerTool('close_ticket', { description: 'Close a ticket', inputSchema: { id: z.string() } }, async ({ id }) => {
    const close = await handlerFor('tickets');
    return { content: [{ type: 'text', text: await close(server, id) }] };
  });
  return server;
}

await createServer().connect(new StdioServerTransport());
`;

const TICKETS_DOMAIN = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

async function confirmClose(server: McpServer, id: string): Promise<boolean> {
  try {
    const answer = await server.server.elicitInput({
      message: \`Close ticket \${id}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    return answer.action === 'accept' && answer.content?.confirm === true;
  } catch {
    // the client cannot be asked: close without confirmation
    return true;
  }
}

export async function closeTicket(server: McpServer, id: string): Promise<string> {
  return (await confirmClose(server, id)) ? \`ticket \${id} closed\` : \`ticket \${id} left open\`;
}
`;

// As the tickets server, but the domain module catches the failure and returns it as an error result:
// the failure is reported to the client, not swallowed into a fallback.
const REPORTS_SERVER = TICKETS_SERVER.replace("name: 'tickets'", "name: 'reports'").replace('./domains/tickets.js', './domains/reports.js').replace('mod.closeTicket', 'mod.archiveReport').replace("'close_ticket', { description: 'Close a ticket'", "'archive_report', { description: 'Archive a report'").replace("handlerFor('tickets')", "handlerFor('reports')");

const REPORTS_DOMAIN = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

async function confirmArchive(server: McpServer, id: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    message: \`Archive report \${id}?\`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  return answer.action === 'accept' && answer.content?.confirm === true;
}

export async function archiveReport(server: McpServer, id: string): Promise<string> {
  try {
    if (!(await confirmArchive(server, id))) return \`report \${id} kept\`;
  } catch (error) {
    return { content: [{ type: 'text', text: \`could not confirm: \${String(error)}\` }], isError: true } as never;
  }
  return \`report \${id} archived\`;
}
`;

// The tickets server hosted over Streamable HTTP (v1's StreamableHTTPServerTransport, which the upgrade
// renames): the hosting is kept for the same reason, and the reason names the class as the file does.
const TICKETS_HTTP_SERVER = TICKETS_SERVER.replace("import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';", "import { createServer as createHttpServer } from 'node:http';\nimport { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';").replace(
  'await createServer().connect(new StdioServerTransport());',
  `createHttpServer(async (req, res) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await createServer().connect(transport);
  await transport.handleRequest(req, res);
}).listen(3000);`,
);

let project: MigratedProject;
const file = (name: string): FileResult => project.file(name)!;

beforeAll(async () => {
  project = await migrateTempProject('swallowed', { 'src/notes/sampling.ts': SAMPLING, 'src/notes/server.ts': SERVER, 'src/clock/server.ts': OTHER, 'src/tickets/server.ts': TICKETS_SERVER, 'src/tickets/domains/tickets.ts': TICKETS_DOMAIN, 'src/reports/server.ts': REPORTS_SERVER, 'src/reports/domains/reports.ts': REPORTS_DOMAIN, 'src/tickets-http/server.ts': TICKETS_HTTP_SERVER, 'src/tickets-http/domains/tickets.ts': TICKETS_DOMAIN });
}, 900_000);

afterAll(removeTempProjects);

describe('flagged requests whose failure is swallowed keep the hosting as it is', () => {
  it('the requests stay flagged', () => {
    const sampling = file('notes/sampling.ts');
    expect(sampling.sites.map((s) => [s.line, s.method, s.status])).toEqual([
      [4, 'sampling/createMessage', 'flagged'],
      [10, 'sampling/createMessage', 'flagged'],
    ]);
  });

  it('does not switch their server to serveStdio, and names each request and the catch that swallows it', () => {
    const server = file('notes/server.ts');
    expect(server.output ?? SERVER).toContain('await createServer().connect(new StdioServerTransport());');
    expect(server.output).not.toMatch(/^\s*(await )?serveStdio\(/m);
    const hosting = server.sites.find((s) => s.method === 'serving')!;
    expect(hosting.status).toBe('flagged');
    expect(hosting.line).toBe(37);
    expect(hosting.reason).toContain(
      'not rewritten: 2 requests that stay flagged have their failure swallowed (summarize in sampling.ts, caught by a catch clause in createServer (server.ts); tag in sampling.ts, caught by a catch clause in createServer (server.ts))',
    );
    expect(hosting.reason).toMatch(/a 2026-07-28 request has no session to send it on, so the catch would take its fallback instead and the feature would turn off for clients that support it$/);
  });

  it('still switches a server of the same run that does not import those requests', () => {
    const clock = file('clock/server.ts');
    const hosting = clock.sites.find((s) => s.method === 'serving')!;
    expect(hosting.status).toBe('migrated');
    expect(clock.output).toContain('serveStdio(createServer);');
  });
});

describe('a swallowed request in a module the server loads with a dynamic import', () => {
  it('stays flagged', () => {
    const domain = file('tickets/domains/tickets.ts');
    expect(domain.sites.map((s) => [s.line, s.method, s.status])).toEqual([[5, 'elicitation/create', 'flagged']]);
  });

  it('keeps the hosting that imports it with import(...), naming the request and its catch', () => {
    const server = file('tickets/server.ts');
    expect(server.output ?? TICKETS_SERVER).toContain('await createServer().connect(new StdioServerTransport());');
    expect(server.output ?? '').not.toMatch(/^\s*(await )?serveStdio\(/m);
    const hosting = server.sites.find((s) => s.method === 'serving')!;
    expect(hosting).toMatchObject({ line: 27, status: 'flagged' });
    expect(hosting.reason).toContain('not rewritten: a request that stays flagged has its failure swallowed (confirmClose in domains/tickets.ts, caught by a catch clause in confirmClose (domains/tickets.ts))');
  });
});

describe('HTTP hosting kept for a swallowed request', () => {
  it('names the transport class as the user wrote it (v1 StreamableHTTPServerTransport), not by the name the upgrade gave it', () => {
    const server = file('tickets-http/server.ts');
    const hosting = server.sites.find((s) => s.method === 'serving')!;
    expect(hosting.status).toBe('flagged');
    expect(hosting.reason).toMatch(/^StreamableHTTPServerTransport hosting serves the 2025 era only; not rewritten: a request that stays flagged has its failure swallowed \(confirmClose in domains\/tickets\.ts/);
  });
});

describe('a flagged request whose failure the code returns as an error result', () => {
  it('keeps the hosting, saying the tool would answer with its error (not that the feature turns off silently)', () => {
    expect(file('reports/domains/reports.ts').sites.map((s) => [s.line, s.method, s.status])).toEqual([[4, 'elicitation/create', 'flagged']]);
    const server = file('reports/server.ts');
    expect(server.output ?? REPORTS_SERVER).toContain('await createServer().connect(new StdioServerTransport());');
    const hosting = server.sites.find((s) => s.method === 'serving')!;
    expect(hosting).toMatchObject({ line: 27, status: 'flagged' });
    expect(hosting.reason).toContain('not rewritten: a request that stays flagged has its failure caught and returned as an error result (confirmArchive in domains/reports.ts, caught by a catch clause in archiveReport (domains/reports.ts))');
    expect(hosting.reason).toMatch(/a 2026-07-28 request has no session to send it on, so its tool would answer with that error instead of asking, for clients that support the request$/);
    expect(hosting.reason).not.toContain('silently');
  });
});

describe('the files a hosting serves', () => {
  it('follows import(\'literal\'), require(\'literal\') and import x = require(\'literal\'), not a computed specifier', () => {
    const project = virtualProject();
    const names = (files: { getBaseName(): string }[]) => files.map((f) => f.getBaseName()).sort();
    addSource(project, 'export const a = 1;\n', '.ts', 'served/loaded-by-import.ts');
    addSource(project, 'module.exports = { b: 2 };\n', '.cjs', 'served/required.cjs');
    addSource(project, 'export = { c: 3 };\n', '.cts', 'served/import-equals.cts');
    addSource(project, 'export const d = 4;\n', '.ts', 'served/computed.ts');
    const esm = addSource(project, "const name = 'computed';\nexport async function load() {\n  const { a } = await import('./loaded-by-import.js');\n  const other = await import(`./${name}.js`);\n  return [a, other];\n}\n", '.ts', 'served/hosting.ts');
    expect(names(servedFiles(esm))).toEqual(['hosting.ts', 'loaded-by-import.ts']);
    const cjs = addSource(project, "const { b } = require('./required.cjs');\nmodule.exports = { b };\n", '.cjs', 'served/hosting.cjs');
    expect(names(servedFiles(cjs))).toEqual(['hosting.cjs', 'required.cjs']);
    const cts = addSource(project, "import c = require('./import-equals.cjs');\nexport const e = c;\n", '.cts', 'served/hosting.cts');
    expect(names(servedFiles(cts))).toEqual(['hosting.cts', 'import-equals.cts']);
  });
});
