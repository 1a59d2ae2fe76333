/**
 * Effect analysis: can this code run again on a later round without changing behaviour?
 * Conservative and syntactic (helped by declarations): an unknown call is an effect.
 * `console.*` is treated as benign (a repeated debug line does not change behaviour);
 * MCP notifications (`ctx.mcpReq.log`, `sendLoggingMessage`) are effects.
 */
import { Node, SyntaxKind, type VariableDeclaration } from 'ts-morph';
import { functionOfDeclaration, declarationOf, unwrapExpression } from '../find/index.js';
import { isMemoisingFunction } from './memoised.js';

/** Global functions and namespaces whose calls have no observable effect. */
const PURE_GLOBAL_CALLS = new Set([
  'String', 'Number', 'Boolean', 'BigInt', 'Symbol', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'structuredClone',
]);
const PURE_NAMESPACES = new Set(['Math', 'JSON', 'Object', 'Array', 'Number', 'String', 'path', 'z', 'console', 'Date', 'url', 'URL']);
/** `path.posix` and `path.win32` hold the same pure functions as `path`. */
const PATH_VARIANTS = new Set(['posix', 'win32']);
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

/** The first effect of each of `nodes` that has one, in order, at most `limit`. */
export function effectsIn(nodes: Node[], localScope: Node, limit: number): EffectFinding[] {
  const found: EffectFinding[] = [];
  for (const node of nodes) {
    const effect = effectIn(node, localScope, 0);
    if (effect) found.push(effect);
    if (found.length >= limit) break;
  }
  return found;
}

function effectIn(root: Node, localScope: Node, depth: number): EffectFinding | undefined {
  let found: EffectFinding | undefined;
  const visit = (node: Node): void => {
    if (found) return;
    if (Node.isCallExpression(node)) {
      if (!isPureCall(node, depth) && !mutatesFreshLocal(node, localScope)) found = { node, description: abbreviate(node.getText()) };
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
    if (!found && !onlyCalledByName(node, localScope)) node.forEachChild(visit);
  };
  visit(root);
  return found;
}

/**
 * A function the code defines under a name and only ever calls by that name (`const isAbsolute =
 * (v) => path.posix.isAbsolute(v)`, then `isAbsolute(p)`): defining it runs nothing, and each call
 * is judged where it is made, through the function's body (isPureProjectFunction). Its body is not
 * code of the definition. A function passed as a value (`items.map(f)`, a callback) is not skipped:
 * its body runs wherever it is handed to. Checked by name within the re-run code (a same-named
 * identifier used any other way keeps the body in).
 */
function onlyCalledByName(node: Node, localScope: Node): boolean {
  let name: Node | undefined;
  if (Node.isFunctionDeclaration(node)) name = node.getNameNode();
  else if ((Node.isArrowFunction(node) || Node.isFunctionExpression(node)) && Node.isVariableDeclaration(node.getParent())) {
    const declared = (node.getParent() as VariableDeclaration).getNameNode();
    if (Node.isIdentifier(declared)) name = declared;
  }
  if (!name) return false;
  const text = name.getText();
  const uses = localScope.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id !== name && id.getText() === text);
  return uses.length > 0 && uses.every((id) => {
    const parent = id.getParent();
    return !!parent && Node.isCallExpression(parent) && parent.getExpression() === id;
  });
}

function isIncDec(kind: SyntaxKind): boolean {
  return kind === SyntaxKind.PlusPlusToken || kind === SyntaxKind.MinusMinusToken;
}

function isAssignmentOperator(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}

/**
 * Assignment target declared inside `localScope` (a variable of the re-run code), or a property of
 * a collection such a variable makes right there (`params['filter'] = v` after
 * `const params = { ... }`; see `holdsFreshCollection`).
 */
function isLocalTarget(target: Node, localScope: Node): boolean {
  if (Node.isPropertyAccessExpression(target) || Node.isElementAccessExpression(target)) {
    const owner = target.getExpression();
    return Node.isIdentifier(owner) && holdsFreshCollection(owner, localScope);
  }
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
    // node:path's platform variants: `path.posix.isAbsolute(p)`, `path.win32.join(a, b)`
    if (Node.isPropertyAccessExpression(receiver) && PATH_VARIANTS.has(receiver.getName()) && receiver.getExpression().getText() === 'path') return true;
    if (PURE_METHODS.has(name)) return true;
    if (name === 'bind' && isFunctionValue(receiver)) return true;
    // `log.debug(...)`, `this.logger.trace(...)`: a repeated debug line changes nothing, like console.*.
    if (DEBUG_LOG_METHODS.has(name) && LOGGER_NAME.test(receiverName(receiver))) return true;
    return isPureProjectFunction(callee.getNameNode(), depth);
  }
  return false;
}

