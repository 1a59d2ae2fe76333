/** RuleTester wiring shared by the safety-rule tests: TS parser, plain-JS (espree) and a type-aware variant. */
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import * as espree from 'espree';
import { afterAll, describe, it } from 'vitest';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
// No timeout of its own: each case gets vitest.config.ts's, sized for a loaded 2-core machine (the
// first typed case builds a TypeScript program); test/repo/timeouts.test.ts in the codemod checks it.
RuleTester.it = (name: string, fn: () => void) => it(name, fn);
RuleTester.itOnly = (name: string, fn: () => void) => it.only(name, fn);

/** typescript-eslint parser, no type information (how `recommended` runs in editors). */
export const ruleTester = new RuleTester();

/** Same rules with type information from a tiny TS project (`test/typed-project`). */
export const typedRuleTester = new RuleTester({
  languageOptions: {
    parserOptions: {
      project: './tsconfig.json',
      tsconfigRootDir: fileURLToPath(new URL('../typed-project', import.meta.url)),
    },
  },
});

/**
 * The rule as RuleTester types it: @typescript-eslint/rule-tester 8.72 ships its own nested
 * @typescript-eslint/utils, whose RuleModule type differs nominally from the 8.74 one the rules use.
 */
export function testable(rule: object): Parameters<RuleTester['run']>[1] {
  return rule as Parameters<RuleTester['run']>[1];
}

/** Turns a case into a plain-JavaScript one parsed by espree (ESLint's default parser). */
export function asJs<T extends object>(testCase: T): T {
  return { ...testCase, filename: 'file.js', languageOptions: { parser: espree, parserOptions: { ecmaVersion: 2022, sourceType: 'module' } } } as T;
}

/** The canonical migrated server (what the codemod emits): every safety rule must leave it alone. */
export const CANONICAL_MIGRATED = `
import { McpServer, inputRequired, inputResponse, acceptedContent, createRequestStateCodec, CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { z } from 'zod';
type State = { step: number; name: string };
function requireStateKey(value: string | undefined): string {
  if (!value || value.length < 32) throw new Error('MCP_REQUEST_STATE_KEY must hold at least 32 bytes');
  return value;
}
const requestStateCodec = createRequestStateCodec<State>({ key: requireStateKey(process.env.MCP_REQUEST_STATE_KEY), ttlSeconds: 600, bind: (ctx) => \`\${ctx.mcpReq.method}\` });
const server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: requestStateCodec.verify } });
server.registerTool('t', { description: 'demo', inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  const caps = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } }) } });
  const details = acceptedContent(ctx.mcpReq.inputResponses, 'details', z.object({ city: z.string() }));
  if (!details) return inputRequired({ inputRequests: { details: inputRequired.elicit({ message: 'Where?', requestedSchema: z.object({ city: z.string().describe('City you live in') }) }) }, requestState: await requestStateCodec.mint({ step: 1, name }, ctx) });
  return { content: [{ type: 'text', text: \`\${name} \${details.city} \${caps ? 'caps' : ''}\` }] };
});
server.registerResource('r', 'res://r', { mimeType: 'text/plain' }, async (uri, ctx) => {
  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');
  if (who.kind === 'missing') return inputRequired({ inputRequests: { who: inputRequired.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { who: { type: 'string' } } } }) } });
  return { contents: [{ uri: uri.href, text: 'hi' }] };
});
export function createServer() { return server; }
`;
