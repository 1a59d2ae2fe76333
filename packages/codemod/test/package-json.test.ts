import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadsV2Server, planPackageJsonChanges } from '../src/engine/package-json.js';

const V1_MANIFEST = JSON.stringify({ devDependencies: { '@modelcontextprotocol/sdk': '1.32.2' } }, null, 2) + '\n';
const MIGRATED = `import { McpServer } from '@modelcontextprotocol/server';\n`;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function outerWithInner(innerIsRepo: boolean): { outer: string; file: string } {
  const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-manifest-'));
  dirs.push(outer);
  fs.writeFileSync(path.join(outer, 'package.json'), V1_MANIFEST);
  const inner = path.join(outer, 'project');
  fs.mkdirSync(path.join(inner, 'src'), { recursive: true });
  if (innerIsRepo) fs.mkdirSync(path.join(inner, '.git'));
  return { outer, file: path.join(inner, 'src', 'server.ts') };
}

describe('planPackageJsonChanges: which manifest a file belongs to', () => {
  it('walks up to the nearest package.json inside the repository', () => {
    const { outer, file } = outerWithInner(false);
    const changes = planPackageJsonChanges([{ path: file, text: MIGRATED }]);
    expect(changes.map((c) => c.path)).toEqual([path.join(outer, 'package.json')]);
    expect(changes[0]!.removed).toEqual({ '@modelcontextprotocol/sdk': '1.32.2' });
  });

  it('never plans a change to a package.json above the repository root of the migrated file', () => {
    const { file } = outerWithInner(true);
    expect(planPackageJsonChanges([{ path: file, text: MIGRATED }])).toEqual([]);
  });

  it('keeps @modelcontextprotocol/sdk while a file still requires it (v1 CommonJS is not upgraded)', () => {
    const { outer, file } = outerWithInner(false);
    const cjs = path.join(path.dirname(file), 'legacy.cjs');
    const changes = planPackageJsonChanges([
      { path: file, text: MIGRATED },
      { path: cjs, text: `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\n` },
    ]);
    expect(changes.map((c) => c.path)).toEqual([path.join(outer, 'package.json')]);
    expect(changes[0]!.removed).toEqual({});
    expect(changes[0]!.added).toEqual({ '@modelcontextprotocol/server': expect.any(String) });
    expect(JSON.parse(changes[0]!.output).devDependencies['@modelcontextprotocol/sdk']).toBe('1.32.2');
    expect(changes[0]!.notes).toEqual([expect.stringMatching(/^@modelcontextprotocol\/sdk kept: project\/src\/legacy\.cjs still import it after this run/)]);
  });

  it('changes nothing, and says why, when the only file still requires the v1 SDK', () => {
    const { outer, file } = outerWithInner(false);
    const changes = planPackageJsonChanges([{ path: file, text: `const sdk = require("@modelcontextprotocol/sdk/types.js");\n` }]);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.output).toBe(changes[0]!.original);
    expect(changes[0]!.notes).toEqual([`@modelcontextprotocol/sdk kept: ${path.relative(outer, file)} still import it after this run; migrate them, then remove it`]);
  });
});

describe('planPackageJsonChanges: what counts as using a v2 package', () => {
  it('a v2 package named only in a comment (a marker advising serveStdio) adds nothing; an import does', () => {
    const { file } = outerWithInner(false);
    const marker = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';\n// @mcp-mrtr-todo(not rewritten): serve with serveStdio(createServer) from '@modelcontextprotocol/server/stdio'\nawait server.connect(transport);\n`;
    const unchanged = planPackageJsonChanges([{ path: file, text: marker }]);
    expect(unchanged.every((c) => Object.keys(c.added).length === 0 && c.output === c.original)).toBe(true);
    const importing = planPackageJsonChanges([{ path: file, text: `${marker}import { serveStdio } from '@modelcontextprotocol/server/stdio';\n` }]);
    expect(importing.map((c) => c.added)).toEqual([{ '@modelcontextprotocol/server': expect.any(String) }]);
  });
});

