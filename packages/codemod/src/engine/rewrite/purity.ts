/**
 * Effect analysis: can this code run again on a later round without changing behaviour?
 * Conservative and syntactic (helped by declarations): an unknown call is an effect.
 * `console.*` is treated as benign (a repeated debug line does not change behaviour);
 * MCP notifications (`ctx.mcpReq.log`, `sendLoggingMessage`) are effects.
 */
import { Node, SyntaxKind } from 'ts-morph';
import { functionOfDeclaration, declarationOf } from '../find/index.js';

/** Global functions and namespaces whose calls have no observable effect. */
const PURE_GLOBAL_CALLS = new Set([
  'String', 'Number', 'Boolean', 'BigInt', 'Symbol', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'structuredClone',
]);
const PURE_NAMESPACES = new Set(['Math', 'JSON', 'Object', 'Array', 'Number', 'String', 'path', 'z', 'console', 'Date', 'url', 'URL']);
/** Object methods that mutate their receiver or perform effects, even on a pure namespace. */
const IMPURE_NAMESPACE_MEMBERS = new Set(['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf', 'freeze', 'seal', 'now', 'random']);
/** Methods on values (strings, arrays, maps, zod schemas) that do not mutate or perform effects. */
const PURE_METHODS = new Set([
  'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'split', 'join',
  'slice', 'substring', 'substr', 'concat', 'includes', 'startsWith', 'endsWith', 'indexOf', 'lastIndexOf', 'replace',
  'replaceAll', 'padStart', 'padEnd', 'repeat', 'at', 'charAt', 'charCodeAt', 'match', 'matchAll', 'search', 'test',
  'map', 'filter', 'find', 'findIndex', 'findLast', 'some', 'every', 'reduce', 'flat', 'flatMap', 'keys', 'values',
  'entries', 'toString', 'toFixed', 'toISOString', 'toJSON', 'valueOf', 'localeCompare', 'normalize', 'get', 'has',
  'getClientCapabilities', 'getClientVersion', 'object', 'string', 'number', 'boolean', 'array', 'enum', 'optional',
  'describe', 'default', 'min', 'max', 'email', 'url', 'uuid', 'nullable', 'literal', 'union', 'parse', 'safeParse',
  'toSorted', 'toReversed', 'with', 'stringify', 'isArray', 'isInteger', 'fromEntries', 'basename', 'dirname', 'extname',
  'resolve', 'relative', 'format', 'floor', 'ceil', 'round', 'abs', 'trunc', 'sign',
]);
const PURE_CONSTRUCTORS = new Set(['Error', 'TypeError', 'RangeError', 'URL', 'URLSearchParams', 'Map', 'Set', 'RegExp', 'McpError', 'ProtocolError']);

export interface EffectFinding {
  node: Node;
  description: string;
}

/**
 * First node in `nodes` (in order) that may have an effect, or undefined when all are pure.
 * `locals` are nodes whose declarations are local to the code being re-run: assigning them is fine.
 */
export function firstEffect(nodes: Node[], localScope: Node, depth = 0): EffectFinding | undefined {
  for (const node of nodes) {
    const found = effectIn(node, localScope, depth);
    if (found) return found;
  }
  return undefined;
}

function effectIn(root: Node, localScope: Node, depth: number): EffectFinding | undefined {
  let found: EffectFinding | undefined;
  const visit = (node: Node): void => {
    if (found) return;
    if (Node.isCallExpression(node)) {
      if (!isPureCall(node, depth)) found = { node, description: abbreviate(node.getText()) };
    } else if (Node.isNewExpression(node)) {
      const name = node.getExpression().getText();
      if (!PURE_CONSTRUCTORS.has(name)) found = { node, description: abbreviate(node.getText()) };
    } else if (Node.isBinaryExpression(node) && isAssignmentOperator(node.getOperatorToken().getKind())) {
      if (!isLocalTarget(node.getLeft(), localScope)) found = { node, description: abbreviate(node.getText()) };
    } else if ((Node.isPrefixUnaryExpression(node) || Node.isPostfixUnaryExpression(node)) && isIncDec(node.getOperatorToken())) {
      if (!isLocalTarget(node.getOperand(), localScope)) found = { node, description: abbreviate(node.getText()) };
    } else if (Node.isDeleteExpression(node) || Node.isYieldExpression(node)) {
      found = { node, description: abbreviate(node.getText()) };
    } else if (Node.isTaggedTemplateExpression(node)) {
      found = { node, description: abbreviate(node.getText()) };
    }
    if (!found) node.forEachChild(visit);
  };
  visit(root);
  return found;
}

function isIncDec(kind: SyntaxKind): boolean {
  return kind === SyntaxKind.PlusPlusToken || kind === SyntaxKind.MinusMinusToken;
}

function isAssignmentOperator(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}

/** Assignment target declared inside `localScope` (a variable of the re-run code). */
function isLocalTarget(target: Node, localScope: Node): boolean {
  if (Node.isIdentifier(target)) {
    const decl = declarationOf(target);
    return !!decl && decl.getPos() >= localScope.getPos() && decl.getEnd() <= localScope.getEnd();
  }
  if (Node.isArrayLiteralExpression(target) || Node.isObjectLiteralExpression(target)) {
    return target.getDescendantsOfKind(SyntaxKind.Identifier).every((id) => isLocalTarget(id, localScope) || Node.isPropertyAssignment(id.getParent()));
  }
  return false;
}

function isPureCall(call: Node & { getExpression(): Node }, depth: number): boolean {
  const callee = call.getExpression();
  if (Node.isIdentifier(callee)) {
    if (PURE_GLOBAL_CALLS.has(callee.getText())) return true;
    return isPureProjectFunction(callee, depth);
  }
  if (Node.isPropertyAccessExpression(callee)) {
    const name = callee.getName();
    const receiver = callee.getExpression();
    if (Node.isIdentifier(receiver) && PURE_NAMESPACES.has(receiver.getText())) {
      if (receiver.getText() === 'console') return true;
      return !IMPURE_NAMESPACE_MEMBERS.has(name);
    }
    if (PURE_METHODS.has(name)) return true;
    return isPureProjectFunction(callee.getNameNode(), depth);
  }
  return false;
}

/** A project function (same or imported file) whose body is itself free of effects. */
function isPureProjectFunction(nameNode: Node, depth: number): boolean {
  if (depth >= 3) return false;
  const fn = functionOfDeclaration(declarationOf(nameNode));
  if (!fn || fn.getSourceFile().isInNodeModules() || fn.getSourceFile().isDeclarationFile()) return false;
  const body = fn.getBody?.();
  if (!body) return false;
  if (body.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0) return false;
  return firstEffect([body], fn, depth + 1) === undefined;
}

export function abbreviate(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
