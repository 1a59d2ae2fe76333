/**
 * A tools/call handler reaching its elicitation helper through a namespace import, a barrel's
 * renaming re-export or an object of functions, migrated by the real (typed) run: the call the
 * handler makes, whatever name it is written with, is the call the rewrite hands the context to.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

afterAll(() => removeTempProjects());

const OPS = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
export async function createThing(name: string, server: Server) {
  const r = await server.elicitInput({ message: 'Create ' + name + '?', requestedSchema: { type: 'object', properties: {} } });
  return r.action === 'accept';
}
`;
const MAIN = (imports: string, call: string, after = '') => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
${imports}
export function createServer() {
  const mcp = new McpServer({ name: 'x', version: '1' });
  mcp.registerTool('create', {}, async () => {
    const ok = await ${call}('a', mcp.server);
    return { content: [{ type: 'text' as const, text: String(ok) }] };
  });
  return mcp;
}
${after}`;

function siteOf(project: MigratedProject) {
  const sites = project.file('ops.ts')?.sites ?? [];
  expect(sites).toHaveLength(1);
  return sites[0]!;
}

function expectMigrated(project: MigratedProject, call: string) {
  expect(project.result.files.filter((f) => f.status === 'failed')).toEqual([]);
  expect(siteOf(project).status).toBe('migrated');
  // the helper asks through the handler's context, under the key its caller passes
  expect(project.file('ops.ts')?.output).toContain('export async function createThing(name: string, server: Server, ctx: ServerContext, createThingKey: string)');
  expect(project.file('main.ts')?.output).toContain(`const ok = await ${call}('a', mcp.server, ctx, 'ok');\n    if (isInputRequiredResult(ok)) return ok;`);
}

describe('handlers reaching a helper under another name', () => {
  it('migrates a helper called through a namespace import', async () => {
    const project = await migrateTempProject('reach-ns', { 'src/ops.ts': OPS, 'src/main.ts': MAIN(`import * as ops from './ops.js';`, 'ops.createThing') });
    expectMigrated(project, 'ops.createThing');
  });

  it('migrates a helper called under the name a barrel re-exports it as, leaving the barrel as written', async () => {
    const barrel = `export { createThing as make } from './ops.js';\n`;
    const project = await migrateTempProject('reach-barrel', { 'src/ops.ts': OPS, 'src/index.ts': barrel, 'src/main.ts': MAIN(`import { make } from './index.js';`, 'make') });
    expectMigrated(project, 'make');
    expect(project.file('index.ts')?.output ?? barrel).toBe(barrel);
  });

  it('migrates a helper called through an object of functions holding it under a key of its own', async () => {
    const project = await migrateTempProject('reach-object', { 'src/ops.ts': OPS, 'src/main.ts': MAIN(`import * as o from './ops.js';\nconst ops = { make: o.createThing };`, 'ops.make') });
    expectMigrated(project, 'ops.make');
  });

  it('flags the helper when the object holding it is also used as a value, naming that use', async () => {
    // `Object.values(ops)` hands the member to code that may call it without a context
    const project = await migrateTempProject('reach-object-value', {
      'src/ops.ts': OPS,
      'src/main.ts': MAIN(`import * as o from './ops.js';\nconst ops = { make: o.createThing };`, 'ops.make', `export const all = Object.values(ops);\n`),
    });
    const site = siteOf(project);
    expect(site.status).toBe('flagged');
    expect(site.reason).toContain('helper `createThing` is held in the object `ops` (main.ts:3), which is also used at main.ts:12 other than by calling a member');
    expect(project.file('main.ts')?.output ?? project.file('main.ts')?.original).not.toContain('ctx');
  });
});
