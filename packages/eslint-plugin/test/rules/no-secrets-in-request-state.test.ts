import rule from '../../src/rules/no-secrets-in-request-state.js';
import { CANONICAL_MIGRATED, asJs, ruleTester, testable, typedRuleTester } from '../helpers/safety-rule-tester.js';

const V2 = `import { inputRequired, createRequestStateCodec } from '@modelcontextprotocol/server';\nconst codec = createRequestStateCodec({ key: process.env.K!, bind: (c) => c.mcpReq.method });\n`;

ruleTester.run('no-secrets-in-request-state', testable(rule), {
  valid: [
    CANONICAL_MIGRATED,
    V2 + `const state = await codec.mint({ step: 'asked-name', name, maxTokens: 200, nextPageToken: cursor, passengers: 2 }, ctx);`,
    V2 + `return inputRequired({ inputRequests: {}, requestState: await codec.mint({ step: 2, credentialId: vault.idFor(user) }, ctx) });`,
    // secrets elsewhere (not in requestState) are none of this rule's business
    `const headers = { authorization: \`Bearer \${token}\` }; await fetch(url, { headers });`,
    // look-alike: an NFT library's mint and an unrelated requestState field
    `await nft.mint({ owner: wallet.address, privateKey });`,
    `const job = { requestState: JSON.stringify({ apiKey }) }; queue.push(job);`,
    asJs({ code: `const s = await stateCodec.mint({ step: 1, city: answer.city }, ctx);` }),
  ],
  invalid: [
    {
      code: V2 + `const requestState = await codec.mint({ step: 1, apiKey, user: { name, password: pw } }, ctx);`,
      errors: [
        { messageId: 'secretField', line: 3, data: { name: 'apiKey' } },
        { messageId: 'secretField', line: 3, data: { name: 'password' } },
      ],
    },
    {
      // value names give it away too, and spreads of secret-looking objects
      code: V2 + `await codec.mint({ step: 1, k: env.GITHUB_TOKEN, ...credentials }, ctx);`,
      errors: [
        { messageId: 'secretValue', data: { name: 'env.GITHUB_TOKEN' } },
        { messageId: 'secretSpread', data: { name: 'credentials' } },
      ],
    },
    {
      // payload built in a const first
      code: V2 + `const payload = { step: 'paid', cardNumber: card.number };\nconst requestState = await codec.mint(payload, ctx);`,
      errors: [{ messageId: 'secretField', line: 3, data: { name: 'cardNumber' } }],
    },
    {
      // unsealed state literals passed to inputRequired: still signed-at-best, readable
      code: V2 + `return inputRequired({ inputRequests: { a: inputRequired.listRoots() }, requestState: Buffer.from(JSON.stringify({ step: 1, sessionToken })).toString('base64') });`,
      errors: [{ messageId: 'secretField', data: { name: 'sessionToken' } }],
    },
    {
      code: `return { resultType: 'input_required', requestState: \`\${step}:\${apiSecret}\` };`,
      errors: [{ messageId: 'secretValue', data: { name: 'apiSecret' } }],
    },
    asJs({
      code: `const { createRequestStateCodec } = require('@modelcontextprotocol/server');\nconst c = createRequestStateCodec({ key: process.env.K, bind: (x) => x.mcpReq.method });\nexports.next = (ctx, refresh_token) => c.mint({ step: 2, refresh_token }, ctx);`,
      errors: [{ messageId: 'secretField', line: 3, data: { name: 'refresh_token' } }],
    }),
  ],
});

typedRuleTester.run('no-secrets-in-request-state (type-aware)', testable(rule), {
  valid: [V2 + `declare const state: { step: number; name: string; tokenCount: number };\nawait codec.mint(state, undefined as any);`],
  invalid: [
    {
      code: V2 + `interface Flow { step: number; accessToken: string }\ndeclare function load(): Flow;\nconst flow = load();\nawait codec.mint(flow, undefined as any);`,
      errors: [{ messageId: 'secretTypeField', data: { name: 'accessToken' } }],
    },
  ],
});
