/**
 * A helper kept for a caller outside request handlers (a timer) and its handler's copy call one
 * function for each request's parameters (engine/rewrite/shared-request.ts), instead of writing
 * the literal out twice; the kept helper does what it did, its comments kept.
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const count = (text: string, part: string): number => text.split(part).length - 1;

async function migrated(source: string, name: string): Promise<{ output: string; sites: Awaited<ReturnType<typeof migrateSource>>['sites'] }> {
  const { output, sites } = await migrateSource(source, name);
  expect(output).toBeDefined();
  return { output: output!, sites };
}

const TWO_REQUESTS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Asks for a title, then drafts a summary. */
async function draft(server: McpServer, topic: string, words?: number): Promise<string> {
  const title = await server.server.elicitInput({
    message: \`Title for \${topic}?\`, // asked first
    requestedSchema: { type: 'object', properties: { title: { type: 'string' } } },
  });
  const local = String(title.content?.title);
  const summary = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: \`Summarise \${topic} in \${words ?? 50} words\` } }],
    maxTokens: 60,
  });
  return local + (summary.content.type === 'text' ? summary.content.text : '');
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'news', version: '1.0.0' });
  setInterval(async () => {
    await draft(server, 'feed', 10);
  }, 300_000).unref();
  server.registerTool('draft', { description: 'Draft', inputSchema: { topic: z.string() } }, async ({ topic }) => {
    const text = await draft(server, topic, 20);
    return { content: [{ type: 'text', text }] };
  });
  return server;
}
`;

describe('a kept helper and its handlers share its requests', () => {
  it('gives each request a function named after its answer, called by the kept helper and by the copy', async () => {
    const { output, sites } = await migrated(TWO_REQUESTS, 'draft.ts');
    expect(sites.filter((s) => s.method !== 'test-mock').map((s) => s.status)).toEqual(['flagged', 'flagged']);
    // each literal written once, its comment with it
    expect(count(output, 'message: `Title for ${topic}?`, // asked first')).toBe(1);
    expect(count(output, 'Summarise ${topic} in ${words ?? 50} words')).toBe(1);
    expect(output).toContain('function draftTitleRequest(topic: string): ElicitRequestFormParams {\n  return {\n    message: `Title for ${topic}?`, // asked first\n');
    // an optional parameter: the call always passes it, possibly undefined
    expect(output).toContain('function draftSummaryRequest(topic: string, words: number | undefined): CreateMessageRequestParams {');
    // the functions go right after the helper, whose doc comment stays on it (the handler holds the inlined copy)
    expect(output).toMatch(/\n\n\/\*\* Asks for a title, then drafts a summary\. \*\/\nasync function draft\(/);
    const order = ['async function draft(', 'function draftTitleRequest(', 'function draftSummaryRequest(', 'export function createServer('].map((part) => output.indexOf(part));
    expect(order.every((at, i) => at > (order[i - 1] ?? 0))).toBe(true);
    expect(output).toContain('  const title = await server.server.elicitInput(draftTitleRequest(topic));\n');
    expect(output).toContain('  const summary = await server.server.createMessage(draftSummaryRequest(topic, words));\n');
    expect(output).toMatch(/const titleRequest: ElicitRequestFormParams = draftTitleRequest\(topic\);/);
    expect(output).toMatch(/const summaryRequest: CreateMessageRequestParams = draftSummaryRequest\(topic, words\);/);
    expect(output).toMatch(/^import \{\n {2}type CreateMessageRequestParams,\n {2}type ElicitRequestFormParams,/);
  });

  it("leaves a request whose parameters read the helper's own locals written out in both (a module-level function cannot see them)", async () => {
    const source = TWO_REQUESTS.replace(
      "    messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${topic} in ${words ?? 50} words` } }],",
      "    messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${local}` } }],",
    );
    const { output } = await migrated(source, 'draft.ts');
    expect(output).toContain("  const summary = await server.server.createMessage({\n    messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${local}` } }],\n");
    expect(output).not.toContain('draftSummaryRequest');
    // the other request still shares its function
    expect(count(output, 'Title for ${topic}?')).toBe(1);
    expect(output).toContain('elicitInput(draftTitleRequest(topic))');
  });

  it('writes the function without types in a JavaScript file', async () => {
    const js = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

async function summarize(server, text) {
  const result = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: \`Summarise: \${text}\` } }],
    maxTokens: 60,
  });
  return result.content.type === 'text' ? result.content.text : '';
}

export function createServer() {
  const server = new McpServer({ name: 'news', version: '1.0.0' });
  setInterval(async () => {
    await summarize(server, 'the feed');
  }, 300_000).unref();
  server.registerTool('summarize', { description: 'Summarise', inputSchema: { text: z.string() } }, async ({ text }) => {
    const summary = await summarize(server, text);
    return { content: [{ type: 'text', text: summary }] };
  });
  return server;
}
`;
    const { output } = await migrated(js, 'summarize.js');
    expect(output).toContain('function summarizeRequest(text) {\n  return {\n');
    expect(output).toContain('const result = await server.server.createMessage(summarizeRequest(text));');
    expect(count(output, 'Summarise: ${text}')).toBe(1);
  });
});
