/**
 * A rewrite verify undoes takes along what it added in its support elsewhere: with no request left
 * migrated, the server construction in another file keeps no `requestState: { verify }` wiring, no
 * generated module (codec, capabilities, answer readers) is created, and every file comes out as it went in (markers aside),
 * so the v1 project still compiles against the real v1 SDK.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from '../src/index.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

vi.setConfig({ testTimeout: 300_000 });

const REPO = path.resolve(TEST_DIR, '../../..');
// under noUnusedLocals the module-level alias the request was made through, which the migrated handler
// no longer reads, is a new type error, so verify undoes the rewrite
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUnusedLocals: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

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

const dirs: string[] = [];

/** The two files in a new v1 project (the real v1 SDK and zod linked), migrated by the real run. */
async function migrateShop(server: string): Promise<{ dir: string; result: MigrationResult }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-unserved-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'shop', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } }));
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), server);
  fs.writeFileSync(path.join(dir, 'src', 'orders.ts'), ORDERS);
  return { dir, result: await migrateProject(['src'], { cwd: dir }) };
}

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult | undefined => result.files.find((f) => f.path === path.join(dir, 'src', name));

beforeAll(async () => {
  ({ dir, result } = await migrateShop(SERVER));
}, 600_000);

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

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
  let hosted: MigrationResult;
  let hostedDir: string;
  beforeAll(async () => {
    ({ dir: hostedDir, result: hosted } = await migrateShop(HOSTED));
  }, 600_000);

  it('is reported at its line in the file the user ran on', () => {
    const server = hosted.files.find((f) => f.path === path.join(hostedDir, 'src', 'server.ts'))!;
    const connectLine = HOSTED.split('\n').findIndex((l) => l.includes('server.connect(')) + 1;
    expect(server.sites.map((s) => [s.method, s.status, s.line])).toEqual([['serving', 'flagged', connectLine]]);
    expect(server.output!.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(HOSTED);
  });
});
