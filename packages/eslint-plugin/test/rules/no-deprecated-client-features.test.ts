import rule from '../../src/rules/no-deprecated-client-features.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable } from '../helpers/safety-rule-tester.js';

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst mcp = new McpServer({ name: 'x', version: '1' });\n`;
const V2 = `import { inputRequired } from '@modelcontextprotocol/server';\n`;

ruleTester.run('no-deprecated-client-features', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    // look-alikes: a chat library's createMessage, a file API's listRoots, includeContext of another library
    `const chat = new ChatClient(); await chat.createMessage({ text: 'hi', channel: 'general' });`,
    `const fsTree = openTree(); const roots = fsTree.listRoots();`,
    `const opts = { includeContext: 'full' }; search(opts);`,
    // client side answering sampling is the client's business
    `client.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: '' } }));`,
    V2 + `inputRequired.createMessage; // a reference in a comment-like position is not a request\nconst ok = inputRequired.elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } });`,
    // strings in logs
    `logger.info('sampling/createMessage is deprecated; roots/list too');`,
    asJs({ code: `const tree = require('./tree'); tree.listRoots();` }),
    // the SDK's own implementation of these features (library internals, not a server's requests)
    `class Server { listRoots(params) { return this.request({ method: 'roots/list', params }, ListRootsResultSchema); }\n  notifyDone(elicitationId) { return this.notification({ method: 'notifications/elicitation/complete', params: { elicitationId } }); } }`,
    `const ElicitRequestURLParamsSchema = z.object({ mode: z.literal('url'), message: z.string(), elicitationId: z.string(), url: z.string() });`,
    `const ping = { method: 'roots/list' }; transportLog.push(ping);`,
  ],
  invalid: [
    {
      code: V1 + `mcp.registerTool('t', {}, async () => {\n  const r = await mcp.server.createMessage({ messages: [], maxTokens: 10, includeContext: 'thisServer' });\n  const roots = await mcp.server.listRoots();\n  return { content: [] };\n});`,
      errors: [
        { messageId: 'deprecatedSampling', line: 4 },
        {
          messageId: 'deprecatedIncludeContext',
          line: 4,
          data: { value: 'thisServer' },
          suggestions: [
            {
              messageId: 'useIncludeContextNone',
              output: V1 + `mcp.registerTool('t', {}, async () => {\n  const r = await mcp.server.createMessage({ messages: [], maxTokens: 10, includeContext: 'none' });\n  const roots = await mcp.server.listRoots();\n  return { content: [] };\n});`,
            },
          ],
        },
        { messageId: 'deprecatedRoots', line: 5 },
      ],
    },
    {
      // sendRequest with the raw methods and v2 push style
      code: `server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {\n  await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);\n  await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });\n});`,
      errors: [
        { messageId: 'deprecatedRoots', line: 2 },
        { messageId: 'deprecatedSampling', line: 3 },
      ],
    },
    // the builders through a namespace import
    {
      code: `import * as mcp from '@modelcontextprotocol/server';\nexport const asks = { s: mcp.inputRequired.createMessage({ messages: [], maxTokens: 1 }), r: mcp.inputRequired.listRoots() };`,
      errors: [{ messageId: 'deprecatedSampling' }, { messageId: 'deprecatedRoots' }],
    },
    {
      // MRTR forms are still deprecated, and a hand-built inputRequests entry too
      code: V2 + `return inputRequired({ inputRequests: { s: inputRequired.createMessage({ messages: [], maxTokens: 1, includeContext: 'allServers' }), r: inputRequired.listRoots(), x: { method: 'roots/list' } } });`,
      errors: [
        { messageId: 'deprecatedSampling' },
        { messageId: 'deprecatedIncludeContext', data: { value: 'allServers' }, suggestions: [{ messageId: 'useIncludeContextNone', output: V2 + `return inputRequired({ inputRequests: { s: inputRequired.createMessage({ messages: [], maxTokens: 1, includeContext: 'none' }), r: inputRequired.listRoots(), x: { method: 'roots/list' } } });` }] },
        { messageId: 'deprecatedRoots' },
        { messageId: 'deprecatedRoots' },
      ],
    },
    {
      code: `await mcp.server.elicitInput({ mode: 'url', message: 'Sign in', url, elicitationId: id });\nawait server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: id } });`,
      errors: [
        { messageId: 'elicitationId', line: 1, suggestions: [{ messageId: 'removeElicitationId', output: `await mcp.server.elicitInput({ mode: 'url', message: 'Sign in', url });\nawait server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: id } });` }] },
        { messageId: 'elicitationComplete', line: 2 },
        { messageId: 'elicitationId', line: 2, suggestions: [{ messageId: 'removeElicitationId', output: `await mcp.server.elicitInput({ mode: 'url', message: 'Sign in', url, elicitationId: id });\nawait server.notification({ method: 'notifications/elicitation/complete', params: {  } });` }] },
      ],
    },
    {
      code: `import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';\nserver.setNotificationHandler(RootsListChangedNotificationSchema, async () => { cache.clear(); });\nv2.setNotificationHandler('notifications/roots/list_changed', () => {});`,
      errors: [{ messageId: 'rootsListChanged', line: 2 }, { messageId: 'rootsListChanged', line: 3 }],
    },
    asJs({
      code: `throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Pay', url, elicitationId }]);`,
      errors: [{ messageId: 'elicitationId', suggestions: [{ messageId: 'removeElicitationId', output: `throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Pay', url }]);` }] }],
    }),
    asJs({
      code: `const { inputRequired: ir } = require('@modelcontextprotocol/server');\nasync function ask(server) { return server.listRoots(); }\nmodule.exports = { ask };`,
      errors: [{ messageId: 'deprecatedRoots', line: 2 }],
    }),
  ],
});
