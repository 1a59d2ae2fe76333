import rule from '../../src/rules/require-request-state-binding.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable, typedRuleTester } from '../helpers/safety-rule-tester.js';

const IMPORT = `import { createRequestStateCodec } from '@modelcontextprotocol/server';\n`;

ruleTester.run('require-request-state-binding', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    IMPORT + `const codec = createRequestStateCodec({ key: process.env.MCP_REQUEST_STATE_KEY!, bind: (ctx) => ctx.mcpReq.method });`,
    IMPORT + `const opts = { key: loadKey(), bind: (ctx: any) => String(ctx.mcpReq.method) };\nconst codec = createRequestStateCodec(opts);`,
    // options built elsewhere (spread): cannot tell, no report
    IMPORT + `const codec = createRequestStateCodec({ ...baseOptions, key: config.stateKey });`,
    // look-alikes: other codecs, random keys outside a requestState codec
    `const codec = createCodec({ key: 'abc' }); const id = randomUUID();`,
    `const key = randomBytes(32); const cipher = createCipheriv('aes-256-gcm', key, iv);`,
    asJs({ code: IMPORT + `export const codec = createRequestStateCodec({ key: process.env.K, ttlSeconds: 60, bind: (ctx) => ctx.mcpReq.method });` }),
  ],
  invalid: [
    {
      code: IMPORT + `const codec = createRequestStateCodec({ key: process.env.MCP_REQUEST_STATE_KEY!, ttlSeconds: 600 });`,
      errors: [
        {
          messageId: 'missingBind',
          suggestions: [
            {
              messageId: 'addBind',
              output: IMPORT + `const codec = createRequestStateCodec({ key: process.env.MCP_REQUEST_STATE_KEY!, ttlSeconds: 600, bind: (ctx) => ctx.mcpReq.method });`,
            },
          ],
        },
      ],
    },
    {
      code: IMPORT + `const codec = createRequestStateCodec({ key: 'a-very-long-development-secret-key-0123456789', bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'literalKey', line: 2 }],
    },
    {
      code: IMPORT + "const KEY = `hard-coded-${'x'.repeat(0)}`;\nconst codec = createRequestStateCodec({ key: Buffer.from('0123456789abcdef0123456789abcdef'), bind: (c) => c.mcpReq.method });",
      errors: [{ messageId: 'literalKey', line: 3 }],
    },
    {
      code: IMPORT + `const STATE_KEY = 'dev-key-dev-key-dev-key-dev-key-dev';\nconst codec = createRequestStateCodec({ key: STATE_KEY, bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'literalKey', line: 3 }],
    },
    {
      code: IMPORT + `const codec = createRequestStateCodec({ key: process.env.MCP_REQUEST_STATE_KEY ?? 'fallback-key-fallback-key-fallback', bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'literalFallbackKey', line: 2 }],
    },
    {
      code: `import { randomBytes } from 'node:crypto';\n` + IMPORT + `const codec = createRequestStateCodec({ key: randomBytes(32), bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'randomKey', data: { fn: 'randomBytes', env: 'MCP_REQUEST_STATE_KEY' } }],
    },
    {
      code: IMPORT + `const secret = crypto.getRandomValues(new Uint8Array(32));\nconst key = process.env.KEY ? Buffer.from(process.env.KEY) : secret;\nexport const codec = createRequestStateCodec({ key, bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'randomKey', data: { fn: 'getRandomValues', env: 'MCP_REQUEST_STATE_KEY' } }],
    },
    {
      // aliased import, no bind and a random UUID key: both reported
      code: `import { createRequestStateCodec as codecFor } from '@modelcontextprotocol/server';\nimport { randomUUID } from 'node:crypto';\nconst c = codecFor({ key: randomUUID() + randomUUID() });`,
      errors: [
        { messageId: 'missingBind', suggestions: [{ messageId: 'addBind', output: `import { createRequestStateCodec as codecFor } from '@modelcontextprotocol/server';\nimport { randomUUID } from 'node:crypto';\nconst c = codecFor({ key: randomUUID() + randomUUID(), bind: (ctx) => ctx.mcpReq.method });` }] },
        { messageId: 'randomKey', data: { fn: 'randomUUID', env: 'MCP_REQUEST_STATE_KEY' } },
      ],
    },
    asJs({
      code: `const { createRequestStateCodec } = require('@modelcontextprotocol/server');\nconst codec = createRequestStateCodec({ key: require('crypto').randomBytes(32) });`,
      errors: [
        { messageId: 'missingBind', suggestions: [{ messageId: 'addBind', output: `const { createRequestStateCodec } = require('@modelcontextprotocol/server');\nconst codec = createRequestStateCodec({ key: require('crypto').randomBytes(32), bind: (ctx) => ctx.mcpReq.method });` }] },
        { messageId: 'randomKey' },
      ],
    }),
    asJs({
      code: `import * as mcp from '@modelcontextprotocol/server';\nexport const codec = mcp.createRequestStateCodec({ key: 'k'.repeat(32), bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'literalKey' }],
    }),
  ],
});

// With type information, a key imported from another module whose type is a string literal is hard-coded too.
typedRuleTester.run('require-request-state-binding (type-aware)', testable(rule), {
  valid: [IMPORT + `declare const key: string;\nconst codec = createRequestStateCodec({ key, bind: (c) => c.mcpReq.method });`],
  invalid: [
    {
      code: IMPORT + `declare const KEY: 'not-so-secret-not-so-secret-not-so-secret';\nconst codec = createRequestStateCodec({ key: KEY, bind: (c) => c.mcpReq.method });`,
      errors: [{ messageId: 'literalKey' }],
    },
  ],
});
