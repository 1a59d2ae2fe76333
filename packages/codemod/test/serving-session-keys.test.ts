/**
 * Session-keyed state is a map or record whose key is read from the session (`sessionId`,
 * `extra.sessionId`, a template built from one), not one whose key merely says "sessionId": a
 * route table keyed `'DELETE /session/:sessionId'` (an HTTP test server's) is not per-session state.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyServingRewrites } from '../src/engine/serving/index.js';
import { TEST_DIR, virtualProject } from './find-helpers.js';

const ROUTES = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';

type Route = (body: string) => { status: number; body?: string };
const routes = new Map<string, Route>();
routes.set('POST /session', () => ({ status: 201, body: 'created' }));
routes.set('DELETE /session/:sessionId', () => ({ status: 204 }));
const statuses: Record<string, number> = {};
statuses[\`GET /session/:sessionId\`] = 200;
export const route = (key: string) => routes.get(key);
export const client = new Client({ name: 'routes', version: '1.0.0' });
`;

const SESSIONS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const answers = new Map<string, string>();
export function remember(extra: { sessionId?: string }, answer: string) {
  answers.set(extra.sessionId ?? '', answer);
}
const carts: Record<string, string[]> = {};
export function add(sessionId: string, item: string) {
  carts[\`\${sessionId}:cart\`] = [...(carts[\`\${sessionId}:cart\`] ?? []), item];
}
export const server = new McpServer({ name: 's', version: '1.0.0' });
`;

function sessionFindings(code: string): string[] {
  const file = virtualProject().createSourceFile(path.join(TEST_DIR, '__virtual__', `session-keys-${Math.random().toString(36).slice(2)}.ts`), code, { overwrite: true });
  return applyServingRewrites(file, { typeChecked: false }, [], () => [])
    .filter((f) => f.method === 'session-state')
    .map((f) => `${f.line} ${f.reason}`)
    .sort();
}

describe('per-session state', () => {
  it('is not a table whose string keys mention sessionId (an HTTP route table)', () => {
    expect(sessionFindings(ROUTES)).toEqual([]);
  });

  it('is a map or record keyed by a session id read from the session, also inside a template', () => {
    expect(sessionFindings(SESSIONS)).toEqual(["3 per-session state: 'answers' is keyed by session id", "7 per-session state: 'carts' is keyed by session id"]);
  });
});
