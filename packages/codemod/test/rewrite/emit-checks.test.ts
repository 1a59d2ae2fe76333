/**
 * The planning step before emit (engine/rewrite/emit-checks.ts): each condition emit cannot meet is
 * found there, with the reason the report shows, and emit itself never reports it (it only asserts:
 * called on a handler planning would flag, it fails as an internal error, not with the reason).
 * In-memory projects, run through the stages up to reach.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from 'ts-morph';
import type { Handler, Reach, Site } from '../../src/engine/model.js';
import { planHandler, type HandlerWork } from '../../src/engine/rewrite/analyse.js';
import { planHandlerEmission } from '../../src/engine/rewrite/emit-checks.js';
import { emitHandler } from '../../src/engine/rewrite/emit-handler.js';
import { NameAllocator, reserveAnswerReaders } from '../../src/engine/rewrite/emit.js';
import type { FileWork } from '../../src/engine/rewrite/emit-common.js';
import { rewriteHandlers } from '../../src/engine/rewrite/index.js';
import { runThrough, stateOf } from '../run/helpers.js';

const HEADER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
`;

const ASK = `server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })`;
/** A second request whose parameters read the first answer: the two go in sequence (phase form). */
const ASK_AFTER_FIRST = ASK.replace("message: 'Name?'", 'message: `Sure, ${first.action}?`');

/** A server module registering `registration` (a `server.registerTool(...)` call) on a server it constructs, or on one it is given. */
function serverWith(registration: string, constructs = true): string {
  return constructs
    ? `${HEADER}\nexport function createServer(): McpServer {\n  const server = new McpServer({ name: 'x', version: '1.0.0' });\n${registration}\n  return server;\n}\n`
    : `${HEADER}\nexport function register(server: McpServer): void {\n${registration}\n}\n`;
}

interface Planned {
  reaches: Reach[];
  work: HandlerWork;
  run: () => ReturnType<typeof rewriteHandlers>;
}

/** The one handler of `source`, planned (analyse.ts), and the rewrite of the whole project. */
async function planned(source: string): Promise<Planned> {
  const state = await runThrough(stateOf({ 'src/server.ts': source }), 'reach');
  const byHandler = new Map<Node, { handler: Handler; entries: Array<{ site: Site; path: Reach['handlers'][number]['path'] }> }>();
  for (const reach of state.reaches) {
    for (const { handler, path } of reach.handlers) {
      const slot = byHandler.get(handler.fn) ?? { handler, entries: [] };
      slot.entries.push({ site: reach.site, path });
      byHandler.set(handler.fn, slot);
    }
  }
  expect(byHandler.size).toBe(1);
  const [{ handler, entries }] = [...byHandler.values()];
  const work = planHandler(handler!, entries!);
  return { reaches: state.reaches, work, run: () => rewriteHandlers(state.project, state.reaches, { stateKeyEnv: 'MCP_REQUEST_STATE_KEY', typeChecked: false }) };
}

function fileWork(work: HandlerWork): FileWork {
  const names = new NameAllocator(work.handler.sourceFile.getFullText().match(/[A-Za-z_$][\w$]*/g) ?? []);
  return { edits: [], values: new Set(), types: new Set(), capabilityImports: new Set(), answerReaders: reserveAnswerReaders(names), needsState: false, names };
}

/** The reason planning flags the handler with, checked three ways: the step throws it, the rewrite reports it, and emit alone never does. */
async function expectFlagged(source: string, reason: string | RegExp): Promise<void> {
  const { work, run } = await planned(source);
  const fresh = { ...work, points: work.points.map((p) => ({ ...p, keys: ['answer'] })) } as HandlerWork;
  expect(() => planHandlerEmission(work, false)).toThrow(reason);
  const decisions = run().decisions;
  expect(decisions.length).toBeGreaterThan(0);
  for (const d of decisions) {
    expect(d.status).toBe('flagged');
    expect(d.reason).toMatch(reason);
  }
  // Emit on the same handler without the planning step: an internal invariant error, never the user-facing reason.
  expect(() => emitHandler(fresh, fileWork(fresh), new Map())).toThrow(/emit reached a condition planning rules out/);
}