describe('loadsV2Server: the one test of a text loading the v2 server (zod raise, zod API errors, package.json)', () => {
  it('is true for an import, re-export, require() or import() of the server or a subpath; false for a comment, another package or a longer name', () => {
    expect(loadsV2Server(`import { McpServer } from '@modelcontextprotocol/server';\n`)).toBe(true);
    expect(loadsV2Server(`export { serveStdio } from '@modelcontextprotocol/server/stdio';\n`)).toBe(true);
    expect(loadsV2Server(`const { McpServer } = require('@modelcontextprotocol/server');\n`)).toBe(true);
    expect(loadsV2Server(`const m = await import('@modelcontextprotocol/server');\n`)).toBe(true);
    expect(loadsV2Server(`// serve with serveStdio from '@modelcontextprotocol/server/stdio'\nexport {};\n`)).toBe(false);
    expect(loadsV2Server(`import { Client } from '@modelcontextprotocol/client';\n`)).toBe(false);
    expect(loadsV2Server(`import x from '@modelcontextprotocol/server-extras';\n`)).toBe(false);
    expect(loadsV2Server(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n`)).toBe(false);
  });
});

describe('planPackageJsonChanges: files outside the run, test-only packages', () => {
  function project(files: Record<string, string>, manifest: object): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-manifest-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }
  const V1_TEST = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n`;

  it('keeps the v1 SDK, with a note, while a file this run did not cover still imports it (migrate src/ with test/ on v1)', () => {
    const dir = project({ 'src/server.ts': MIGRATED, 'test/server.test.ts': V1_TEST }, { dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } });
    const server = path.join(dir, 'src/server.ts');
    const changes = planPackageJsonChanges([{ path: server, text: MIGRATED }], new Set([server]));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.removed).toEqual({});
    expect(changes[0]!.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(changes[0]!.notes).toEqual([expect.stringMatching(/^@modelcontextprotocol\/sdk kept: test\/server\.test\.ts \(not in this run\) still import it/)]);
    expect(JSON.parse(changes[0]!.output).dependencies).toEqual({ '@modelcontextprotocol/sdk': '^1.32.2', '@modelcontextprotocol/server': '^2.4.0' });
  });

  it('a bundler config naming the v1 SDK in its external list is not an import (in the run or outside it)', () => {
    const tsup = `import { defineConfig } from 'tsup';\n// the SDK is a peer: keep it out of the bundle\nexport default defineConfig({ entry: ['src/index.ts'], external: ['@modelcontextprotocol/sdk', "@modelcontextprotocol/sdk/server/mcp.js"] });\n`;
    const esbuild = `require('esbuild').build({ entryPoints: ['src/index.ts'], bundle: true, external: ['@modelcontextprotocol/sdk'] });\n`;
    const dir = project({ 'src/server.ts': MIGRATED, 'tsup.config.ts': tsup, 'scripts/build.cjs': esbuild }, { dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } });
    const server = path.join(dir, 'src/server.ts');
    const config = path.join(dir, 'tsup.config.ts');
    const changes = planPackageJsonChanges([{ path: server, text: MIGRATED }, { path: config, text: tsup }], new Set([server, config]));
    expect(changes[0]!.removed).toEqual({ '@modelcontextprotocol/sdk': '^1.32.2' });
    expect(changes[0]!.notes).toBeUndefined();
    expect(JSON.parse(changes[0]!.output).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
  });

  it('keeps the v1 SDK for a type-only import, a dynamic import(), a re-export or a test mock of it, naming the file', () => {
    for (const text of [
      `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';\n`,
      `export async function load() { return import('@modelcontextprotocol/sdk/server/mcp.js'); }\n`,
      `export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n`,
      `vi.mock('@modelcontextprotocol/sdk/server/mcp.js', () => ({ McpServer: class {} }));\n`,
    ]) {
      const dir = project({ 'src/server.ts': MIGRATED, 'src/other.ts': text }, { dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } });
      const server = path.join(dir, 'src/server.ts');
      const other = path.join(dir, 'src/other.ts');
      const changes = planPackageJsonChanges([{ path: server, text: MIGRATED }, { path: other, text }], new Set([server, other]));
      expect(changes[0]!.removed, text).toEqual({});
      expect(changes[0]!.notes, text).toEqual([expect.stringMatching(/^@modelcontextprotocol\/sdk kept: src\/other\.ts still import it after this run/)]);
    }
  });

  it('removes the v1 SDK when the run covers every file that imported it', () => {
    const dir = project({ 'src/server.ts': MIGRATED, 'test/server.test.ts': V1_TEST }, { dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } });
    const server = path.join(dir, 'src/server.ts');
    const test = path.join(dir, 'test/server.test.ts');
    const migratedTest = `import { Client } from '@modelcontextprotocol/client';\n`;
    const changes = planPackageJsonChanges([{ path: server, text: MIGRATED }, { path: test, text: migratedTest }], new Set([server, test]));
    expect(changes[0]!.removed).toEqual({ '@modelcontextprotocol/sdk': '^1.32.2' });
    expect(changes[0]!.notes).toBeUndefined();
    // the client package is only used by tests: a dev dependency
    const json = JSON.parse(changes[0]!.output);
    expect(json.dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(json.devDependencies).toEqual({ '@modelcontextprotocol/client': '^2.4.0' });
  });
});
