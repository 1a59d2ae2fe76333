/**
 * The v1 SDK stays declared while a file the run reports on, without it being one of the paths
 * given, still loads it: `migrate src` on a server whose entry beside `src` imports the v1 SDK and
 * the migrated server. The run typechecks that importer and reports its line; it also counted it as
 * covered by the run, so the package.json plan removed the v1 SDK, and after the install the entry no
 * longer found its module (TS2307) on top of the reported error.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateProject } from '../shared-library-files.js';
import { tempProject } from '../security/temp-project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('delete_note', { description: 'Delete a note', inputSchema: { id: z.string() } }, async ({ id }) => {
    const answer = await server.server.elicitInput({ message: \`Delete \${id}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? \`deleted \${id}\` : 'kept' }] };
  });
  return server;
}
`;

// a v1 request schema handed to the (now v2) server's setRequestHandler: a line the run reports
const ENTRY = `import { ListResourcesRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from './src/server.js';

export const server = createServer();
server.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
`;

const MANIFEST = JSON.stringify({ name: 'notes', private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.20.0', zod: '^3.25.0' } }, null, 2);

describe('package.json after migrating a subfolder whose importer outside it stays on v1', () => {
  it('keeps the v1 SDK and names the reported importer that still loads it', async () => {
    const dir = tempProject('package-json-importers', { 'entry.ts': ENTRY, 'package.json': MANIFEST });
    dirs.push(dir);
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'server.ts'), SERVER);
    const result = await migrateProject([join(dir, 'src')], { cwd: dir, write: false, tsconfig: join(dir, 'tsconfig.json') });
    expect(result.files.find((f) => f.path.endsWith('server.ts'))?.sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
    // the importer is one of the run's results (its line no longer typechecks) and still imports the v1 SDK
    expect(result.files.find((f) => f.path.endsWith('entry.ts'))?.sites.map((s) => s.method)).toContain('type-error');
    const change = result.packageJsonChanges.find((c) => c.path === join(dir, 'package.json'));
    expect(change?.removed ?? {}).not.toHaveProperty(['@modelcontextprotocol/sdk']);
    expect((change?.notes ?? []).join('\n')).toContain('@modelcontextprotocol/sdk kept: entry.ts');
  });
});