describe('emit checks (planning before emit)', () => {
  it('flags a handler whose declared return type has no Promise member', async () => {
    await expectFlagged(
      serverWith(`  server.registerTool('ask', { description: 'asks' }, async (): CallToolResult => {\n    const answer = await ${ASK};\n    return { content: [{ type: 'text', text: answer.action }] };\n  });`),
      'the handler declares return type `CallToolResult`, not a Promise',
    );
  });

  it('flags a handler taking a rest parameter where the context would go', async () => {
    await expectFlagged(
      serverWith(`  server.registerTool('ask', { inputSchema: { topic: z.string() } }, async (...rest: unknown[]) => {\n    const answer = await ${ASK};\n    return { content: [{ type: 'text', text: answer.action + rest.length }] };\n  });`),
      'the handler takes a rest parameter; cannot add the context parameter',
    );
  });

  it('flags a request whose parameters are not a literal it can read', async () => {
    await expectFlagged(
      serverWith(`  server.registerTool('ask', { description: 'asks' }, async () => {\n    const answer = await server.server.elicitInput();\n    return { content: [{ type: 'text', text: answer.action }] };\n  });`),
      /^request parameters of `server\.server\.elicitInput\(\)` are not a literal `params` the codemod can read$/,
    );
  });

  it('flags a URL elicitation throw whose elicitations are not an array literal', async () => {
    await expectFlagged(
      serverWith(`  const links = [{ mode: 'url' as const, message: 'Link first', url: 'https://example.com', elicitationId: 'e1' }];\n  server.registerTool('link', { description: 'links' }, async () => {\n    throw new UrlElicitationRequiredError(links);\n  });`),
      'UrlElicitationRequiredError elicitations are not an array literal',
    );
  });

  it('flags a loop whose counter is also declared outside the loop', async () => {
    await expectFlagged(
      serverWith(`  server.registerTool('ask', { description: 'asks' }, async () => {\n    const i = 10;\n    const names: string[] = [];\n    for (let i = 0; i < 3; i++) {\n      const answer = await ${ASK};\n      names.push(answer.action);\n    }\n    return { content: [{ type: 'text', text: names.join(',') + i }] };\n  });`),
      'the loop counter `i` is also declared outside the loop; not rewritten automatically',
    );
  });

  it('flags a loop body declaring a name the code outside the loop declares too', async () => {
    await expectFlagged(
      serverWith(`  server.registerTool('ask', { description: 'asks' }, async () => {\n    const label = 'x';\n    const names: string[] = [];\n    for (let i = 0; i < 3; i++) {\n      const label = \`n\${i}\`;\n      const answer = await ${ASK};\n      names.push(label + answer.action);\n    }\n    return { content: [{ type: 'text', text: names.join(',') + label }] };\n  });`),
      'a name declared in the loop body shadows one declared outside the loop; not rewritten automatically',
    );
  });

  it("keeps emit's order when a handler has several: the context before the return type, except in the loop form", async () => {
    const straight = `  server.registerTool('ask', { inputSchema: { topic: z.string() } }, async (...rest: unknown[]): CallToolResult => {\n    const answer = await ${ASK};\n    return { content: [{ type: 'text', text: answer.action + rest.length }] };\n  });`;
    await expectFlagged(serverWith(straight), 'the handler takes a rest parameter; cannot add the context parameter');
    const looped = `  server.registerTool('ask', { inputSchema: { topic: z.string() } }, async (...rest: unknown[]): CallToolResult => {\n    const names: string[] = [];\n    for (let i = 0; i < 3; i++) {\n      const answer = await ${ASK};\n      names.push(answer.action);\n    }\n    return { content: [{ type: 'text', text: names.join(',') + rest.length }] };\n  });`;
    await expectFlagged(serverWith(looped), 'the handler declares return type `CallToolResult`, not a Promise');
  });

  it('flags a phase-form handler with no server construction to wire requestState verification into', async () => {
    const source = serverWith(
      `  server.registerTool('ask', { description: 'asks' }, async () => {\n    const first = await ${ASK};\n    const second = await ${ASK_AFTER_FIRST};\n    return { content: [{ type: 'text', text: first.action + second.action }] };\n  });`,
      false,
    );
    const { work, run } = await planned(source);
    expect(work.form).toBe('phases');
    // the handler's own conditions hold: only the serving construction is missing
    expect(() => planHandlerEmission(work, false)).not.toThrow();
    for (const d of run().decisions) expect([d.status, d.reason]).toEqual(['flagged', 'no McpServer/Server construction found to wire requestState verification into']);
  });

  it('computes the locals each phase carries for emit, which reads them instead of computing its own', async () => {
    const { work } = await planned(
      serverWith(`  server.registerTool('ask', { description: 'asks' }, async () => {\n    const topic = 'cats';\n    const first = await ${ASK};\n    const second = await ${ASK_AFTER_FIRST};\n    return { content: [{ type: 'text', text: topic + first.action + second.action }] };\n  });`),
    );
    expect(work.live).toBeUndefined();
    planHandlerEmission(work, false);
    expect(work.live?.map((live) => live.map((v) => `${v.name}:${v.mode}`))).toEqual([['topic:store'], ['topic:store', 'first:store']]);
  });
});
