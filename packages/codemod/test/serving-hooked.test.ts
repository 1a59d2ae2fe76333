/**
 * Hosting and requests made from a session's hooks: a request the run leaves flagged in an
 * `oninitialized` hook or a notification handler does not run for a 2026-07-28 request (no
 * initialize, no session). When what that code fills is read by code that runs (a tool, a schema's
 * check), switching the hosting to `serveStdio` would leave it empty for every 2026-07-28 client:
 * the hosting is flagged with that reason instead. A hook whose writes nothing running reads does
 * not keep the hosting.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileResult } from '../src/types.js';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

vi.setConfig({ testTimeout: 900_000 });

const hosting = `
if (process.argv.includes('--stdio')) {
  await createServer().connect(new StdioServerTransport());
}
`;

// A roots cache refreshed by a notification handler, through a named helper that stores the list; a tool reads the cache.
const CACHE_READ = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const folders: string[] = [];

async function refreshFolders(server: McpServer): Promise<void> {
  const { roots } = await server.server.listRoots();
  folders.splice(0, folders.length, ...roots.map((root) => root.uri));
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'folders', version: '1.0.0' });
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await refreshFolders(server);
  });
  server.registerTool('folders', { description: 'Known folders' }, async () => ({ content: [{ type: 'text', text: folders.join('\\n') || 'none known' }] }));
  return server;
}
${hosting}`;

// The same hook, but it only logs what it learns: nothing else reads it.
const LOG_ONLY = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'logger', version: '1.0.0' });
  server.server.oninitialized = async () => {
    const { roots } = await server.server.listRoots();
    const names = roots.map((root) => root.name ?? root.uri);
    console.error(\`client roots: \${names.join(', ')}\`);
  };
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}
${hosting}`;

// The hook fills one property of an object another module exports and calls a logger whose log a
// tool reads; the tool reads only another property of the object: nothing running reads the roots.
const STORE = `export const cache = { roots: [] as string[], hits: 0 };
export const log: string[] = [];
export function note(line: string): void {
  log.push(line);
}
`;

const OTHER_PROPERTY = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cache, log, note } from './store.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'counter', version: '1.0.0' });
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    const { roots } = await server.server.listRoots();
    cache.roots = roots.map((root) => root.uri);
    note(\`roots: \${cache.roots.length}\`);
  });
  server.registerTool('hits', { description: 'Counts hits' }, async () => {
    cache.hits += 1;
    return { content: [{ type: 'text', text: \`\${cache.hits} hits, log: \${log.join('; ')}\` }] };
  });
  return server;
}
${hosting}`;

let project: MigratedProject;
const file = (name: string): FileResult => project.file(name)!;

beforeAll(async () => {
  project = await migrateTempProject('hooked', { 'src/cache/server.ts': CACHE_READ, 'src/log/server.ts': LOG_ONLY, 'src/other/store.ts': STORE, 'src/other/server.ts': OTHER_PROPERTY });
}, 900_000);

afterAll(removeTempProjects);

describe('requests made from hooks and notification handlers', () => {
  it('flags the requests as hook code', () => {
    expect(file('cache/server.ts').sites.find((s) => s.method === 'roots/list')).toMatchObject({ line: 8, status: 'flagged' });
    expect(file('log/server.ts').sites.find((s) => s.method === 'roots/list')).toMatchObject({ line: 7, status: 'flagged' });
  });

  it('keeps the hosting when a tool reads what the hook fills, naming the request and the hook', () => {
    const served = file('cache/server.ts');
    expect(served.output ?? CACHE_READ).toContain('await createServer().connect(new StdioServerTransport());');
    const kept = served.sites.find((s) => s.method === 'serving')!;
    expect(kept.status).toBe('flagged');
    expect(kept.reason).toContain(
      'not rewritten: a request that stays flagged runs from a session\'s hook or a notification handler (refreshFolders in server.ts, run from a notification handler for notifications/roots/list_changed (server.ts))',
    );
    expect(kept.reason).toMatch(/a 2026-07-28 request has no initialize and no session, so that code would not get its answer/);
  });

  it('switches the hosting when nothing that runs reads what the hook writes', () => {
    const served = file('log/server.ts');
    expect(served.sites.find((s) => s.method === 'serving')?.status).toBe('migrated');
    expect(served.output).toContain('serveStdio(createServer)');
  });

  it('switches the hosting when running code reads other properties of the object the hook fills, and the log of a function it calls for other work', () => {
    const served = file('other/server.ts');
    expect(served.sites.find((s) => s.method === 'roots/list')?.status).toBe('flagged');
    expect(served.sites.find((s) => s.method === 'serving')?.status).toBe('migrated');
  });
});
