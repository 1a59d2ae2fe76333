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

// No arguments: its rewrite adds no error, so it stays migrated, with the upgrade's own errors.
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
    // the tool's rewrite is restored: its handler's arguments are unknown under zod 3
    const request = result.files.find((f) => f.path.endsWith('tool.ts'))!.sites.find((s) => s.method === 'elicitation/create')!;
    expect(request.status).toBe('flagged');
    expect(request.reason).toMatch(/^rewrite not verified: the rewritten file has new type errors: TS\d+: /);
    expect(request.reason!.endsWith(`; ${cause}`)).toBe(true);
    expect(request.advice).toBe(advice);
    // what the upgrade alone leaves says the same
    const upgradeErrors = sites.filter((s) => s.method === 'type-error');
    expect(upgradeErrors.map((s) => s.snippet)).toContain("server.registerTool('reset', { description: 'Clears all notes', inputSchema: ...");
    for (const site of upgradeErrors) {
      expect(site.reason).toMatch(/^the v1-to-v2 upgrade leaves a type error here: TS\d+: /);
      expect(site.reason!.endsWith(`(${cause})`)).toBe(true);
      expect(site.advice).toBe(advice);
    }
  });

  it('the same project on zod 4 migrates with no type error', async () => {
    const result = await migrateWithZod('zod');
    const sites = result.files.flatMap((f) => f.sites);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
  });
});
