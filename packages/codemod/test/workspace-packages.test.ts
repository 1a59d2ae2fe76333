/**
 * Monorepo workspaces: a workspace package is the project's own code, imported by its package
 * name. Its declared entry (`./dist/index.d.ts`) is missing before a build, so the engine maps it
 * back to the source it is built from; a tool of one package then reaches a request in another.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateProject } from './shared-library-files.js';
import { pnpmPatterns, WorkspacePackages } from '../src/engine/workspace-packages.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

vi.setConfig({ testTimeout: 900_000 });

const REPO = path.resolve(TEST_DIR, '../../..');

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

const json = (value: unknown) => JSON.stringify(value, null, 2);
const BASE_TSCONFIG = json({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'] } });
const PACKAGE_TSCONFIG = json({ extends: '../../tsconfig.base.json', compilerOptions: { rootDir: './src', outDir: './dist' }, include: ['src'] });
const BUILT_ENTRY = { exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } };

describe('WorkspacePackages', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-ws-unit-'));
    write(root, {
      'package.json': json({ name: 'root', private: true, workspaces: ['packages/*', 'apps/**', '!packages/legacy'] }),
      'packages/built/package.json': json({ name: '@x/built', ...BUILT_ENTRY, exports: { '.': { types: './dist/index.d.ts' }, './errors': { import: './dist/errors/index.js' } } }),
      'packages/built/tsconfig.json': json({ compilerOptions: { outDir: 'dist', rootDir: 'source' } }),
      'packages/built/source/index.ts': 'export const a = 1;\n',
      'packages/built/source/errors/index.ts': 'export const e = 1;\n',
      'packages/plain/package.json': json({ name: 'plain-js', main: './lib/main.js' }),
      'packages/plain/lib/main.js': 'exports.p = 1;\n',
      'packages/guess/package.json': json({ name: 'guess', main: 'build/index.js' }),
      'packages/guess/src/index.ts': 'export const g = 1;\n',
      'packages/legacy/package.json': json({ name: 'legacy', main: 'index.js' }),
      'packages/legacy/index.js': 'exports.l = 1;\n',
      'apps/web/nested/package.json': json({ name: 'nested-app' }),
      'apps/web/nested/src/index.ts': 'export const n = 1;\n',
    });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds the packages the patterns select (negated patterns excluded) from a directory inside the monorepo', () => {
    const workspaces = WorkspacePackages.find(path.join(root, 'packages', 'built', 'source'));
    expect(workspaces.root).toBe(root);
    expect(workspaces.packages.map((p) => p.name).sort()).toEqual(['@x/built', 'guess', 'nested-app', 'plain-js']);
  });

  it('maps declared entries back to their source: outDir -> rootDir, build folder -> src, a plain-JS main as declared, subpath exports', () => {
    const workspaces = WorkspacePackages.find(root);
    expect(workspaces.sourceOf('@x/built')).toBe(path.join(root, 'packages/built/source/index.ts'));
    expect(workspaces.sourceOf('@x/built/errors')).toBe(path.join(root, 'packages/built/source/errors/index.ts'));
    expect(workspaces.sourceOf('plain-js')).toBe(path.join(root, 'packages/plain/lib/main.js'));
    expect(workspaces.sourceOf('guess')).toBe(path.join(root, 'packages/guess/src/index.ts'));
    expect(workspaces.sourceOf('nested-app')).toBe(path.join(root, 'apps/web/nested/src/index.ts'));
    expect(workspaces.sourceOf('legacy')).toBeUndefined();
    expect(workspaces.sourceOf('@x/built-extra')).toBeUndefined();
    expect(workspaces.sourceOf('zod')).toBeUndefined();
    expect(workspaces.sourceOf('./local.js')).toBeUndefined();
  });

  it('reads pnpm-workspace.yaml package lists (block and flow) and finds no workspaces outside a monorepo', () => {
    expect(pnpmPatterns("packages:\n  - 'packages/*'\n  - \"tools/cli\" # the CLI\n  - apps/*\ncatalog:\n  zod: ^4\n")).toEqual(['packages/*', 'tools/cli', 'apps/*']);
    expect(pnpmPatterns('packages: [a/*, "b"]\n')).toEqual(['a/*', 'b']);
    const lone = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-ws-lone-'));
    fs.mkdirSync(path.join(lone, '.git'));
    write(lone, { 'package.json': json({ name: 'lone' }) });
    expect(WorkspacePackages.find(lone).packages).toEqual([]);
    fs.rmSync(lone, { recursive: true, force: true });
  });
});

// One package asks; a tool of another reaches it by package name, through a helper file that
// names no MCP package (the pre-filter follows the workspace import to load it).
const ASK_PACKAGE = {
  'packages/ask/package.json': json({ name: '@acme/ask', type: 'module', ...BUILT_ENTRY, dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' } }),
  'packages/ask/tsconfig.json': PACKAGE_TSCONFIG,
  'packages/ask/src/index.ts': "export * from './confirm.js';\n",
  'packages/ask/src/confirm.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type Asker = McpServer;

/** Asks the user to confirm a deletion; true only on an explicit yes. */
export async function confirmDeletion(server: Asker, what: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    message: \`Delete \${what}?\`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  return answer.action === 'accept' && answer.content?.confirm === true;
}
`,
};

