/**
 * The test-environment stage on a run's results (run/test-state-key.ts): a created state module in
 * a package with a vitest config gives the config the setup file and creates it; a config the edit
 * cannot see into leaves a note on the state module saying which tests need the key and how; no
 * state module, no vitest config, or a config already naming the setup file: nothing added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testStateKeyStage, withJestManifestSetups } from '../../src/run/test-state-key.js';
import type { FileResult } from '../../src/types.js';
import { migrateTempProject, removeTempProjects } from '../temp-project.js';
import { formatTextReport } from '../../src/report/text.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(config?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-state-key-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{}');
  if (config !== undefined) fs.writeFileSync(path.join(dir, 'vitest.config.ts'), config);
  return dir;
}

function run(dir: string, codec = true, manifests = true, cwd = dir, jestManifestSetups = new Map<string, string>()): Map<string, FileResult> {
  const results = new Map<string, FileResult>();
  const codecPath = path.join(dir, 'src', 'mcp-request-state.ts');
  if (codec) results.set(codecPath, { path: codecPath, status: 'created', sites: [], output: '// codec' });
  testStateKeyStage({ env: { manifests }, results, options: { cwd }, jestManifestSetups });
  return results;
}

const CONFIG = `export default { test: { include: ['tests/**'] } };\n`;

describe('the test-environment stage', () => {
  it('a vitest config gets the setup file, which is created', () => {
    const dir = project(CONFIG);
    const results = run(dir);
    expect(results.get(path.join(dir, 'vitest.config.ts'))).toEqual({
      path: path.join(dir, 'vitest.config.ts'),
      sites: [],
      status: 'changed',
      original: CONFIG,
      output: `export default { test: { setupFiles: ['./mcp-request-state-key.test-setup.ts'], include: ['tests/**'] } };\n`,
    });
    const setup = results.get(path.join(dir, 'mcp-request-state-key.test-setup.ts'));
    expect(setup?.status).toBe('created');
    expect(setup?.output).toContain(`process.env.MCP_REQUEST_STATE_KEY ||= randomBytes(32).toString('base64url');`);
  });

  it('a package above the folder the run was started in is not the project: its vitest config is left alone', () => {
    const outer = project(CONFIG);
    const inner = path.join(outer, 'nested');
    fs.mkdirSync(path.join(inner, 'src'), { recursive: true });
    const results = run(inner);
    expect([...results.keys()]).toEqual([path.join(inner, 'src', 'mcp-request-state.ts')]);
    // started in the outer package, the same codec's package is the outer one
    expect(run(inner, true, true, outer).has(path.join(outer, 'vitest.config.ts'))).toBe(true);
  });

  it('a config the edit cannot see into: unchanged, and the state module says which tests need the key and how', () => {
    const dir = project(`export default defineConfig(() => ({ test: {} }));\n`);
    const results = run(dir);
    expect(results.has(path.join(dir, 'vitest.config.ts'))).toBe(false);
    expect(results.get(path.join(dir, 'src', 'mcp-request-state.ts'))?.notes).toEqual([
      "tests that create the migrated server, or start it with their environment, need MCP_REQUEST_STATE_KEY (the server refuses to start without it): vitest.config.ts was not changed (its default export is not a config object written out in the file (a function, a variable or a merge of configs)); add a setup file doing process.env.MCP_REQUEST_STATE_KEY ||= randomBytes(32).toString('base64url') to its test.setupFiles",
    ]);
  });

  it('nothing without a created state module, a vitest config, a project run, or when the config already names the setup file', () => {
    expect([...run(project(CONFIG), false).keys()]).toEqual([]);
    expect(run(project()).size).toBe(1);
    expect(run(project(CONFIG), true, false).size).toBe(1);
    expect(run(project(`export default { test: { setupFiles: ['./mcp-request-state-key.test-setup.ts'] } };\n`)).size).toBe(1);
  });

  it('a jest config (no vitest config) gets the CommonJS setup file in its setupFiles, which is created', () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'jest.config.cjs'), `module.exports = { testEnvironment: 'node' };\n`);
    const results = run(dir);
    expect(results.get(path.join(dir, 'jest.config.cjs'))?.output).toBe(`module.exports = { setupFiles: ['<rootDir>/mcp-request-state-key.test-setup.cjs'], testEnvironment: 'node' };\n`);
    const setup = results.get(path.join(dir, 'mcp-request-state-key.test-setup.cjs'));
    expect(setup?.status).toBe('created');
    expect(setup?.output).toContain(`const { randomBytes } = require('node:crypto');`);
  });

  it('package.json "jest": the package.json stage writes the setup file into the manifest it computes, its dependency changes kept', () => {
    const dir = project();
    const manifest = path.join(dir, 'package.json');
    const original = `{\n  "dependencies": { "@modelcontextprotocol/sdk": "^1.0.0" },\n  "jest": { "testEnvironment": "node" }\n}\n`;
    fs.writeFileSync(manifest, original);
    const setups = new Map<string, string>();
    const results = run(dir, true, true, dir, setups);
    const setupPath = path.join(dir, 'mcp-request-state-key.test-setup.cjs');
    expect(results.get(setupPath)?.status).toBe('created');
    expect(results.has(manifest)).toBe(false);
    expect(setups).toEqual(new Map([[manifest, setupPath]]));
    const planned = { path: manifest, removed: {}, added: { '@modelcontextprotocol/server': '^2.4.0' }, original, output: original.replace('"^1.0.0"', '"^1.0.0", "@modelcontextprotocol/server": "^2.4.0"') };
    const [change] = withJestManifestSetups([planned], setups);
    expect(JSON.parse(change!.output)).toEqual({
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0', '@modelcontextprotocol/server': '^2.4.0' },
      jest: { testEnvironment: 'node', setupFiles: ['<rootDir>/mcp-request-state-key.test-setup.cjs'] },
    });
    // a manifest the package.json stage leaves alone still gets its change
    expect(JSON.parse(withJestManifestSetups([], setups)[0]!.output).jest.setupFiles).toEqual(['<rootDir>/mcp-request-state-key.test-setup.cjs']);
  });

  it('a jest config the edit cannot see into: unchanged, and the state module says how to set the key in setupFiles', () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'jest.config.js'), `module.exports = { projects: ['<rootDir>/a'] };\n`);
    const results = run(dir);
    expect(results.has(path.join(dir, 'jest.config.js'))).toBe(false);
    expect(results.get(path.join(dir, 'src', 'mcp-request-state.ts'))?.notes?.[0]).toMatch(/jest\.config\.js was not changed \(it lists `projects`, each with its own setupFiles\); add a setup file .* to its setupFiles$/);
  });
});

describe('through the run', () => {
  afterAll(removeTempProjects);

  it('a migration creating the state module in a project configured in package.json "jest": the manifest written names the setup file, with the v2 server added', async () => {
    const tool = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1.0.0' });
  server.registerTool('ask', { inputSchema: { topic: z.string() } }, async ({ topic }) => {
    const started = Date.now();
    const answer = await server.server.elicitInput({ message: \`About \${topic}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: \`\${started} \${answer.action}\` }] };
  });
  return server;
}
`;
    const packageJson = { name: 'p', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.29.0', zod: '^3.25.0' }, jest: { testEnvironment: 'node' } };
    const { dir, result } = await migrateTempProject('jest-key', { 'src/tools.ts': tool }, { packageJson });
    expect(result.files.find((f) => f.path === path.join(dir, 'mcp-request-state-key.test-setup.cjs'))?.status).toBe('created');
    const [change] = result.packageJsonChanges;
    const written = JSON.parse(change!.output) as { dependencies: Record<string, string>; jest: unknown };
    expect(written.dependencies['@modelcontextprotocol/server']).toBeDefined();
    expect(written.jest).toEqual({ testEnvironment: 'node', setupFiles: ['<rootDir>/mcp-request-state-key.test-setup.cjs'] });
    expect(formatTextReport(result, { cwd: dir, command: 'migrate', paths: ['src'] })).toContain(`the project's jest tests get a random one per run from mcp-request-state-key.test-setup.cjs (added to setupFiles) when their environment has none`);
  });
});
