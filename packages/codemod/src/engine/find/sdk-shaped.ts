/**
 * Receivers typed by a project's own declaration of the slice of the SDK server it uses:
 *
 *   interface Wired { elicitInput(p: ElicitRequest['params']): Promise<ElicitResult> }
 *   let wired: Wired | undefined;   // assigned `server.server` at start-up
 *   await wired!.elicitInput({ message, requestedSchema });
 *
 * The method is a signature in an interface or type literal (no body of the project's own: an
 * implemented `elicitInput` is a look-alike, or a wrapper whose own request is the site), and its
 * parameter and result have the SDK request's shape: typed with the SDK's own types, or
 * structurally (`message` in, `action` out for elicitation; `messages` + `maxTokens` in for
 * sampling; `roots` out for roots). Needs type information; without it nothing matches.
 */
import { Node, type Type } from 'ts-morph';
import { classifyType, isInNodeModules, safeType, unwrapExpression } from './resolve.js';

/** Properties the first parameter must have, and the awaited result, per SDK server method. */
const SHAPES: Readonly<Record<string, { params: readonly string[]; result: readonly string[] }>> = {
  elicitInput: { params: ['message'], result: ['action'] },
  createMessage: { params: ['messages', 'maxTokens'], result: ['content'] },
  listRoots: { params: [], result: ['roots'] },
};

export function declaresSdkRequestMethod(receiver: Node | undefined, method: string): boolean {
  const shape = SHAPES[method];
  const node = unwrapExpression(receiver);
  if (!shape || !node) return false;
  const type = safeType(node);
  if (!type || type.isAny() || type.isUnknown()) return false;
  const candidates = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isUndefined() && !t.isNull()) : [type];
  return candidates.length > 0 && candidates.every((t) => declaresShapedSignature(t, method, shape, node));
}

function declaresShapedSignature(type: Type, method: string, shape: { params: readonly string[]; result: readonly string[] }, at: Node): boolean {
  const property = type.getProperty(method);
  if (!property) return false;
  const declarations = property.getDeclarations();
  if (declarations.length === 0) return false;
  if (!declarations.every((d) => (Node.isMethodSignature(d) || Node.isPropertySignature(d)) && !isInNodeModules(d))) return false;
  const signatures = property.getTypeAtLocation(at).getCallSignatures();
  if (signatures.length === 0) return false;
  return signatures.every((signature) => {
    const first = signature.getParameters()[0];
    const paramType = first ? first.getTypeAtLocation(at) : undefined;
    if (shape.params.length > 0 && (!paramType || !hasShape(paramType, shape.params))) return false;
    const awaited = promisedType(signature.getReturnType());
    return awaited !== undefined && hasShape(awaited, shape.result);
  });
}

/** `T` of `Promise<T>`; undefined for anything else. */
function promisedType(type: Type): Type | undefined {
  const symbol = type.getSymbol() ?? type.getAliasSymbol();
  if (symbol?.getName() !== 'Promise') return undefined;
  return type.getTypeArguments()[0];
}

/** Every named property present (on each member of a union), or the type is the SDK's own. */
function hasShape(type: Type, properties: readonly string[]): boolean {
  if (classifyType(type) === 'mcp') return true;
  if (type.isAny() || type.isUnknown()) return false;
  const members = type.isUnion() ? type.getUnionTypes() : [type];
  return members.every((m) => properties.every((p) => m.getProperty(p) !== undefined));
}
