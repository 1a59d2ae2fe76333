import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

const FACTORY_CALL = `#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'factory', version: '1.0.0' });
  server.registerTool('ping', { description: 'Liveness' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

async function main() {
  const server = createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
  console.error('factory server running on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const MODULE_LEVEL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const greeting = 'Hello';

const server = new McpServer({ name: 'module-level', version: '1.0.0' });

server.registerTool('greet', { description: 'Greets', inputSchema: { name: z.string() } }, async ({ name }) => ({
  content: [{ type: 'text', text: \`\${greeting}, \${name}!\` }],
}));

server.registerPrompt('intro', { description: 'Intro' }, async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Introduce yourself' } }],
}));

registerExtras(server);

function registerExtras(target: McpServer) {
  target.registerTool('time', { description: 'Time' }, async () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }));
}

await server.connect(new StdioServerTransport());
`;

const USED_AFTER_CONNECT = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'closer', version: '1.0.0' });
await server.connect(new StdioServerTransport());
process.on('SIGINT', () => {
  void server.close();
});
`;

// A helper function of the module reads the module-level server: wrapped into a factory, the
// server would no longer be in its scope.
const SHARED_BY_HELPER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'shared', version: '1.0.0' });

function serverName(): string {
  return server.server.getClientVersion()?.name ?? 'unknown';
}

server.registerTool('who', { description: 'Names the client' }, async () => ({ content: [{ type: 'text', text: serverName() }] }));
await server.connect(new StdioServerTransport());
`;

const HTTP_SESSIONS = `import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const transports: Record<string, StreamableHTTPServerTransport> = {};

export async function handle(sessionId: string | undefined, createServer: () => McpServer) {
  if (sessionId && transports[sessionId]) return transports[sessionId];
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      transports[id] = transport;
    },
  });
  await createServer().connect(transport);
  return transport;
}

const sessionAnswers = new Map<string, string>();
export function remember(sessionId: string, answer: string) {
  sessionAnswers.set(sessionId, answer);
}
`;

// Transports constructed but never handed to a server's connect: library code, not hosting.
const NOT_HOSTING = `import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

export class Wrapper {
  t: WebStandardStreamableHTTPServerTransport;
  constructor(o: ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0]) {
    this.t = new WebStandardStreamableHTTPServerTransport(o);
  }
}

export async function legacyFallback(factory: () => Promise<{ connect(t: unknown): Promise<void> }>) {
  const product = await factory();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await product.connect(transport);
  return transport;
}
`;

// Hosting through a property of the class that connects it, with a JS server built in place.
const CLASS_HOSTING = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

export class App {
  server = new McpServer({ name: 'app', version: '1.0.0' });
  transport: SSEServerTransport | undefined;
  async attach(res: import('node:http').ServerResponse) {
    this.transport = new SSEServerTransport('/messages', res);
    await this.server.connect(this.transport);
  }
}
`;

// A web app's session cache in a file that does not use MCP at all: not an MCP finding.
const WEB_SESSIONS = `const carts = new Map<string, string[]>();
export function addToCart(req: { sessionId: string }, item: string) {
  carts.set(req.sessionId, [...(carts.get(req.sessionId) ?? []), item]);
}
`;

// HTTP hosting shapes the rewrite must leave alone (flagged with the reason).
const HTTP_CLASS_FACTORY = `import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export class Gateway {
  createServer(): McpServer {
    return new McpServer({ name: 'gw', version: '1.0.0' });
  }
  start() {
    const app = express();
    app.use(express.json());
    app.post('/mcp', async (req, res) => {
      const server = this.createServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    return app;
  }
}
`;

const HTTP_TENANT_FACTORY = `import { createServer as createHttpServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

function serverFor(tenant: string): McpServer {
  return new McpServer({ name: tenant, version: '1.0.0' });
}

export const http = createHttpServer(async (req, res) => {
  const tenant = req.headers['x-tenant'] as string;
  const server = serverFor(tenant);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
`;

// The factory is a const inside main(): not in scope at module level, where the handler would go.
const HTTP_FACTORY_IN_MAIN = `import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export function main() {
  const buildServer = () => new McpServer({ name: 'inner', version: '1.0.0' });
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await buildServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return app;
}
`;

const HTTP_STATEFUL_NO_BODY = `import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const getServer = () => new McpServer({ name: 'raw', version: '1.0.0' });
const sessions = new Map<string, StreamableHTTPServerTransport>();

export const http = createHttpServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  let transport = sessionId ? sessions.get(sessionId) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, transport!) });
    await getServer().connect(transport);
  }
  await transport.handleRequest(req, res);
});
`;

const HTTP_STATELESS_JS = `import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const buildServer = () => new McpServer({ name: 'plain-js', version: '1.0.0' });

const app = express();
app.use(express.json());
app.post('/mcp', async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    transport.close();
    server.close();
    releaseQuota(req);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});

function releaseQuota(req) {
  console.log('released', req.ip);
}

