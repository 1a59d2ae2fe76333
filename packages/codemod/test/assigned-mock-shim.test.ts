/**
 * What the reason of an assigned mock called through the server's own request handler says
 * (engine/test-mocks/client-answer.ts `assignedMockProblem`), on the real @modelcontextprotocol/server:
 * a test that assigns `server.createMessage = vi.fn()...` and calls `_requestHandlers.get('tools/call')`
 * gets the SDK's wrapper, whose 2025-era legacy shim answers the handler's input_required by calling
 * that createMessage only after an initialize that declared sampling; without one it answers
 * "Cannot request input ..." and the mock is never called.
 */
import { describe, expect, it, vi } from 'vitest';
import { Server, inputRequired, type CallToolResult, type CreateMessageResult } from '@modelcontextprotocol/server';

type RequestHandler = (request: unknown, ctx: unknown) => Promise<CallToolResult>;

/** A low-level server whose one tool asks the client's model for a title, as a migrated handler does. */
function titleServer(): Server {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (_request, ctx) => {
    const title = ctx.mcpReq.inputResponses?.['title'] as CreateMessageResult | undefined;
    if (!title) return inputRequired({ inputRequests: { title: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A title?' } }], maxTokens: 10 }) } });
    return { content: [{ type: 'text', text: title.content.type === 'text' ? `Saved "${title.content.text}"` : '' }] };
  });
  return server;
}

function requestHandler(server: Server, method: string): RequestHandler {
  return (server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers.get(method)!;
}

const CALL = { method: 'tools/call', params: { name: 'save_note', arguments: {} } };
const FIRST_ROUND = { mcpReq: { requestState: () => undefined } };

describe('an assigned createMessage mock and the SDK request handler', () => {
  it('a server that never saw an initialize: the shim answers "Cannot request input", the mock is not called', async () => {
    const server = titleServer();
    const mock = vi.fn().mockResolvedValue({ role: 'assistant', content: { type: 'text', text: 'Groceries' }, model: 'm' });
    (server as unknown as { createMessage: unknown }).createMessage = mock;
    const result = await requestHandler(server, 'tools/call')(CALL, FIRST_ROUND);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^Cannot request input 'title' \(sampling\/createMessage\)/);
    expect(mock).not.toHaveBeenCalled();
  });

  it('after an initialize that declared sampling: the shim calls the mock and retries the handler with its answer', async () => {
    const server = titleServer();
    const mock = vi.fn().mockResolvedValue({ role: 'assistant', content: { type: 'text', text: 'Groceries' }, model: 'm' });
    (server as unknown as { createMessage: unknown }).createMessage = mock;
    await requestHandler(server, 'initialize')({ method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 't', version: '1' } } }, FIRST_ROUND);
    const result = await requestHandler(server, 'tools/call')(CALL, { ...FIRST_ROUND, mcpReq: { ...FIRST_ROUND.mcpReq, id: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: 'Saved "Groceries"' }]);
    expect(mock).toHaveBeenCalledTimes(1);
  });
});
