/**
 * A v1 project's first run: `@modelcontextprotocol/sdk` is installed, the v2 packages are not (they
 * arrive with the `npm install` after the run). The projects live under the system temp directory,
 * outside this repository, so Node's lookup from them cannot reach the repository's hoisted v2
 * packages: whatever v2 types the run sees come from the codemod's own dependencies. Real CLI, real
 * TypeScript, the real v1 SDK and zod linked in from the repository's node_modules.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { assertBuilt, cleanupProjects, makeProject, read, repoRoot, runCli, snapshot } from './helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const REPO_MODULES = path.join(repoRoot, 'node_modules');
const V2_SERVER = '@modelcontextprotocol/server';

/**
 * Two values carried into the next round: `label`, a string typed through `z.infer`, and `order`,
 * a plain interface. Both come from awaited project functions, so they are stored in the request
 * state, which is only allowed once their types are known to be JSON.
 */
const ORDER_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

interface Order {
  id: string;
  quantity: number;
}

const orderShape = { item: z.string(), quantity: z.number() };
type OrderArgs = z.infer<z.ZodObject<typeof orderShape>>;

async function normalise(item: OrderArgs['item']): Promise<OrderArgs['item']> {
  return item.trim();
}

async function reserve(item: string, quantity: number): Promise<Order> {
  return { id: \`\${item}-\${Date.now()}\`, quantity };
}

const server = new McpServer({ name: 'shop', version: '1.0.0' });

server.registerTool('order', { description: 'Places an order', inputSchema: orderShape }, async (args: OrderArgs) => {
  const label = await normalise(args.item);
  const order = await reserve(label, args.quantity);
  const answer = await server.server.elicitInput({
    message: \`Order \${order.quantity} x \${label}?\`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  if (answer.action !== 'accept' || !answer.content?.confirm) return { content: [{ type: 'text', text: 'cancelled' }] };
  return { content: [{ type: 'text', text: \`ordered \${order.id} (\${label})\` }] };
});

await server.connect(new StdioServerTransport());
`;

/**
 * The same tool asking through a module-level alias of the low-level server, in a project compiled
 * with noUnusedLocals: the migrated handler no longer reads the alias, a new error of the code the
 * rewrite would write (the generated code compiles under the strict options exactOptionalPropertyTypes
 * and the like, so an unused local is what is left to make it fail here).
 */
const ALIAS_SERVER = ORDER_SERVER.replace("const server = new McpServer({ name: 'shop', version: '1.0.0' });", "const server = new McpServer({ name: 'shop', version: '1.0.0' });\nlet asker: McpServer['server'] | undefined;\nasker = server.server;").replace('await server.server.elicitInput({', 'await asker!.elicitInput({');
const NO_UNUSED_LOCALS = { noUnusedLocals: true };

function link(root: string, name: string): void {
  const target = path.join(root, 'node_modules', name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(path.join(REPO_MODULES, name), target, 'dir');
}

/** A v1 project: the SDK, zod and Node's types installed; v2's server package only when asked. */
function v1Project(options: { v2Installed: boolean; compilerOptions?: Record<string, unknown>; source?: string }): string {
  const root = makeProject({
    'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(
      { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, ...options.compilerOptions }, include: ['src'] },
      null,
      2,
    )}\n`,
    'src/server.ts': options.source ?? ORDER_SERVER,
  });
  for (const name of ['@modelcontextprotocol/sdk', 'zod', '@types/node']) link(root, name);
  if (options.v2Installed) link(root, V2_SERVER);
  return root;
}

function resolvesFrom(root: string, name: string): boolean {
  try {
    createRequire(path.join(root, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The user's next step: install v2, then typecheck the project with the real compiler. */
function installV2AndTypecheck(root: string): { status: number | null; output: string } {
  link(root, V2_SERVER);
  const run = spawnSync(process.execPath, [path.join(REPO_MODULES, 'typescript/bin/tsc'), '-p', root], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Runs `migrate src` with a JSON report; returns the run, the report and the project's files. */
async function migrate(root: string) {
  const run = await runCli(['migrate', 'src', '--json', 'report.json'], root);
  const reportFile = path.join(root, 'report.json');
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  fs.rmSync(reportFile);
  return { run, report, files: snapshot(root) };
}

let orderProject: { root: string; migrated: ReturnType<typeof migrate> } | undefined;

/** The order server's project without v2, migrated once: the first two tests read the same run. */
function migratedOrderProject(): { root: string; migrated: ReturnType<typeof migrate> } {
  if (!orderProject) {
    const root = v1Project({ v2Installed: false });
    orderProject = { root, migrated: migrate(root) };
  }
  return orderProject;
}

beforeAll(() => assertBuilt());
afterAll(() => cleanupProjects());

describe('mcp-mrtr migrate on a v1 project that has not installed v2 yet', () => {
  it('sees the types: a zod-inferred string and a plain interface are carried across the round, and the result compiles once v2 is installed', async () => {
    const { root, migrated } = migratedOrderProject();
    // the premise: from this project, the v1 SDK resolves and the v2 server package does not (the run installs nothing)
    expect(resolvesFrom(root, '@modelcontextprotocol/sdk/server/mcp.js')).toBe(true);
    expect(resolvesFrom(root, V2_SERVER)).toBe(false);

    const { run, report } = await migrated;
    expect(run.stdout).not.toContain('without type information');
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(report.summary).toMatchObject({ sitesMigrated: 2, sitesFlagged: 0, filesFailed: 0 });
    const server = read(root, 'src/server.ts');
    // the state type names both carried values by their checked types
    expect(server).toContain('label: string; order: Order');
    expect(server).toContain('requestStateCodec.mint(');
    expect(read(root, 'package.json')).toContain(`"${V2_SERVER}"`);

    const typecheck = installV2AndTypecheck(root);
    expect(typecheck.status, typecheck.output).toBe(0);
  });

  it('gives the same report and the same files as the same project with v2 installed', async () => {
    // the run's report and files as they were written, before the first test installed v2
    const without = migratedOrderProject().migrated;
    const withV2 = migrate(v1Project({ v2Installed: true }));
    expect((await without).run.status).toBe((await withV2).run.status);
    expect((await without).run.stdout).toBe((await withV2).run.stdout);
    expect((await without).report).toEqual((await withV2).report);
    expect((await without).files).toEqual((await withV2).files);
    expect(Object.keys((await without).files).sort()).toEqual(['package.json', 'src/mcp-client-capabilities.ts', 'src/mcp-input-responses.ts', 'src/mcp-request-state.ts', 'src/server.ts', 'tsconfig.json']);
  });

  it('verify sees type errors in the code it would write: the rewrite is not written, the file is restored and flagged, exit 1', async () => {
    const root = v1Project({ v2Installed: false, compilerOptions: NO_UNUSED_LOCALS, source: ALIAS_SERVER });
    const { run, report, files } = await migrate(root);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    // the request and the hosting; with the rewrite undone nothing in the file is migrated, so it keeps its
    // v1 code: the compiler error the v1-to-v2 upgrade itself leaves under this option is not written
    expect(report.summary).toMatchObject({ sitesMigrated: 0, sitesFlagged: 2 });
    const entry = report.files.find((f: { path: string }) => f.path === 'src/server.ts');
    expect(entry.status).toBe('flagged');
    // the request, whose rewrite leaves the alias unread, and the hosting, which an assignment to the alias keeps as it is
    expect(entry.sites.map((s: { method: string }) => s.method)).toEqual(['elicitation/create', 'serving']);
    expect(entry.sites[0].reason).toBe("rewrite not verified: the rewritten file has new type errors: TS6133: 'asker' is declared but its value is never read.");
    expect(entry.sites[1].reason).toMatch(/^server\.connect\(new StdioServerTransport\(\)\) serves the 2025 era only; not rewritten: /);
    expect(entry.sites.filter((s: { method: string }) => s.method === 'type-error')).toEqual([]);
    const server = files['src/server.ts']!;
    // the MRTR rewrite and the serving rewrite are undone and marked, the upgrade with them
    expect(server).not.toContain('inputRequired');
    expect(server).not.toMatch(/^\s*serveStdio\(/m);
    expect(server).toContain(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`);
    expect(server).toContain('await asker!.elicitInput({');
    expect(server).toContain(`// ${TODO_MARKER}(rewrite not verified: the rewritten file has new type errors`);
    expect(server.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n')).toBe(ALIAS_SERVER);
    expect(files['src/mcp-request-state.ts']).toBeUndefined();

    // the project compiles as it did before the run
    const typecheck = installV2AndTypecheck(root);
    expect(typecheck.status, typecheck.output).toBe(0);

    // and it is the verdict of the same project with v2 installed
    const withV2 = migrate(v1Project({ v2Installed: true, compilerOptions: NO_UNUSED_LOCALS, source: ALIAS_SERVER }));
    expect((await withV2).report).toEqual(report);
    expect((await withV2).files['src/server.ts']).toBe(server);
  });
});
