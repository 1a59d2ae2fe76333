/**
 * A v1 project with its own installed copy of zod, running its first migration with no v2 installed:
 * the v2 server package the run lends it (the codemod's own) must see the project's zod, as it will
 * once `npm install` dedupes v2's zod dependency onto the project's copy. Otherwise every zod raw
 * shape of the project given to `registerTool`/`registerPrompt` is of another zod than the one v2's
 * types name, and the run reports type errors the installed project does not have.
 *
 * The packages are real (the v1 SDK, zod, the v2 server and core), each installed into the throwaway
 * project as a copy of its own (hard links of the repository's files): a symbolic link would resolve
 * back into the repository and share its zod.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { assertBuilt, cleanupProjects, makeProject, read, repoRoot, runCli } from './helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const REPO_MODULES = path.join(repoRoot, 'node_modules');

const PROJECT_ZOD = '4.4.3';

const NOTES_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'notes', version: '1.0.0' });

const summaryArgs = {
  topic: z.string().describe('Topic to summarise'),
  style: z.string().describe('Writing style').optional(),
};

server.registerPrompt('summarise', { description: 'Summarises a topic', argsSchema: summaryArgs }, (args) => ({
  messages: [{ role: 'user', content: { type: 'text', text: \`Summarise \${args.topic} \${args.style ?? ''}\` } }],
}));

server.registerTool('delete_note', { description: 'Deletes a note', inputSchema: { id: z.string() } }, async ({ id }) => {
  const answer = await server.server.elicitInput({
    message: \`Delete note \${id}?\`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || !answer.content?.confirm) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: \`deleted \${id}\` }] };
});

await server.connect(new StdioServerTransport());
`;

/** `node_modules/<name>` of the project as its own copy of the repository's package `from` (hard links). */
function install(root: string, name: string, from = name): void {
  copyTree(fs.realpathSync(path.join(REPO_MODULES, from)), path.join(root, 'node_modules', name));
}

function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isFile()) {
      try {
        fs.linkSync(source, target);
      } catch {
        fs.copyFileSync(source, target);
      }
    }
  }
}

function v1Project(): string {
  const root = makeProject({
    'package.json': `${JSON.stringify({ name: 'notes', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: PROJECT_ZOD } }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true }, include: ['src'] }, null, 2)}\n`,
    'src/server.ts': NOTES_SERVER,
  });
  install(root, '@modelcontextprotocol/sdk');
  // an earlier zod release than the codemod's own: its declarations differ from the codemod's zod
  install(root, 'zod', 'zod-previous-release');
  fs.symlinkSync(path.join(REPO_MODULES, '@types'), path.join(root, 'node_modules', '@types'), 'dir');
  return root;
}

function typecheck(root: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [path.join(REPO_MODULES, 'typescript/bin/tsc'), '-p', root], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeAll(() => assertBuilt());
afterAll(() => cleanupProjects());

describe('mcp-mrtr migrate on a v1 project with its own zod and no v2 installed', () => {
  it('reports no upgrade type error on zod raw shapes: the lent v2 server sees the project zod, and the installed project compiles', async () => {
    const root = v1Project();
    // the premises: the project compiles on v1 with its own zod, an earlier release than the codemod's
    expect(JSON.parse(read(root, 'node_modules/zod/package.json')).version).toBe(PROJECT_ZOD);
    expect(JSON.parse(fs.readFileSync(path.join(REPO_MODULES, 'zod/package.json'), 'utf8')).version).not.toBe(PROJECT_ZOD);
    const before = typecheck(root);
    expect(before.status, before.output).toBe(0);

    const run = await runCli(['migrate', 'src', '--json', 'report.json'], root);
    const report = JSON.parse(fs.readFileSync(path.join(root, 'report.json'), 'utf8'));
    const sites = report.files.flatMap((f: { sites: Array<{ method: string; reason?: string }> }) => f.sites);
    expect(sites.filter((s: { method: string }) => s.method === 'type-error')).toEqual([]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(report.summary).toMatchObject({ sitesMigrated: 2, filesFailed: 0 });
    const server = read(root, 'src/server.ts');
    expect(server).not.toContain(TODO_MARKER);
    expect(server).toContain("from '@modelcontextprotocol/server'");

    // the user's next step: v2 installed into the project (its zod deduped onto the project's), tsc
    for (const name of ['@modelcontextprotocol/server', '@modelcontextprotocol/core']) install(root, name);
    const after = typecheck(root);
    expect(after.status, after.output).toBe(0);
  });
});
