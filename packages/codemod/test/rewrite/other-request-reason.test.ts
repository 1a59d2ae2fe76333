/**
 * A handler left as it is for one of its requests explains its other requests by that one's reason.
 * When that request is in another file than the request the reason is read for, its lines name their
 * file: bare line numbers would point into the wrong file. When the requests are on paths that never
 * both run (cases of a switch over the tool name), the others are migrated and only that one flagged.
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

// both requests on one path: the handler is planned as a whole and stops at the sampling request
const SERVER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { summarise } from './summarise.js';
import { askDepth } from './depth.js';

export function createServer(): Server {
  const server = new Server({ name: 'analysis', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const depth = (await askDepth(server)).depth;
    const summary = await summarise(server, String(request.params.arguments?.text));
    return { content: [{ type: 'text', text: \`\${depth}: \${summary}\` }] };
  });
  return server;
}
`;

// the requests in two cases of a switch over the tool name: they never both run
const SWITCH_SERVER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
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

  it('migrates the request of the other case when the blocked one is on a path that never runs with it', async () => {
    const project = await migrateTempProject('exclusive-split', { 'src/summarise.ts': SUMMARISE, 'src/depth.ts': DEPTH, 'src/server.ts': SWITCH_SERVER });
    const sites = project.result.files.flatMap((f) => f.sites);
    const sampling = sites.find((s) => s.method === 'sampling/createMessage');
    const elicitation = sites.find((s) => s.method === 'elicitation/create');
    expect(elicitation?.status).toBe('migrated');
    expect(sampling?.status).toBe('flagged');
    expect(sampling?.reason).toMatch(/^the sampling request at line 5 is inside a try \(line 4\) whose catch \(line 7\) falls back/);
    const server = project.file('server.ts')!.output!;
    // the summarise case is as it was; the depth case returns the input request through
    expect(server).toContain("return { content: [{ type: 'text', text: await summarise(server, String(request.params.arguments?.text)) }] };");
    expect(server).toMatch(/askDepth\(server, ctx, '\w+'\)/);
    expect(project.file('summarise.ts')!.output).toContain('await server.createMessage(');
  });
});
