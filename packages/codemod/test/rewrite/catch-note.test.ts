/**
 * The note on a migrated request whose failure a catch around a call on the way to it handled
 * (engine/rewrite/index.ts catchNote): under MRTR a client that fails to answer, or refuses a
 * sampling request, fails the call instead of reaching that catch (test/behaviour/refused-sampling).
 * The catch may sit in the handler's file while the request sits in a helper's: the note's lines
 * then name that file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects } from '../temp-project.js';

const HELPER = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function summarize(server: McpServer, text: string): Promise<string> {
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize: \${text}\` } }], maxTokens: 80 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { summarize } from './summarize.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('save', { description: 'Save a note', inputSchema: { text: z.string() } }, async ({ text }) => {
    let summary = '';
    try {
      summary = await summarize(server, text);
    } catch {
      // no summary: save the note as is
    }
    return { content: [{ type: 'text', text: summary ? \`\${text} (\${summary})\` : text }] };
  });
  return server;
}
`;

afterAll(removeTempProjects);

describe('the note on a request inside a catch around a call to it', () => {
  it("cites the catch and the call with the handler's file", async () => {
    const project = await migrateTempProject('catch-note', { 'src/summarize.ts': HELPER, 'src/server.ts': SERVER });
    const site = project.file('summarize.ts')?.sites.find((s) => s.method === 'sampling/createMessage');
    expect(site?.status).toBe('migrated');
    expect(site?.reason).toBe(
      'write-once: the handler re-runs from the top and reads the answer from inputResponses; note: a client that fails to answer now fails the call ' +
        'instead of reaching the catch (line 11 of server.ts) around the call `summarize(...)` at line 10 of server.ts (an answer cannot be an error)',
    );
  });
});
