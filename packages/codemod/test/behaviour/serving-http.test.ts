/**
 * The HTTP serving rewrite, run for real: the `serving-http-*` fixture inputs (v1 hosting) and their
 * migrated outputs (`createMcpHandler`) are served over real sockets (Express, node:http) or through
 * their `fetch` face, and driven by real clients: a v1 SDK client (2025 era) and a
 * `@modelcontextprotocol/client` pinned to 2026-07-28. The fixture runner proves the outputs are
 * what the engine writes; this proves they serve.
 */
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const CASES = new URL('../../../../fixtures/cases/', import.meta.url);
const load = async <T>(name: string) => (await import(new URL(name, CASES).href)) as T;

interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}
const textOf = (r: unknown) => ((r as ToolResult).content ?? []).map((c) => c.text).join('\n');

const open: HttpServer[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: HttpServer): Promise<URL> {
  open.push(server);
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

async function legacyCall(url: URL, tool: string, args: Record<string, unknown>, fetch?: Fetch, answer?: Record<string, unknown>, asked: string[] = []): Promise<string> {
  const client = new V1Client({ name: 'legacy-2025', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String((req.params as { message?: string }).message));
      return answer as never;
    });
  }
  await client.connect(new V1HttpTransport(url, fetch ? { fetch } : undefined));
  try {
    return textOf(await client.callTool({ name: tool, arguments: args }));
  } finally {
    await client.close();
  }
}

/** A 2026-07-28 client; `answers` answers elicitation rounds in order and records the questions. */
async function mrtrClient(url: URL, answers: Array<Record<string, unknown>> = [], fetch?: Fetch) {
  const asked: string[] = [];
  let posts = 0;
  const counting: Fetch = async (u, init) => {
    if ((init?.method ?? 'GET') === 'POST') posts++;
    return (fetch ?? globalThis.fetch)(u, init);
  };
  const client = new V2Client({ name: 'mrtr-2026', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String((req.params as { message?: string }).message));
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    return next as never;
  });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: counting }));
  return { client, asked, posts: () => posts };
}

/** Serves the `app` an Express fixture module exports, on an ephemeral port. */
async function serveApp(fixture: string): Promise<URL> {
  const mod = await load<{ app: { listen: (...a: unknown[]) => HttpServer } }>(fixture);
  return listen(mod.app.listen(0, '127.0.0.1'));
}

/** One tool call by a 2026-07-28 client: the text, or `rejected: ...` when the server cannot serve it. */
async function mrtrOutcome(url: URL, tool: string, args: Record<string, unknown>): Promise<string> {
  return mrtrClient(url).then(
    async ({ client }) => {
      try {
        return textOf(await client.callTool({ name: tool, arguments: args }));
      } finally {
        await client.close();
      }
    },
    (error: unknown) => `rejected: ${String(error)}`,
  );
}

