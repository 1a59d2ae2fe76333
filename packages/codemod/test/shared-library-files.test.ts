/**
 * The tests' `migrateProject` (test/shared-library-files.ts): the typed runs of one test file take
 * their lib and package declaration files from one `LibraryFiles`, and a run given them reports what
 * a run parsing its own reports.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateProject as migrateAlone } from '../src/index.js';
import { libraryFiles, migrateProject } from './shared-library-files.js';
import { makeTempProject, removeTempProjects } from './temp-project.js';

afterAll(removeTempProjects);

const CONFIRM = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export function createServer(): McpServer {
  const server = new McpServer({ name: 'ask', version: '1.0.0' });
  server.registerTool('confirm', { description: 'asks first' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  });
  return server;
}
`;

describe('the tests\' migrateProject', () => {
  it('parses the declaration files once for the runs of a test file; a second run reuses them and gives the same result', async () => {
    const dir = makeTempProject('shared-library', { 'src/confirm.ts': CONFIRM });
    const first = await migrateProject(['src'], { cwd: dir });
    const reusedByFirst = libraryFiles().reused;
    const second = await migrateProject(['src'], { cwd: dir });
    // the second run's projects took lib.*.d.ts, @types/node and the SDK's declarations from the first
    expect(libraryFiles().reused - reusedByFirst).toBeGreaterThan(10);
    const alone = await migrateAlone(['src'], { cwd: dir });
    expect(first.summary.sitesMigrated).toBe(1);
    for (const shared of [first, second]) {
      expect(shared.summary).toEqual(alone.summary);
      expect(shared.files.map((f) => [f.path, f.status, f.output])).toEqual(alone.files.map((f) => [f.path, f.status, f.output]));
    }
  });
});
