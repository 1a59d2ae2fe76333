/**
 * The generated module with the readers of a retried request's answers (`mcp-input-responses.ts`,
 * one per project and module flavour, created only when a migrated handler reads an answer). The
 * SDK's `inputResponse` / `acceptedContent` give a view of one entry; a handler that asked through
 * `elicitInput`, `createMessage` or `listRoots` before expects the legacy result shape, validated
 * as the legacy SDK validated it. Each reader yields that shape, or `undefined` when the retry
 * carries no usable answer under the key (the handler asks again), so a handler reads each answer
 * with one call instead of a block of view checks per key.
 */
import { TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import type { ModuleFlavour } from './module-flavour.js';

export const ANSWERS_MODULE_BASENAME = 'mcp-input-responses';

/** The readers, by what the legacy code asked for. */
export const ANSWER_READERS = {
  /** Form elicitation through `elicitInput` (content validated against `requestedSchema`), or a URL elicitation. */
  elicitation: 'readElicitation',
  /** A raw `elicitation/create` request (`sendRequest(..., ElicitResultSchema)`): the result's shape checked only. */
  elicitResult: 'readElicitResult',
  sampling: 'readSampling',
  roots: 'readRoots',
} as const;

export type AnswerReader = (typeof ANSWER_READERS)[keyof typeof ANSWER_READERS];

interface Reader {
  doc: string[];
  params: { ts: string; js: string };
  returns: string;
  body: string[];
}

const READERS: Record<AnswerReader, Reader> = {
  readElicitation: {
    doc: [
      'The answer to the elicitation asked under `key` with `request`, as `elicitInput` returned it. Accepted',
      "content is validated against the request's `requestedSchema`: `elicitInput` rejected content that does",
      'not match it (-32602), and MRTR does not validate it, so this does. A URL elicitation answers with its action.',
    ],
    params: { ts: 'ctx: Context, key: string, request: ElicitRequestFormParams | ElicitRequestURLParams', js: 'ctx, key, request' },
    returns: 'ElicitResult | undefined',
    body: [
      '  const answer = inputResponse(ctx.mcpReq.inputResponses, key);',
      "  if (answer.kind !== 'elicit') return undefined;",
      "  if (request.mode === 'url' || answer.action !== 'accept') return { action: answer.action };",
      "  // the SDK declares requestedSchema's optional members as `?: T | undefined` and JsonSchemaType's as `?: T`,",
      '  // which differ under exactOptionalPropertyTypes: the schema is the same object',
      "  const content = acceptedContent(ctx.mcpReq.inputResponses, key, fromJsonSchema<ElicitResult['content']>(request.requestedSchema as JsonSchemaType));",
      '  if (answer.content !== undefined && content === undefined) {',
      "    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Elicitation response content does not match requested schema');",
      '  }',
      "  return content === undefined ? { action: 'accept' } : { action: 'accept', content };",
    ],
  },
  readElicitResult: {
    doc: [
      'The answer to an `elicitation/create` request sent as a raw request (`sendRequest(..., ElicitResultSchema)`),',
      'checked as that call checked it: the shape of the result, not its content against `requestedSchema`.',
    ],
    params: { ts: 'ctx: Context, key: string', js: 'ctx, key' },
    returns: 'ElicitResult | undefined',
    body: [
      '  const answer = inputResponse(ctx.mcpReq.inputResponses, key);',
      "  if (answer.kind !== 'elicit') return undefined;",
      '  if (!isSpecType.ElicitResult({ action: answer.action, content: answer.content })) {',
      "    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid elicitation result');",
      '  }',
      "  const content = answer.content as ElicitResult['content'];",
      "  return answer.action === 'accept' && content !== undefined ? { action: 'accept', content } : { action: answer.action };",
    ],
  },
  readSampling: {
    doc: ['The answer to the sampling request asked under `key`, as `createMessage` returned it. A malformed answer is asked again, never trusted.'],
    params: { ts: 'ctx: Context, key: string', js: 'ctx, key' },
    returns: 'CreateMessageResult | undefined',
    body: [
      '  const answer = inputResponse(ctx.mcpReq.inputResponses, key);',
      "  return answer.kind === 'sampling' && isSpecType.CreateMessageResult(answer.result) ? answer.result : undefined;",
    ],
  },
  readRoots: {
    doc: ['The answer to the roots request asked under `key`, as `listRoots` returned it.'],
    params: { ts: 'ctx: Context, key: string', js: 'ctx, key' },
    returns: 'ListRootsResult | undefined',
    body: ['  const answer = inputResponse(ctx.mcpReq.inputResponses, key);', "  return answer.kind === 'roots' ? { roots: answer.roots } : undefined;"],
  },
};

const VALUES = ['acceptedContent', 'fromJsonSchema', 'inputResponse', 'isSpecType', 'ProtocolError', 'ProtocolErrorCode'];
const TYPES = ['CreateMessageResult', 'ElicitRequestFormParams', 'ElicitRequestURLParams', 'ElicitResult', 'JsonSchemaType', 'ListRootsResult', 'ServerContext'];
const byName = (a: string, b: string) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''), 'en', { sensitivity: 'base' });

/**
 * TypeScript-only syntax of the reader bodies, taken out for the JavaScript flavours, with the
 * bodies' comments (they are about types).
 */
function untyped(lines: string[]): string[] {
  return lines
    .filter((line) => !line.trim().startsWith('//'))
    .map((line) => line.replace("fromJsonSchema<ElicitResult['content']>", 'fromJsonSchema').replace(" as ElicitResult['content']", '').replace(' as JsonSchemaType', ''));
}

export function answersModuleText(flavour: ModuleFlavour): string {
  const ts = flavour === 'ts';
  const names = Object.keys(READERS) as AnswerReader[];
  const imports =
    flavour === 'cjs'
      ? `const { ${[...VALUES].sort(byName).join(', ')} } = require('${TARGET_SERVER_PACKAGE}');`
      : `import { ${[...VALUES, ...(ts ? TYPES.map((t) => `type ${t}`) : [])].sort(byName).join(', ')} } from '${TARGET_SERVER_PACKAGE}';`;
  const exportFn = flavour === 'cjs' ? 'function' : 'export function';
  const functions = names.map((name) => {
    const r = READERS[name];
    const signature = ts ? `(${r.params.ts}): ${r.returns}` : `(${r.params.js})`;
    const body = ts ? r.body : untyped(r.body);
    return `/**\n${r.doc.map((l) => ` * ${l}`).join('\n')}\n */\n${exportFn} ${name}${signature} {\n${body.join('\n')}\n}\n`;
  });
  const context = ts ? "\n/** What a reader needs of the handler's context (`ctx`). */\ntype Context = Pick<ServerContext, 'mcpReq'>;\n" : '';
  const tail = flavour === 'cjs' ? `\nmodule.exports = { ${names.join(', ')} };\n` : '';
  return `/**
 * Answers of a retried request, in the result shapes the legacy requests returned. Generated by mcp-mrtr.
 *
 * A handler that returned input_required is called again with the client's answers in
 * \`ctx.mcpReq.inputResponses\`, one per key it asked under. Each reader returns the answer under
 * \`key\` as \`elicitInput\`, \`createMessage\` or \`listRoots\` returned it before, or \`undefined\` when
 * the retry carries none (the client answered something else, or nothing): the handler asks again.
 */
${imports}
${context}
${functions.join('\n')}${tail}`;
}
