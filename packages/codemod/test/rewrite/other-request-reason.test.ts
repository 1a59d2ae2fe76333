/**
 * A handler left as it is for one of its requests explains its other requests by that one's reason.
 * When that request is in another file than the request the reason is read for, its lines name their
 * file: bare line numbers would point into the wrong file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects } from '../temp-project.js';

afterAll(removeTempProjects);

const SUMMARISE = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export async function summarise(server: Server, text: string): Promise<string> {
  try {
    const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarise: \${text}\` } }], maxTokens: 99 });
    return reply.content.type === 'text' ? reply.content.text : '';
  } catch (error) {
    return \`no summary: \${String(error)}\`;
  }
}
`;

const DEPTH = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

// a few lines, so that the other file's line numbers fall on code of this one
// that has nothing to do with any request
export interface DepthChoice {
  depth: string;
}

export async function askDepth(server: Server): Promise<DepthChoice> {
  const answer = await server.elicitInput({ message: 'Depth?', requestedSchema: { type: 'object', properties: { depth: { type: 'string' } } } });
  return { depth: answer.action === 'accept' ? String(answer.content?.depth) : 'normal' };
}
`;

const SERVER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { summarise } from './summarise.js';
import { askDepth } from './depth.js';

export function createServer(): Server {
  const server = new Server({ name: 'analysis', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    switch (request.params.name) {
      case 'summarise':
        return { content: [{ type: 'text', text: await summarise(server, String(request.params.arguments?.text)) }] };
      case 'depth':
        return { content: [{ type: 'text', text: (await askDepth(server)).depth }] };
      default:
        return { content: [{ type: 'text', text: 'unknown tool' }], isError: true };
    }
  });
  return server;
}
`;

describe("another request's reason", () => {
  it('names the file of the lines it cites when that request is in another file', async () => {
    const project = await migrateTempProject('other-request-reason', { 'src/summarise.ts': SUMMARISE, 'src/depth.ts': DEPTH, 'src/server.ts': SERVER });
    const sites = project.result.files.flatMap((f) => f.sites.map((s) => ({ file: f.path, ...s })));
    const sampling = sites.find((s) => s.method === 'sampling/createMessage');
    const elicitation = sites.find((s) => s.method === 'elicitation/create');
    expect(sampling?.status).toBe('flagged');
    expect(sampling?.reason).toMatch(/^the sampling request at line 5 is inside a try \(line 4\) whose catch \(line 7\) falls back/);
    expect(elicitation?.status).toBe('flagged');
    expect(elicitation?.reason).toMatch(/^the handler is left as it is for another of its requests: the sampling request at line 5 of summarise\.ts is inside a try \(line 4 of summarise\.ts\) whose catch \(line 7 of summarise\.ts\) falls back/);
  });
});
