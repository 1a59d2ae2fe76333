/**
 * The test-environment stage on a run's results (run/test-state-key.ts): a created state module in
 * a package with a vitest config gives the config the setup file and creates it; a config the edit
 * cannot see into leaves a note on the state module saying which tests need the key and how; no
 * state module, no vitest config, or a config already naming the setup file: nothing added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStateKeyStage } from '../../src/run/test-state-key.js';
import type { FileResult } from '../../src/types.js';

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

function run(dir: string, codec = true, manifests = true, cwd = dir): Map<string, FileResult> {
  const results = new Map<string, FileResult>();
  const codecPath = path.join(dir, 'src', 'mcp-request-state.ts');
  if (codec) results.set(codecPath, { path: codecPath, status: 'created', sites: [], output: '// codec' });
  testStateKeyStage({ env: { manifests }, results, options: { cwd } });
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
});
