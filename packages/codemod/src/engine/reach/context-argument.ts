/**
 * The argument a request is sent on: `createItem(api, data, extra)` sends with `extra.sendRequest(...)`.
 * A call of that function that passes no such argument never sends the request (the parameter is
 * undefined: `extra?.sendRequest` skips it, `extra.sendRequest` throws a TypeError), so it is not a
 * caller the request runs for. It still runs the function, which a rewrite for the handlers would
 * change under it: reach names it as such a caller instead of following it further up.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import type { Site } from '../model.js';
import { declarationOf, unwrapExpression, type FunctionLike } from '../find/resolve.js';

/** Index of the parameter of `fn` the site's request is sent on (`extra` of `extra.sendRequest(...)`), if plain. */
export function requestParameterIndex(site: Site, fn: FunctionLike): number | undefined {
  if (!Node.isCallExpression(site.node)) return undefined;
  const callee = unwrapExpression(site.node.getExpression());
  if (!callee || !Node.isPropertyAccessExpression(callee)) return undefined;
  return parameterIndexOf(rootIdentifier(callee.getExpression()), fn);
}

/**
 * What a call of the tracked function hands to the parameter at `index`: nothing (`omitted`),
 * a parameter of the function the call is in (its index, tracked further up), or anything else.
 */
export function argumentAt(call: CallExpression, index: number, caller: FunctionLike | undefined): { omitted: true } | { omitted: false; parameter?: number } {
  const callee = unwrapExpression(call.getExpression());
  // `fn.call(self, ...)` / `fn.apply(self, args)` shift or hide the arguments
  if (!callee || (Node.isPropertyAccessExpression(callee) && ['call', 'apply', 'bind'].includes(callee.getName()))) return { omitted: false };
  const args = call.getArguments();
  if (args.slice(0, index + 1).some((a) => Node.isSpreadElement(a))) return { omitted: false };
  const arg = args[index];
  if (arg === undefined || isUndefinedValue(arg)) return { omitted: true };
  const parameter = caller && Node.isIdentifier(arg) ? parameterIndexOf(arg, caller) : undefined;
  return parameter !== undefined ? { omitted: false, parameter } : { omitted: false };
}

function isUndefinedValue(arg: Node): boolean {
  const value = unwrapExpression(arg) ?? arg;
  if (Node.isIdentifier(value)) return value.getText() === 'undefined';
  return Node.isVoidExpression(value) && Node.isLiteralExpression(value.getExpression());
}

/** `extra` of `extra.sendRequest`, `extra?.server.request`, `(extra as X).sendRequest`. */
function rootIdentifier(expression: Node): Node {
  let node: Node = unwrapExpression(expression) ?? expression;
  while (Node.isPropertyAccessExpression(node) || Node.isNonNullExpression(node) || Node.isElementAccessExpression(node)) {
    node = unwrapExpression(node.getExpression()) ?? node.getExpression();
  }
  return node;
}

/** The index of the plain parameter of `fn` the identifier names, when nothing in `fn` assigns it. */
function parameterIndexOf(id: Node, fn: FunctionLike): number | undefined {
  if (!Node.isIdentifier(id)) return undefined;
  const declaration = declarationOf(id);
  if (!declaration || !Node.isParameterDeclaration(declaration)) return undefined;
  const params = (fn as FunctionLike & { getParameters(): Node[] }).getParameters();
  const index = params.indexOf(declaration);
  if (index < 0 || declaration.hasInitializer() || declaration.isRestParameter() || !Node.isIdentifier(declaration.getNameNode())) return undefined;
  // a TypeScript `this` parameter is no argument of the call
  if (params.some((p) => Node.isParameterDeclaration(p) && p.getName() === 'this')) return undefined;
  const name = declaration.getName();
  const assigned = fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => {
    const left = b.getLeft();
    return b.getOperatorToken().getKind() >= SyntaxKind.FirstAssignment && b.getOperatorToken().getKind() <= SyntaxKind.LastAssignment && Node.isIdentifier(left) && left.getText() === name;
  });
  return assigned ? undefined : index;
}
