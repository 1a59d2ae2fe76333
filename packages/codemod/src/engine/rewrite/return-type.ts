/**
 * A declared result type widened to admit the input_required result a migrated function now
 * returns. The migrated function is async, so only the Promise members need it:
 *
 *   Promise<CallToolResult>                    → Promise<CallToolResult | InputRequiredResult>
 *   Promise<ServerResult> | ServerResult       → Promise<ServerResult | InputRequiredResult> | ServerResult
 *
 * The second is a function type a table of tools declares so that synchronous and asynchronous
 * tools both fit; the migrated (async) tool returns through its Promise member, and callers that
 * `await` the call then see `ServerResult | InputRequiredResult`. `Promise<any>` and
 * `Promise<unknown>` (a table of tools returning plain values its dispatcher wraps) admit it already.
 */
import { Node, SyntaxKind, type TypeNode } from 'ts-morph';
import type { TextEdit } from '../text-edits.js';
import type { FileWork } from './emit-common.js';
import { unplanned } from './emit.js';
import { flavourOf } from './module-flavour.js';

export const INPUT_REQUIRED_TYPE = 'InputRequiredResult';

export type Widening = { kind: 'admits' } | { kind: 'edits'; edits: TextEdit[] } | { kind: 'no-promise' };

/** How `returnType` is made to admit `InputRequiredResult`: already does, these edits, or it has no Promise member. */
export function widenForInputRequired(returnType: Node): Widening {
  if (new RegExp(`\\b${INPUT_REQUIRED_TYPE}\\b`).test(returnType.getText())) return { kind: 'admits' };
  const inner = unparenthesized(returnType);
  const members = Node.isUnionTypeNode(inner) ? inner.getTypeNodes().map(unparenthesized) : [inner];
  const edits: TextEdit[] = [];
  for (const member of members) {
    const argument = promiseArgument(member);
    if (!argument) continue;
    if (isTopType(argument)) return { kind: 'admits' };
    // `Promise<() => R>` widened without parentheses would read `() => R | InputRequiredResult`
    const bare = Node.isFunctionTypeNode(argument) || Node.isConstructorTypeNode(argument) || Node.isConditionalTypeNode(argument);
    if (bare) edits.push({ start: argument.getStart(), end: argument.getStart(), text: '(' });
    edits.push({ start: argument.getEnd(), end: argument.getEnd(), text: `${bare ? ')' : ''} | ${INPUT_REQUIRED_TYPE}` });
  }
  return edits.length > 0 ? { kind: 'edits', edits } : { kind: 'no-promise' };
}

/** The `X` of a `Promise<X>` type reference. */
function promiseArgument(node: Node): TypeNode | undefined {
  if (!Node.isTypeReference(node) || node.getTypeName().getText() !== 'Promise') return undefined;
  const args = node.getTypeArguments();
  return args.length === 1 ? args[0] : undefined;
}

function isTopType(node: Node): boolean {
  return node.getKind() === SyntaxKind.AnyKeyword || node.getKind() === SyntaxKind.UnknownKeyword;
}

function unparenthesized(node: Node): Node {
  let current = node;
  while (Node.isParenthesizedTypeNode(current)) current = current.getTypeNode();
  return current;
}

/** The return type `fn` declares, when its file has type syntax. */
function declaredReturnType(fn: Node): Node | undefined {
  if (flavourOf(fn.getSourceFile()) !== 'ts') return undefined;
  return (fn as unknown as { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.();
}

/** Why `fn`'s declared return type cannot admit the input_required result (no Promise member), or undefined; `what` names `fn`. */
export function returnTypeObstacle(fn: Node, what: string): string | undefined {
  const returnType = declaredReturnType(fn);
  if (!returnType || widenForInputRequired(returnType).kind !== 'no-promise') return undefined;
  return `${what} declares return type \`${returnType.getText()}\`, not a Promise`;
}

/**
 * A handler that declares its result type (`async (req): Promise<CallToolResult> => ...`, a named
 * `async function handleX(...): Promise<CallToolResult>`) must admit the input_required result it
 * now returns (planning checked it can: returnTypeObstacle).
 */
export function returnTypeEdits(fn: Node, fw: FileWork, what: string): TextEdit[] {
  const returnType = declaredReturnType(fn);
  if (!returnType) return [];
  const widening = widenForInputRequired(returnType);
  if (widening.kind === 'admits') return [];
  if (widening.kind === 'no-promise') return unplanned(returnTypeObstacle(fn, what) ?? `${what} has no Promise return type`);
  fw.types.add(INPUT_REQUIRED_TYPE);
  return widening.edits;
}
