// WRONG migration of fixtures/cases/behaviour-sampling-capability: the capability check reads only the
// 2026-07-28 envelope, so a 2025-era client served through the legacy shim is never asked.
import { createHash } from 'node:crypto';
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { effect } from '../../../../../fixtures/support/effects.ts';

const requestStateKey = process.env.MCP_REQUEST_STATE_KEY;
if (requestStateKey === undefined || Buffer.byteLength(requestStateKey) < 32) {
  throw new Error('MCP_REQUEST_STATE_KEY must hold a secret of at least 32 bytes (it seals requestState; share it across instances)');
}
const requestStateCodec = createRequestStateCodec({
  key: requestStateKey,
  ttlSeconds: 600,
  bind: (ctx) => ctx.mcpReq.method,
});

function argumentsDigest(args) {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url');
}

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' }, { requestState: { verify: requestStateCodec.verify } });

  server.registerTool(
    'summarize_note',
    { description: 'Summarise a note with the client LLM when it can sample', inputSchema: z.object({ text: z.string() }) },
    async ({ text }, ctx) => {
      const state = ctx.mcpReq.requestState();
      const args = argumentsDigest({ text });
      if (state !== undefined && (state.tool !== 'summarize_note' || state.args !== args)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState does not belong to this call');
      }
      const askSummary = async () =>
        inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Summarise in one line:\n${text}` } }],
              maxTokens: 80,
            }),
          },
          requestState: await requestStateCodec.mint({ tool: 'summarize_note', args, step: 'summary' }, ctx),
        });
      if (state === undefined) {
        effect('load-note');
        if (!ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.sampling) {
          return { content: [{ type: 'text', text: `Summary unavailable; first line: ${text.split('\n')[0]}` }] };
        }
        return askSummary();
      }
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'summary');
      if (answer.kind !== 'sampling') return askSummary();
      const summary = answer.result;
      effect('summarised');
      const body = summary.content.type === 'text' ? summary.content.text : '(no text)';
      return { content: [{ type: 'text', text: `Summary (${summary.model}): ${body}` }] };
    },
  );

  server.registerPrompt(
    'workspace_overview',
    { description: 'Describe the workspace roots', argsSchema: z.object({ focus: z.string() }) },
    async ({ focus }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
      if (answer.kind !== 'roots') {
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      }
      const { roots } = answer;
      const list = roots.map((r) => `- ${r.name ?? r.uri}`).join('\n');
      return {
        description: `Workspace overview (${roots.length} roots)`,
        messages: [{ role: 'user', content: { type: 'text', text: `Focus on ${focus}. Roots:\n${list}` } }],
      };
    },
  );

  return server;
}
