/**
 * A request helper shared by several tools, one of which cannot be migrated for a reason of its own:
 * that tool keeps the helper as written, the others call a migrated copy of it
 * (engine/rewrite/unmigrated-callers.ts, helper-copy.ts). Before, the one tool kept every tool
 * calling the helper unmigrated ("helper ... is also used at ..., outside a handler the rewrite
 * migrates").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Node, Project, SyntaxKind, type CallExpression } from 'ts-morph';
import { afterEach, describe, expect, it } from 'vitest';
import { blockingHandlers } from '../../src/engine/rewrite/unmigrated-callers.js';
import { CODEMOD_ROOT, migrateInPlace, tempProject } from '../security/temp-project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('blockingHandlers', () => {
  const source = (extra = ''): { calls: CallExpression[]; fns: Map<string, Node>; helper: Node } => {
    const project = new Project({ useInMemoryFileSystem: true });
    const file = project.createSourceFile(
      'tools.ts',
      `async function confirm(q: string): Promise<boolean> { return q.length > 0; }
const a = async () => confirm('a');
const b = async () => { if (!(await confirm('b'))) return 0; return 1; };
const c = async () => { await confirm('c'); };
${extra}`,
    );
    const fns = new Map(file.getVariableDeclarations().map((d) => [d.getName(), d.getInitializerOrThrow()]));
    const calls = file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => call.getExpression().getText() === 'confirm');
    return { calls, fns, helper: file.getFunctionOrThrow('confirm') };
  };

  it('names the failed handlers whose direct calls are the only ones left', () => {
    const { calls, fns, helper } = source();
    expect(blockingHandlers(helper, new Set(calls.slice(0, 2)), new Set([fns.get('c')!]))).toEqual([fns.get('c')]);
  });

  it('is undefined when a call left is in a function that did not fail on its own', () => {
    const { calls, fns, helper } = source();
    expect(blockingHandlers(helper, new Set(calls.slice(0, 1)), new Set([fns.get('c')!]))).toBeUndefined();
  });

  it('is undefined when the helper is also used as a value, or nothing is left', () => {
    const asValue = source('const all = [confirm];');
    expect(blockingHandlers(asValue.helper, new Set(asValue.calls.slice(0, 2)), new Set([asValue.fns.get('c')!]))).toBeUndefined();
    const { calls, fns, helper } = source();
    expect(blockingHandlers(helper, new Set(calls), new Set([fns.get('c')!]))).toBeUndefined();
  });
});

// A module-level server wired at start-up, a session capability check that lets the step through
// when the client cannot be asked, and a catch that does the same: the common confirmation helper.
const CONFIRM = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

let wired: McpServer | undefined;

export function wireConfirmations(server: McpServer): void {
  wired = server;
}

/** Asks before a change; a client that cannot be asked lets it through. */
export async function requestConfirmation(message: string): Promise<{ confirmed: boolean; why?: string }> {
  if (!wired) return { confirmed: true };
  const capabilities = wired.server.getClientCapabilities();
  if (!capabilities?.elicitation) return { confirmed: true };
  try {
    const answer = await wired.server.elicitInput({
      message,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] },
    });
    if (answer.action === 'accept' && answer.content?.confirm === true) return { confirmed: true };
    return { confirmed: false, why: answer.action === 'decline' ? 'declined' : 'not confirmed' };
  } catch {
    return { confirmed: true };
  }
}
`;

const RECORDS = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requestConfirmation } from './confirm.js';

export function registerRecordTools(server: McpServer): void {
  server.registerTool('delete_record', { description: 'Delete a record', inputSchema: { id: z.string() } }, async ({ id }) => {
    const { confirmed, why } = await requestConfirmation(\`Delete record \${id}?\`);
    if (!confirmed) return { content: [{ type: 'text', text: why ?? 'kept' }], isError: true };
    return { content: [{ type: 'text', text: \`deleted \${id}\` }] };
  });
}
`;

