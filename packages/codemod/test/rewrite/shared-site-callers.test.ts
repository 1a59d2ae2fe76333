/**
 * A handler reaching two requests that module-level code also runs: both are flagged, and the
 * handler's entry under each request names that request's line (not the first one it failed on).
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../../src/index.js';

const SOURCE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const server = new McpServer({ name: 'prefs', version: '1.0.0' });

class Preferences {
  async askName(): Promise<string> {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
  }

  async askColour(): Promise<string> {
    const answer = await server.server.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.colour) : 'grey';
  }
}

const preferences = new Preferences();

server.registerTool('profile', { description: 'Builds a profile' }, async () => {
  const name = await preferences.askName();
  const colour = await preferences.askColour();
  return { content: [{ type: 'text', text: \`\${name} likes \${colour}\` }] };
});

await preferences.askName();
await preferences.askColour();
`;

describe('callers of requests that module-level code also runs', () => {
  it("names each request's own line in the handler's entry", async () => {
    const result = await migrateSource(SOURCE, 'prefs.ts');
    const sites = result.sites.filter((s) => s.method === 'elicitation/create');
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [7, 'flagged'],
      [12, 'flagged'],
    ]);
    expect(sites.map((s) => s.callers?.find((c) => c.caller === 'tools/call handler `profile`')?.reason)).toEqual([
      'the request at line 7 is in code also run from module-level code (module-scope), so it cannot be rewritten for this handler alone',
      'the request at line 12 is in code also run from module-level code (module-scope), so it cannot be rewritten for this handler alone',
    ]);
  });
});
