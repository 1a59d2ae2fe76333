import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Project } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateSource, migrateInputs } from '../src/index.js';
import { migrateProject } from './shared-library-files.js';
import type { Reach, RewriteOutcome } from '../src/engine/model.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string | Buffer>, opts: { typed?: boolean } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-migrate-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  if (opts.typed) {
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true }, include: ['src'] }),
    );
  }
  return dir;
}

const V1_TIMER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  setInterval(async () => {
    await server.server.listRoots();
  }, 1000);
  return server;
}
`;

const V1_TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('ask', { description: 'asks' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

describe('migrateProject: per-file failures', () => {
  it('reports syntax errors, binary and non-UTF-8 files as failed and goes on with the rest', async () => {
    const dir = tree({
      'src/broken.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer({ name: 'x', version: '1' });\nawait s.server.listRoots(;\n`,
      'src/binary.ts': Buffer.from([0x63, 0x6f, 0x6e, 0x73, 0x74, 0x00, 0x01, 0x02]),
      'src/latin1.ts': Buffer.concat([Buffer.from("// caf"), Buffer.from([0xe9]), Buffer.from("\nexport const x = 'elicitInput';\n")]),
      'src/good.ts': V1_TIMER,
    });
    const result = await migrateProject(['src'], { cwd: dir });
    const byName = Object.fromEntries(result.files.map((f) => [path.basename(f.path), f]));
    expect(byName['broken.ts']!.status).toBe('failed');
    expect(byName['broken.ts']!.error).toMatch(/^syntax error: line 3: /);
    expect(byName['broken.ts']!.output).toBe(byName['broken.ts']!.original);
    expect(byName['binary.ts']!.status).toBe('failed');
    expect(byName['binary.ts']!.error).toMatch(/binary/);
    expect(byName['latin1.ts']!.status).toBe('failed');
    expect(byName['latin1.ts']!.error).toMatch(/UTF-8/);
    expect(byName['good.ts']!.status).toBe('flagged');
    expect(byName['good.ts']!.sites).toHaveLength(1);
    expect(result.summary.filesFailed).toBe(3);
    expect(result.summary.sitesFound).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'src/good.ts'), 'utf8')).toBe(V1_TIMER);
  });
});

