/**
 * A tool stored as an entry object's `handler` and dispatched by a registration loop that wraps
 * plain results into a text block, in a project whose tsconfig has no `include` (it holds `tests/`
 * too), migrated on `src` only. When a unit test in `tests/` calls the tool's member directly
 * (`createResetTool(server).handler(args)`), the migrated tool (which takes the context the dispatch
 * passes) would break that test, which the run never writes: the tool is flagged, naming the test's
 * call (as it is when the tsconfig leaves `tests/` out and the test is a file of the run). When the
 * tests only go through the server, the tool is migrated and the loop passes its
 * input_required result through before the wrapping.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateProject } from '../src/index.js';
import { testFilesHeldOutsideRun } from '../src/tests-beside.js';
import type { MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
// no `include`: every TypeScript file under the folder, tests/ among them
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] } };

const TOOLS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface Tool {
  name: string;
  handler: (args: { scope: string }, extra: any) => Promise<unknown>;
}

export function createResetTool(server: McpServer) {
  return {
    name: 'reset',
    handler: async (args: { scope: string }) => {
      const answer = await server.server.elicitInput({
        message: \`Reset \${args.scope}?\`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Reset cancelled';
      return { reset: args.scope };
    },
  };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'tools', version: '1.0.0' });
  const tools: Tool[] = [createResetTool(server)];
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.name }, async (extra) => {
      const result = await tool.handler({ scope: 'all' }, extra);
      if (result && typeof result === 'object' && 'content' in result) return result as CallToolResult;
      return { content: [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result) }] };
    });
  }
  return server;
}
`;

const MEMBER_CALLED = `import { describe, expect, it, vi } from 'vitest';
import { createResetTool } from '../src/tools.js';

describe('reset', () => {
  it('asks first', async () => {
    const server = { server: { elicitInput: vi.fn().mockResolvedValue({ action: 'decline' }) } };
    const tool = createResetTool(server as never);
    expect(await tool.handler({ scope: 'all' })).toBe('Reset cancelled');
  });
});
`;

const THROUGH_SERVER = `import { describe, expect, it } from 'vitest';
import { createServer } from '../src/tools.js';

describe('server', () => {
  it('is created', () => {
    expect(createServer()).toBeDefined();
  });
});
`;

const dirs: string[] = [];

async function migrate(test: string, tsconfig: object = TSCONFIG): Promise<{ dir: string; result: MigrationResult }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-dispatch-tests-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'tests'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'dispatch-tests', type: 'module' }));
  fs.writeFileSync(path.join(dir, 'src', 'tools.ts'), TOOLS);
  fs.writeFileSync(path.join(dir, 'tests', 'tools.test.ts'), test);
  return { dir, result: await migrateProject(['src'], { cwd: dir }) };
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a dispatched tool called by a test the tsconfig holds outside the run', () => {
  it('the test file is held by the tsconfig, not by the run', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-dispatch-tests-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'src'));
    fs.mkdirSync(path.join(dir, 'tests'));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    fs.writeFileSync(path.join(dir, 'src', 'tools.test.ts'), THROUGH_SERVER);
    fs.writeFileSync(path.join(dir, 'tests', 'tools.test.ts'), THROUGH_SERVER);
    const tsconfig = path.join(dir, 'tsconfig.json');
    expect(testFilesHeldOutsideRun(tsconfig, [path.join(dir, 'src', 'tools.test.ts')])).toEqual([path.join(dir, 'tests', 'tools.test.ts')]);
    fs.writeFileSync(tsconfig, JSON.stringify({ ...TSCONFIG, include: ['src'] }));
    expect(testFilesHeldOutsideRun(tsconfig, [path.join(dir, 'src', 'tools.test.ts')])).toEqual([]);
  });

  it("a test calling the tool's member flags the tool, naming the call; neither file is changed but for the marker", async () => {
    const { dir, result } = await migrate(MEMBER_CALLED);
    const tools = result.files.find((f) => f.path === path.join(dir, 'src', 'tools.ts'));
    const site = tools?.sites.find((s) => s.method === 'elicitation/create');
    expect(site, JSON.stringify(result.files.map((f) => [f.path, f.sites]))).toMatchObject({ status: 'flagged', line: 13 });
    expect(site!.reason).toContain('`tool.handler` is also called at tools.test.ts:8, outside the table dispatch, which would run the migrated tool without its context');
    expect(tools!.output ?? TOOLS).not.toContain('isInputRequiredResult');
    expect(result.files.find((f) => f.path === path.join(dir, 'tests', 'tools.test.ts'))?.output).toBeUndefined();
  });

  it('the same call in a test the tsconfig does not include (a file of the run, tests-beside.ts) flags the tool the same way', async () => {
    const { dir, result } = await migrate(MEMBER_CALLED, { ...TSCONFIG, include: ['src'] });
    const site = result.files.find((f) => f.path === path.join(dir, 'src', 'tools.ts'))?.sites.find((s) => s.method === 'elicitation/create');
    expect(site?.status).toBe('flagged');
    expect(site!.reason).toContain('`tool.handler` is also called at tools.test.ts:8, outside the table dispatch');
  });

  it('tests that only go through the server leave the tool migrated, its wrapped result passed through', async () => {
    const { dir, result } = await migrate(THROUGH_SERVER);
    const tools = result.files.find((f) => f.path === path.join(dir, 'src', 'tools.ts'));
    expect(tools?.sites.find((s) => s.method === 'elicitation/create')?.status, JSON.stringify(tools?.sites)).toBe('migrated');
    expect(tools!.output).toContain('const result = await tool.handler({ scope: \'all\' }, extra);\n      if (isInputRequiredResult(result)) return result;\n');
  });
});