const TOOLS_PACKAGE = {
  'packages/tools/package.json': json({ name: '@acme/tools', type: 'module', dependencies: { '@acme/ask': '*', '@modelcontextprotocol/sdk': '^1.0.0', zod: '^4.0.0' } }),
  'packages/tools/tsconfig.json': PACKAGE_TSCONFIG,
  'packages/tools/src/guard.ts': `import { confirmDeletion, type Asker } from '@acme/ask';

/** The purge tool's guard: a record is purged only once the user confirmed it. */
export async function guardPurge(server: Asker, id: string): Promise<boolean> {
  return confirmDeletion(server, \`record \${id}\`);
}
`,
  'packages/tools/src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guardPurge } from './guard.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'records', version: '1.0.0' });
  server.registerTool('purge', { description: 'Purges a record', inputSchema: { id: z.string() } }, async ({ id }) => {
    if (!(await guardPurge(server, id))) return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: \`purged \${id}\` }] };
  });
  return server;
}
`,
};

// A tool base class in one package holding its confirmer by interface; a tool of another package
// extends it. The base's invoke() calls this.execute(), the subclass's execute() calls
// this.confirmer.confirm(): both resolve to other declarations (the base's abstract method, the
// interface's signature) than the code that runs.
const BASE_PACKAGE = {
  'packages/base/package.json': json({ name: '@acme/base', type: 'module', ...BUILT_ENTRY, dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' } }),
  'packages/base/tsconfig.json': PACKAGE_TSCONFIG,
  'packages/base/src/index.ts': "export * from './confirmer.js';\nexport * from './tool-base.js';\n",
  'packages/base/src/confirmer.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface Confirmer {
  confirm(message: string): Promise<boolean>;
}

export class FormConfirmer {
  constructor(private readonly server: McpServer) {}

  async confirm(message: string): Promise<boolean> {
    const answer = await this.server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }
}
`,
  'packages/base/src/tool-base.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Confirmer } from './confirmer.js';

export abstract class ToolBase {
  abstract readonly name: string;
  constructor(protected readonly confirmer: Confirmer) {}

  protected abstract execute(): Promise<string>;

  async invoke() {
    return { content: [{ type: 'text' as const, text: await this.execute() }] };
  }

  register(server: McpServer): void {
    server.registerTool(this.name, { description: this.name }, this.invoke.bind(this));
  }
}
`,
  'packages/drop/package.json': json({ name: '@acme/drop', type: 'module', dependencies: { '@acme/base': '*' } }),
  'packages/drop/tsconfig.json': PACKAGE_TSCONFIG,
  'packages/drop/src/drop-tool.ts': `import { ToolBase } from '@acme/base';

export class DropTool extends ToolBase {
  readonly name = 'drop';

  protected async execute(): Promise<string> {
    if (!(await this.confirmer.confirm('Drop the table?'))) return 'kept';
    return 'dropped';
  }
}
`,
};

describe('a two-package npm workspace, not installed (no node_modules link, no build)', () => {
  let dir: string;
  let result: MigrationResult;
  const file = (name: string): FileResult => result.files.find((f) => f.path === path.join(dir, name))!;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-ws-'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    write(dir, { 'package.json': json({ name: 'acme', private: true, type: 'module', workspaces: ['packages/*'] }), 'tsconfig.base.json': BASE_TSCONFIG, ...ASK_PACKAGE, ...TOOLS_PACKAGE, ...BASE_PACKAGE });
    result = await migrateProject(['packages/ask/src', 'packages/tools/src', 'packages/base/src', 'packages/drop/src'], { cwd: dir });
  }, 900_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("migrates the other package's request for the tool that reaches it by package name", () => {
    const site = file('packages/ask/src/confirm.ts').sites[0]!;
    expect([site.line, site.status, site.handler]).toEqual([7, 'migrated', 'purge']);
    expect(file('packages/tools/src/guard.ts').output).toContain("confirmDeletion(server, `record ${id}`, ctx, elicitationKey)");
    expect(file('packages/tools/src/server.ts').output).toContain("await guardPurge(server, id, ctx, 'guardPurge')");
    expect(result.summary.filesFailed).toBe(0);
  });

  it('flags the request a tool base reaches through a base-class method (and an interface), naming the first with its place', () => {
    const site = file('packages/base/src/confirmer.ts').sites[0]!;
    expect(site.status).toBe('flagged');
    expect(site.reason).toBe(
      'the elicitation request at line 11 is reached through the base-class method `ToolBase.execute` (tool-base.ts:8), by the call `this.execute(...)` at line 11 of tool-base.ts: ' +
        'other instances run other implementations of it, which a rewrite of this one would not change, so calls through it are not rewritten',
    );
    expect(file('packages/base/src/confirmer.ts').output).toContain('@mcp-mrtr-todo(');
  });
});
