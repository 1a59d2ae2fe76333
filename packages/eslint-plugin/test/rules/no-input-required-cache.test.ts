import rule from '../../src/rules/no-input-required-cache.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable } from '../helpers/safety-rule-tester.js';

const V2 = `import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 'x', version: '1' });\n`;
const ASK = `inputRequired({ inputRequests: { who: inputRequired.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: {} } }) } })`;

ruleTester.run('no-input-required-cache', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    // cache hints on a resource that never uses MRTR are fine
    V2 + `server.registerResource('static', 'res://s', { cacheHint: { ttlMs: 60000, cacheScope: 'public' } }, async (uri) => ({ contents: [], ttlMs: 60000 }));`,
    // an MRTR resource that explicitly caches nothing
    V2 + `server.registerResource('r', 'res://r', { cacheHint: { ttlMs: 0, cacheScope: 'private' } }, async (uri, ctx) => {\n  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');\n  if (who.kind === 'missing') return ${ASK};\n  return { contents: [], ttlMs: 0 };\n});`,
    // look-alikes: ordinary objects with ttl, an HTTP cache, server-wide hints without MRTR resources
    `const entry = { ttl: 60, maxAge: 10, value }; cache.set(key, entry);`,
    `res.set({ cacheControl: 'max-age=60' });`,
    V2 + `const s2 = new McpServer(info, { cacheHints: { 'resources/read': { ttlMs: 1000 } } });\ns2.registerTool('t', {}, async (a, ctx) => ${ASK});`,
    asJs({ code: `const r = { resultType: 'complete', ttlMs: 100, content: [] }; const inputRequired = 1;` }),
  ],
  invalid: [
    {
      code: V2 + `server.registerTool('t', {}, async (a, ctx) => inputRequired({ inputRequests: {}, requestState: 's', ttlMs: 30000, _meta: { cacheControl: 'max-age=60' } }));`,
      errors: [
        {
          messageId: 'cacheOnInputRequired',
          data: { name: 'ttlMs' },
          suggestions: [{ messageId: 'removeHint', output: V2 + `server.registerTool('t', {}, async (a, ctx) => inputRequired({ inputRequests: {}, requestState: 's', _meta: { cacheControl: 'max-age=60' } }));` }],
        },
        {
          messageId: 'cacheOnInputRequired',
          data: { name: 'cacheControl' },
          suggestions: [{ messageId: 'removeHint', output: V2 + `server.registerTool('t', {}, async (a, ctx) => inputRequired({ inputRequests: {}, requestState: 's', ttlMs: 30000, _meta: {  } }));` }],
        },
      ],
    },
    {
      // hand-built input_required result and a spread of inputRequired(...) with a hint added
      code: `return { resultType: 'input_required', inputRequests: {}, maxAge: 0 };\nconst r = { ...inputRequired({ requestState: s }), cacheScope: 'public' };`,
      errors: [
        { messageId: 'cacheOnInputRequired', line: 1, data: { name: 'maxAge' }, suggestions: [{ messageId: 'removeHint', output: `return { resultType: 'input_required', inputRequests: {} };\nconst r = { ...inputRequired({ requestState: s }), cacheScope: 'public' };` }] },
        { messageId: 'cacheOnInputRequired', line: 2, data: { name: 'cacheScope' }, suggestions: [{ messageId: 'removeHint', output: `return { resultType: 'input_required', inputRequests: {}, maxAge: 0 };\nconst r = { ...inputRequired({ requestState: s }) };` }] },
      ],
    },
    {
      // an MRTR resource with a registration cache hint and a cached completed result
      code: V2 + `server.registerResource('r', 'res://r', { mimeType: 'text/plain', cacheHint: { ttlMs: 60000 } }, async (uri, ctx) => {\n  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');\n  if (who.kind === 'missing') return ${ASK};\n  return { contents: [{ uri: uri.href, text: 'hi' }], ttlMs: 5000, cacheScope: 'public' };\n});`,
      errors: [
        { messageId: 'cacheOnMrtrResource', line: 3, data: { name: 'cacheHint' }, suggestions: [{ messageId: 'removeHint', output: V2 + `server.registerResource('r', 'res://r', { mimeType: 'text/plain' }, async (uri, ctx) => {\n  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');\n  if (who.kind === 'missing') return ${ASK};\n  return { contents: [{ uri: uri.href, text: 'hi' }], ttlMs: 5000, cacheScope: 'public' };\n});` }] },
        { messageId: 'cacheOnRetriedResult', line: 6, data: { name: 'ttlMs' }, suggestions: [{ messageId: 'removeHint', output: V2 + `server.registerResource('r', 'res://r', { mimeType: 'text/plain', cacheHint: { ttlMs: 60000 } }, async (uri, ctx) => {\n  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');\n  if (who.kind === 'missing') return ${ASK};\n  return { contents: [{ uri: uri.href, text: 'hi' }], cacheScope: 'public' };\n});` }] },
        { messageId: 'cacheOnRetriedResult', line: 6, data: { name: 'cacheScope' }, suggestions: [{ messageId: 'removeHint', output: V2 + `server.registerResource('r', 'res://r', { mimeType: 'text/plain', cacheHint: { ttlMs: 60000 } }, async (uri, ctx) => {\n  const who = inputResponse(ctx.mcpReq.inputResponses, 'who');\n  if (who.kind === 'missing') return ${ASK};\n  return { contents: [{ uri: uri.href, text: 'hi' }], ttlMs: 5000 };\n});` }] },
      ],
    },
    {
      // low-level resources/read handler reading requestState, server-wide hints
      code: `const server = new Server(info, { cacheHints: { 'resources/read': { ttlMs: 10000 } } });\nserver.setRequestHandler('resources/read', async (req, ctx) => {\n  const st = ctx.mcpReq.requestState();\n  return { contents: [], ttlMs: 1 };\n});`,
      errors: [
        { messageId: 'serverCacheHints', line: 1 },
        { messageId: 'cacheOnRetriedResult', line: 4, data: { name: 'ttlMs' }, suggestions: [{ messageId: 'removeHint', output: `const server = new Server(info, { cacheHints: { 'resources/read': { ttlMs: 10000 } } });\nserver.setRequestHandler('resources/read', async (req, ctx) => {\n  const st = ctx.mcpReq.requestState();\n  return { contents: [] };\n});` }] },
      ],
    },
    asJs({
      code: `const { inputRequired } = require('@modelcontextprotocol/server');\nasync function read(uri, ctx) { if (!ctx.mcpReq.inputResponses) return inputRequired({ inputRequests: {} }); return { contents: [] }; }\nserver.resource('r', 'res://r', { cache: 'public, max-age=3600' }, read);`,
      errors: [{ messageId: 'cacheOnMrtrResource', line: 3, data: { name: 'cache' }, suggestions: [{ messageId: 'removeHint', output: `const { inputRequired } = require('@modelcontextprotocol/server');\nasync function read(uri, ctx) { if (!ctx.mcpReq.inputResponses) return inputRequired({ inputRequests: {} }); return { contents: [] }; }\nserver.resource('r', 'res://r', {  }, read);` }] }],
    }),
  ],
});
