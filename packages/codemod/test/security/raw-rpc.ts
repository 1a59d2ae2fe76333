/** Raw 2026-07-28 JSON-RPC POSTs to an in-process `createMcpHandler`, the way a (hostile) client sends them. */
import type { AuthInfo } from '@modelcontextprotocol/server';

export const MRTR_VERSION = '2026-07-28';

export interface RpcResponse {
  status: number;
  result?: Record<string, unknown> & { resultType?: string; requestState?: string; inputRequests?: Record<string, { method: string; params: Record<string, unknown> }> };
  error?: { code: number; message: string };
}

export interface McpFetchHandler {
  fetch(request: Request, options?: { authInfo?: AuthInfo }): Promise<Response>;
}

let nextId = 1;

export async function callTool(
  handler: McpFetchHandler,
  params: { name: string; arguments: Record<string, unknown>; inputResponses?: Record<string, unknown>; requestState?: string },
  principal?: string,
): Promise<RpcResponse> {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MRTR_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'raw-security-client', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      },
    },
  };
  const request = new Request('http://test.local/mcp', {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-method': 'tools/call',
      'mcp-name': params.name,
      'mcp-protocol-version': MRTR_VERSION,
    },
    body: JSON.stringify(body),
  });
  const authInfo: AuthInfo | undefined = principal ? { token: `token-of-${principal}`, clientId: principal, scopes: [] } : undefined;
  const response = await handler.fetch(request, authInfo ? { authInfo } : undefined);
  const text = await response.text();
  const json = parseBody(text, response.headers.get('content-type'));
  return { status: response.status, result: json?.result, error: json?.error };
}

function parseBody(text: string, contentType: string | null): { result?: RpcResponse['result']; error?: RpcResponse['error'] } | undefined {
  if (contentType?.includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as { result?: RpcResponse['result']; error?: RpcResponse['error'] })
      .find((m) => m.result !== undefined || m.error !== undefined);
    return data;
  }
  return text ? JSON.parse(text) : undefined;
}

/** Flips one character of the MAC'd body of a sealed state (keeps it well-formed base64url). */
export function tamper(state: string): string {
  const i = Math.floor(state.length / 3);
  const c = state[i];
  const flipped = c === 'A' ? 'B' : 'A';
  return state.slice(0, i) + flipped + state.slice(i + 1);
}
