/**
 * What the official v1-to-v2 upgrade leaves not compiling: repaired where a mechanical repair
 * exists (checked against the real v2 types, and run with a real 2026-07-28 client), marked at the
 * line with the compiler's message where none does (a flagged site: exit 1, never a silent break).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { Client } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { migrateProject } from './shared-library-files.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

// Helpers typed with the v1 handler-context shape written out, a raw shape typed ZodRawShape.
const CONTEXT_SHAPES = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

type Extra = { sessionId?: string; requestId: unknown };

interface Signals {
  signal: AbortSignal;
  requestId: string | number;
}

function logFields(extra: Extra) {
  return { requestId: extra.requestId, session: extra.sessionId ?? 'none' };
}

async function add(args: { text: string }, extra: Extra) {
  return { content: [{ type: 'text' as const, text: \`\${args.text} \${JSON.stringify(logFields(extra))}\` }] };
}

const remove = async (args: { id: string }, extra: { requestId: unknown; signal: AbortSignal }) => ({
  content: [{ type: 'text' as const, text: \`removed \${args.id} (request \${String(extra.requestId)}, aborted: \${extra.signal.aborted})\` }],
});

function check(extra: Signals) {
  return \`checked \${extra.requestId}\`;
}

const idShape: z.ZodRawShape = { id: z.string() };

export function createServer() {
  const server = new McpServer({ name: 'shapes', version: '1.0.0' });
  server.tool('add', 'Adds', { text: z.string() }, async (args, extra) => add(args, extra));
  server.registerTool('remove', { description: 'Removes', inputSchema: idShape }, async (args, extra) => remove(args as { id: string }, extra));
  server.registerTool('check', { description: 'Checks' }, async (extra) => ({ content: [{ type: 'text', text: check(extra) }] }));
  return server;
}
`;

// A low-level tools/list whose tool definitions are typed loosely (v1 accepted it; v2 is stricter).
const LOOSE_TOOLS = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

interface ToolDef { name: string; description: string; inputSchema: Record<string, unknown> }
const TOOLS: ToolDef[] = [{ name: 'echo', description: 'Echo', inputSchema: { type: 'object' } }];

export function createServer() {
  const server = new Server({ name: 'loose', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  return server;
}
`;

// Low-level tools/list handlers returning tool definitions written as object literals whose
// inputSchema properties differ (TypeScript fills the missing keys with `key?: undefined`): inline,
// and in an unannotated module-level array returned by shorthand.
const LITERAL_TOOLS = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = [
  { name: 'add', description: 'Adds', inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } } },
  { name: 'say', description: 'Says', inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } } },
];

export function createInline() {
  const server = new Server({ name: 'inline', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'remove', description: 'Removes', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
      { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    ],
  }));
  return server;
}

export function createShared() {
  const server = new Server({ name: 'shared', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = TOOLS;
    return { tools };
  });
  return server;
}

export function createListed() {
  const server = new Server({ name: 'listed', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  return server;
}

// a project's own converter typed loosely, as hand-written zod-to-JSON-schema helpers often are
function toJsonSchema(fields: string[]): Record<string, unknown> {
  return { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) };
}

export function createComputed() {
  const server = new Server({ name: 'computed', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'greet', description: 'Greets', inputSchema: toJsonSchema(['who']) },
      { name: 'part', description: 'Parts', inputSchema: toJsonSchema(['who', 'when']) },
    ],
  }));
  return server;
}
`;

// A migrated handler in a file that imports both: their upgrade is needed (a v2 server type crosses
// into this file); a file no migrated file is connected to stays on v1 (upgrade-scope.test.ts).
const ASK = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { log } from './logger.js';
import { createServer as createShapes } from './shapes.js';
import { createServer as createLoose } from './loose.js';
import { createInline, createListed, createShared } from './literal-tools.js';

export function createAll() {
  const ask = new McpServer({ name: 'ask', version: '1.0.0' });
  ask.registerTool('confirm', { description: 'Asks first' }, async () => {
    const answer = await ask.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } } });
    log.tool('confirm', 'answered', { action: answer.action });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return [ask, createShapes(), createLoose(), createInline(), createShared(), createListed()];
}
`;

// A project logger with a method named like McpServer's legacy registration.
const LOGGER = `export const log = {
  tool(toolName: string, action: string, details?: unknown): void {
    console.error(\`[\${toolName}] \${action}\`, details ?? '');
  },
};
`;

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult => result.files.find((f) => f.path === path.join(dir, 'src', name))!;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-upgrade-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'upgrade', type: 'module' }));
  fs.writeFileSync(path.join(dir, 'src', 'shapes.ts'), CONTEXT_SHAPES);
  fs.writeFileSync(path.join(dir, 'src', 'loose.ts'), LOOSE_TOOLS);
  fs.writeFileSync(path.join(dir, 'src', 'literal-tools.ts'), LITERAL_TOOLS);
  fs.writeFileSync(path.join(dir, 'src', 'ask.ts'), ASK);
  fs.writeFileSync(path.join(dir, 'src', 'logger.ts'), LOGGER);
  result = await migrateProject(['src'], { cwd: dir });
  // the modules the rewrite creates (imported by the migrated files)
  for (const f of result.files) if (f.status === 'created') fs.writeFileSync(f.path, f.output!);
}, 900_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function typeErrors(name: string): string[] {
  const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  const sf = project.createSourceFile(path.join(dir, 'src', `checked-${name}`), file(name).output!, { overwrite: true });
  return sf.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => `${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, ' ').slice(0, 120)}`);
}

describe('the upgrade compiles: handler-context shapes and raw shapes are repaired', () => {
  it('types a helper parameter of the v1 context shape as ServerContext and reads its properties where v2 has them', () => {
    const out = file('shapes.ts').output!;
    expect(out).toContain(`import { McpServer, type ServerContext } from '@modelcontextprotocol/server';`);
    expect(out).toContain('type Extra = ServerContext;');
    expect(out).toContain('type Signals = ServerContext;');
    expect(out).toContain('return { requestId: extra.mcpReq.id, session: extra.sessionId ?? \'none\' };');
    expect(out).toContain('const remove = async (args: { id: string }, extra: ServerContext) => ({');
    expect(out).toContain('(request ${String(extra.mcpReq.id)}, aborted: ${extra.mcpReq.signal.aborted})');
    expect(out).toContain('inputSchema: z.object(idShape)');
    expect(file('shapes.ts').sites).toEqual([]);
    expect(file('ask.ts').sites.map((s) => s.status)).toEqual(['migrated']);
    expect(typeErrors('shapes.ts')).toEqual([]);
  });

  it('the repaired helpers see the request id of a real 2026-07-28 request (the log field keeps its value)', async () => {
    const modulePath = path.join(dir, 'src', 'shapes.migrated.ts');
    fs.writeFileSync(modulePath, file('shapes.ts').output!);
    const mod = (await import(modulePath)) as { createServer: () => never };
    const handler = createMcpHandler(() => mod.createServer());
    const client = new Client({ name: 'mrtr-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: async (url, init) => handler.fetch(new Request(url, init)) }));
    try {
      const texts = async (name: string, args: Record<string, unknown>) => ((await client.callTool({ name, arguments: args })).content as Array<{ text: string }>)[0]!.text;
      const added = await texts('add', { text: 'hi' });
      expect(added).toMatch(/^hi \{"requestId":("[^"]+"|\d+),"session":"none"\}$/);
      expect(await texts('remove', { id: 'n1' })).toMatch(/^removed n1 \(request [^u)][^)]*, aborted: false\)$/);
      expect(await texts('check', {})).toMatch(/^checked (?!undefined)\S+$/);
    } finally {
      await client.close();
    }
  });
});

describe('the upgrade compiles: tool definitions of a low-level tools/list handler', () => {
  it('types an inline tools array through the handler and a module-level one as Tool[], and the file compiles', () => {
    const out = file('literal-tools.ts').output!;
    expect(out).toContain(`import {\n  type ListToolsResult,\n  Server,\n  type Tool,\n} from '@modelcontextprotocol/server';`);
    expect(out).toContain('const TOOLS: Tool[] = [');
    expect(out).toContain(`server.setRequestHandler('tools/list', async (): Promise<ListToolsResult> => ({`);
    // a handler that returns a local variable is left as written: TOOLS typed Tool[] already covers it
    expect(out).toContain(`server.setRequestHandler('tools/list', async () => {`);
    // a computed schema typed Record<string, unknown> is asserted to v2's inputSchema type
    expect(out).toContain(`{ name: 'greet', description: 'Greets', inputSchema: toJsonSchema(['who']) as Tool['inputSchema'] },`);
    expect(file('literal-tools.ts').sites).toEqual([]);
    expect(typeErrors('literal-tools.ts')).toEqual([]);
  });

  it('the typed handlers list their tools to a real 2026-07-28 client', async () => {
    const modulePath = path.join(dir, 'src', 'literal-tools.migrated.ts');
    fs.writeFileSync(modulePath, file('literal-tools.ts').output!);
    const mod = (await import(modulePath)) as Record<'createInline' | 'createListed' | 'createComputed', () => never>;
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const names: string[][] = [];
    for (const create of [mod.createInline, mod.createListed, mod.createComputed]) {
      const handler = createMcpHandler(() => create());
      const client = new Client({ name: 'mrtr-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: async (url, init) => handler.fetch(new Request(url, init)) }));
      try {
        names.push((await client.listTools()).tools.map((t) => t.name));
      } finally {
        await client.close();
      }
    }
    expect(names).toEqual([['remove', 'echo'], ['add', 'say'], ['greet', 'part']]);
  });
});

describe('the upgrade renames only McpServer registrations', () => {
  it("a project logger's tool(name, event, data) call is left as written (its type has no registerTool), and the file compiles", () => {
    const out = file('ask.ts').output!;
    expect(out).toContain("log.tool('confirm', 'answered', { action: answer.action });");
    expect(out).not.toContain('log.registerTool');
    expect(typeErrors('ask.ts')).toEqual([]);
  });
});

describe('the upgrade compiles or says where it does not', () => {
  it('marks a type error no repair covers at its line, with the compiler message, as a flagged site', () => {
    const loose = file('loose.ts');
    expect(loose.sites.map((s) => [s.line, s.method, s.status])).toEqual([[9, 'type-error', 'flagged']]);
    expect(loose.sites[0]!.reason).toMatch(/^the v1-to-v2 upgrade leaves a type error here: TS2322: Type 'Promise<\{ tools: ToolDef\[\]; \}>' is not assignable/);
    const lines = loose.output!.split('\n');
    const at = lines.findIndex((l) => l.includes(`setRequestHandler('tools/list'`));
    expect(lines[at - 1]).toMatch(new RegExp(`^  // ${TODO_MARKER}\\(the v1-to-v2 upgrade leaves a type error here: TS2322: `));
    expect(result.summary.sitesFlagged).toBeGreaterThan(0);
  });
});
