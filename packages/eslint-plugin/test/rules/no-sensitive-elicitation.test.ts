import rule from '../../src/rules/no-sensitive-elicitation.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable } from '../helpers/safety-rule-tester.js';

const V2 = `import { inputRequired } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\n`;

ruleTester.run('no-sensitive-elicitation', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    // ordinary fields whose names merely contain secret-looking substrings
    `await server.server.elicitInput({ message: 'Trip', requestedSchema: { type: 'object', properties: { passengers: { type: 'number' }, maxTokens: { type: 'number' }, compass: { type: 'string' } } } });`,
    // URL mode is the right way to collect a secret
    V2 + `inputRequired.elicitUrl({ message: 'Sign in', url: 'https://example.com/connect' });`,
    `await server.server.elicitInput({ mode: 'url', message: 'Enter your API key on our site', url: 'https://x.test/key', elicitationId: 'e1' });`,
    // look-alikes: a user's own elicitInput(message), an unrelated form library
    `async function elicitInput(message: string) { return prompt(message); }\nconst password = await elicitInput('password?');`,
    `form.elicit({ password: true });`,
    `const schema = { properties: { password: { type: 'string', format: 'password' } } }; validate(schema);`,
    V2 + `inputRequired.elicit({ message: 'Name', requestedSchema: z.object({ name: z.string().describe('Your display name') }) });`,
    asJs({ code: `await ctx.mcpReq.elicitInput({ message: 'x', requestedSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } });` }),
    // the params built by a function (as mcp-mrtr's migrations write them), asking for nothing secret
    V2 + `const accountRequest = (suggested: string) => ({ mode: 'form' as const, message: 'Account', requestedSchema: { type: 'object' as const, properties: { account: { type: 'string' as const, default: suggested } } } });\nreturn inputRequired({ inputRequests: { account: inputRequired.elicit(accountRequest('a')) } });`,
  ],
  invalid: [
    {
      // the params built by a function and passed through a call, as mcp-mrtr's migrations write them
      code: V2 + `const setupRequest = (ip: string) => ({\n  mode: 'form' as const,\n  message: 'Credentials',\n  requestedSchema: { type: 'object' as const, properties: { apiKey: { type: 'string' as const }, clientIp: { type: 'string' as const, default: ip } } },\n});\nreturn inputRequired({ inputRequests: { setup: inputRequired.elicit(setupRequest('1.2.3.4')) } });`,
      errors: [{ messageId: 'sensitiveField', line: 6, data: { field: 'apiKey', why: 'field name' } }],
    },
    {
      // v1 legacy elicitInput on McpServer.server
      code: `const r = await mcp.server.elicitInput({\n  message: 'Connect',\n  requestedSchema: { type: 'object', properties: { apiKey: { type: 'string' }, region: { type: 'string' } } },\n});`,
      errors: [{ messageId: 'sensitiveField', line: 3, data: { field: 'apiKey', why: 'field name' } }],
    },
    {
      // format: 'password', title and description give it away
      code: `await this.server.elicitInput({ message: 'Log in', requestedSchema: { type: 'object', properties: { a: { type: 'string', format: 'password' }, b: { type: 'string', title: 'Card number' }, c: { type: 'string', description: 'Your personal access token' } } } });`,
      errors: [
        { messageId: 'sensitiveField', data: { field: 'a', why: "format: 'password'" } },
        { messageId: 'sensitiveField', data: { field: 'b', why: 'title "Card number"' } },
        { messageId: 'sensitiveField', data: { field: 'c', why: 'description "Your personal access token"' } },
      ],
    },
    {
      // sendRequest with the raw method, schema held in a const
      code: `const schema = { type: 'object', properties: { password: { type: 'string' } } } as const;\nawait extra.sendRequest({ method: 'elicitation/create', params: { message: 'pw', requestedSchema: schema } }, ElicitResultSchema);`,
      errors: [{ messageId: 'sensitiveField', line: 1, data: { field: 'password', why: 'field name' } }],
    },
    {
      // v2 MRTR builder with a zod shape (also through an alias and .strict())
      code: V2 + `return inputRequired({ inputRequests: { creds: inputRequired.elicit({ message: 'Creds', requestedSchema: z.object({ username: z.string(), password: z.string().min(8) }).strict() }) } });`,
      errors: [{ messageId: 'sensitiveField', line: 3, data: { field: 'password', why: 'field name' } }],
    },
    {
      code: `import { inputRequired as ir } from '@modelcontextprotocol/server';\nimport * as z from 'zod';\nir.elicit({ message: 'x', requestedSchema: z.object({ code: z.string().describe('The CVV on the back of your card') }) });`,
      errors: [{ messageId: 'sensitiveField', data: { field: 'code', why: 'described as "The CVV on the back of your card"' } }],
    },
    // the builder through a namespace import and through require
    {
      code: `import * as mcp from '@modelcontextprotocol/server';\nmcp.inputRequired.elicit({ message: 'x', requestedSchema: { type: 'object', properties: { password: { type: 'string' } } } });`,
      errors: [{ messageId: 'sensitiveField', line: 2, data: { field: 'password', why: 'field name' } }],
    },
    asJs({
      code: `const { inputRequired: ask } = require('@modelcontextprotocol/server');\nask.elicit({ message: 'x', requestedSchema: { type: 'object', properties: { password: { type: 'string' } } } });`,
      errors: [{ messageId: 'sensitiveField', line: 2, data: { field: 'password', why: 'field name' } }],
    }),
    {
      // v2 push style and a hand-built inputRequests entry
      code: `await ctx.mcpReq.elicitInput({ message: 'x', requestedSchema: { type: 'object', properties: { 'credit-card': { type: 'string' } } } });\nreturn { resultType: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: { message: 'y', requestedSchema: { type: 'object', properties: { otp: { type: 'string' } } } } } } };`,
      errors: [
        { messageId: 'sensitiveField', line: 1, data: { field: 'credit-card', why: 'field name' } },
        { messageId: 'sensitiveField', line: 2, data: { field: 'otp', why: 'field name' } },
      ],
    },
    asJs({
      code: `const params = { message: 'Token?', requestedSchema: fromJsonSchema({ type: 'object', properties: { github_token: { type: 'string' } } }) };\nawait server.elicitInput(params);`,
      errors: [{ messageId: 'sensitiveField', data: { field: 'github_token', why: 'field name' } }],
    }),
  ],
});
