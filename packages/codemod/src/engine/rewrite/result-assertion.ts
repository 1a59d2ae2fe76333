/**
 * A table of tools typed with a result wider than its dispatcher may return: v1's `ServerResult`
 * (the union of every method's result) returned from a v2 `tools/call` handler, which takes
 * `CallToolResult | InputRequiredResult`. The v1-to-v2 upgrade of such a dispatcher does not
 * compile (TS2345), with or without the MRTR rewrite.
 *
 * When every function the lookup can yield is spelled out in the project (reach/dispatch.ts
 * `listedTargets`) and each of their `return`s is a value the registration accepts, the declared
 * type is only wider than what the table holds: the dispatcher's returned call is asserted as the
 * method's v2 result,
 *
 *   return await TOOLS[name].handler(args, ctx);
 *   → return (await TOOLS[name].handler(args, ctx)) as CallToolResult | InputRequiredResult;
 *
 * which changes no runtime behaviour. Anything less than that proof keeps the flag.
 */
import { Node, SyntaxKind, ts, type CallExpression } from 'ts-morph';
import { listedTargets } from '../reach/dispatch.js';
import { isFunctionNode } from '../find/resolve.js';
import type { TextEdit } from '../text-edits.js';
import { INPUT_REQUIRED_TYPE } from './return-type.js';

/** The v2 result type of each method whose handler may return input_required. */
const RESULT_TYPE: Record<string, string> = { 'tools/call': 'CallToolResult', 'prompts/get': 'GetPromptResult', 'resources/read': 'ReadResourceResult' };

export interface ResultAssertion {
  /** The returned expression (the call, with its `await`). */
  node: Node;
  /** The value types the assertion names, imported from the v2 package. */
  types: string[];
}

/** The assertion that makes `call`'s returned result fit `accepted`, when the table's functions provably return only what it accepts. */
export function provableAssertion(call: CallExpression, dispatcherFn: Node, method: string | undefined, accepted: ts.Type): ResultAssertion | undefined {
  const resultType = method !== undefined ? RESULT_TYPE[method] : undefined;
  if (!resultType) return undefined;
  const node = returnedExpression(call);
  if (!node) return undefined;
  const targets = listedTargets(call, dispatcherFn);
  if (!targets) return undefined;
  const checker = call.getProject().getTypeChecker().compilerObject;
  for (const fn of targets) {
    const returned = returnedTypes(fn, checker);
    if (!returned) return undefined;
    for (const value of returned) {
      const type = checker.getAwaitedType(value);
      if (!type || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || !checker.isTypeAssignableTo(type, accepted)) return undefined;
    }
  }
  return { node, types: [resultType, INPUT_REQUIRED_TYPE] };
}

export function assertionEdits({ node, types }: ResultAssertion): TextEdit[] {
  return [
    { start: node.getStart(), end: node.getStart(), text: '(' },
    { start: node.getEnd(), end: node.getEnd(), text: `) as ${types.join(' | ')}` },
  ];
}

/** `await call(...)` / `call(...)` as the handler returns it (an arrow's body, a `return`), else undefined. */
function returnedExpression(call: CallExpression): Node | undefined {
  let node: Node = call;
  let parent = node.getParent();
  while (parent && (Node.isAwaitExpression(parent) || Node.isParenthesizedExpression(parent) || Node.isNonNullExpression(parent))) {
    node = parent;
    parent = parent.getParent();
  }
  if (!parent) return undefined;
  return Node.isReturnStatement(parent) || (Node.isArrowFunction(parent) && parent.getBody() === node) ? node : undefined;
}

/**
 * The types of what a function returns: without a declared return type, its inferred result (which
 * includes `undefined` when the body can fall off its end); with one, the types of its own `return`
 * expressions (tsc rejects a body that falls off the end of a declared result without `undefined`,
 * TS2366). Undefined when the checker cannot say.
 */
function returnedTypes(fn: Node, checker: ts.TypeChecker): ts.Type[] | undefined {
  const body = (fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  if (!body) return undefined;
  try {
    if (!Node.isBlock(body)) return [body.getType().compilerType];
    if (!(fn as Node & { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.()) {
      const signature = checker.getSignatureFromDeclaration(fn.compilerNode as ts.SignatureDeclaration);
      return signature ? [checker.getReturnTypeOfSignature(signature)] : undefined;
    }
    const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === fn);
    if (returns.length === 0 || returns.some((r) => !r.getExpression())) return undefined;
    return returns.map((r) => r.getExpression()!.getType().compilerType);
  } catch {
    return undefined;
  }
}
