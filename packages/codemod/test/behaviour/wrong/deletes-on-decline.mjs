// WRONG migration of fixtures/cases/behaviour-elicit-basic (delete_file): any answer counts as a
// confirmation, and the question text changed. The harness must notice both.
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { effect } from '../../../../../fixtures/support/effects.ts';

export function createServer() {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  server.registerTool('delete_file', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
    const confirmation = inputResponse(ctx.mcpReq.inputResponses, 'confirmation');
    if (confirmation.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          confirmation: inputRequired.elicit({
            message: `Delete the file ${path}?`,
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
          }),
        },
      });
    }
    effect('delete');
    return { content: [{ type: 'text', text: `Deleted ${path}` }] };
  });
  return server;
}