export default app;
`;

// A factory with an optional parameter: createMcpHandler would pass its context as \`runner\`.
const HTTP_OPTIONAL_PARAM = `import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface Runner { run(command: string): string }

export function getServer(runner?: Runner): McpServer {
  const active = runner ?? { run: (command: string) => command };
  const server = new McpServer({ name: 'runner', version: '1.0.0' });
  server.registerTool('run', { description: 'Runs' }, async () => ({ content: [{ type: 'text', text: active.run('ls') }] }));
  return server;
}

export const app = express();
app.use(express.json());
app.post('/mcp', async (req, res) => {
  const server = getServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
`;

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult => result.files.find((f) => f.path === path.join(dir, 'src', name))!;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-serving-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'serving', type: 'module' }));
  const sources = { 'http-in-main.mjs': HTTP_FACTORY_IN_MAIN.replace(/: \w+(?=[),])/g, ''), 'http-class.ts': HTTP_CLASS_FACTORY, 'http-tenant.ts': HTTP_TENANT_FACTORY, 'http-stateful-raw.ts': HTTP_STATEFUL_NO_BODY, 'http-plain.mjs': HTTP_STATELESS_JS, 'factory.ts': FACTORY_CALL, 'module-level.ts': MODULE_LEVEL, 'used-after.ts': USED_AFTER_CONNECT, 'shared-by-helper.ts': SHARED_BY_HELPER, 'http.ts': HTTP_SESSIONS, 'not-hosting.ts': NOT_HOSTING, 'class-hosting.ts': CLASS_HOSTING, 'web-sessions.ts': WEB_SESSIONS, 'http-optional-param.ts': HTTP_OPTIONAL_PARAM };
  for (const [name, text] of Object.entries(sources)) fs.writeFileSync(path.join(dir, 'src', name), text);
  result = await migrateProject(['src'], { cwd: dir });
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Type errors of the migrated outputs against the real @modelcontextprotocol/server types. */
function typeErrors(names: string[]): string[] {
  const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  const files = names.map((name) => project.createSourceFile(path.join(dir, 'src', `out-${name}`), file(name).output!));
  return files.flatMap((sf) => sf.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => `${sf.getBaseName()}:${d.getLineNumber()}: ${String(d.getMessageText())}`));
}

describe('serving: stdio', () => {
  it('rewrites connect(new StdioServerTransport()) of a factory-built server to serveStdio(factory)', () => {
    const out = file('factory.ts');
    expect(out.output).toContain(`import { serveStdio } from '@modelcontextprotocol/server/stdio';`);
    expect(out.output).not.toContain('StdioServerTransport');
    expect(out.output).toContain(`async function main() {\n  serveStdio(createServer);\n  console.error('factory server running on stdio');\n}`);
    expect(out.output!.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(out.sites.map((s) => [s.line, s.method, s.status])).toEqual([[14, 'serving', 'migrated']]);
  });

  it('wraps a module-level construction and its registrations into a factory', () => {
    const out = file('module-level.ts');
    expect(out.output).toContain(`function createServer() {\n  const server = new McpServer({ name: 'module-level', version: '1.0.0' });\n`);
    expect(out.output).toContain(`  return server;\n}\n`);
    expect(out.output).toContain(`\nserveStdio(createServer);\n`);
    expect(out.output).toContain(`const greeting = 'Hello';`);
    expect(out.output).not.toContain('server.connect');
    expect(out.sites.map((s) => [s.line, s.method, s.status])).toEqual([[23, 'serving', 'migrated']]);
    expect(out.output).toContain(`  registerExtras(server);\n  return server;\n}`);
  });

  it('produces code that typechecks against the real v2 packages', () => {
    expect(typeErrors(['factory.ts', 'module-level.ts'])).toEqual([]);
  });

  it('wraps a factory declared with a parameter (the hosting calls it with a context), passes one without as is', () => {
    const out = file('http-optional-param.ts').output!;
    expect(out).toContain('const mcpHandler = toNodeHandler(createMcpHandler(() => getServer()));');
    expect(typeErrors(['http-optional-param.ts'])).toEqual([]);
    expect(file('factory.ts').output).toContain('serveStdio(createServer);');
  });

  it('flags a server used after connecting, with the exact advice', () => {
    const out = file('used-after.ts');
    expect(out.sites).toHaveLength(1);
    expect(out.sites[0]).toMatchObject({ line: 5, method: 'serving', status: 'flagged' });
    expect(out.sites[0]!.reason).toMatch(/'server' is used after connecting/);
    expect(out.sites[0]!.advice).toMatch(/serveStdio\(createServer\) from '@modelcontextprotocol\/server\/stdio'/);
    expect(out.output).toContain(`// ${TODO_MARKER}(`);
    expect(out.output).toContain('await server.connect(new StdioServerTransport());');
  });
});

describe('serving: a module-level server read by a helper', () => {
  it('is flagged naming the helper that would lose sight of it', () => {
    const out = file('shared-by-helper.ts');
    expect(out.sites.map((s) => [s.line, s.method, s.status])).toEqual([[11, 'serving', 'flagged']]);
    expect(out.sites[0]!.reason).toContain(`'server' is used in a statement that is not a registration on it (function serverName, which would no longer see it inside the factory)`);
  });
});

