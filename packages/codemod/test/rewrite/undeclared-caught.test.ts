/**
 * Which migrated requests fail, for a 2025-era client that did not declare the capability, where
 * the legacy request failed, into a catch that does not read the error (engine/rewrite/fail-open.ts
 * undeclaredFailsIntoCatch, the sites' `undeclaredCaught`): the test-mock stage drives a test's
 * failing mock of such a request as that client (shim-answered-calls.ts). The capability check
 * throws where the request was; the catch around the helper call takes it like the legacy failure.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/report/json.js';
import { migrateTempProject, removeTempProjects } from '../temp-project.js';

const HELPER = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function summarize(server: McpServer, text: string): Promise<string> {
  const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize: \${text}\` } }], maxTokens: 80 });
  return reply.content.type === 'text' ? reply.content.text : '';
}
`;

function serverWith(body: string): string {
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { summarize } from './summarize.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('save', { description: 'Save a note', inputSchema: { text: z.string() } }, async ({ text }) => {
    let summary = '';
${body}
    return { content: [{ type: 'text', text: summary ? \`\${text} (\${summary})\` : text }] };
  });
  return server;
}
`;
}

afterAll(removeTempProjects);

async function siteOf(name: string, body: string): Promise<{ status: string; reason?: string; undeclaredCaught?: true }> {
  const project = await migrateTempProject(name, { 'src/summarize.ts': HELPER, 'src/server.ts': serverWith(body) });
  return project.file('summarize.ts')!.sites.find((s) => s.method === 'sampling/createMessage')!;
}

describe('a migrated request that fails into the catch of its failure for a client not declaring its capability', () => {
  it.each([
    [
      'a round resumed inside a block after an effect (the effect runs first in its block, the ask keeps its place)',
      "    if (text.length > 0) {\n      await server.server.sendLoggingMessage({ level: 'info', data: text });\n      try {\n        summary = await summarize(server, text);\n      } catch {\n        // no summary\n      }\n    }",
    ],
    ['a catch without a binding', '    try {\n      summary = await summarize(server, text);\n    } catch {\n      // no summary\n    }'],
    ['a catch whose binding it never reads', '    try {\n      summary = await summarize(server, text);\n    } catch (error) {\n      summary = \'\';\n    }'],
  ])('%s around the helper call: set', async (_, body) => {
    const site = await siteOf('undeclared-caught', body);
    expect(site.status, JSON.stringify(site)).toBe('migrated');
    expect(site.undeclaredCaught).toBe(true);
    if (body.includes('sendLoggingMessage')) expect(site.reason).toMatch(/^one round resumed inside the block at line 9/);
  });

  it.each([
    ['no catch on the way (the error fails the call, with another message than the failure had)', '    summary = await summarize(server, text);'],
    ['a catch reading the error (it would see the capability error, not the failure)', '    try {\n      summary = await summarize(server, text);\n    } catch (error) {\n      summary = String(error);\n    }'],
    ['a catch destructuring the error', '    try {\n      summary = await summarize(server, text);\n    } catch ({ message }) {\n      summary = \'\';\n    }'],
    [
      'an effect before it (the phase form, which splits the handler at the ask: only the write-once form keeps every statement where it was)',
      "    await server.server.sendLoggingMessage({ level: 'info', data: text });\n    try {\n      summary = await summarize(server, text);\n    } catch {\n      // no summary\n    }",
    ],
  ])('%s: not set', async (_, body) => {
    const site = await siteOf('undeclared-uncaught', body);
    expect(site.status, JSON.stringify(site)).toBe('migrated');
    expect(site.undeclaredCaught).toBeUndefined();
  });

  it('a helper also called by another tool without a catch: not set (every handler reaching it must fail into one)', async () => {
    // the tool without the catch registered first: the decision of the last handler alone would say set
    const twoTools = serverWith('    try {\n      summary = await summarize(server, text);\n    } catch {\n      // no summary\n    }').replace(
      "  const server = new McpServer({ name: 'notes', version: '1.0.0' });\n",
      "  const server = new McpServer({ name: 'notes', version: '1.0.0' });\n  server.registerTool('title', { description: 'Title a note', inputSchema: { text: z.string() } }, async ({ text }) => {\n    const title = await summarize(server, text);\n    return { content: [{ type: 'text', text: title }] };\n  });\n",
    );
    expect(twoTools).toContain("registerTool('title'");
    const project = await migrateTempProject('undeclared-two-tools', { 'src/summarize.ts': HELPER, 'src/server.ts': twoTools });
    const site = project.file('summarize.ts')!.sites.find((s) => s.method === 'sampling/createMessage')!;
    expect(site.status).toBe('migrated');
    expect(site.undeclaredCaught).toBeUndefined();
  });

  it('a helper called twice in one handler, once outside the catch: not set (every point asking it must)', async () => {
    // the point in the catch first: the first point alone would say set
    const site = await siteOf('undeclared-two-points', "    if (text.length > 100) {\n      try {\n        summary = await summarize(server, text);\n      } catch {\n        // no summary\n      }\n    } else {\n      summary = await summarize(server, text);\n    }");
    expect(site.status).toBe('migrated');
    expect(site.undeclaredCaught).toBeUndefined();
  });

  it('is not in the JSON report', async () => {
    const project = await migrateTempProject('undeclared-caught-json', { 'src/summarize.ts': HELPER, 'src/server.ts': serverWith('    try {\n      summary = await summarize(server, text);\n    } catch {\n      // no summary\n    }') });
    expect(project.file('summarize.ts')!.sites[0]!.undeclaredCaught).toBe(true);
    expect(JSON.stringify(toJsonReport(project.result, { cwd: project.dir, command: 'migrate' }))).not.toContain('undeclaredCaught');
  });
});
