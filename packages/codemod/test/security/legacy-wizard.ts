import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { effect } from '../../../../fixtures/support/effects.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'security-wizard', version: '1.0.0' });

  server.registerTool('wizard', { description: 'two questions', inputSchema: { topic: z.string() } }, async ({ topic }) => {
    effect('wizard:start');
    const first = await server.server.elicitInput({
      message: `First answer about ${topic}?`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    if (first.action !== 'accept') return { content: [{ type: 'text', text: `stopped: ${first.action}` }] };
    effect('wizard:middle');
    const second = await server.server.elicitInput({
      message: `Second answer about ${topic}?`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    effect('wizard:end');
    return { content: [{ type: 'text', text: `${topic}: ${String(first.content?.answer)} then ${second.action}:${String(second.content?.answer)}` }] };
  });

  server.registerTool('survey', { description: 'two questions too', inputSchema: { topic: z.string() } }, async ({ topic }) => {
    effect('survey:start');
    const first = await server.server.elicitInput({
      message: `Survey 1 on ${topic}?`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    effect('survey:middle');
    const second = await server.server.elicitInput({
      message: `Survey 2 on ${topic}?`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    effect('survey:end');
    return { content: [{ type: 'text', text: `survey ${topic}: ${first.action} ${second.action}` }] };
  });

  return server;
}