describe('serving: Streamable HTTP and per-session state', () => {
  it('flags StreamableHTTPServerTransport hosting and maps keyed by session id', () => {
    const out = file('http.ts');
    expect(out.sites.map((s) => [s.line, s.method, s.status])).toEqual([
      [5, 'session-state', 'flagged'],
      [9, 'serving', 'flagged'],
      [19, 'session-state', 'flagged'],
    ]);
    expect(out.sites[1]!.advice).toMatch(/createMcpHandler\(createServer\)/);
    expect(out.sites[0]!.advice).toMatch(/stateless/);
    expect(out.output!.split(TODO_MARKER).length - 1).toBe(3);
  });

  it('flags a transport kept in a class property and connected to that class\'s server', () => {
    const out = file('class-hosting.ts');
    expect(out.sites.map((s) => [s.line, s.method, s.status])).toEqual([[8, 'serving', 'flagged']]);
    expect(out.sites[0]!.advice).toMatch(/SSE transport predates Streamable HTTP/);
  });

  it('does not flag a transport that is never connected to an MCP server (library wrappers, factories of unknown objects)', () => {
    const out = file('not-hosting.ts');
    expect(out.sites).toEqual([]);
    expect(out.output ?? out.original).toBe(NOT_HOSTING);
  });

  it('does not flag session-keyed maps in a file that does not use MCP (full analysis, no pre-filter)', async () => {
    const full = await migrateProject(['src/web-sessions.ts', 'src/http.ts'], { cwd: dir, prefilter: false });
    const sitesOf = (name: string) => full.files.find((f) => f.path === path.join(dir, 'src', name))!.sites.map((s) => s.method);
    expect(sitesOf('web-sessions.ts')).toEqual([]);
    expect(sitesOf('http.ts')).toEqual(['session-state', 'serving', 'session-state']);
  });

  it('leaves HTTP hosting alone when the factory is not reachable from module scope, with the reason', () => {
    const cls = file('http-class.ts');
    expect(cls.sites.map((s) => [s.line, s.method, s.status])).toEqual([[14, 'serving', 'flagged']]);
    expect(cls.sites[0]!.reason).toMatch(/factory `this\.createServer` is not reachable from module scope/);
    const tenant = file('http-tenant.ts');
    expect(tenant.sites.map((s) => [s.line, s.method, s.status])).toEqual([[12, 'serving', 'flagged']]);
    expect(tenant.sites[0]!.reason).toMatch(/the factory uses 'tenant', which is local to the request handler/);
    const inMain = file('http-in-main.mjs');
    expect(inMain.sites.map((s) => [s.line, s.method, s.status])).toEqual([[10, 'serving', 'flagged']]);
    expect(inMain.sites[0]!.reason).toMatch(/the factory uses 'buildServer', which is not declared at module level/);
    for (const f of [cls, tenant, inMain]) {
      expect(f.output).toContain('handleRequest(req, res');
      expect(f.output).not.toMatch(/const mcpHandler|import { [^}]*createMcpHandler/);
    }
  });

  it('leaves stateful hosting alone when the transport reads the body itself (routing first would drain it)', () => {
    const raw = file('http-stateful-raw.ts');
    const serving = raw.sites.filter((s) => s.method === 'serving');
    expect(serving.map((s) => [s.line, s.status])).toEqual([[13, 'flagged']]);
    expect(serving[0]!.reason).toMatch(/reads the request body itself/);
    expect(raw.sites.filter((s) => s.method === 'session-state').map((s) => s.status)).toEqual(['flagged']);
  });

  it('rewrites plain-JS stateless hosting and keeps the rest of the close callback', () => {
    const out = file('http-plain.mjs').output!;
    expect(out).toContain(`const mcpHandler = toNodeHandler(createMcpHandler(buildServer));\n\napp.post('/mcp', async (req, res) => {\n  res.on('close', () => {\n    releaseQuota(req);\n  });\n  await mcpHandler(req, res, req.body);\n});`);
    expect(out).toContain(`import { toNodeHandler } from '@modelcontextprotocol/node';`);
    expect(out).not.toMatch(/StreamableHTTPServerTransport|server\.connect|transport\.close/);
  });

  it('changes nothing on a second run', async () => {
    for (const name of ['factory.ts', 'module-level.ts', 'used-after.ts', 'shared-by-helper.ts', 'http.ts', 'class-hosting.ts', 'http-class.ts', 'http-tenant.ts', 'http-stateful-raw.ts', 'http-plain.mjs', 'http-in-main.mjs', 'http-optional-param.ts']) fs.writeFileSync(path.join(dir, 'src', name), file(name).output!);
    const again = await migrateProject(['src'], { cwd: dir });
    for (const f of again.files) expect(f.output ?? f.original, path.basename(f.path)).toBe(f.original);
  });
});
