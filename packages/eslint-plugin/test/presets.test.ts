/**
 * The presets as a new user meets them: the README's config text, verbatim, in a fresh TypeScript
 * project, linted with the real ESLint (API and CLI); and an `eslint.config.ts` using the presets,
 * typechecked with the real tsc.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlocks } from '../../../fixtures/support/readme-blocks.js';
import { CHILD_PROCESS_TIMEOUT_MS } from './child-timeouts.js';

const PKG = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const REPO = path.resolve(PKG, '../..');
const require = createRequire(import.meta.url);
const ESLINT_BIN = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin/eslint.js');
const TSC_BIN = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin/tsc');

/** Four legacy requests; type annotations and `satisfies` so only a TypeScript parser reads it. */
const LEGACY_TS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

interface Answer { ok: boolean }
const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('confirm', {}, async (_args, extra) => {
  const answer = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
  const roots = await server.server.listRoots();
  const summary = await server.server.createMessage({ messages: [], maxTokens: 10 });
  await extra.sendRequest({ method: 'roots/list' }, {} as never);
  return { content: [{ type: 'text' as const, text: String((answer as unknown as Answer).ok) + roots.roots.length + summary.model }] } satisfies object;
});
`;

const LEGACY_JS = `server.registerTool('t', {}, async (args, ctx) => {
  await ctx.mcpReq.requestSampling({ messages: [] });
  return { content: [] };
});
`;

const LEGACY_LINES = [7, 8, 9, 10];

let dir: string;

function link(name: string, target: string): void {
  const at = path.join(dir, 'node_modules', name);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, 'dir');
}

beforeAll(() => {
  // turbo builds before tests; a lone run builds the plugin if dist is missing
  if (!fs.existsSync(path.join(PKG, 'dist/index.js'))) {
    execFileSync('npx', ['turbo', 'run', 'build', '--filter=@mcp-mrtr/eslint-plugin', '--output-logs=errors-only'], { cwd: PKG, stdio: 'pipe', timeout: CHILD_PROCESS_TIMEOUT_MS });
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-presets-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } }, null, 2),
  );
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/server.ts'), LEGACY_TS);
  fs.writeFileSync(path.join(dir, 'src/tools.mts'), LEGACY_JS);
  fs.writeFileSync(path.join(dir, 'src/legacy.js'), LEGACY_JS);
  // what `npm i -D eslint @mcp-mrtr/eslint-plugin` puts in node_modules (the packed tarballs are
  // installed for real in the codemod's packaging test)
  link('@mcp-mrtr/eslint-plugin', PKG);
  link('eslint', path.dirname(require.resolve('eslint/package.json')));
  link('typescript-eslint', path.join(REPO, 'node_modules/typescript-eslint'));
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's Lint example, verbatim as eslint.config.js in a TypeScript project", () => {
  const [config] = readmeBlocks('Lint what is left', 'js');

  it('is the config the README shows', () => {
    expect(config).toContain("import mcpMrtr from '@mcp-mrtr/eslint-plugin'");
    expect(readmeBlocks('Lint what is left', 'sh').join('\n')).toMatch(/npm i -D .*@mcp-mrtr\/eslint-plugin/);
    // the package's own README (what npm shows) gives the same config
    expect(fs.readFileSync(path.join(PKG, 'README.md'), 'utf8')).toContain('```js\n' + config + '```');
  });

  it('ESLint API: reports every legacy request in .ts, .mts and .js files (none ignored)', async () => {
    fs.writeFileSync(path.join(dir, 'eslint.config.js'), config!);
    const eslint = new ESLint({ cwd: dir });
    const results = await eslint.lintFiles(['src']);
    const byFile = Object.fromEntries(results.map((r) => [path.relative(dir, r.filePath), r.messages]));
    expect(Object.keys(byFile).sort()).toEqual(['src/legacy.js', 'src/server.ts', 'src/tools.mts']);
    for (const messages of Object.values(byFile)) expect(messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
    const legacy = (file: string) => byFile[file]!.filter((m) => m.ruleId === '@mcp-mrtr/no-server-initiated-requests').map((m) => m.line);
    expect(legacy('src/server.ts')).toEqual(LEGACY_LINES);
    expect(legacy('src/tools.mts')).toEqual([2]);
    expect(legacy('src/legacy.js')).toEqual([2]);
  });

  it('ESLint CLI on one .ts file: exit 1 with the findings, not "File ignored"', () => {
    fs.writeFileSync(path.join(dir, 'eslint.config.js'), config!);
    const run = spawnSync(process.execPath, [ESLINT_BIN, 'src/server.ts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.stdout).not.toMatch(/ignored/i);
    expect(run.stdout).toContain('@mcp-mrtr/no-server-initiated-requests');
    expect(run.stdout.match(/no-server-initiated-requests/g)).toHaveLength(LEGACY_LINES.length);
    expect(run.status, run.stderr).toBe(1);
  });
});

describe('typed presets', () => {
  it('an eslint.config.ts with defineConfig, Linter.Config[] and typescript-eslint typechecks with tsc', () => {
    fs.writeFileSync(
      path.join(dir, 'eslint.config.ts'),
      `import type { Linter } from 'eslint';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import mcpMrtr from '@mcp-mrtr/eslint-plugin';

export const defined = defineConfig({ ignores: ['dist/**'] }, mcpMrtr.configs.recommended);
export const withTypescriptEslint = defineConfig(tseslint.configs.recommended, mcpMrtr.configs.strict);
export const typed: Linter.Config[] = [mcpMrtr.configs.recommended, mcpMrtr.configs.strict];
export const one: Linter.Config = mcpMrtr.configs.recommended;
export default defined;
`,
    );
    const run = spawnSync(process.execPath, [TSC_BIN, '--noEmit', '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    // src/ is legacy code against an SDK this project does not install: only the config file counts
    const configErrors = run.stdout.split('\n').filter((line) => line.startsWith('eslint.config.ts'));
    expect(configErrors).toEqual([]);
    expect(run.stdout).toMatch(/^src\/server\.ts/m); // tsc did run over the project
  });
});
