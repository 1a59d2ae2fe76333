/** Code shared by the core rule tests. */

/** What the codemod emits (the canonical migrated idiom): no core rule may report on it. */
export const CANONICAL_OUTPUT = `
import { McpServer, inputRequired, inputResponse, acceptedContent, fromJsonSchema } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { requestStateCodec } from './mcp-request-state.js';
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: requestStateCodec.verify } });
server.registerTool('t', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema: confirmSchema }) } });
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', fromJsonSchema(confirmSchema));
  const state = ctx.mcpReq.requestState<{ step: 1; name: string }>();
  if (!state) {
    return inputRequired({
      inputRequests: { roots: inputRequired.listRoots(), summary: inputRequired.createMessage({ messages: [], maxTokens: 10 }) },
      requestState: await requestStateCodec.mint({ step: 1, name }, ctx),
    });
  }
  const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');
  const summary = inputResponse(ctx.mcpReq.inputResponses, 'summary');
  return { content: [{ type: 'text', text: String(content?.confirm) + roots.kind + summary.kind + state.name }] };
});
server.registerPrompt('p', {}, async (ctx) => {
  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');
  if (who.kind === 'missing') return inputRequired({ inputRequests: { who: inputRequired.elicitUrl({ message: 'Log in', url: 'https://example.com' }) } });
  return { messages: [] };
});
export function createServer() { return server; }
`;

/** The codec module the canonical output imports from. */
export const CANONICAL_CODEC_MODULE = `
import { createRequestStateCodec } from '@modelcontextprotocol/server';
export const requestStateCodec = createRequestStateCodec<{ step: 1; name: string }>({
  key: process.env.MCP_REQUEST_STATE_KEY!,
  ttlSeconds: 600,
  bind: (ctx) => String(ctx.mcpReq.method),
});
`;
