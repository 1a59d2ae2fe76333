/**
 * Hand-migrated reference server: the idioms the rewrite stage emits, checked against the real
 * v2 client pinned to 2026-07-28 (see reference.test.ts). Write-once form, phase form with a
 * sealed requestState (the generated
 * state module), a helper that answers "ask | value", capability check through the generated helper.
 */
import {
  McpServer,
  acceptedContent,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { requestClientCapabilities } from '../../../../fixtures/cases/mcp-client-capabilities.js';
import { argumentsDigest, requestStateCodec } from '../../../../fixtures/cases/mcp-request-state.js';
import { z } from 'zod';

export const calls: string[] = [];


async function confirmAction(server: McpServer, message: string, ctx: ServerContext, key: string): Promise<{ ask: InputRequest } | { value: boolean }> {
  const caps = requestClientCapabilities(ctx, server.server);
  if (!caps?.elicitation) return { value: true };
  const request: ElicitRequestFormParams = { message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } };
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  const content = acceptedContent(ctx.mcpReq.inputResponses, key, fromJsonSchema<ElicitResult['content']>(request.requestedSchema));
  if (answer.kind !== 'elicit' || (answer.action === 'accept' && content === undefined)) return { ask: inputRequired.elicit(request) };
  const result: ElicitResult = answer.action === 'accept' ? { action: 'accept', content } : { action: answer.action };
  return { value: result.action === 'accept' && result.content?.confirm === true };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'ref', version: '1.0.0' }, { requestState: { verify: requestStateCodec.verify } });

  // write-once
  server.registerTool('greet', { inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }, ctx) => {
    const user_nameRequest: ElicitRequestFormParams = { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };
    const user_nameAnswer = inputResponse(ctx.mcpReq.inputResponses, 'user_name');
    const user_nameContent = acceptedContent(ctx.mcpReq.inputResponses, 'user_name', fromJsonSchema<ElicitResult['content']>(user_nameRequest.requestedSchema));
    if (user_nameAnswer.kind !== 'elicit' || (user_nameAnswer.action === 'accept' && user_nameContent === undefined)) {
      return inputRequired({ inputRequests: { user_name: inputRequired.elicit(user_nameRequest) } });
    }
    const user_name: ElicitResult = user_nameAnswer.action === 'accept' ? { action: 'accept', content: user_nameContent } : { action: user_nameAnswer.action };
    if (user_name.action !== 'accept') return { content: [{ type: 'text', text: `no name (${user_name.action})` }] };
    return { content: [{ type: 'text', text: `${greeting}, ${String(user_name.content?.name)}` }] };
  });

  // phase form: effect, request, effect, request
  type WizardState = { phase: 1; args: string; count: number } | { phase: 2; args: string; count: number; first: ElicitResult };
  server.registerTool('wizard', { inputSchema: z.object({ topic: z.string() }) }, async (args, ctx) => {
    const { topic } = args;
    const stored = ctx.mcpReq.requestState<WizardState>();
    const state = stored?.args === argumentsDigest('tools/call:wizard', args) ? stored : undefined;
    if (state === undefined) {
      calls.push('start');
      const count = 2;
      return inputRequired({ inputRequests: { first: inputRequired.elicit({ message: `first ${topic}`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }) }, requestState: await requestStateCodec.mint({ phase: 1, args: argumentsDigest('tools/call:wizard', args), count }, ctx) });
    }
    if (state.phase === 1) {
      const { count } = state;
      const a = inputResponse(ctx.mcpReq.inputResponses, 'first');
      if (a.kind !== 'elicit') return inputRequired({ inputRequests: { first: inputRequired.elicit({ message: `first ${topic}`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }) }, requestState: await requestStateCodec.mint(state, ctx) });
      const first: ElicitResult = { action: a.action, content: a.content as ElicitResult['content'] };
      calls.push('middle');
      const step = await confirmAction(server, 'sure?', ctx, 'sure');
      return inputRequired({ ...('ask' in step ? { inputRequests: { sure: step.ask } } : {}), requestState: await requestStateCodec.mint({ phase: 2, args: state.args, count, first }, ctx) });
    }
    const { count, first } = state;
    const step = await confirmAction(server, 'sure?', ctx, 'sure');
    if ('ask' in step) return inputRequired({ inputRequests: { sure: step.ask }, requestState: await requestStateCodec.mint(state, ctx) });
    const sure = step.value;
    calls.push('end');
    return { content: [{ type: 'text', text: `${topic}:${count}:${String(first.content?.a)}:${sure}` }] };
  });
  // phase form whose only request point is a helper that may answer without asking (fail-open)
  type PurgeState = { phase: 1; args: string };
  server.registerTool('purge', { inputSchema: z.object({ what: z.string() }) }, async (args, ctx) => {
    const stored = ctx.mcpReq.requestState<PurgeState>();
    const state = stored?.args === argumentsDigest('tools/call:purge', args) ? stored : undefined;
    if (state === undefined) {
      calls.push('audit');
      const step = await confirmAction(server, `purge ${args.what}?`, ctx, 'ok');
      return inputRequired({ ...('ask' in step ? { inputRequests: { ok: step.ask } } : {}), requestState: await requestStateCodec.mint({ phase: 1, args: argumentsDigest('tools/call:purge', args) }, ctx) });
    }
    const step = await confirmAction(server, `purge ${args.what}?`, ctx, 'ok');
    if ('ask' in step) return inputRequired({ inputRequests: { ok: step.ask }, requestState: await requestStateCodec.mint(state, ctx) });
    const ok = step.value;
    calls.push('purged');
    return { content: [{ type: 'text', text: `ok=${ok}` }] };
  });
  return server;
}
