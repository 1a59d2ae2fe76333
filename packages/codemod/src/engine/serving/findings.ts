/** What the serving stage reports, and the advice it gives for each hosting shape. */
import type { Node } from 'ts-morph';
import { STDIO_TRANSPORT, TARGET, TARGET_NODE_ADAPTER, TARGET_NODE_PACKAGE, TARGET_SERVER_PACKAGE, TARGET_SERVER_STDIO_ENTRY } from '@mcp-mrtr/surface';
import { abbreviate } from './edits.js';

const STDIO = STDIO_TRANSPORT;

export interface ServingFinding {
  method: 'serving' | 'session-state';
  status: 'migrated' | 'flagged';
  reason: string;
  advice?: string;
  /** Node to mark (flagged findings); absent once rewritten. */
  node?: Node;
  /** 1-based, in `text`: the file's text when the finding was made (earlier stages may have moved lines since the upgrade). */
  line: number;
  column: number;
  text: string;
  snippet?: string;
}

export const SERVING_ADVICE = {
  stdio: `serve with ${TARGET.serveStdio}(createServer) from '${TARGET_SERVER_STDIO_ENTRY}', where createServer() builds and returns the server with its registrations (one instance per connection); server.connect(new ${STDIO}()) serves 2025-era clients only`,
  http: `serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' (one server per request from a factory; legacy 2025 clients keep working through its stateless fallback): handler.fetch(request) on fetch-native runtimes, ${TARGET_NODE_ADAPTER}(handler) from '${TARGET_NODE_PACKAGE}' for Express/node:http; drop the per-session transport map`,
  sse: `the SSE transport predates Streamable HTTP: serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' instead`,
  session: `2026-07-28 requests are stateless and may land on any instance: keep nothing keyed by session id between requests; carry per-flow data in requestState (sealed) or in shared storage keyed by the principal`,
} as const;

export function flag(node: Node, reason: string, advice: string): ServingFinding {
  const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
  return { method: 'serving', status: 'flagged', reason, advice, node, line, column, text: node.getSourceFile().getFullText(), snippet: abbreviate(node.getText()) };
}
