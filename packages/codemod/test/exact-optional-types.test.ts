/**
 * The generated modules compile under the project's own strictest settings: with
 * `exactOptionalPropertyTypes`, the SDK's `requestedSchema` type and `JsonSchemaType` differ in how
 * they declare optional members, and the answers module's reader passed one as the other (TS2379 in
 * a file the run created, found on a public server).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempProject, NODE_TSCONFIG, removeTempProjects, writtenProjectErrors } from './temp-project.js';
import { migrateProject } from './shared-library-files.js';

afterAll(removeTempProjects);

const TOOLS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'levels', version: '1.0.0' });
  server.registerTool('level', { description: 'Pick a level' }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Which level?',
      requestedSchema: { type: 'object', properties: { level: { type: 'string', enum: ['low', 'high'], description: 'the level' } }, required: ['level'] },
    });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? String(answer.content?.level) : 'none' }] };
  });
  return server;
}
`;

describe('exactOptionalPropertyTypes', () => {
  it('the migrated project, generated modules included, compiles with it', async () => {
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, exactOptionalPropertyTypes: true } };
    const dir = makeTempProject('exact-optional', { 'src/tools.ts': TOOLS }, { tsconfig });
    const result = await migrateProject(['src'], { cwd: dir, write: true });
    expect(result.files.find((f) => f.path === path.join(dir, 'src/tools.ts'))?.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(result.files.some((f) => f.path.endsWith('mcp-input-responses.ts'))).toBe(true);
    expect(writtenProjectErrors(dir)).toEqual([]);
  });
});
