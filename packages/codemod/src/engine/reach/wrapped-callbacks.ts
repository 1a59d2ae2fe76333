/**
 * A registration whose callback is what a project function returns, called with the tool's own
 * function (`mcp.tool('close_ticket', schema, withParams(closeTicket))`, `withParams = (fn) => async
 * (args) => fn({ id: String(args.id) })`): the returned callback (the handler, find/handlers.ts
 * `returnedCallback`) runs the tool function through a parameter of the wrapper. Each call of such a
 * parameter in the callback runs the function this registration passes for it, which is reached
 * through that call like a function looked up in a table (reach/dispatch.ts): the callback is its
 * dispatcher, bound at this registration alone.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import type { Handler } from '../model.js';
import { declarationOf, functionOfDeclaration, isFunctionNode, isInNodeModules, resolveCallee, unwrapExpression, type FunctionLike } from '../find/resolve.js';

export interface WrappedTool {
  /** The function the registration passes to the wrapper. */
  fn: FunctionLike;
  /** The call of the wrapper's parameter in the returned callback that runs it. */
  call: CallExpression;
  /** The wrapper call at the registration (`withParams(closeTicket)`). */
  wrapperCall: CallExpression;
}

/** The functions a handler returned by a wrapper runs through the wrapper's parameters, bound at its registration. */
export function wrappedTools(handler: Handler): WrappedTool[] {
  const args = handler.registrationCall.getArguments();
  const wrapperCall = unwrapExpression(args[args.length - 1]);
  if (!wrapperCall || !Node.isCallExpression(wrapperCall)) return [];
  const wrapper = resolveCallee(wrapperCall.getExpression());
  if (!wrapper || !(wrapper.getPos() <= handler.fn.getPos() && handler.fn.getEnd() <= wrapper.getEnd())) return [];
  const parameters = (wrapper as FunctionLike & { getParameters?: () => Node[] }).getParameters?.() ?? [];
  const out: WrappedTool[] = [];
  for (const call of handler.fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isIdentifier(callee)) continue;
    const index = parameters.indexOf(declarationOf(callee) as Node);
    if (index < 0) continue;
    const fn = functionPassed(wrapperCall.getArguments()[index]);
    if (fn && !out.some((t) => t.fn === fn && t.call === call)) out.push({ fn, call, wrapperCall });
  }
  return out;
}

/** The project function an argument names (`closeTicket`, an inline function, `obj.method`). */
function functionPassed(arg: Node | undefined): FunctionLike | undefined {
  const node = unwrapExpression(arg);
  if (!node) return undefined;
  if (isFunctionNode(node)) return node;
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    return decl && !isInNodeModules(decl) ? functionOfDeclaration(decl) : undefined;
  }
  return Node.isPropertyAccessExpression(node) ? resolveCallee(node) : undefined;
}
