/**
 * A handler left as it is because of one of its requests: each of its other requests gives its own
 * obstacle, or says the handler is kept for another request (named), never the first one's reason
 * as if it were its own.
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
`;

describe('the reason at each request of a handler left as it is', () => {
  it('names its own interface call, not the one planning met first', async () => {
    const source = `${HEAD}
interface Librarian {
  approveLoan(title: string): Promise<boolean>;
  askShelf(title: string): Promise<string>;
}
class DeskLibrarian implements Librarian {
  constructor(private readonly server: Server) {}
  async approveLoan(title: string): Promise<boolean> {
    const answer = await this.server.elicitInput({ message: \`Lend \${title}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return answer.action === 'accept';
  }
  async askShelf(title: string): Promise<string> {
    const answer = await this.server.elicitInput({ message: \`Shelf for \${title}?\`, requestedSchema: { type: 'object', properties: { shelf: { type: 'string' } } } });
    return String(answer.content?.shelf ?? 'A1');
  }
}
const mcp = new McpServer({ name: 'library', version: '1.0.0' });
const librarian: Librarian = new DeskLibrarian(mcp.server);
mcp.registerTool('lend', { description: 'Lend a book' }, async () => {
  if (!(await librarian.approveLoan('Dune'))) return { content: [{ type: 'text', text: 'refused' }] };
  const shelf = await librarian.askShelf('Dune');
  return { content: [{ type: 'text', text: shelf }] };
});
mcp.registerTool('locate', { description: 'Find a book' }, async () => {
  return { content: [{ type: 'text', text: await librarian.askShelf('Emma') }] };
});
`;
    const result = await migrateSource(source, 'library.ts');
    const sites = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [11, 'flagged'],
      [15, 'flagged'],
    ]);
    expect(sites[0]!.reason).toContain('the elicitation request at line 11 is reached through the interface member `Librarian.approveLoan`');
    expect(sites[1]!.reason).toContain('the elicitation request at line 15 is reached through the interface member `Librarian.askShelf`');
    expect(sites[1]!.reason).toContain('`librarian.askShelf(...)` at line 23');
    expect(sites[1]!.reason).not.toContain('line 11');
    // a second tool asking the shelf: the request at line 15 lists both handlers, each with its own call
    const lend = sites[1]!.callers?.find((c) => c.caller === 'tools/call handler `lend`');
    expect(lend?.reason).toContain('the elicitation request at line 15 is reached through the interface member `Librarian.askShelf`');
    expect(lend?.reason).toContain('`librarian.askShelf(...)` at line 23');
    expect(lend?.reason).not.toContain('line 11');
    expect(sites[1]!.callers?.find((c) => c.caller === 'tools/call handler `locate`')?.reason).toContain('`librarian.askShelf(...)` at line 27');
  });

  it('says the handler is kept for another request when this one could be rewritten alone', async () => {
    const source = `${HEAD}
const mcp = new McpServer({ name: 'garden', version: '1.0.0' });
const schema = { type: 'object' as const, properties: { plant: { type: 'string' as const } } };
mcp.registerTool('plant', { description: 'Plant seeds' }, async () => {
  const [first] = await Promise.allSettled([mcp.server.elicitInput({ message: 'Bed?', requestedSchema: schema })]);
  const second = await mcp.server.elicitInput({ message: 'Seed?', requestedSchema: schema });
  return { content: [{ type: 'text', text: \`\${first.status} \${second.action}\` }] };
});
`;
    const result = await migrateSource(source, 'garden.ts');
    const sites = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [7, 'flagged'],
      [8, 'flagged'],
    ]);
    expect(sites[0]!.reason).toBe('the elicitation request at line 7 is inside Promise.allSettled: per-request failure results have no MRTR equivalent');
    expect(sites[1]!.reason).toBe('the handler is left as it is for another of its requests: the elicitation request at line 7 is inside Promise.allSettled: per-request failure results have no MRTR equivalent');
  });

  it("says a request the handler makes itself is kept for a helper's request, naming that request's line", async () => {
    const source = `${HEAD}
const mcp = new McpServer({ name: 'pond', version: '1.0.0' });
const schema = { type: 'object' as const, properties: { v: { type: 'string' as const } } };
async function askDepth(...notes: string[]): Promise<string> {
  const answer = await mcp.server.elicitInput({ message: notes.join(' '), requestedSchema: schema });
  return String(answer.content?.v);
}
mcp.registerTool('fill', { description: 'Fill the pond' }, async () => {
  const fish = await mcp.server.elicitInput({ message: 'Fish?', requestedSchema: schema });
  const depth = await askDepth('how', 'deep');
  return { content: [{ type: 'text', text: \`\${String(fish.content?.v)} \${depth}\` }] };
});
mcp.registerTool('drain', { description: 'Drain the pond' }, async () => {
  const depth = await askDepth('drain');
  return { content: [{ type: 'text', text: depth }] };
});
`;
    const result = await migrateSource(source, 'pond.ts');
    const sites = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [7, 'flagged'],
      [11, 'flagged'],
    ]);
    const helper = 'helper `askDepth` takes a rest parameter; cannot add the context and key parameters';
    expect(sites[0]!.reason).toBe(helper);
    expect(sites[1]!.reason).toBe(`the handler is left as it is for another of its requests, at line 7: ${helper}`);
  });
});
