/**
 * A rewrite verify undoes takes along what it added in its support elsewhere: with no request left
 * migrated, the server construction in another file keeps no `requestState: { verify }` wiring, no
 * codec or capabilities module is created, and every file comes out as it went in (markers aside),
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
// under exactOptionalPropertyTypes v2's own schema types reject what the rewrite writes, so verify undoes it
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

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

export function registerOrderTools(server: McpServer): void {
  server.registerTool('order', { description: 'Places an order', inputSchema: { item: z.string(), quantity: z.number() } }, async ({ item, quantity }) => {
    const order = await reserve(item, quantity);
    const answer = await server.server.elicitInput({
      message: \`Order \${order.quantity} x \${item}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || !answer.content?.confirm) return { content: [{ type: 'text', text: 'cancelled' }] };
    return { content: [{ type: 'text', text: \`ordered \${order.id}\` }] };
  });
}
`;

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult | undefined => result.files.find((f) => f.path === path.join(dir, 'src', name));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-unserved-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'shop', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } }));
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), SERVER);
  fs.writeFileSync(path.join(dir, 'src', 'orders.ts'), ORDERS);
  result = await migrateProject(['src'], { cwd: dir });
}, 600_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
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
