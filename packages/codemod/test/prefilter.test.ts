/**
 * The text pre-filter must never change what a run finds: with it (the default) and without it
 * (`prefilter: false`, every file parsed and analysed) the engine must report the same sites with
 * the same status, and produce the same output text. Checked on the fixtures, on a generated tree
 * (the benchmark's generator) and on a project whose handler reaches a helper's site through files
 * that contain no MCP name at all.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isLegacyMethod, mayContainLegacySite } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import type { MigrateOptions, MigrationResult } from '../src/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempProject(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(dir);
  // outside the repository, so SDK types resolve through a link to the repository's node_modules
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Every site as one comparable line: where, what, verdict, handler, reason. */
function siteLines(result: MigrationResult, root: string): string[] {
  return result.files
    .flatMap((f) =>
      f.sites.map((s) => `${path.relative(root, f.path)}:${s.line}:${s.column} ${s.method} ${s.status} handler=${s.handler ?? '-'} reason=${s.reason ?? '-'}`),
    )
    .sort();
}

/** Output text of every file the run would change or create. */
function outputs(result: MigrationResult, root: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const f of result.files) if (f.output !== undefined && f.output !== f.original) out[path.relative(root, f.path)] = f.output;
  return out;
}

async function compareModes(dir: string, options: MigrateOptions = {}, paths: string[] = [dir]) {
  const filtered = await migrateProject(paths, { cwd: dir, ...options });
  const full = await migrateProject(paths, { cwd: dir, ...options, prefilter: false });
  return { filtered, full };
}

function expectSameFindings(filtered: MigrationResult, full: MigrationResult, root: string): void {
  expect(siteLines(filtered, root)).toEqual(siteLines(full, root));
  expect(filtered.summary).toEqual(full.summary);
  expect(outputs(filtered, root)).toEqual(outputs(full, root));
  // the token list itself: every file in which the full analysis finds a legacy request passes the text test
  for (const file of full.files) {
    if (file.sites.some((s) => isLegacyMethod(s.method)) && file.original !== undefined) {
      expect(mayContainLegacySite(file.original), path.relative(root, file.path)).toBe(true);
    }
  }
}

describe('text pre-filter vs full analysis', () => {
  it('finds the same sites in the fixture cases and the support modules they import', async () => {
    // two paths of one run: the cases import ../support/, which the run then reports on as well
    const dir = path.join(repoRoot, 'fixtures');
    const inputs = fs.readdirSync(path.join(dir, 'cases')).filter((f) => /\.input\.[cm]?[jt]s$/.test(f));
    const { filtered, full } = await compareModes(dir, {}, ['cases', 'support']);
    expect(full.files.filter((f) => path.relative(dir, f.path).startsWith('support/')).length).toBe(fs.readdirSync(path.join(dir, 'support')).length);
    // not vacuous: the full analysis finds sites in most legacy inputs
    const inputsWithSites = full.files.filter((f) => /\.input\./.test(f.path) && f.sites.length > 0).length;
    expect(inputsWithSites).toBeGreaterThanOrEqual(Math.ceil(inputs.length * 0.8));
    expectSameFindings(filtered, full, dir);
  });

  it('finds the same sites in the demo and conformance servers', async () => {
    for (const sub of ['demo', 'conformance']) {
      const dir = path.join(repoRoot, 'fixtures', sub);
      const { filtered, full } = await compareModes(dir);
      expect(full.summary.sitesFound, sub).toBeGreaterThan(0);
      expectSameFindings(filtered, full, dir);
    }
  });

  it('finds the same sites in a generated 200-file tree', async () => {
    const generatorPath = path.join(repoRoot, 'bench', 'lint', 'generate-tree.mjs');
    const { generateTree } = (await import(pathToFileURL(generatorPath).href)) as {
      generateTree(o: { files: number; seed: number; dir: string; mcpRatio: number }): Promise<{ mcpFiles: Array<{ path: string }> }>;
    };
    const dir = tempProject('mrtr-prefilter-tree-');
    const tree = await generateTree({ files: 200, seed: 7, dir, mcpRatio: 0.05 });
    const { filtered, full } = await compareModes(dir);
    // not vacuous: every generated MCP server module holds at least one site
    const withSites = new Set(full.files.filter((f) => f.sites.length > 0).map((f) => path.relative(dir, f.path)));
    for (const mcp of tree.mcpFiles) expect(withSites.has(mcp.path), mcp.path).toBe(true);
    expectSameFindings(filtered, full, dir);
  });

  it('keeps a handler that reaches a helper only through files without any MCP name', async () => {
    const dir = tempProject('mrtr-prefilter-reach-');
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'reach', private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2' } }),
      'src/server.js': [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "import { registerTools } from './tools/index.js';",
        '',
        'export function createServer() {',
        "  const mcp = new McpServer({ name: 'reach', version: '1.0.0' });",
        '  registerTools(mcp);',
        '  return mcp;',
        '}',
        '',
      ].join('\n'),
      // no MCP package, no legacy method name: only relative imports lead from here to the site
      'src/tools/index.js': [
        "import { confirmThenRun } from '../lib/flow.js';",
        '',
        'export function registerTools(mcp) {',
        "  mcp.registerTool('deploy', { description: 'deploy the app' }, async () => {",
        "    const ok = await confirmThenRun(mcp.server, 'Deploy now?');",
        "    return { content: [{ type: 'text', text: ok ? 'deployed' : 'kept' }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
      'src/lib/flow.js': [
        "import { confirm } from './confirm.js';",
        '',
        'export async function confirmThenRun(server, message) {',
        '  return confirm(server, message);',
        '}',
        '',
      ].join('\n'),
      'src/lib/confirm.js': [
        'export async function confirm(server, message) {',
        "  const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });",
        "  return answer.action === 'accept' && answer.content?.confirm === true;",
        '}',
        '',
      ].join('\n'),
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    const { filtered, full } = await compareModes(dir);
    const site = full.files.find((f) => f.path.endsWith('confirm.js'))?.sites[0];
    expect(site?.method).toBe('elicitation/create');
    expectSameFindings(filtered, full, dir);
  });
});
