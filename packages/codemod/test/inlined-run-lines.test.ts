/**
 * When the rewrite inlines a helper anywhere in the run, every site's reach is computed again over
 * the inlined text. The reasons of those reaches cite lines of the user's file: here a request that
 * a handler awaits (its helper is inlined there) and a fire-and-forget call also reaches, in a file
 * whose v1 imports the upgrade merged (three import lines become two) and whose inlining adds lines.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects } from './temp-project.js';

const SIGNUP = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

async function askTwice(server: McpServer, topic: string): Promise<string> {
  const first = await server.server.elicitInput({
    message: \`Title for \${topic}?\`,
    requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  });
  const title = first.action === 'accept' ? String(first.content?.title) : 'untitled';
  const second = await server.server.elicitInput({
    message: \`Tag for \${title}?\`,
    requestedSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  });
  return second.action === 'accept' ? \`\${title} #\${String(second.content?.tag)}\` : title;
}

export function createSignup(): McpServer {
  const server = new McpServer({ name: 'signup', version: '1.0.0' });
  server.registerTool('label', { description: 'Label a topic', inputSchema: { topic: z.string() } }, async ({ topic }) => {
    const label = await askTwice(server, topic);
    return { content: [{ type: 'text', text: label }] };
  });
  return server;
}
`;

const NOTES = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

async function digest(server: Server, text: string): Promise<string> {
  const r = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  return r.content.type === 'text' ? r.content.text : '';
}

export function createNotes(): Server {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.text ?? '');
    const short = await digest(server, text);
    digest(server, short).catch(() => undefined);
    return { content: [{ type: 'text', text: short }] };
  });
  return server;
}

export const transport = new StdioServerTransport();
`;

afterAll(removeTempProjects);

describe('reasons after an inlining pass', () => {
  it('cite the user line of a fire-and-forget call after the upgrade merged imports and a helper was inlined', async () => {
    const run = await migrateTempProject('inlined-lines', { 'src/signup.ts': SIGNUP, 'src/notes.ts': NOTES });
    // the helper was inlined (the run took the inlining path this test is about)
    const signup = run.file('signup.ts');
    expect(signup?.sites?.map((s) => s.status)).toEqual(['migrated', 'migrated']);
    expect(signup?.output).not.toContain('async function askTwice');
    const notes = run.file('notes.ts');
    const request = notes?.sites?.find((s) => s.method === 'sampling/createMessage');
    expect(NOTES.split('\n')[14]).toContain('digest(server, short).catch');
    expect(request?.status).toBe('flagged');
    expect(request?.reason).toContain('fire-and-forget call `digest(server, short)` (line 15) that nothing awaits');
  });
});
