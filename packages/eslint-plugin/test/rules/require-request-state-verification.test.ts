import { describe } from 'vitest';
import rule from '../../src/rules/require-request-state-verification.js';
import { CANONICAL_CODEC_MODULE, CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const IMPORT = `import { McpServer, inputRequired, createRequestStateCodec } from '@modelcontextprotocol/server';\n`;
const tool = (body: string) => `server.registerTool('t', {}, async (args, ctx) => {\n${body}\n});`;

const shared = {
  valid: [
    CANONICAL_CODEC_MODULE.replace('<{ step: 1; name: string }>', '').replace('!,', ','),
    IMPORT + `const codec = createRequestStateCodec({ key: process.env.MCP_REQUEST_STATE_KEY, bind: (ctx) => ctx.mcpReq.method });\nconst server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: codec.verify } });\n` +
      tool(`const s = ctx.mcpReq.requestState();\nif (!s) return inputRequired({ requestState: await codec.mint({ step: 1 }, ctx) });`),
    // options built elsewhere: cannot tell
    IMPORT + `const server = new McpServer(info, options);\n` + tool(`const s = ctx.mcpReq.requestState();`),
    IMPORT + `const server = new McpServer(info, { ...defaults });\n` + tool(`const s = ctx.mcpReq.requestState();`),
    IMPORT + `const server = new McpServer(info, { requestState: stateOptions });\n` + tool(`const s = ctx.mcpReq.requestState();`),
    // no server construction in this module: the factory may live elsewhere
    IMPORT + tool(`const s = ctx.mcpReq.requestState();`),
    // the server never reads state: a hook is not required
    IMPORT + `const server = new McpServer({ name: 'x', version: '1' });\n` + tool(`return inputRequired({ requestState: await codec.mint({ a: 1 }, ctx) });`),
    // look-alikes: JSON.stringify and literals elsewhere; JSON.parse of other values
    `const body = JSON.stringify({ requestState: 1 }); const x = JSON.parse(text); const s = { requestState: 'x' };`,
    `const saved = JSON.parse(localStorage.getItem('state'));`,
  ],
  invalid: [
    // the server class under an import alias
    {
      code: `import { McpServer as Mcp, inputRequired } from '@modelcontextprotocol/server';\nconst server = new Mcp({ name: 'x', version: '1' });\n` + tool(`const s = ctx.mcpReq.requestState();`),
      errors: [{ messageId: 'noVerifyHook', line: 2 }],
    },
    { code: IMPORT + tool(`return inputRequired({ requestState: JSON.stringify({ step: 1 }) });`), errors: [{ messageId: 'unsealedMint', line: 3 }] },
    { code: IMPORT + tool(`return inputRequired({ requestState: btoa(JSON.stringify(state)) });`), errors: [{ messageId: 'unsealedMint' }] },
    { code: IMPORT + tool(`return inputRequired({ inputRequests: r, requestState: Buffer.from(JSON.stringify(state)).toString('base64') });`), errors: [{ messageId: 'unsealedMint' }] },
    { code: IMPORT + tool(`return inputRequired({ requestState: 'step-1' });`), errors: [{ messageId: 'unsealedMint' }] },
    { code: IMPORT + tool(`const requestState = \`\${step}:\${name}\`;\nreturn inputRequired({ requestState });`), errors: [{ messageId: 'unsealedMint' }] },
    { code: tool(`return { resultType: 'input_required', requestState: JSON.stringify(s) };`), errors: [{ messageId: 'unsealedMint' }] },
    // raw state parsed
    { code: IMPORT + tool(`const s = JSON.parse(ctx.mcpReq.requestState());`), errors: [{ messageId: 'rawStateParsed' }] },
    { code: IMPORT + tool(`const s = JSON.parse(atob(request.params.requestState));`), errors: [{ messageId: 'rawStateParsed' }] },
    { code: IMPORT + tool(`const raw = ctx.mcpReq.requestState();\nconst s = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));`), errors: [{ messageId: 'rawStateParsed', line: 4 }] },
    // read in a server without the verify hook (with a suggestion naming the codec)
    {
      code: IMPORT + `const codec = createRequestStateCodec({ key: process.env.K, bind: (c) => c.mcpReq.method });\nconst server = new McpServer({ name: 'x', version: '1' });\n` + tool(`const s = ctx.mcpReq.requestState();`),
      errors: [{ messageId: 'noVerifyHook', line: 3, suggestions: [{ messageId: 'addVerifyHook', output: IMPORT + `const codec = createRequestStateCodec({ key: process.env.K, bind: (c) => c.mcpReq.method });\nconst server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: codec.verify } });\n` + tool(`const s = ctx.mcpReq.requestState();`) }] }],
    },
    {
      code: `import { requestStateCodec } from './mcp-request-state.js';\n` + IMPORT + `const server = new McpServer({ name: 'x', version: '1' }, { capabilities: {} });\n` + tool(`const { mcpReq } = ctx;\nconst s = mcpReq.requestState();`),
      errors: [{ messageId: 'noVerifyHook', suggestions: [{ messageId: 'addVerifyHook', output: `import { requestStateCodec } from './mcp-request-state.js';\n` + IMPORT + `const server = new McpServer({ name: 'x', version: '1' }, { capabilities: {}, requestState: { verify: requestStateCodec.verify } });\n` + tool(`const { mcpReq } = ctx;\nconst s = mcpReq.requestState();`) }] }],
    },
    // no codec in sight: report without a suggestion
    { code: IMPORT + `const server = new McpServer({ name: 'x', version: '1' }, { requestState: {} });\n` + tool(`const s = ctx.mcpReq.requestState();`), errors: [{ messageId: 'noVerifyHook', suggestions: [] }] },
  ],
};

describe('require-request-state-verification', () => {
  tsTester.run('typescript', asTesterRule(rule), {
    valid: [...shared.valid, CANONICAL_OUTPUT, CANONICAL_CODEC_MODULE],
    invalid: [
      ...shared.invalid,
      { code: IMPORT + tool(`const s = JSON.parse(ctx.mcpReq.requestState<string>()!) as State;`), errors: [{ messageId: 'rawStateParsed' }] },
    ],
  });
  jsTester.run('javascript', asTesterRule(rule), shared);
});
