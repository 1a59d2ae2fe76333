/**
 * A v1 project still on zod 3: v2 types registration schemas with zod >= 4.2, so after the
 * upgrade every registration misses the overloads. The flagged type errors say that the installed
 * zod is the cause and what to do, with both versions; the same project on zod 4 migrates cleanly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrateProject } from '../src/index.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

vi.setConfig({ testTimeout: 300_000 });

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

const TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('save', { description: 'Saves a note', inputSchema: { title: z.string() } }, async ({ title }) => {
    const answer = await server.server.elicitInput({ message: \`Save \${title}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? \`saved \${title}\` : 'not saved' }] };
  });
  return server;
}
`;

// No arguments: its rewrite would add no error, but its registration alone does not compile on v2 under zod 3.
const RESET = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function registerReset(server: McpServer) {
  server.registerTool('reset', { description: 'Clears all notes', inputSchema: { confirm: z.boolean().optional() } }, async () => {
    const answer = await server.server.elicitInput({ message: 'Clear all notes?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;

const dirs: string[] = [];

/** A project whose node_modules is this repository's, with `zod` taken from `zodPackage`. */
async function migrateWithZod(zodPackage: string): Promise<MigrationResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-zod-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of fs.readdirSync(path.join(REPO, 'node_modules'))) {
    if (entry === 'zod' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(REPO, 'node_modules', entry), path.join(dir, 'node_modules', entry), 'dir');
  }
  fs.symlinkSync(path.join(REPO, 'node_modules', zodPackage), path.join(dir, 'node_modules', 'zod'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'zod-floor', type: 'module' }));
  fs.writeFileSync(path.join(dir, 'src', 'tool.ts'), TOOL);
  fs.writeFileSync(path.join(dir, 'src', 'reset.ts'), RESET);
  return migrateProject(['src'], { cwd: dir });
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a project on zod 3', () => {
  it('flags what does not compile after the upgrade with the installed zod as its cause and the upgrade to do', async () => {
    const result = await migrateWithZod('zod-v3');
    const cause = "the project's zod 3.25.76 is older than v2's schema types need: @modelcontextprotocol/server declares zod ^4.2.0";
    const advice = 'upgrade zod to a version in ^4.2.0 (e.g. npm install zod@^4.2.0) and adapt what zod 4 changed, then run the migration again';
    const sites = result.files.flatMap((f) => f.sites);
    // neither handler is rewritten: each upgraded registration misses the overloads (its arguments would be unknown), and says why
    const requests = sites.filter((s) => s.method === 'elicitation/create');
    expect(requests.map((s) => [s.status, s.line])).toEqual([
      ['flagged', 6],
      ['flagged', 7],
    ]);
    for (const [site, registrationLine] of [
      [requests[0]!, 5],
      [requests[1]!, 6],
    ] as const) {
      expect(site.reason).toMatch(new RegExp(`^its registration \\(line ${registrationLine}\\) does not compile on v2 \\(TS2769: `));
      expect(site.reason!.endsWith(`: ${cause}; ${advice}`)).toBe(true);
    }
    // nothing was migrated, so the files stay as they are and no upgrade error is left behind
    expect(result.files.map((f) => f.status)).toEqual(['flagged', 'flagged']);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
  });

  it('the same project on zod 4 migrates with no type error', async () => {
    const result = await migrateWithZod('zod');
    const sites = result.files.flatMap((f) => f.sites);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
  });
});
