import { describe } from 'vitest';
import rule from '../../src/rules/no-unvalidated-input-responses.js';
import { CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const IMPORT = `import { inputRequired, inputResponse, acceptedContent, fromJsonSchema } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\n`;
const tool = (body: string) => IMPORT + `server.registerTool('t', {}, async (args, ctx) => {\n${body}\n});`;

const shared = {
  valid: [
    tool(`const c = acceptedContent(ctx.mcpReq.inputResponses, 'c', schema);`),
    tool(`const a = inputResponse(ctx.mcpReq.inputResponses, 'a'); if (a.kind === 'elicit') use(a.action);`),
    tool(`if (!ctx.mcpReq.inputResponses?.a) return inputRequired({ requestState: s });`),
    tool(`const keys = Object.keys(ctx.mcpReq.inputResponses ?? {});`),
    // look-alikes
    `const r = responses.confirm.content; const c = acceptedContent(a, b, c);`,
    `const x = other.inputResponse.content;`,
  ],
  invalid: [
    { code: tool(`const name = ctx.mcpReq.inputResponses.name.content.name;`), errors: [{ messageId: 'rawRead', line: 4 }] },
    { code: tool(`if (ctx.mcpReq.inputResponses['confirm']?.action === 'accept') go();`), errors: [{ messageId: 'rawRead' }] },
    { code: tool(`const c = acceptedContent(ctx.mcpReq.inputResponses, 'c');`), errors: [{ messageId: 'missingSchema', suggestions: [] }] },
    // suggestion: the zod schema the same handler requested with
    {
      code: tool(`const c = acceptedContent(ctx.mcpReq.inputResponses, 'c');\nif (!c) return inputRequired({ inputRequests: { c: inputRequired.elicit({ message: 'm', requestedSchema: z.object({ city: z.string() }) }) } });`),
      errors: [{ messageId: 'missingSchema', suggestions: [{ messageId: 'passSchema', output: tool(`const c = acceptedContent(ctx.mcpReq.inputResponses, 'c', z.object({ city: z.string() }));\nif (!c) return inputRequired({ inputRequests: { c: inputRequired.elicit({ message: 'm', requestedSchema: z.object({ city: z.string() }) }) } });`) }] }],
    },
    // suggestion: a JSON schema constant, wrapped with the imported fromJsonSchema
    {
      code: IMPORT + `const citySchema = { type: 'object', properties: { city: { type: 'string' } } };\n` + `server.registerTool('t', {}, async (args, ctx) => {\nconst c = acceptedContent(ctx.mcpReq.inputResponses, 'c');\nif (!c) return inputRequired({ inputRequests: { c: inputRequired.elicit({ message: 'm', requestedSchema: citySchema }) } });\n});`,
      errors: [{ messageId: 'missingSchema', suggestions: [{ messageId: 'passSchema', output: IMPORT + `const citySchema = { type: 'object', properties: { city: { type: 'string' } } };\n` + `server.registerTool('t', {}, async (args, ctx) => {\nconst c = acceptedContent(ctx.mcpReq.inputResponses, 'c', fromJsonSchema(citySchema));\nif (!c) return inputRequired({ inputRequests: { c: inputRequired.elicit({ message: 'm', requestedSchema: citySchema }) } });\n});` }] }],
    },
  ],
};

describe('no-unvalidated-input-responses', () => {
  tsTester.run('typescript', asTesterRule(rule), {
    valid: [...shared.valid, CANONICAL_OUTPUT, tool(`const raw = ctx.mcpReq.inputResponses as unknown;`)],
    invalid: [
      ...shared.invalid,
      { code: tool(`const r = ctx.mcpReq.inputResponses['confirm'] as ElicitResult;`), errors: [{ messageId: 'rawCast' }] },
      { code: tool(`const r = <ElicitResult>ctx.mcpReq.inputResponses.confirm;`), errors: [{ messageId: 'rawCast' }] },
      { code: tool(`const all = ctx.mcpReq.inputResponses as Record<string, ElicitResult>;`), errors: [{ messageId: 'rawCast' }] },
      { code: tool(`const v = (ctx.mcpReq.inputResponses!.confirm as any).content;`), errors: [{ messageId: 'rawCast' }] },
    ],
  });
  jsTester.run('javascript', asTesterRule(rule), shared);
});
