/**
 * The v1 hold-back (run/v1-hold-back.ts) across files the pre-filter sets aside: a file that names no
 * MCP package can still pass a v1 SDK object on (`export { server } from './jobs.js'`) or be an
 * untyped module whose values may be anything. Such a file is part of the chain between a file held
 * on v1 and the files it shares SDK objects with, so the run with the pre-filter must hold the same
 * files as the run without it: the same sites, reasons and outputs, and a project that compiles.
 * Before the fix, the pre-filter run migrated confirm.ts below to v2 while its server stayed a v1
 * server in jobs.ts: the project no longer compiled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import { makeTempProject, NODE_TSCONFIG, removeTempProjects } from './temp-project.js';
import type { MigrationResult } from '../src/types.js';

// uses the v1 tasks API (held on v1) and creates the server the other files register on
const JOBS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';

export const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() });
`;

// names no MCP package: the pre-filter sets it aside
const SHARED = `export { server } from './jobs.js';
`;

// registers a tool on the v1 server it gets through shared.ts; it speaks MCP (an SDK type)
const CONFIRM = `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { server } from './shared.js';

server.registerTool('confirm', { description: 'asks before going on' }, async (): Promise<CallToolResult> => {
  const answer = await server.server.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;

function errorsOf(projectDir: string): string[] {
  const project = new Project({ tsConfigFilePath: path.join(projectDir, 'tsconfig.json') });
  return project.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, ' ').slice(0, 160)}`);
}

/** Every file's status, sites (line, method, status, reason) and output. */
function outcome(result: MigrationResult, root: string): string[] {
  return result.files
    .flatMap((f) => [`${path.relative(root, f.path)} ${f.status}`, ...f.sites.map((s) => `${path.relative(root, f.path)}:${s.line}:${s.column} ${s.method} ${s.status} ${s.reason ?? '-'}`), `${path.relative(root, f.path)} output ${f.output ?? '-'}`])
    .sort();
}

/** The project migrated with and without the pre-filter, each in its own copy; the pre-filter run's outputs written. */
async function bothModes(files: Record<string, string>, tsconfig: unknown = NODE_TSCONFIG) {
  const setup = { tsconfig, packageJson: { name: 'set-aside', type: 'module', dependencies: { [LEGACY_SDK_PACKAGE]: '1.29.0' } } };
  const dir = makeTempProject('v1-hold-back-set-aside', files, setup);
  const fullDir = makeTempProject('v1-hold-back-set-aside-full', files, setup);
  const errorsBefore = errorsOf(dir);
  const filtered = await migrateProject(['src'], { cwd: dir });
  const full = await migrateProject(['src'], { cwd: fullDir, prefilter: false });
  for (const f of filtered.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
  const of = (name: string) => filtered.files.find((f) => f.path === path.join(dir, 'src', name))!;
  return { dir, fullDir, filtered, full, errorsBefore, errorsAfter: errorsOf(dir), of };
}

afterAll(() => removeTempProjects());

describe('files the pre-filter sets aside take part in the hold-back', () => {
  it('a v1 server re-exported by a file that names no MCP package keeps its registering file on v1', async () => {
    const { dir, fullDir, filtered, full, errorsBefore, errorsAfter, of } = await bothModes({ 'src/jobs.ts': JOBS, 'src/shared.ts': SHARED, 'src/confirm.ts': CONFIRM });
    expect(errorsBefore).toEqual([]);
    expect(errorsAfter).toEqual([]);
    // its v1 text, only the marker added
    expect((of('confirm.ts').output ?? CONFIRM).split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(CONFIRM);
    const site = of('confirm.ts').sites.find((s) => s.method === 'elicitation/create')!;
    expect(site.status).toBe('flagged');
    expect(site.reason).toContain("this file:2 imports `server` (its type has the SDK's `McpServer`) from src/shared.ts; src/shared.ts:1 imports `server` (its type has the SDK's `McpServer`) from src/jobs.ts");
    expect(of('jobs.ts').sites.find((s) => s.method === 'v1-only-api')?.reason).toContain('this file and the 2 files sharing SDK objects with it (src/shared.ts, src/confirm.ts) stay on v1');
    expect(outcome(filtered, dir)).toEqual(outcome(full, fullDir));
  });

  it('the same when the registering file names no MCP package either', async () => {
    const confirm = CONFIRM.replace("import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';\n", '').replace(': Promise<CallToolResult>', '');
    const { dir, fullDir, filtered, full, errorsBefore, errorsAfter, of } = await bothModes({ 'src/jobs.ts': JOBS, 'src/shared.ts': SHARED, 'src/confirm.ts': confirm });
    expect(errorsBefore).toEqual([]);
    expect(errorsAfter).toEqual([]);
    expect(of('confirm.ts').sites.find((s) => s.method === 'elicitation/create')?.reason).toContain('src/shared.ts:1 imports `server`');
    expect(outcome(filtered, dir)).toEqual(outcome(full, fullDir));
  });

  it('the same when every import of the set-aside file goes through a tsconfig paths alias', async () => {
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, paths: { '#lib/*': ['./src/*'] } } };
    const shared = SHARED.replace("'./jobs.js'", "'#lib/jobs.js'");
    const confirm = CONFIRM.replace("from './shared.js'", "from '#lib/shared.js'");
    const { dir, fullDir, filtered, full, errorsBefore, errorsAfter, of } = await bothModes({ 'src/jobs.ts': JOBS, 'src/shared.ts': shared, 'src/confirm.ts': confirm }, tsconfig);
    expect(errorsBefore).toEqual([]);
    expect(errorsAfter).toEqual([]);
    expect(of('confirm.ts').sites.find((s) => s.method === 'elicitation/create')?.reason).toContain('src/shared.ts:1 imports `server`');
    expect(outcome(filtered, dir)).toEqual(outcome(full, fullDir));
  });

  it('an untyped JavaScript module the held file imports is counted among the files held with it', async () => {
    const jobs = JOBS.replace("import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';", "import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';\nimport { label } from './label.js';").replace("name: 'jobs'", "name: label('jobs')");
    const label = 'export function label(name) {\n  return `[${name}]`;\n}\n';
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, allowJs: true } };
    const { dir, fullDir, filtered, full, errorsBefore, errorsAfter, of } = await bothModes({ 'src/jobs.ts': jobs, 'src/label.js': label }, tsconfig);
    expect(errorsBefore).toEqual([]);
    expect(errorsAfter).toEqual([]);
    expect(of('jobs.ts').sites.find((s) => s.method === 'v1-only-api')?.reason).toContain('this file and the file sharing SDK objects with it (src/label.js) stay on v1');
    expect(outcome(filtered, dir)).toEqual(outcome(full, fullDir));
  });
});
