/**
 * The reason of the phase form names what runs before the request and is not known to be safe to
 * run again: every such statement up to three, not only the first (which may be a call of a
 * function the codemod cannot see into, with the real effect after it), and it says what the
 * codemod knows: that they may have effects, so they run only once.
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const audit: string[] = [];

export function createServer(currentUser: () => string): McpServer {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  server.registerTool('rename', { description: 'Rename the file' }, async () => {
    const user = currentUser();
    audit.push(\`rename asked by \${user}\`);
    const answer = await server.server.elicitInput({
      message: \`New name, \${user}?\`,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (answer.action !== 'accept' || !answer.content) return { content: [{ type: 'text' as const, text: 'Unchanged.' }] };
    return { content: [{ type: 'text' as const, text: \`Renamed to \${String(answer.content['name'])}.\` }] };
  });
  return server;
}
`;

describe('phase form: the reason names what runs before the request', () => {
  it('lists each statement that may have an effect, the unseen function value and the write after it', async () => {
    const result = await migrateSource(SERVER, 'server.ts');
    expect(result.sites).toHaveLength(1);
    const [site] = result.sites;
    expect(site!.status).toBe('migrated');
    expect(site!.reason).toMatch(/^phase 1 of 1 \(`currentUser\(\)` \(line 8\) and `audit\.push\(`rename asked by \$\{user\}`\)` \(line 9\) run before the request and may have effects, so they must run only once\)/);
  });
});