// The progress closure is live across the question and has no JSON form: this tool stays as written.
const DEPLOY = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requestConfirmation } from './confirm.js';

function progress(label: string): (step: string) => void {
  let count = 0;
  return (step) => {
    count += 1;
    process.stderr.write(\`\${label} \${count} \${step}\\n\`);
  };
}

export function registerDeployTools(server: McpServer): void {
  server.registerTool('deploy', { description: 'Deploy', inputSchema: { target: z.string() } }, async ({ target }) => {
    const report = progress(target);
    report('checking');
    const { confirmed } = await requestConfirmation(\`Deploy to \${target}?\`);
    if (!confirmed) return { content: [{ type: 'text', text: 'not deployed' }] };
    report('deploying');
    return { content: [{ type: 'text', text: \`deployed to \${target}\` }] };
  });
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { wireConfirmations } from './confirm.js';
import { registerDeployTools } from './deploy.js';
import { registerRecordTools } from './records.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'records', version: '1.0.0' });
  wireConfirmations(server);
  registerRecordTools(server);
  registerDeployTools(server);
  return server;
}

export async function main(): Promise<void> {
  await createServer().connect(new StdioServerTransport());
}
`;

describe('a confirmation helper shared by tools in several modules, one of them not migratable', () => {
  it('migrates the other tools onto a copy, keeps the helper for the one tool, says so per caller at the user\'s lines, and the project compiles', async () => {
    const dir = tempProject('unmigrated-callers', { 'confirm.ts': CONFIRM, 'records.ts': RECORDS, 'deploy.ts': DEPLOY, 'server.ts': SERVER });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    expect(result.files.filter((f) => f.status === 'failed')).toEqual([]);
    const sites = result.files.find((f) => f.path.endsWith('confirm.ts'))!.sites;
    const request = sites.find((s) => s.method === 'elicitation/create')!;
    expect([request.line, request.status]).toEqual([15, 'flagged']);
    expect(request.reason).toMatch(/^kept as written for tools\/call handler `deploy`: live value `report`/);
    expect(request.reason).toContain('migrated for tools/call handler `delete_record`, which now calls `requestConfirmationForHandlers`, a copy of `requestConfirmation` rewritten for it');
    expect(request.callers?.map((c) => [c.caller, c.status])).toEqual([
      ['tools/call handler `delete_record`', 'migrated'],
      ['tools/call handler `deploy`', 'flagged'],
    ]);
    // the session capability check the kept helper still makes is reported at its line in the user's file
    const check = sites.find((s) => s.method !== 'elicitation/create' && s.reason?.includes('getClientCapabilities()'));
    const checkLine = CONFIRM.split('\n').findIndex((l) => l.includes('getClientCapabilities()')) + 1;
    expect(check?.line).toBe(checkLine);
    const hosting = result.files.find((f) => f.path.endsWith('server.ts'))!.sites.find((s) => s.method === 'serving');
    expect(hosting?.reason).toContain(`requestConfirmation (confirm.ts:${checkLine}) reads the session's client capabilities`);

    const records = readFileSync(join(dir, 'records.ts'), 'utf8');
    expect(records).toContain("import { requestConfirmationForHandlers } from './confirm.js';");
    expect(records).toMatch(/await requestConfirmationForHandlers\(`Delete record \$\{id\}\?`, ctx, '\w+'\)/);
    expect(readFileSync(join(dir, 'deploy.ts'), 'utf8')).toContain('const { confirmed } = await requestConfirmation(`Deploy to ${target}?`);');
    const confirm = readFileSync(join(dir, 'confirm.ts'), 'utf8');
    expect(confirm.match(/await wired\.server\.elicitInput\(/g)).toHaveLength(1);
    expect(confirm).toContain('still does what it did for the request handlers that are not migrated.');

    // the user's own compiler on the migrated project: no error
    const tsc = join(CODEMOD_ROOT, '../../node_modules/typescript/bin/tsc');
    expect(() => execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' })).not.toThrow();
  });
});
