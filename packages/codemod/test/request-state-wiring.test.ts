/**
 * requestState verification is wired into the server that serves a phase-form handler. The tool
 * module gets the server as a parameter; the construction sits two imports up, in a factory that
 * returns it with other members (`{ server, startedAt }`); a unit test that builds its own server
 * from the tool module is not the served one and is left alone. A singleton server of a module of its
 * own, which the entry passes to the tool module, is found through the call that passes it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileResult } from '../src/types.js';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

vi.setConfig({ testTimeout: 900_000 });


// An effect before the request: the phase form, which needs the server's requestState verify hook.
const TOOL = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const audit: string[] = [];

export function registerDeleteTool(server: McpServer): void {
  server.registerTool('delete', { description: 'Deletes a record', inputSchema: { id: z.string() } }, async ({ id }) => {
    audit.push(\`delete requested: \${id}\`);
    const answer = await server.server.elicitInput({
      message: \`Delete \${id}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: \`deleted \${id}\` }] };
  });
}
`;

const TOOLS_INDEX = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerDeleteTool } from './delete.js';

export function registerTools(server: McpServer): void {
  registerDeleteTool(server);
}
`;

const TOOL_TEST = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerDeleteTool } from './delete.js';

export function testServer(): McpServer {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  registerDeleteTool(server);
  return server;
}
`;

const FACTORY = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools } from './tools/index.js';

export function createAppServer(): { server: McpServer; startedAt: number } {
  const server = new McpServer({ name: 'records', version: '1.0.0' });
  registerTools(server);
  return { server, startedAt: Date.now() };
}
`;

let project: MigratedProject;
const file = (name: string): FileResult => project.file(name)!;

beforeAll(async () => {
  project = await migrateTempProject('wiring', { 'src/tools/delete.ts': TOOL, 'src/tools/index.ts': TOOLS_INDEX, 'src/tools/delete.test.ts': TOOL_TEST, 'src/index.ts': FACTORY });
}, 900_000);

afterAll(removeTempProjects);

describe('requestState verification wired into a server built two imports up, in a factory returning an object', () => {
  it('migrates the tool in the phase form', () => {
    const tool = file('tools/delete.ts');
    expect(tool.sites.map((s) => [s.line, s.method, s.status])).toEqual([[9, 'elicitation/create', 'migrated']]);
    expect(tool.sites[0]!.reason).toMatch(/^phase 1 of 1 /);
  });

  it('adds the verify hook to the factory\'s construction', () => {
    expect(file('index.ts').output).toContain("new McpServer({ name: 'records', version: '1.0.0' }, { requestState: { verify: requestStateCodec.verify } })");
  });

  it('leaves the unit test\'s own server without it', () => {
    const test = file('tools/delete.test.ts');
    expect(test.output ?? TOOL_TEST).not.toContain('requestState');
  });
});

// The server is a module-level singleton of a module of its own; the entry imports it and passes it
// to the tool module: the construction is in neither the tool's file nor a file importing it.
const SINGLETON = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server = new McpServer({ name: 'records', version: '1.0.0' });
`;

const ENTRY = `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { server } from './server.js';
import { registerDeleteTool } from './tools/delete.js';

registerDeleteTool(server);
await server.connect(new StdioServerTransport());
`;

describe('requestState verification wired into a singleton server that the entry passes to the tool module', () => {
  let singleton: MigratedProject;
  beforeAll(async () => {
    singleton = await migrateTempProject('state-wiring-singleton', { 'src/tools/delete.ts': TOOL, 'src/server.ts': SINGLETON, 'src/index.ts': ENTRY });
  }, 900_000);

  it('migrates the tool in the phase form', () => {
    expect(singleton.file('tools/delete.ts')!.sites.map((s) => [s.method, s.status])).toEqual([['elicitation/create', 'migrated']]);
  });

  it("adds the verify hook to the singleton's construction", () => {
    expect(singleton.file('server.ts')!.output).toContain("new McpServer({ name: 'records', version: '1.0.0' }, { requestState: { verify: requestStateCodec.verify } })");
  });
});