describe('migrateProject: output conventions', () => {
  it('keeps a BOM and CRLF line endings', async () => {
    const crlf = (text: string) => '\uFEFF' + text.replace(/\n/g, '\r\n');
    // a flagged file (stays on v1, marked) and a migrated one (upgraded and rewritten)
    const dir = tree({ 'src/server.ts': crlf(V1_TIMER), 'src/tool.ts': crlf(V1_TOOL) });
    const { files } = await migrateProject(['src'], { cwd: dir });
    const file = files.find((f) => f.path.endsWith('server.ts'));
    const tool = files.find((f) => f.path.endsWith('tool.ts'));
    expect(file!.output!.startsWith('\uFEFFimport { McpServer } from ')).toBe(true);
    expect(file!.output!.replace(/\r\n/g, '')).not.toContain('\n');
    expect(file!.output).toContain(`\r\n    // ${TODO_MARKER}(`);
    expect(tool!.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(tool!.output!.startsWith('\uFEFFimport ')).toBe(true);
    expect(tool!.output!.replace(/\r\n/g, '')).not.toContain('\n');
    expect(tool!.output).toContain(`'@modelcontextprotocol/server'`);
  });

  it('keeps each line\'s own ending in a file whose lines end both ways, for the lines it does not change', async () => {
    // CRLF on every other line: the upgrade rewrites the import, the rewrite the handler
    const lines = V1_TOOL.split('\n');
    const mixed = lines.map((line, i) => (i === lines.length - 1 ? line : line + (i % 2 === 0 ? '\r\n' : '\n'))).join('');
    const dir = tree({ 'src/tool.ts': mixed });
    const tool = (await migrateProject(['src'], { cwd: dir })).files.find((f) => f.path.endsWith('tool.ts'));
    expect(tool!.sites.map((s) => s.status)).toEqual(['migrated']);
    const endings = (text: string) => new Map(text.split('\n').map((line) => [line.replace(/\r$/, ''), line.endsWith('\r')]));
    const before = endings(mixed);
    const after = endings(tool!.output!);
    const kept = [...after].filter(([line]) => line.trim().length > 2 && before.has(line));
    expect(kept.length).toBeGreaterThan(3);
    for (const [line, crlf] of kept) expect([line, crlf]).toEqual([line, before.get(line)]);
  });

  it('keeps a shebang and reports lines of the original file', async () => {
    const dir = tree({ 'src/cli.ts': `#!/usr/bin/env node\n${V1_TIMER}` });
    const [file] = (await migrateProject(['src'], { cwd: dir })).files;
    expect(file!.output!.startsWith('#!/usr/bin/env node\nimport { McpServer } from ')).toBe(true);
    expect(file!.sites.map((s) => [s.line, s.method, s.status])).toEqual([[7, 'roots/list', 'flagged']]);
    expect(file!.sites[0]!.reason).toMatch(/setInterval/);
  });

  it('cites lines of the original file in rewrite reasons when the upgrade merges imports above the site', async () => {
    const input = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('ask', { description: 'asks' }, async (): Promise<CallToolResult> => {
    const asked = Date.now(), answer: ElicitResult = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: \`\${answer.action} \${asked}\` }] };
  });
  return server;
}
`;
    const dir = tree({ 'src/server.ts': input });
    const [file] = (await migrateProject(['src'], { cwd: dir })).files;
    const line = input.split('\n').findIndex((l) => l.includes('elicitInput')) + 1;
    // The upgrade writes one v2 import for the three v1 ones: the analysed text is two lines shorter above the site.
    expect(file!.sites.map((s) => [s.line, s.status, s.reason])).toEqual([[line, 'flagged', `the elicitation request at line ${line} shares a declaration statement with other variables (line ${line})`]]);
  });

  it('adds one marker per flagged statement and nothing on a second run', async () => {
    const dir = tree({ 'src/server.ts': V1_TIMER });
    const [first] = (await migrateProject(['src'], { cwd: dir })).files;
    const again = await migrateSource(first!.output!, path.join(dir, 'src/server.ts'), { cwd: dir });
    expect(again.output).toBe(first!.output);
    expect(first!.output!.split(TODO_MARKER).length - 1).toBe(1);
    expect(again.sites.map((s) => s.status)).toEqual(['flagged']);
  });
});

describe('migrateProject: requests an agent class sends', () => {
  it('flags an McpAgent subclass\'s own elicitInput in its tools with the true reason and leaves the code as it was', async () => {
    const input = `import { McpAgent } from 'agents/mcp';

export class NotesAgent extends McpAgent {
  async init() {
    const agent = this;
    agent.server.registerTool('delete_note', { description: 'Delete a note' }, async () => {
      const answer = await agent.elicitInput({ message: 'Delete it?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
    this.server.registerTool('rename_note', { description: 'Rename a note' }, async () => {
      const answer = await this.elicitInput({ message: 'New name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
  }
}
`;
    const dir = tree({ 'src/agent.ts': input }, { typed: true });
    const [file] = (await migrateProject(['src'], { cwd: dir, write: false })).files;
    expect(file!.sites.map((s) => [s.line, s.method, s.status])).toEqual([
      [7, 'elicitation/create', 'flagged'],
      [11, 'elicitation/create', 'flagged'],
    ]);
    expect(file!.sites[0]!.reason).toBe(
      "`agent.elicitInput(...)` is sent by the agent class `NotesAgent` (an `McpAgent` from `agents`), not by the MCP SDK server (the `agents` package's types are not installed, so the checker cannot see the method's type): MRTR needs the tool handler to return input_required, which this codemod does not write for an agent class; migrate it by hand",
    );
    expect(file!.sites[1]!.reason).toMatch(/^`this\.elicitInput\(\.\.\.\)` is sent by the agent class `NotesAgent`/);
    const output = file!.output ?? input;
    expect(output.split(TODO_MARKER).length - 1).toBe(2);
    expect(output.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(input);
  });
});

describe('migrateProject: pre-filter and project', () => {
  it('never loads files without MCP tokens and finds the same sites without the pre-filter', async () => {
    const files: Record<string, string> = { 'src/server.ts': V1_TOOL, 'src/helper.ts': V1_TIMER };
    for (let i = 0; i < 30; i++) files[`src/lib/util${i}.ts`] = `export function util${i}(x: number) { return x + ${i}; }\n`;
    const dir = tree(files);
    const withFilter = await migrateProject(['src'], { cwd: dir });
    const without = await migrateProject(['src'], { cwd: dir, prefilter: false });
    const plain = withFilter.files.filter((f) => f.path.includes('/lib/'));
    expect(plain).toHaveLength(30);
    expect(plain.every((f) => f.status === 'unchanged' && f.output === undefined)).toBe(true);
    const sitesOf = (r: typeof withFilter) => r.files.flatMap((f) => f.sites.map((s) => `${path.basename(f.path)}:${s.line}:${s.method}:${s.status}`));
    expect(sitesOf(withFilter)).toEqual(sitesOf(without));
    expect(sitesOf(withFilter)).toHaveLength(2);
  });

  it('keeps the types of values from imported MCP-free modules (the pre-filter does not cut them off)', async () => {
    const store = `export interface Notebook { slug: string; title: string }\nexport function lookup(id: string): Notebook {\n  return { slug: id, title: id.toUpperCase() };\n}\n`;
    const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { lookup } from './store.js';
import { record } from './log.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'books', version: '1.0.0' });
  server.registerTool('rename', { inputSchema: { id: z.string() } }, async ({ id }) => {
    const notebook = lookup(id);
    const first = await server.server.elicitInput({ message: \`New title for \${notebook.title}?\`, requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } });
    if (first.action !== 'accept') return { content: [{ type: 'text', text: 'Kept.' }] };
    record(notebook.slug);
    const second = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
    return { content: [{ type: 'text', text: second.action === 'accept' ? \`Renamed \${notebook.slug} to \${String(first.content?.title)}.\` : 'Kept.' }] };
  });
  return server;
}
`;
    const dir = tree({ 'src/server.ts': server, 'src/store.ts': store, 'src/log.ts': `export function record(slug: string): void {\n  console.log(slug);\n}\n` }, { typed: true });
    const result = await migrateProject(['src'], { cwd: dir });
    const sites = result.files.flatMap((f) => f.sites.map((s) => [path.basename(f.path), s.line, s.status, s.reason ?? '']));
    expect(sites.map((s) => s.slice(0, 3))).toEqual([
      ['server.ts', 10, 'migrated'],
      ['server.ts', 13, 'migrated'],
    ]);
    expect(result.files.find((f) => f.path.endsWith('store.ts'))!.status).toBe('unchanged');
    // the state type spells Notebook out (server.ts does not import the name)
    expect(result.files.find((f) => f.path.endsWith('server.ts'))!.output).toContain('notebook: { slug: string; title: string }');
  });

  it('plans the package.json change from the v1 SDK to the v2 server package', async () => {
    const manifest = `{\n  "name": "demo",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.0",\n    "zod": "^4.2.0"\n  }\n}\n`;
    const dir = tree({ 'package.json': manifest, 'src/server.ts': V1_TOOL });
    const result = await migrateProject(['src'], { cwd: dir });
    expect(result.packageJsonChanges).toHaveLength(1);
    const change = result.packageJsonChanges[0]!;
    expect(change.removed).toEqual({ '@modelcontextprotocol/sdk': '^1.32.0' });
    expect(change.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(change.output).toBe(`{\n  "name": "demo",\n  "dependencies": {\n    "@modelcontextprotocol/server": "^2.4.0",\n    "zod": "^4.2.0"\n  }\n}\n`);
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(manifest);
  });

  it('writes files and package.json only with write: true', async () => {
    const manifest = `{\n  "dependencies": { "@modelcontextprotocol/sdk": "1.32.2" }\n}\n`;
    const dir = tree({ 'package.json': manifest, 'src/server.ts': V1_TOOL });
    const result = await migrateProject(['src'], { cwd: dir, write: true });
    const written = fs.readFileSync(path.join(dir, 'src/server.ts'), 'utf8');
    expect(written).toBe(result.files.find((f) => f.path.endsWith('server.ts'))!.output);
    expect(written).toContain('inputRequests');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))).toEqual({ dependencies: { '@modelcontextprotocol/server': '^2.4.0' } });
  });
});

describe('migrateInputs: verification', () => {
  const breakHandler = (replacement: string) => (project: Project, reaches: Reach[]): RewriteOutcome => {
    for (const reach of reaches) {
      const statement = reach.site.node.getFirstAncestor((a) => a.getKindName() === 'VariableStatement');
      statement?.replaceWithText(replacement);
    }
    void project;
    return { decisions: reaches.map((r) => ({ site: r.site, status: 'migrated' })), createdFiles: [] };
  };

  it('restores a rewritten file that does not parse and flags its sites', async () => {
    const dir = tree({ 'src/server.ts': V1_TOOL });
    const file = path.join(dir, 'src/server.ts');
    const result = await migrateInputs([{ path: file, text: V1_TOOL }], { cwd: dir }, { manifests: false, rewrite: breakHandler('const answer = (;') });
    const [out] = result.files;
    expect(out!.sites.map((s) => s.status)).toEqual(['flagged']);
    expect(out!.sites[0]!.reason).toMatch(/does not parse/);
    expect(out!.output).toContain("const answer = await server.server.elicitInput(");
    expect(out!.output).toContain(TODO_MARKER);
    // nothing is migrated in it any more: it keeps its v1 code (no upgrade it does not need)
    expect(out!.output).toContain(`from '@modelcontextprotocol/sdk/server/mcp.js'`);
  });

  it('restores a rewritten file with new type errors when types are available', async () => {
    const dir = tree({ 'src/server.ts': V1_TOOL }, { typed: true });
    const file = path.join(dir, 'src/server.ts');
    const result = await migrateInputs(
      [{ path: file, text: V1_TOOL }],
      { cwd: dir },
      { manifests: false, tsconfig: path.join(dir, 'tsconfig.json'), rewrite: breakHandler("const answer: { action: number } = { action: 'accept' };") },
    );
    const [out] = result.files;
    expect(out!.sites.map((s) => s.status)).toEqual(['flagged']);
    expect(out!.sites[0]!.reason, out!.sites[0]!.reason).toMatch(/new type errors: .*TS2322/);
    expect(out!.output).toContain("const answer = await server.server.elicitInput(");
  });

  it('keeps a rewrite that parses and typechecks', async () => {
    const dir = tree({ 'src/server.ts': V1_TOOL }, { typed: true });
    const file = path.join(dir, 'src/server.ts');
    const result = await migrateInputs(
      [{ path: file, text: V1_TOOL }],
      { cwd: dir },
      { manifests: false, tsconfig: path.join(dir, 'tsconfig.json'), rewrite: breakHandler("const answer = { action: 'accept' };") },
    );
    const [out] = result.files;
    expect(out!.status).toBe('changed');
    expect(out!.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(out!.output).toContain("const answer = { action: 'accept' };");
  });
});

describe('migrateProject: a v1 project before the v2 packages are installed', () => {
  it("migrates, typechecking against the codemod's own v2 packages, while @modelcontextprotocol/server is not installed yet", async () => {
    const dir = tree({ 'src/server.ts': V1_TOOL, 'package.json': JSON.stringify({ type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2' } }) });
    fs.mkdirSync(path.join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
    fs.symlinkSync(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk'), path.join(dir, 'node_modules/@modelcontextprotocol/sdk'), 'dir');
    fs.symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true }, include: ['src'] }),
    );
    const result = await migrateProject(['src'], { cwd: dir });
    const file = result.files.find((f) => f.path.endsWith('server.ts'))!;
    expect(file.sites.map((s) => [s.status, s.reason?.startsWith('rewrite not verified') ?? false]), file.sites[0]?.reason).toEqual([['migrated', false]]);
    expect(file.output).toContain('inputRequired');
  });
});

describe('large files', () => {
  it('elides MCP-free statements of a large file, reports original lines and keeps the bulk verbatim', async () => {
    const bulk = Array.from({ length: 6000 }, (_, i) => `export function compute${i}(values: number[]): number {\n  return values.length + ${i};\n}\n`).join('\n');
    const tail = `\nexport async function lateHelper(server: McpServer['server']) {\n  return server.listRoots();\n}\nsetInterval(() => {\n  void compute1([1]);\n  void lateHelper(globalServer.server);\n}, 1000);\nconst globalServer = createServer();\n`;
    const text = `${V1_TIMER}\n${bulk}${tail}`;
    expect(text.length).toBeGreaterThan(300_000);
    const dir = tree({ 'src/big.ts': text });
    const [file] = (await migrateProject(['src'], { cwd: dir })).files;
    expect(file!.status).toBe('flagged');
    expect(file!.output).toContain(bulk);
    const lines = text.split('\n');
    const helperLine = lines.findIndex((l) => l.includes('return server.listRoots();')) + 1;
    expect(file!.sites.map((s) => [s.line, s.status])).toEqual([
      [6, 'flagged'],
      [helperLine, 'flagged'],
    ]);
    expect(file!.sites[1]!.reason).toMatch(/setInterval|detached|fire-and-forget/);
    // nothing is migrated: the file keeps its v1 code, the markers above the two requests are all that changed
    expect(file!.output!.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(text);
  });
});
