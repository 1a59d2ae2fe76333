import { describe } from 'vitest';
import rule from '../../src/rules/consistent-input-keys.js';
import { CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const IMPORT = `import { inputRequired, inputResponse, acceptedContent } from '@modelcontextprotocol/server';\n`;
const tool = (body: string) => IMPORT + `server.registerTool('t', {}, async (args, ctx) => {\n${body}\n});`;
const ELICIT = `inputRequired.elicit({ message: 'm', requestedSchema: {} })`;

const shared = {
  valid: [
    tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'name');\nif (a.kind === 'missing') return inputRequired({ inputRequests: { name: ${ELICIT} } });\nreturn { content: [] };`),
    tool(`const v = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);\nif (!v) return inputRequired({ inputRequests: { 'confirm': ${ELICIT} } });`),
    tool(`const r = ctx.mcpReq.inputResponses?.roots;\nif (!r) return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });`),
    tool(`const r = ctx.mcpReq.inputResponses['roots'];\nif (!r) return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });`),
    // multi-phase flow in one handler
    tool(`const s = ctx.mcpReq.requestState();\nif (!s) return inputRequired({ inputRequests: { name: ${ELICIT} }, requestState: await codec.mint({ step: 1 }, ctx) });\nconst name = inputResponse(ctx.mcpReq.inputResponses, 'name');\nif (s.step === 1) return inputRequired({ inputRequests: { age: ${ELICIT} }, requestState: await codec.mint({ step: 2 }, ctx) });\nconst age = inputResponse(ctx.mcpReq.inputResponses, 'age');`),
    // keys held in variables / computed: not judged
    tool(`const K = 'name';\nconst a = inputResponse(ctx.mcpReq.inputResponses, K);\nif (a.kind === 'missing') return inputRequired({ inputRequests: { [K]: ${ELICIT} } });`),
    tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'nmae');\nreturn inputRequired({ inputRequests: buildRequests() });`),
    // a spread may request "x": only the static side is judged
    tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'x');\nconst b = inputResponse(ctx.mcpReq.inputResponses, 'y');\nreturn inputRequired({ inputRequests: { ...common, y: ${ELICIT} } });`),
    // responses passed to a helper: reads unknown, so no "never read"
    tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'a');\nreadAll(ctx.mcpReq.inputResponses);\nreturn inputRequired({ inputRequests: { a: ${ELICIT}, b: ${ELICIT} } });`),
    tool(`const { inputResponses } = ctx.mcpReq;\nconst a = inputResponse(inputResponses, 'a');\nreturn inputRequired({ inputRequests: { a: ${ELICIT}, b: ${ELICIT} } });`),
    // request-only or read-only functions (builder/reader helpers): nothing to compare
    IMPORT + `export function ask() { return inputRequired({ inputRequests: { a: ${ELICIT} } }); }\nexport function read(ctx) { return inputResponse(ctx.mcpReq.inputResponses, 'b'); }`,
    // look-alike
    `const inputRequests = { a: 1 }; const r = inputResponse(x, 'b');`,
  ],
  invalid: [
    {
      code: tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'nmae');\nif (a.kind === 'missing') return inputRequired({ inputRequests: { name: ${ELICIT} } });`),
      errors: [
        { messageId: 'readNeverRequested', line: 3, suggestions: [{ messageId: 'useRequestedKey', output: tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'name');\nif (a.kind === 'missing') return inputRequired({ inputRequests: { name: ${ELICIT} } });`) }] },
        { messageId: 'requestedNeverRead', line: 4 },
      ],
    },
    {
      code: tool(`const r = ctx.mcpReq.inputResponses.root;\nconst c = acceptedContent(ctx.mcpReq.inputResponses, "confirm", s);\nreturn inputRequired({ inputRequests: { roots: inputRequired.listRoots(), confirm: ${ELICIT} } });`),
      errors: [
        { messageId: 'readNeverRequested', suggestions: [{ messageId: 'useRequestedKey', output: tool(`const r = ctx.mcpReq.inputResponses.roots;\nconst c = acceptedContent(ctx.mcpReq.inputResponses, "confirm", s);\nreturn inputRequired({ inputRequests: { roots: inputRequired.listRoots(), confirm: ${ELICIT} } });`) }] },
        { messageId: 'requestedNeverRead' },
      ],
    },
    {
      code: tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'a');\nreturn inputRequired({ inputRequests: { a: ${ELICIT}, extra: inputRequired.listRoots() } });`),
      errors: [{ messageId: 'requestedNeverRead', line: 4 }],
    },
    {
      code: `server.registerTool('t', {}, async (args, ctx) => { const v = ctx.mcpReq.inputResponses['totally_different']; return { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } } }; });`,
      errors: [{ messageId: 'readNeverRequested', suggestions: [{ messageId: 'useRequestedKey', output: `server.registerTool('t', {}, async (args, ctx) => { const v = ctx.mcpReq.inputResponses['a']; return { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } } }; });` }] }, { messageId: 'requestedNeverRead' }],
    },
  ],
};

describe('consistent-input-keys', () => {
  tsTester.run('typescript', asTesterRule(rule), { valid: [...shared.valid, CANONICAL_OUTPUT], invalid: shared.invalid });
  jsTester.run('javascript', asTesterRule(rule), shared);
});
