/**
 * A v1 project still on zod 3: v2 types registration schemas with zod >= 4.2, so with its own zod
 * every upgraded registration would miss the overloads. The run analyses it with the v2 server's
 * zod and raises package.json's zod to that range; what zod 4 rejects in its code is flagged at its
 * line with that cause. The same project on zod 4 migrates cleanly. A zod 3 project whose
 * registrations pass their schemas loosely typed compiles on v2 with zod 3: its zod stays.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateProject } from './shared-library-files.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

const TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// zod 3 API: a record of its value schema alone (zod 4 asks for the key schema too), and deepPartial (gone in zod 4)
export const Labels = z.record(z.string());
export const Draft = z.object({ title: z.string() }).deepPartial();

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('save', { description: 'Saves a note', inputSchema: { title: z.string() } }, async ({ title }) => {
    const answer = await server.server.elicitInput({ message: \`Save \${title}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? \`saved \${title}\` : 'not saved' }] };
  });
  return server;
}
`;

// No arguments: nothing of its handler depends on the schema's types.
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

// A table of tools registered in a loop, the schema passed as `any` (nothing typed from zod reaches
// registerTool), beside zod 3 code that zod 4 rejects.
const TABLE_TOOLS = `import { z } from 'zod';

export const Labels = z.record(z.string());

export const tools = [{ name: 'label', description: 'Labels a note', schema: { labels: Labels } }];
`;

const TABLE_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tools } from './tools.js';

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema as any }, async () => {
      const answer = await server.server.elicitInput({ message: \`Run \${tool.name}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
  }
  return server;
}
`;

// A registration that needs zod 4 on v2, beside zod 3 code zod 4 rejects, and a request no handler
// reaches: nothing is migrated, so the upgrade goes back to v1 and the project keeps its zod.
const UNMIGRATED_TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const Draft = z.object({ title: z.string() }).deepPartial();

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('save', { description: 'Saves a note', inputSchema: { title: z.string() } }, async ({ title }) => ({ content: [{ type: 'text', text: \`saved \${title}\` }] }));
  return server;
}

export async function confirmAll(server: McpServer) {
  const answer = await server.server.elicitInput({ message: 'Save all?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return answer.action === 'accept';
}
`;

const NOTES_FILES = { 'tool.ts': TOOL, 'reset.ts': RESET };

/** A project whose node_modules is this repository's, with `zod` taken from `zodPackage`. */
async function migrateWithZod(zodPackage: string, files: Record<string, string> = NOTES_FILES): Promise<MigrationResult> {
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
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'zod-floor', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.24.0', zod: '^3.23.0' } }, null, 2)}\n`);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'src', name), text);
  return migrateProject(['src'], { cwd: dir });
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a project on zod 3', () => {
  it('is migrated as it will compile with zod 4: package.json takes v2\'s zod range, a one-argument record is written for zod 4, and what else zod 4 rejects is flagged at its line', async () => {
    const result = await migrateWithZod('zod-v3');
    const sites = result.files.flatMap((f) => f.sites);
    // the registrations compile against v2 with the server's zod: both handlers are rewritten
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const [change] = result.packageJsonChanges;
    expect(change!.removed.zod).toBe('^3.23.0');
    expect(change!.added.zod).toBe('^4.2.0');
    expect(JSON.parse(change!.output).dependencies.zod).toBe('^4.2.0');
    expect(change!.notes).toContainEqual(expect.stringMatching(/^zod \^3\.23\.0 -> \^4\.2\.0: the project's zod 3\.25\.76 is older than v2's schema types need: @modelcontextprotocol\/server declares zod \^4\.2\.0 /));
    // the one-argument record is written for zod 4 (its keys were strings in zod 3)
    const tool = result.files.find((f) => f.path.endsWith('tool.ts'))!;
    expect(tool.output).toContain('export const Labels = z.record(z.string(), z.string());');
    expect(tool.notes).toContainEqual(expect.stringMatching(/^5: z\.record\(valueSchema\) -> z\.record\(z\.string\(\), valueSchema\)/));
    // the other zod 3 use fails to compile, and it is named at its line with the true cause
    const typeErrors = sites.filter((s) => s.method === 'type-error');
    expect(typeErrors.map((s) => [result.files.find((f) => f.sites.includes(s))!.path.endsWith('tool.ts'), s.line, s.snippet])).toEqual([[true, 6, 'export const Draft = z.object({ title: z.string() }).deepPartial();']]);
    expect(typeErrors[0]!.reason).toMatch(/^the v1-to-v2 upgrade leaves a type error here: TS\d+: .*\(zod 4 rejects this zod 3 code: package.json's zod is raised to \^4\.2\.0 because the project's zod 3\.25\.76 is older than v2's schema types need/);
    expect(typeErrors[0]!.advice).toBe("rewrite this use for zod 4's API (the project's code was written for zod 3.25.76)");
  });

  it('whose registrations pass their schemas as any keeps its zod: nothing of zod 3 breaks v2, and its zod 3 code is not analysed with zod 4', async () => {
    const result = await migrateWithZod('zod-v3', { 'tools.ts': TABLE_TOOLS, 'server.ts': TABLE_SERVER });
    const sites = result.files.flatMap((f) => f.sites);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated']);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
    const [change] = result.packageJsonChanges;
    expect(change!.removed.zod).toBeUndefined();
    expect(change!.added.zod).toBeUndefined();
    expect(JSON.parse(change!.output).dependencies.zod).toBe('^3.23.0');
    expect(change!.notes ?? []).not.toContainEqual(expect.stringMatching(/^zod /));
  });

  it('with nothing migrated keeps its zod and its zod 3 code, and no zod 4 error is reported: the upgrade went back to v1', async () => {
    const result = await migrateWithZod('zod-v3', { 'tool.ts': UNMIGRATED_TOOL });
    const sites = result.files.flatMap((f) => f.sites);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['flagged']);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
    const tool = result.files.find((f) => f.path.endsWith('tool.ts'))!;
    expect(tool.output ?? UNMIGRATED_TOOL).not.toContain('zod 4 rejects');
    for (const change of result.packageJsonChanges) {
      expect(change.added.zod).toBeUndefined();
      expect(JSON.parse(change.output).dependencies.zod).toBe('^3.23.0');
    }
  });

  it('the same project on zod 4 migrates with no type error', async () => {
    const result = await migrateWithZod('zod');
    const sites = result.files.flatMap((f) => f.sites);
    expect(sites.filter((s) => s.method === 'type-error')).toEqual([]);
    expect(sites.filter((s) => s.method === 'elicitation/create').map((s) => s.status)).toEqual(['migrated', 'migrated']);
  });
});
