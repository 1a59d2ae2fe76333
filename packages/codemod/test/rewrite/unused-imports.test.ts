/**
 * The imports the migration writes name only what the file uses: a handler calling a request helper
 * of another file asks through it (`isInputRequiredResult` on its result) and builds no
 * `inputRequired(...)` of its own, so its file does not import `inputRequired`; the helper's file,
 * which does, imports it. A project compiled with noUnusedLocals keeps compiling, so the migration
 * is not undone there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, NODE_TSCONFIG, removeTempProjects } from '../temp-project.js';

const HELPER = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function confirmDelete(server: McpServer, file: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    message: \`Delete \${file}?\`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  return answer.action === 'accept' && answer.content?.confirm === true;
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confirmDelete } from './confirm.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  server.registerTool('delete', { description: 'Deletes a file', inputSchema: { file: z.string() } }, async ({ file }) => {
    if (!(await confirmDelete(server, file))) return { content: [{ type: 'text', text: 'Kept' }] };
    return { content: [{ type: 'text', text: \`Deleted \${file}\` }] };
  });
  return server;
}
`;

/** The names a file's `import { ... } from '<specifier>'` declarations bind. */
function importedNames(text: string, specifier: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    if (m[2] !== specifier) continue;
    for (const part of m[1]!.split(',')) {
      const local = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (local) names.push(local);
    }
  }
  return names;
}

/** How often `name` occurs as a word in the text outside its import declarations. */
function usesOutsideImports(text: string, name: string): number {
  const body = text.replace(/^import[\s\S]*?from\s*['"][^'"]+['"];?$/gm, '');
  return body.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
}

afterAll(removeTempProjects);

describe('imports the migration writes', () => {
  it("a handler asking through a helper of another file imports what it uses, not the helper's inputRequired", async () => {
    const project = await migrateTempProject('unused-imports', { 'src/confirm.ts': HELPER, 'src/server.ts': SERVER });
    expect(project.file('confirm.ts')?.sites.map((s) => s.status)).toEqual(['migrated']);
    const server = fs.readFileSync(path.join(project.dir, 'src/server.ts'), 'utf8');
    const written = project.file('server.ts')?.output ?? server;
    const names = importedNames(written, '@modelcontextprotocol/server');
    expect(names).toContain('isInputRequiredResult');
    expect(names.filter((n) => usesOutsideImports(written, n) === 0)).toEqual([]);
    const helper = project.file('confirm.ts')!.output!;
    expect(importedNames(helper, '@modelcontextprotocol/server')).toContain('inputRequired');
    expect(usesOutsideImports(helper, 'inputRequired')).toBeGreaterThan(0);
  });

  it('a project compiled with noUnusedLocals keeps the migration of both files', async () => {
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, noUnusedLocals: true } };
    const project = await migrateTempProject('unused-imports-strict', { 'src/confirm.ts': HELPER, 'src/server.ts': SERVER }, { tsconfig });
    expect(project.file('confirm.ts')?.sites.map((s) => [s.status, s.reason?.slice(0, 40)])).toEqual([['migrated', expect.any(String)]]);
    expect(project.file('server.ts')?.status).not.toBe('failed');
    expect(project.file('server.ts')?.output).toContain('isInputRequiredResult');
  });
});
