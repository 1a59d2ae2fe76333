/**
 * A rewrite verify undoes takes along what it added in its support elsewhere: with no request left
 * migrated, the server construction in another file keeps no `requestState: { verify }` wiring, no
 * generated module (codec, capabilities, answer readers) is created, and every file comes out as it went in (markers aside),
 * so the v1 project still compiles against the real v1 SDK.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import type { FileResult, MigrationResult } from '../src/types.js';
import { NODE_TSCONFIG, migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

// under noUnusedLocals the module-level alias the request was made through, which the migrated handler
// no longer reads, is a new type error, so verify undoes the rewrite
const TSCONFIG = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, noUnusedLocals: true } };

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerOrderTools } from './orders.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  registerOrderTools(server);
  return server;
}
`;

const ORDERS = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

interface Order {
  id: string;
  quantity: number;
}

async function reserve(item: string, quantity: number): Promise<Order> {
  return { id: \`\${item}-\${Date.now()}\`, quantity };
}

let asker: McpServer['server'] | undefined;

export function registerOrderTools(server: McpServer): void {
  asker = server.server;
  server.registerTool('order', { description: 'Places an order', inputSchema: { item: z.string(), quantity: z.number() } }, async ({ item, quantity }) => {
    const order = await reserve(item, quantity);
    const answer = await asker!.elicitInput({
      message: \`Order \${order.quantity} x \${item}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || !answer.content?.confirm) return { content: [{ type: 'text', text: 'cancelled' }] };
    return { content: [{ type: 'text', text: \`ordered \${order.id}\` }] };
  });
}
`;

/** The two files in a new v1 project (the real v1 SDK and zod linked), migrated by the real run. */
function migrateShop(server: string): Promise<MigratedProject> {
  const packageJson = { name: 'shop', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } };
  return migrateTempProject('unserved', { 'src/server.ts': server, 'src/orders.ts': ORDERS }, { tsconfig: TSCONFIG, packageJson });
}

let project: MigratedProject;
let result: MigrationResult;
const file = (name: string): FileResult | undefined => project.file(name);

beforeAll(async () => {
  project = await migrateShop(SERVER);
  result = project.result;
});

afterAll(removeTempProjects);

describe('a rewrite verify undoes', () => {
  it('is flagged as not verified, and nothing is left migrated', () => {
    expect(result.summary.sitesMigrated).toBe(0);
    const orders = file('orders.ts')!;
    expect(orders.sites.map((s) => [s.method, s.status])).toEqual([['elicitation/create', 'flagged']]);
    expect(orders.sites[0]!.reason).toMatch(/^rewrite not verified: the rewritten file has new type errors/);
    expect(orders.output!.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(ORDERS);
  });

  it('leaves the server construction in another file without requestState wiring, as it was', () => {
    const server = file('server.ts');
    expect(server?.output ?? SERVER).toBe(SERVER);
    expect(server?.status ?? 'unchanged').toBe('unchanged');
  });

  it('creates no codec or capabilities module', () => {
    expect(result.files.filter((f) => f.status === 'created').map((f) => path.basename(f.path))).toEqual([]);
  });
});

// The same project hosted on stdio in the server's file, with a use of the server that keeps the
// hosting flagged: the file goes back to its v1 text, and the hosting site is reported at its line
// there, not at its line in the text the rewrite had changed (the requestState wiring it added
// above, which verify took out again).
const HOSTED = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerOrderTools } from './orders.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  registerOrderTools(server);
  return server;
}

export async function main(): Promise<void> {
  const server = createServer();
  Object.assign(globalThis, { server });
  await server.connect(new StdioServerTransport());
}
`;

describe('a flagged hosting in a file that goes back to v1', () => {
  let hosted: MigratedProject;
  beforeAll(async () => {
    hosted = await migrateShop(HOSTED);
  });

  it('is reported at its line in the file the user ran on', () => {
    const server = hosted.file('server.ts')!;
    const connectLine = HOSTED.split('\n').findIndex((l) => l.includes('server.connect(')) + 1;
    expect(server.sites.map((s) => [s.method, s.status, s.line])).toEqual([['serving', 'flagged', connectLine]]);
    expect(server.output!.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(HOSTED);
  });
});
