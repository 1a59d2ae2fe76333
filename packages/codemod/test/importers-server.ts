/**
 * The server module of the importers-check projects (test/importers-check.test.ts and
 * test/run/consecutive-runs.test.ts): one tool whose elicitation the run migrates, returning a result
 * built by `summary` of ./format.js, the module whose upgrade the unchanged importers are checked against.
 */
export const IMPORTERS_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { summary } from './format.js';

export function createServer() {
  const server = new McpServer({ name: 'importers', version: '1.0.0' });
  server.registerTool('confirm', { description: 'Asks first' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } } });
    return summary(answer.action);
  });
  return server;
}
`;