/** Methods that change the array, map or set they are called on, and nothing else. */
const COLLECTION_MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'set', 'add', 'delete', 'clear']);
/** Calls that return a new array (a local initialised with one owns it). */
const FRESH_ARRAY_METHODS = new Set(['map', 'filter', 'slice', 'concat', 'flat', 'flatMap', 'toSorted', 'toReversed', 'split', 'from', 'of', 'keys', 'values', 'entries']);

/**
 * `reasons.push(x)` on a local of the re-run code that holds a collection made right there
 * (`const reasons: string[] = []`, `new Map()`, `xs.filter(...)`): the collection is made again on
 * every run, so changing it is invisible outside.
 */
function mutatesFreshLocal(call: Node & { getExpression(): Node }, localScope: Node): boolean {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !COLLECTION_MUTATORS.has(callee.getName())) return false;
  const receiver = callee.getExpression();
  return Node.isIdentifier(receiver) && holdsFreshCollection(receiver, localScope);
}

/**
 * A `const` of the re-run code initialised with a collection made right there (`[]`, `{ ... }`,
 * `new Map()`, `xs.filter(...)`): it is made again on every run, so changing it, or one of its own
 * properties, is invisible outside. Only its own properties: a nested one (`p.inner.x = v`) may be
 * an object from outside that the literal holds. Anything that could let it escape first (stored
 * on a non-local, passed to a call that writes) is an effect of its own, found before this write.
 */
function holdsFreshCollection(id: Node, localScope: Node): boolean {
  if (!isLocalTarget(id, localScope)) return false;
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl)) return false;
  // Reassigned elsewhere, it may hold someone else's collection by the time it is changed.
  if (decl.getVariableStatement()?.getDeclarationKind() !== 'const') return false;
  return isFreshCollection(decl.getInitializer());
}

function isFreshCollection(init: Node | undefined): boolean {
  const node = unwrapExpression(init);
  if (!node) return false;
  if (Node.isArrayLiteralExpression(node)) return true;
  // A setter, or a prototype given with `__proto__`, would run code of its own on a property write.
  if (Node.isObjectLiteralExpression(node)) return node.getProperties().every((p) => !Node.isSetAccessorDeclaration(p) && !(Node.isPropertyAssignment(p) && p.getName().replace(/^['"]|['"]$/g, '') === '__proto__'));
  if (Node.isNewExpression(node)) return /^(Map|Set|Array)$/.test(node.getExpression().getText());
  if (Node.isCallExpression(node)) {
    const callee = node.getExpression();
    return Node.isPropertyAccessExpression(callee) && FRESH_ARRAY_METHODS.has(callee.getName());
  }
  return false;
}

/**
 * `fn.bind(thisArg)` only makes a new function. The receiver must be a function (a socket's
 * `server.bind(port)` is not): typed callable, or one of the SDK's request methods by name.
 */
function isFunctionValue(receiver: Node): boolean {
  if (Node.isPropertyAccessExpression(receiver) && BOUND_SDK_METHODS.has(receiver.getName())) return true;
  try {
    const type = receiver.getType();
    return !type.isAny() && type.getCallSignatures().length > 0;
  } catch {
    return false;
  }
}

const DEBUG_LOG_METHODS = new Set(['debug', 'trace']);
const LOGGER_NAME = /^(log|logger|_logger|LOG|LOGGER)$|Logger$/;

function receiverName(receiver: Node): string {
  if (Node.isIdentifier(receiver)) return receiver.getText();
  if (Node.isPropertyAccessExpression(receiver)) return receiver.getName();
  return '';
}

const BOUND_SDK_METHODS = new Set(['elicitInput', 'createMessage', 'listRoots', 'sendRequest', 'request']);

/**
 * A project function (same or imported file) whose body is itself free of effects, or a lazy
 * singleton whose effects run only while its cache is unset (memoised.ts): called again, it finds
 * the cache filled and does nothing new.
 */
function isPureProjectFunction(nameNode: Node, depth: number): boolean {
  if (depth >= 3) return false;
  const fn = functionOfDeclaration(declarationOf(nameNode));
  if (!fn || fn.getSourceFile().isInNodeModules() || fn.getSourceFile().isDeclarationFile()) return false;
  const body = fn.getBody?.();
  if (!body) return false;
  if (isMemoisingFunction(fn, depth, firstEffect)) return true;
  if (body.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0) return false;
  return firstEffect([body], fn, depth + 1) === undefined;
}

export function abbreviate(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
