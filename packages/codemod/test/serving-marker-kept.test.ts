/**
 * A flagged hosting gets its marker even when a later stage replaced the file's text: with any
 * upgraded file left with type errors, the upgrade's error check puts every upgraded file back to
 * its v1 text and then to its upgraded one, which forgets the nodes the serving flags held. The
 * report said the site was marked and the file had no marker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateTempProject, removeTempProjects } from './temp-project.js';

afterAll(removeTempProjects);

const APP = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerTools } from './tools.js';

export class App {
  private server = new McpServer({ name: 'app', version: '1.0.0' });

  constructor() {
    registerTools(this.server);
  }

  async runStdio(): Promise<void> {
    const transport = new StdioServerTransport();
    await this.server.connect(transport);
  }
}
`;

// a type error of its own (before and after the migration), beside a request the run migrates
const TOOLS = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const retries: number = 'three';

export function registerTools(server: McpServer): void {
  server.registerTool('ask', { description: 'asks' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;

describe('a flagged hosting in an upgraded file, in a project with type errors', () => {
  it('is marked at its line', async () => {
    const project = await migrateTempProject('serving-marker', { 'src/app.ts': APP, 'src/tools.ts': TOOLS });
    const app = project.file('app.ts')!;
    const hosting = app.sites.find((s) => s.method === 'serving')!;
    expect(hosting).toMatchObject({ line: 14, status: 'flagged' });
    expect(project.file('tools.ts')!.sites.map((s) => s.status)).toEqual(['migrated']);
    const lines = app.output!.split('\n');
    const at = lines.findIndex((l) => l.includes('await this.server.connect(transport);'));
    expect(lines[at - 1]).toContain(`// ${TODO_MARKER}(server.connect(new StdioServerTransport()) serves the 2025 era only`);
  });
});
