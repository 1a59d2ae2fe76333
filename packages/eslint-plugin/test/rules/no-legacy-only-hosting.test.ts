import rule from '../../src/rules/no-legacy-only-hosting.js';
import { asJs, ruleTester, testable } from '../helpers/safety-rule-tester.js';

const STDIO_V1 = `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\n`;
const STDIO_V2 = `import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\n`;
const NODE_HTTP = `import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';\n`;
const SSE = `import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';\n`;

ruleTester.run('no-legacy-only-hosting', testable(rule), {
  valid: [
    // the 2026-07-28 serving entries
    `import { serveStdio } from '@modelcontextprotocol/server/stdio';\nserveStdio(createServer);`,
    `import { createMcpHandler } from '@modelcontextprotocol/server';\nimport { toNodeHandler } from '@modelcontextprotocol/node';\nconst h = toNodeHandler(createMcpHandler(createServer));\napp.post('/mcp', (req, res) => h(req, res, req.body));`,
    // look-alikes: another library's transport, a database connect, a client transport
    `import { StdioServerTransport } from './my-transports.js';\nawait server.connect(new StdioServerTransport());`,
    `import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';\nawait client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));`,
    `await db.connect(new Pool());`,
    `import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\ndeclare const t: StdioServerTransport;\nawait server.connect(t);`,
    // a local binding that shadows the import is not the MCP transport
    STDIO_V2 + `export function attach(server, StdioServerTransport) { return server.connect(new StdioServerTransport()); }`,
    // a transport handed in from elsewhere is not followed
    STDIO_V2 + `export async function attach(server, transport) { await server.connect(transport); }`,
    // the documented composition: 2026 requests first, the session wiring kept for 2025-era clients
    NODE_HTTP +
      `import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';\napp.post('/mcp', async (req, res) => {\n  if (!(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) return modern(req, res, req.body);\n  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });\n  await createServer().connect(transport);\n  await transport.handleRequest(req, res, req.body);\n});`,
  ],
  invalid: [
    { code: STDIO_V1 + `await server.connect(new StdioServerTransport());`, errors: [{ messageId: 'stdioHosting', line: 2 }] },
    { code: STDIO_V2 + `const transport = new StdioServerTransport();\nawait createServer().connect(transport);`, errors: [{ messageId: 'stdioHosting', line: 3 }] },
    {
      code: NODE_HTTP + `app.post('/mcp', async (req, res) => {\n  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });\n  await getServer().connect(transport);\n  await transport.handleRequest(req, res, req.body);\n});`,
      errors: [{ messageId: 'httpHosting', line: 4, data: { transport: 'NodeStreamableHTTPServerTransport' } }],
    },
    // assigned later (`let t; t = new X()`), aliased import
    {
      code: `import { StreamableHTTPServerTransport as Http } from '@modelcontextprotocol/sdk/server/streamableHttp.js';\nlet t;\nt = new Http({ sessionIdGenerator: undefined });\nawait this.server.connect(t);`,
      errors: [{ messageId: 'httpHosting', line: 4, data: { transport: 'Http' } }],
    },
    { code: SSE + `app.get('/sse', async (req, res) => { await server.connect(new SSEServerTransport('/messages', res)); });`, errors: [{ messageId: 'sseHosting', line: 2 }] },
    // stdio is reported even next to an isLegacyRequest composition
    {
      code: STDIO_V2 + `import { isLegacyRequest } from '@modelcontextprotocol/server';\nvoid isLegacyRequest;\nawait server.connect(new StdioServerTransport());`,
      errors: [{ messageId: 'stdioHosting', line: 4 }],
    },
    // a namespace import
    {
      code: `import * as stdio from '@modelcontextprotocol/server/stdio';\nawait server.connect(new stdio.StdioServerTransport());`,
      errors: [{ messageId: 'stdioHosting', line: 2 }],
    },
    // the module required whole, the class read as a member
    asJs({
      code: `const sse = require('@modelcontextprotocol/sdk/server/sse.js');\napp.get('/sse', (req, res) => server.connect(new sse.SSEServerTransport('/messages', res)));`,
      errors: [{ messageId: 'sseHosting', line: 2, data: { transport: 'sse.SSEServerTransport' } }],
    }),
    asJs({
      code: `const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');\nserver.connect(new StdioServerTransport()).catch(console.error);`,
      errors: [{ messageId: 'stdioHosting', line: 2 }],
    }),
  ],
});
