// WRONG migration of fixtures/cases/behaviour-sampling-capability (summarize_note): the code before
// the request re-runs on every round, so `load-note` happens twice. The harness must notice.
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { effect } from '../../../../../fixtures/support/effects.ts';

export function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('summarize_note', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    effect('load-note');
    if (!server.server.getClientCapabilities()?.sampling) {
      return { content: [{ type: 'text', text: `Summary unavailable; first line: ${text.split('\n')[0]}` }] };
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'summary');
    if (answer.kind !== 'sampling') {
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarise in one line:\n${text}` } }],
            maxTokens: 80,
          }),
        },
      });
    }
    effect('summarised');
    const body = answer.result.content.type === 'text' ? answer.result.content.text : '(no text)';
    return { content: [{ type: 'text', text: `Summary (${answer.result.model}): ${body}` }] };
  });
  return server;
}
