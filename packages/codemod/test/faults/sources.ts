/** Small legacy servers and ordinary code used to build fault trees. */

/** A v1 server with one tool that asks once, the simplest migratable shape. */
export function legacyServer(tool: string, nl = '\n'): string {
  return [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { z } from 'zod';",
    '',
    'export function createServer(): McpServer {',
    `  const server = new McpServer({ name: '${tool}', version: '1.0.0' });`,
    `  server.registerTool('${tool}', { inputSchema: { topic: z.string() } }, async ({ topic }) => {`,
    '    const user_name = await server.server.elicitInput({',
    '      message: `Name for ${topic}?`,',
    "      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },",
    '    });',
    "    if (user_name.action !== 'accept') return { content: [{ type: 'text', text: 'no name' }] };",
    "    return { content: [{ type: 'text', text: `hello ${String(user_name.content?.name)}` }] };",
    '  });',
    '  return server;',
    '}',
    '',
  ].join(nl);
}

/** The same server in plain JS (for shebang / .mjs / JSX variants). */
export function legacyServerJs(tool: string): string {
  return legacyServer(tool)
    .replace('export function createServer(): McpServer {', 'export function createServer() {')
    .replace("import { z } from 'zod';", "import { z } from 'zod';");
}

/** Ordinary TypeScript with no MCP in it, about `bytes` long. */
export function ordinaryCode(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const chunk = `export function compute${i}(values: number[]): number {\n  let total = ${i};\n  for (const v of values) total += v * ${i % 7};\n  return total > ${i * 3} ? total : -total;\n}\n\n`;
    parts.push(chunk);
    size += chunk.length;
  }
  return parts.join('');
}
