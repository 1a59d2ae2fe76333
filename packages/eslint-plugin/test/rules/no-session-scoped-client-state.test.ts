import rule from '../../src/rules/no-session-scoped-client-state.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable, typedRuleTester } from '../helpers/safety-rule-tester.js';

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst mcp = new McpServer({ name: 'x', version: '1' });\n`;

ruleTester.run('no-session-scoped-client-state', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    // capabilities read once the session is initialised: not a per-request handler
    V1 + `mcp.server.oninitialized = () => { log(mcp.server.getClientCapabilities()); };`,
    // session maps that hold server-side data (transports, counters) are fine
    `const transports = new Map();\ntransports.set(transport.sessionId, transport);\nsessions[extra.sessionId] = { startedAt: Date.now() };`,
    // look-alike: a web app's session store of its own form answers
    `app.post('/form', (req, res) => { store.set(req.sessionID, req.body.answer); });`,
    // answers kept per request, not per session
    V1 + `mcp.registerTool('t', {}, async (args, extra) => { const r = await mcp.server.listRoots(); const byRequest = new Map(); byRequest.set(extra.requestId, r); return { content: [] }; });`,
    asJs({ code: `const caps = server.getClientCapabilities(); module.exports = caps;` }),
    // the codemod's read: per-request envelope first, session-scoped fallback only for 2025-era clients
    V1 + `import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';\nmcp.registerTool('t', {}, async (args, ctx) => {\n  const caps = ((ctx.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? mcp.server.getClientCapabilities());\n  return { content: [{ type: 'text', text: String(!!caps?.elicitation) }] };\n});`,
  ],
  invalid: [
    {
      // a fallback whose left side is not the request envelope is still a session-scoped read
      code: V1 + `mcp.registerTool('t', {}, async (args, extra) => {\n  const caps = cached ?? mcp.server.getClientCapabilities();\n  return { content: [] };\n});`,
      errors: [{ messageId: 'capabilitiesInHandler', line: 4 }],
    },
    {
      code: V1 + `mcp.registerTool('t', {}, async (args, extra) => {\n  if (!mcp.server.getClientCapabilities()?.elicitation) return { content: [] };\n  return { content: [] };\n});`,
      errors: [{ messageId: 'capabilitiesInHandler', line: 4 }],
    },
    {
      // low-level handler and a same-file helper reached from it
      code: `server.setRequestHandler(CallToolRequestSchema, async (req, extra) => check());\nfunction check() { return server.getClientCapabilities()?.sampling !== undefined; }`,
      errors: [{ messageId: 'capabilitiesInHandler', line: 2 }],
    },
    {
      // answers cached per session: legacy request results, inputResponse, capabilities
      code: V1 + `const rootsBySession = new Map();\nmcp.registerTool('t', {}, async (args, extra) => {\n  const roots = await mcp.server.listRoots();\n  rootsBySession.set(extra.sessionId, roots.roots);\n  return { content: [] };\n});`,
      errors: [{ messageId: 'sessionKeyedAnswer', line: 6, data: { key: 'extra.sessionId' } }],
    },
    {
      code: `import { inputResponse } from '@modelcontextprotocol/server';\nconst answers: Record<string, unknown> = {};\nserver.registerTool('t', {}, async (args, ctx) => {\n  const key = \`\${ctx.sessionId}:name\`;\n  answers[key] = inputResponse(ctx.mcpReq.inputResponses, 'name');\n  return { content: [] };\n});`,
      errors: [{ messageId: 'sessionKeyedAnswer', line: 5, data: { key: 'ctx.sessionId' } }],
    },
    asJs({
      code: `const caps = new Map();\nserver.setRequestHandler(ListToolsRequestSchema, async (req, extra) => {\n  caps.set(extra.sessionId, server.getClientCapabilities());\n  return { tools: [] };\n});`,
      errors: [{ messageId: 'sessionKeyedAnswer', line: 3 }],
    }),
  ],
});

// With type information the receiver must be an MCP server: another library's getClientCapabilities is left alone.
typedRuleTester.run('no-session-scoped-client-state (type-aware)', testable(rule), {
  valid: [
    V1 + `interface BrowserInfo { getClientCapabilities(): { webgl: boolean } }\ndeclare const browser: BrowserInfo;\nmcp.registerTool('t', {}, async () => ({ content: [{ type: 'text' as const, text: String(browser.getClientCapabilities().webgl) }] }));`,
  ],
  invalid: [
    {
      code: V1 + `mcp.registerTool('t', {}, async () => ({ content: [{ type: 'text' as const, text: String(mcp.server.getClientCapabilities()?.sampling) }] }));`,
      errors: [{ messageId: 'capabilitiesInHandler', line: 3 }],
    },
  ],
});
