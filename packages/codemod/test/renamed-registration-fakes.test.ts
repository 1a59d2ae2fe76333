/**
 * A unit test hands the module's register function a fake server (`{ tool: vi.fn() }`) and reads
 * the handler from the mock's calls. The v1-to-v2 upgrade renames the module's `server.tool(...)` to
 * `registerTool`, and the fake no longer receives the registration: the test is reported at the
 * fake's member with that reason and marked, instead of failing after the migration unreported. A
 * test whose fake member the module never calls (no rename there) is left alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateTempProject, removeTempProjects } from './temp-project.js';

afterAll(removeTempProjects);

const TOOLS = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function registerTools(server: McpServer): void {
  server.tool('ping', 'Answers pong', { who: z.string() }, async ({ who }) => ({ content: [{ type: 'text', text: \`pong \${who}\` }] }));
  server.registerTool('ask', { description: 'asks' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;

const TOOLS_TEST = `import { expect, it, vi } from 'vitest';
import { registerTools } from './tools.js';

it('pongs', async () => {
  const fake = {
    tool: vi.fn(),
    registerTool: vi.fn(),
  };
  registerTools(fake as never);
  const handler = fake.tool.mock.calls[0]![3] as (args: { who: string }) => Promise<{ content: Array<{ text: string }> }>;
  expect((await handler({ who: 'ada' })).content[0]!.text).toBe('pong ada');
});
`;

// a test of a module with no renamed registration: its `prompt` member is not a registration stand-in here
const OTHER = `export function render(view: { prompt: (text: string) => void }): void {
  view.prompt('hello');
}
`;

const OTHER_TEST = `import { expect, it, vi } from 'vitest';
import { render } from './other.js';

it('prompts', () => {
  const view = { prompt: vi.fn() };
  render(view);
  expect(view.prompt).toHaveBeenCalledWith('hello');
});
`;

describe('fake servers of unit tests after the upgrade renames a registration method', () => {
  it('reports and marks the fake member the renamed registration no longer reaches', async () => {
    const project = await migrateTempProject('renamed-fakes', { 'src/tools.ts': TOOLS, 'src/tools.test.ts': TOOLS_TEST, 'src/other.ts': OTHER, 'src/other.test.ts': OTHER_TEST });
    expect(project.file('tools.ts')!.output).toContain("server.registerTool('ping'");
    const test = project.file('tools.test.ts')!;
    const site = test.sites.find((s) => s.method === 'test-mock')!;
    expect(site).toMatchObject({ line: 6, status: 'flagged' });
    expect(site.reason).toBe(
      "test fake member `tool` stands in for McpServer's `tool`, which the v1-to-v2 upgrade renamed to `registerTool` (called with (name, config, handler)) in tools.ts, which this test imports: the registration no longer reaches the mock, so the test fails",
    );
    const lines = test.output!.split('\n');
    const at = lines.findIndex((l) => l.trim() === 'tool: vi.fn(),');
    expect(lines[at - 1]).toMatch(new RegExp(`^    // ${TODO_MARKER}\\(test fake member \`tool\``));
    expect(project.file('other.test.ts')?.sites ?? []).toEqual([]);
  });
});
