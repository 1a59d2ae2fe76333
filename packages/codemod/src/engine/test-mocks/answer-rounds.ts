/**
 * A unit test that calls a handler directly with a fake context whose `sendRequest` answers
 * (`await handler(args, { sendRequest: mockSendRequest })`) meets, once the run migrated the
 * handler, an `input_required` result instead of a call of its fake. Such a call is routed through
 * a small helper written into the test file, which plays the client: it answers each round's
 * `inputRequests` with the fake's `mcpReq.send` (the embedded requests have the `{ method, params }`
 * shape the legacy handler sent) and calls the handler again with `inputResponses`. A handler that
 * returns anything else (one the run did not migrate) is called once and its result returned as
 * it is; one whose rounds carry `requestState` (only the server's verify hook can open it) is left
 * at its input_required result.
 */
import { Node, SyntaxKind } from 'ts-morph';
import type { TextEdit } from '../text-edits.js';

export const ANSWER_HELPER = 'callAnsweringInputRequests';

/** How many rounds the helper answers before it returns what the handler asks (a handler asking forever). */
const MAX_ROUNDS = 8;

/**
 * The edit routing the call that receives `literal` (as its last argument, the call awaited, its
 * callee not a method: `this` would be lost) through the helper, or undefined.
 */
export function answeringCallEdit(literal: Node): TextEdit | undefined {
  const call = literal.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const args = call.getArguments();
  if (args[args.length - 1] !== literal || call.getTypeArguments().length > 0 || call.getQuestionDotTokenNode()) return undefined;
  if (!Node.isAwaitExpression(call.getParent())) return undefined;
  let callee: Node = call.getExpression();
  while (Node.isNonNullExpression(callee) || Node.isParenthesizedExpression(callee)) callee = callee.getExpression();
  if (Node.isPropertyAccessExpression(callee) || Node.isElementAccessExpression(callee) || callee.getKind() === SyntaxKind.SuperKeyword) return undefined;
  const openParen = call.getFirstChildByKind(SyntaxKind.OpenParenToken);
  if (!openParen) return undefined;
  const expression = call.getExpression();
  return { start: expression.getStart(), end: openParen.getEnd(), text: `${ANSWER_HELPER}(${expression.getText()}, ` };
}

/** Whether the file can take the helper under its name. */
export function helperNameFree(text: string): boolean {
  return !new RegExp(`\\b${ANSWER_HELPER}\\b`).test(text);
}

/** The helper's text (TypeScript annotations in a TypeScript file), to append to the file. */
export function answerHelperText(typescript: boolean): string {
  const t = (annotation: string): string => (typescript ? annotation : '');
  return `
/**
 * Calls a handler as an MCP 2026-07-28 client drives it (written by mcp-mrtr): a migrated handler
 * returns input_required instead of sending its requests, so each round's inputRequests are
 * answered by the context's mcpReq.send (the test's fake) and the handler is called again with
 * inputResponses. Any other result, or one nothing can answer (no send), is returned as it is.
 */
async function ${ANSWER_HELPER}(handler${t(': Function')}, ...args${t(': any[]')})${t(': Promise<any>')} {
  const ctx = args[args.length - 1];
  let result = await handler(...args);
  // a context without send (the first round's, for a call that had none) has nothing to answer with
  for (let round = 1; round <= ${MAX_ROUNDS} && result?.resultType === 'input_required' && result.requestState === undefined && typeof ctx.mcpReq.send === 'function'; round++) {
    const inputResponses${t(': Record<string, unknown>')} = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) inputResponses[key] = await ctx.mcpReq.send(request);
    result = await handler(...args.slice(0, -1), { ...ctx, mcpReq: { ...ctx.mcpReq, inputResponses } });
  }
  return result;
}
`;
}

