/**
 * What a legacy unit test's mock meets once the server under test is migrated: the measurements
 * that decide which mocks the codemod rewrites (see src/engine/test-mocks/client-answer.ts). Real
 * SDK 2.4.0 packages, servers migrated by the engine (fixtures/cases/*.output.ts), the test shapes
 * a v1 suite has after the official upgrade (a 2025-era `@modelcontextprotocol/client` Client over
 * InMemoryTransport, spies on `server.server.<method>`), and a client pinned to 2026-07-28.
 * If the SDK changes any of this, these tests say so before the rewrite goes wrong.
 */
import { describe, expect, it, vi } from 'vitest';
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';

type ServerModule = { createServer(): McpServer };
const load = (name: string) => import(new URL(`../../../../fixtures/cases/${name}.output.ts`, import.meta.url).href) as Promise<ServerModule>;

const ELICIT = { tool: 'delete_file', args: { path: '/tmp/r.txt' }, answer: { action: 'accept' as const, content: { confirm: true } }, done: 'Deleted /tmp/r.txt' };
const SAMPLE = { tool: 'summarize_changelog', args: { notes: 'fixed bugs' }, answer: { model: 'm1', role: 'assistant' as const, content: { type: 'text' as const, text: 'short' } } };
const ROOTS = { tool: 'locate_path', args: { path: '/work/a.ts' }, answer: { roots: [{ uri: 'file:///work', name: 'work' }] } };

async function legacyConnect(server: McpServer, capabilities: ClientCapabilities, register?: (client: Client) => void): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'legacy-test', version: '1.0.0' }, { capabilities });
  register?.(client);
  await client.connect(clientTransport);
  return client;
}

const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? [])[0]?.text;

describe('a legacy spy against the migrated server (2025-era client, as the official upgrade leaves the test)', () => {
  it('the test client declared nothing (the spy made it unnecessary): the call fails and the spy is never called', async () => {
    const server = (await load('behaviour-elicit-basic')).createServer();
    const spy = vi.spyOn(server.server, 'elicitInput').mockResolvedValue(ELICIT.answer);
    const client = await legacyConnect(server, {});
    const result = await client.callTool({ name: ELICIT.tool, arguments: ELICIT.args });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/does not support form elicitation/);
    expect(spy).not.toHaveBeenCalled();
  });

  it('with the capabilities declared, the legacy shim bypasses elicitInput but still calls createMessage and listRoots', async () => {
    const elicitServer = (await load('behaviour-elicit-basic')).createServer();
    const elicitSpy = vi.spyOn(elicitServer.server, 'elicitInput').mockResolvedValue(ELICIT.answer);
    const elicitClient = await legacyConnect(elicitServer, { elicitation: {} });
    const elicitResult = await elicitClient.callTool({ name: ELICIT.tool, arguments: ELICIT.args });
    expect(elicitSpy).not.toHaveBeenCalled();
    expect(elicitResult.isError).toBe(true);
    expect(text(elicitResult)).toMatch(/Method not found/);

    const sampleServer = (await load('sampling-summarize')).createServer();
    const sampleSpy = vi.spyOn(sampleServer.server, 'createMessage').mockResolvedValue(SAMPLE.answer);
    const sampleClient = await legacyConnect(sampleServer, { sampling: {} });
    expect(text(await sampleClient.callTool({ name: SAMPLE.tool, arguments: SAMPLE.args }))).toContain('short');
    expect(sampleSpy).toHaveBeenCalledTimes(1);

    const rootsServer = (await load('roots-scan')).createServer();
    const rootsSpy = vi.spyOn(rootsServer.server, 'listRoots').mockResolvedValue(ROOTS.answer);
    const rootsClient = await legacyConnect(rootsServer, { roots: {} });
    expect(text(await rootsClient.callTool({ name: ROOTS.tool, arguments: ROOTS.args }))).toBe('/work/a.ts is in work');
    expect(rootsSpy).toHaveBeenCalledTimes(1);
  });

  it('an answer handler on the client that declares the capability (the rewrite) answers each question once, for all three kinds', async () => {
    const cases = [
      { module: 'behaviour-elicit-basic', method: 'elicitation/create' as const, capabilities: { elicitation: { form: {}, url: {} } }, c: ELICIT, expected: ELICIT.done },
      { module: 'sampling-summarize', method: 'sampling/createMessage' as const, capabilities: { sampling: {} }, c: SAMPLE, expected: 'short\n\n(model: m1)' },
      { module: 'roots-scan', method: 'roots/list' as const, capabilities: { roots: {} }, c: ROOTS, expected: '/work/a.ts is in work' },
    ];
    for (const { module, method, capabilities, c, expected } of cases) {
      const answer = vi.fn().mockResolvedValue(c.answer);
      const client = await legacyConnect((await load(module)).createServer(), capabilities, (cl) => cl.setRequestHandler(method, (request) => answer(request.params)));
      expect(text(await client.callTool({ name: c.tool, arguments: c.args })), module).toBe(expected);
      expect(answer, module).toHaveBeenCalledTimes(1);
    }
  });
});

describe('a 2026-07-28 client against the migrated server', () => {
  it('never reaches a server-side spy; without a client handler the round cannot be answered', async () => {
    const { createServer } = await load('behaviour-elicit-basic');
    const spies: unknown[] = [];
    const handler = createMcpHandler(() => {
      const server = createServer();
      spies.push(vi.spyOn(server.server, 'elicitInput').mockResolvedValue(ELICIT.answer));
      return server;
    });
    const client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: (u, i) => handler.fetch(new Request(u, i)) }));
    await expect(client.callTool({ name: ELICIT.tool, arguments: ELICIT.args })).rejects.toThrow(/no handler is registered for 'elicitation\/create'/);
    expect(spies.length).toBeGreaterThan(0);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