describe('Express, stateless per-request hosting → toNodeHandler(createMcpHandler(createServer))', () => {
  it('serves 2025-era clients the same answers as the v1 original', async () => {
    const original = await serveApp('serving-http-express-stateless.input.ts');
    const migrated = await serveApp('serving-http-express-stateless.output.ts');
    const expected = await legacyCall(original, 'greet', { name: 'Ada' });
    expect(expected).toBe('Hello, Ada!');
    expect(await legacyCall(migrated, 'greet', { name: 'Ada' })).toBe(expected);
  });

  it('serves 2026-07-28 clients, including the migrated elicitation rounds (accept and decline)', async () => {
    const url = await serveApp('serving-http-express-stateless.output.ts');
    const accept = await mrtrClient(url, [{ action: 'accept', content: { confirm: true } }]);
    try {
      expect(textOf(await accept.client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
      const postsBefore = accept.posts();
      expect(textOf(await accept.client.callTool({ name: 'delete_note', arguments: { id: 'n1' } }))).toBe('Deleted note n1.');
      expect(accept.asked).toEqual(['Delete note n1?']);
      expect(accept.posts() - postsBefore).toBe(2); // the input_required round and the retry with the answer
    } finally {
      await accept.client.close();
    }
    const decline = await mrtrClient(url, [{ action: 'decline' }]);
    try {
      expect(textOf(await decline.client.callTool({ name: 'delete_note', arguments: { id: 'n1' } }))).toBe('Kept note n1.');
    } finally {
      await decline.client.close();
    }
  });

  it('control: the v1 original cannot serve a 2026-07-28 client (the rewrite is what makes it work)', async () => {
    const url = await serveApp('serving-http-express-stateless.input.ts');
    expect(await mrtrOutcome(url, 'greet', { name: 'Ada' })).toMatch(/^rejected: /);
  });
});

describe('Express, stateful session hosting → 2026-07-28 routed first to createMcpHandler, sessions kept for 2025 clients', () => {
  it('2025-era clients keep their sessions, and elicitation still reaches them (legacy shim over the session)', async () => {
    const original = await serveApp('serving-http-express-sessions.input.ts');
    const migrated = await serveApp('serving-http-express-sessions.output.ts');
    for (const [answer, expected] of [
      [{ action: 'accept', content: { confirm: true } }, 'Deleted note n7.'],
      [{ action: 'decline' }, 'Kept note n7.'],
    ] as const) {
      const askedBefore: string[] = [];
      const askedAfter: string[] = [];
      expect(await legacyCall(original, 'delete_note', { id: 'n7' }, undefined, answer, askedBefore)).toBe(expected);
      expect(await legacyCall(migrated, 'delete_note', { id: 'n7' }, undefined, answer, askedAfter)).toBe(expected);
      expect(askedAfter).toEqual(askedBefore);
      expect(askedAfter).toEqual(['Delete note n7?']);
    }
  });

  it('2026-07-28 clients are served statelessly with input_required rounds', async () => {
    const url = await serveApp('serving-http-express-sessions.output.ts');
    const { client, asked, posts } = await mrtrClient(url, [{ action: 'accept', content: { confirm: true } }]);
    try {
      const before = posts();
      expect(textOf(await client.callTool({ name: 'delete_note', arguments: { id: 'n7' } }))).toBe('Deleted note n7.');
      expect(asked).toEqual(['Delete note n7?']);
      expect(posts() - before).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('control: the stateful v1 original rejects a 2026-07-28 client', async () => {
    const url = await serveApp('serving-http-express-sessions.input.ts');
    expect(await mrtrOutcome(url, 'delete_note', { id: 'n7' })).toMatch(/^rejected: /);
  });
});

describe('Express, one module-level server for every session → a factory per session and per 2026 request', () => {
  /** Two 2025-era sessions open at the same time, each deleting a note after confirming. */
  async function twoSessions(url: URL): Promise<string[]> {
    const clients = [0, 1].map(() => new V1Client({ name: 'legacy-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } }));
    for (const client of clients) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }) as never);
    try {
      for (const client of clients) await client.connect(new V1HttpTransport(url));
      return await Promise.all(clients.map(async (client, i) => textOf(await client.callTool({ name: 'delete_note', arguments: { id: `s${i}` } }))));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }

  it('serves concurrent 2025-era sessions (the v1 singleton cannot: its second connect throws)', async () => {
    const original = await serveApp('serving-http-express-singleton.input.ts');
    const migrated = await serveApp('serving-http-express-singleton.output.ts');
    await expect(twoSessions(original)).rejects.toThrow();
    expect(await twoSessions(migrated)).toEqual(['Deleted note s0.', 'Deleted note s1.']);
  });

  it('serves 2026-07-28 clients next to the sessions', async () => {
    const url = await serveApp('serving-http-express-singleton.output.ts');
    const { client, asked } = await mrtrClient(url, [{ action: 'decline' }]);
    try {
      expect(textOf(await client.callTool({ name: 'delete_note', arguments: { id: 'm1' } }))).toBe('Kept note m1.');
      expect(asked).toEqual(['Delete note m1?']);
    } finally {
      await client.close();
    }
  });
});

describe('node:http with a module-level server → factory + toNodeHandler (JSON responses)', () => {
  // The v1 original (one server instance re-connected per request) is not run: under SDK 1.32 its
  // second request fails with "Already connected to a transport"; the factory fixes that too.
  it('serves both eras from the wrapped factory', async () => {
    const after = await load<{ httpServer: HttpServer }>('serving-http-node-singleton.output.ts');
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    const migrated = await listen(after.httpServer);
    expect(await legacyCall(migrated, 'now', {})).toMatch(iso);
    const { client } = await mrtrClient(migrated);
    try {
      expect(textOf(await client.callTool({ name: 'now', arguments: {} }))).toMatch(iso);
    } finally {
      await client.close();
    }
  });
});

describe('fetch-native default export → createMcpHandler(getServer).fetch', () => {
  it('serves both eras through the fetch face', async () => {
    const before = await load<{ default: { fetch(r: Request): Promise<Response> } }>('serving-http-web-standard.input.ts');
    const after = await load<{ default: { fetch(r: Request): Promise<Response> } }>('serving-http-web-standard.output.ts');
    const url = new URL('http://edge.test/mcp');
    const via = (mod: typeof after): Fetch => (u, init) => mod.default.fetch(new Request(u, init));
    expect(await legacyCall(url, 'ping', {}, via(before))).toBe('pong');
    expect(await legacyCall(url, 'ping', {}, via(after))).toBe('pong');
    const { client } = await mrtrClient(url, [], via(after));
    try {
      expect(textOf(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    } finally {
      await client.close();
    }
  });
});
