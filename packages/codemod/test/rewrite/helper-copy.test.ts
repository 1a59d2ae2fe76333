/**
 * A request helper that a tool calls and that other code runs too (a unit test calling it with a
 * wired fake, an event listener), in a module of its own: the tool calls a copy of the helper,
 * declared after it and rewritten by the helper form; the test and the other callers stay as
 * written, the helper builds its request through the function it shares with the copy
 * (shared-request.ts) and does for them what it did, and the report says, for each caller, which
 * one it runs.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// The request goes on a module-level server the test wires a fake into: the test's call cannot be
// driven through a rewritten helper, so rewriting the helper in place would change what the test runs.
const CONFIRM = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

let wired: McpServer | undefined;

export function wire(server: McpServer): void {
  wired = server;
}

/** Asks before a delete; without a wired server nothing is deleted. */
export async function confirmDelete(path: string): Promise<boolean> {
  if (!wired) return false;
  const answer = await wired.server.elicitInput({ message: \`Delete \${path}?\`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });
  return answer.action === 'accept' && answer.content?.confirm === true;
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confirmDelete, wire } from './confirm.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  wire(server);
  process.on('SIGUSR2', async () => {
    if (await confirmDelete('/tmp/cache')) console.error('cache cleared');
  });
  server.registerTool('remove', { description: 'Removes a file', inputSchema: { path: z.string() } }, async ({ path }) => {
    const ok = await confirmDelete(path);
    return { content: [{ type: 'text', text: ok ? \`removed \${path}\` : 'kept' }] };
  });
  return server;
}
`;

const TEST = `import { expect, it, vi } from 'vitest';
import { confirmDelete, wire } from './confirm.js';

it('deletes once confirmed', async () => {
  const elicitInput = vi.fn().mockResolvedValue({ action: 'accept', content: { confirm: true } });
  wire({ server: { elicitInput } } as never);
  expect(await confirmDelete('/a')).toBe(true);
});
`;

describe('a request helper called by a tool and by code outside handlers', () => {
  it('gives the tool a migrated copy in the helper\'s module, keeps its test and its other caller as written, and the helper does what it did', async () => {
    const dir = tempProject('helper-copy', { 'confirm.ts': CONFIRM, 'server.ts': SERVER, 'confirm.test.ts': TEST });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    const site = result.files.find((f) => f.path.endsWith('confirm.ts'))?.sites.find((s) => s.method === 'elicitation/create');
    expect([site?.line, site?.status]).toEqual([12, 'flagged']);
    expect(site!.reason).toBe(
      'the test `deletes once confirmed` (confirm.test.ts:4) calls the code of this request directly: rewriting it for the handlers would change what the test calls (and 1 more caller outside handlers); ' +
        'migrated for tools/call handler `remove`, which now calls `confirmDeleteForHandlers`, a copy of `confirmDelete` rewritten for it',
    );
    expect(site!.advice).toBe(
      'the handlers that called it call `confirmDeleteForHandlers`, its migrated copy, now; it still does what it did for its callers outside request handlers: move what they need into a handler (a test can drive the handler or the copy with inputResponses), then drop it',
    );
    expect(site!.callers?.map((c) => [c.caller, c.status])).toEqual([
      ['the test `deletes once confirmed` (confirm.test.ts:4)', 'flagged'],
      ["process.on 'SIGUSR2' listener", 'flagged'],
      ['tools/call handler `remove`', 'migrated'],
    ]);

    const confirm = readFileSync(join(dir, 'confirm.ts'), 'utf8');
    // The helper as written (below its marker) but for its request's parameters: the literal moved,
    // as written, into the function the helper and its copy both call. Then the copy the helper form rewrote.
    const kept = CONFIRM.slice(CONFIRM.indexOf('/** Asks before'));
    const literal = kept.slice(kept.indexOf('elicitInput(') + 'elicitInput('.length, kept.indexOf(');\n  return answer'));
    expect(confirm).toContain(`function confirmDeleteRequest(path: string): ElicitRequestFormParams {\n  return ${literal};\n}`);
    const [before, after] = kept.replace(literal, 'confirmDeleteRequest(path)').split('  const answer = ');
    expect(confirm).toContain(before);
    expect(confirm).toContain(`  const answer = ${after!.trimEnd()}`);
    expect(confirm).toMatch(/confirmDeleteForHandlers\([^)]*\)[^{]*\{[\s\S]*confirmDeleteRequest\(path\)/);
    expect(confirm).toContain('export async function confirmDeleteForHandlers(path: string, ctx: ServerContext, answerKey: string): Promise<boolean | InputRequiredResult> {');
    expect(confirm.match(/elicitInput\(/g)).toHaveLength(1);

    const server = readFileSync(join(dir, 'server.ts'), 'utf8');
    // the listener still calls the helper, so both names are imported
    expect(server).toContain("import { confirmDelete, confirmDeleteForHandlers, wire } from './confirm.js';");
    expect(server).toContain("if (await confirmDelete('/tmp/cache')) console.error('cache cleared');");
    expect(server).toMatch(/const ok = await confirmDeleteForHandlers\(path, ctx, '\w+'\);\n\s+if \(isInputRequiredResult\(ok\)\) return ok;/);
    expect(readFileSync(join(dir, 'confirm.test.ts'), 'utf8')).toBe(TEST);
    expect(result.files.filter((f) => f.status === 'failed')).toEqual([]);

    // What the helper does for the code outside handlers is unchanged: run it, and the helper as
    // written, on the test's kind of wired fake; the same requests reach the fake, the same results come back.
    writeFileSync(join(dir, 'confirm-as-written.ts'), CONFIRM);
    type Confirm = { wire(server: unknown): void; confirmDelete(path: string): Promise<boolean> };
    const migrated = (await import(pathToFileURL(join(dir, 'confirm.ts')).href)) as Confirm;
    const written = (await import(pathToFileURL(join(dir, 'confirm-as-written.ts')).href)) as Confirm;
    expect([await migrated.confirmDelete('/a'), await written.confirmDelete('/a')]).toEqual([false, false]);
    const run = async (mod: Confirm, answer: object): Promise<{ ok: boolean; requests: unknown[][] }> => {
      const elicitInput = vi.fn().mockResolvedValue(answer);
      mod.wire({ server: { elicitInput } });
      return { ok: await mod.confirmDelete('/a'), requests: elicitInput.mock.calls };
    };
    for (const answer of [{ action: 'accept', content: { confirm: true } }, { action: 'accept', content: { confirm: false } }, { action: 'decline' }]) {
      const [ran, asWritten] = [await run(migrated, answer), await run(written, answer)];
      expect(ran).toEqual(asWritten);
      expect(ran.requests).toEqual([[{ message: 'Delete /a?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } }]]);
    }
  });

  it('copies no default-exported helper (a second default export would not compile): the tool in its file stays flagged with the test\'s reason', async () => {
    const confirm =
      CONFIRM.replace("import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';", "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';").replace(
        'export async function confirmDelete(',
        'export default async function confirmDelete(',
      ) +
      `
export function createServer(): McpServer {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  wire(server);
  server.registerTool('remove', { description: 'Removes a file', inputSchema: { path: z.string() } }, async ({ path }) => {
    const ok = await confirmDelete(path);
    return { content: [{ type: 'text', text: ok ? \`removed \${path}\` : 'kept' }] };
  });
  return server;
}
`;
    const test = TEST.replace("import { confirmDelete, wire } from './confirm.js';", "import confirmDelete, { wire } from './confirm.js';");
    const dir = tempProject('helper-copy-default', { 'confirm.ts': confirm, 'confirm.test.ts': test });
    dirs.push(dir);
    const result = await migrateInPlace(dir);
    const site = result.files.find((f) => f.path.endsWith('confirm.ts'))?.sites.find((s) => s.method === 'elicitation/create');
    expect(site?.callers?.find((c) => c.caller === 'tools/call handler `remove`')).toEqual({
      caller: 'tools/call handler `remove`',
      status: 'flagged',
      reason: 'the request at line 13 is in code also run from the test `deletes once confirmed` (confirm.test.ts:4) (test-code), so it cannot be rewritten for this handler alone',
    });
    expect(readFileSync(join(dir, 'confirm.ts'), 'utf8')).not.toContain('ForHandlers');
  });
});
