/**
 * Lazy singletons: a project function that fills a cache held at module level (`let client`, a
 * `const cache = new Map()`) only while that cache is unset, and
 * does its work (a client built, a connection awaited) only on that path. Once a call has run, a
 * repeated call with the same inputs finds the cache filled and does nothing new, so the code
 * before a request may call it again on every round.
 *
 * Strict by design (a wrong migration is worse than a flag): the guarded path must fill the
 * cache unconditionally at its top level, with a value that passes the check on the next call
 * (typed as an object for a truthiness check), and write nothing else outside the function. The
 * cache is written nowhere else in the project, so nothing (the handler, another cache's guarded
 * path, another request between rounds) clears it. Outside the guarded path the function is free
 * of effects and awaits.
 */
import { Node, SyntaxKind, type Statement } from 'ts-morph';
import { declarationOf, functionOfDeclaration, unwrapExpression } from '../find/index.js';
import { referencesOf } from '../find/resolve.js';

/** firstEffect of purity.ts, passed in so that this module does not import it back. */
export type EffectProbe = (nodes: Node[], localScope: Node, depth: number) => unknown;

/** The cache a check reads: a variable, or one key of a module-level Map. */
interface Slot {
  variable: Node;
  key?: string;
  /** The filling value must be truthy (`if (client)`), or only not nullish (`client != null`), or anything (`has(k)`). */
  needs: 'truthy' | 'defined' | 'any';
}

/** `fn` is a lazy singleton whose repeated call with the same inputs does nothing new. */
export function isMemoisingFunction(fn: Node, depth: number, firstEffect: EffectProbe): boolean {
  const body = (fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  if (!body || !Node.isBlock(body)) return false;
  const statements = body.getStatements();
  let guarded = false;
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    if (Node.isIfStatement(s) && !s.getElseStatement() && isPure(s.getExpression(), fn, depth, firstEffect)) {
      const early = earlyReturnGuard(s, fn, depth, firstEffect);
      if (early) return fillsOnlyThen(early, statements.slice(i + 1), fn);
      const unset = slotOf(s.getExpression(), fn, true);
      if (unset) {
        if (!fillsOnlyThen(unset, blockStatements(s.getThenStatement()), fn)) return false;
        guarded = true;
        continue;
      }
    }
    if (s.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0 || !isPure(s, fn, depth, firstEffect)) return false;
  }
  return guarded;
}

function isPure(node: Node, fn: Node, depth: number, firstEffect: EffectProbe): boolean {
  return node.getDescendantsOfKind(SyntaxKind.AwaitExpression).length === 0 && !Node.isAwaitExpression(node) && firstEffect([node], fn, depth + 1) === undefined;
}

function blockStatements(node: Statement): Statement[] {
  return Node.isBlock(node) ? node.getStatements() : [node];
}

/** `if (cached) return cached;`, `if (cache.has(k)) return cache.get(k);`: the slot the rest of the body runs without. */
function earlyReturnGuard(s: Node & { getExpression(): Node; getThenStatement(): Statement }, fn: Node, depth: number, firstEffect: EffectProbe): Slot | undefined {
  const then = blockStatements(s.getThenStatement());
  const ret = then.length === 1 ? then[0] : undefined;
  if (!ret || !Node.isReturnStatement(ret)) return undefined;
  const value = ret.getExpression();
  if (value && !isPure(value, fn, depth, firstEffect)) return undefined;
  return slotOf(s.getExpression(), fn, false);
}

/**
 * The slot a condition checks: filled (`negated` false: `client`, `client != null`,
 * `cache.has(k)`, `hit` for `const hit = cache.get(k)`) or unset (`negated` true: `!client`,
 * `client === undefined`, `!cache.has(k)`).
 */
function slotOf(condition: Node, fn: Node, negated: boolean): Slot | undefined {
  const c = unwrapExpression(condition) ?? condition;
  if (Node.isPrefixUnaryExpression(c) && c.getOperatorToken() === SyntaxKind.ExclamationToken) return slotOf(c.getOperand(), fn, !negated);
  if (Node.isBinaryExpression(c)) {
    const op = c.getOperatorToken().getKind();
    const eq = op === SyntaxKind.EqualsEqualsEqualsToken || op === SyntaxKind.EqualsEqualsToken;
    const ne = op === SyntaxKind.ExclamationEqualsEqualsToken || op === SyntaxKind.ExclamationEqualsToken;
    const right = c.getRight().getText();
    if ((!eq && !ne) || !/^(null|undefined)$/.test(right)) return undefined;
    // `x === null` misses `undefined` and the reverse: only the loose form or a typed match is sure.
    if (op !== SyntaxKind.EqualsEqualsToken && op !== SyntaxKind.ExclamationEqualsToken && !onlyNullish(c.getLeft(), right)) return undefined;
    // `x == null` checks that x is unset, like `!x`; `x != null` that it is filled, like `x`
    const slot = slotOf(c.getLeft(), fn, eq ? !negated : negated);
    return slot && { ...slot, needs: slot.needs === 'any' ? 'any' : 'defined' };
  }
  // what is left are checks that the slot is filled: `client`, `cache.has(k)`, `hit`
  if (negated) return undefined;
  if (Node.isCallExpression(c)) {
    const has = mapCall(c, 'has');
    return has && { ...has, needs: 'any' };
  }
  if (Node.isIdentifier(c)) {
    const variable = cacheVariable(c, fn);
    if (variable) return { variable, needs: 'truthy' };
    // `const hit = cache.get(k); if (hit) return hit;`
    const decl = declarationOf(c);
    if (decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const' && fn.containsRange(decl.getPos(), decl.getEnd())) {
      const init = unwrapExpression(decl.getInitializer());
      const get = init && Node.isCallExpression(init) ? mapCall(init, 'get') : undefined;
      if (get) return { ...get, needs: 'truthy' };
    }
  }
  return undefined;
}

/** `x === null` where `x` can never be undefined (and the reverse), from its declared type. */
function onlyNullish(left: Node, literal: string): boolean {
  try {
    const type = left.getType();
    const other = literal === 'null' ? 'undefined' : 'null';
    return !type.isAny() && !type.isUnknown() && !(type.isUnion() ? type.getUnionTypes() : [type]).some((t) => t.getText() === other);
  } catch {
    return false;
  }
}

/**
 * A module-level `let`/`var` that only `fn` writes. Not one of an enclosing function: a server
 * factory may build a new instance (and with it a new, empty cache) per connection or per request,
 * so a later round could find it unset.
 */
function cacheVariable(id: Node, fn: Node): Node | undefined {
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return undefined;
  if (!isModuleLevel(decl) || decl.getSourceFile() !== fn.getSourceFile()) return undefined;
  if (decl.getVariableStatement()?.getDeclarationKind() === 'const') return undefined;
  return writtenOnlyIn(decl, fn, false) ? decl : undefined;
}

function isModuleLevel(decl: Node): boolean {
  return Node.isSourceFile(decl.getParent()?.getParent()?.getParent());
}

/** `cache.has(k)` / `cache.get(k)` on a module-level `const cache = new Map()` that only `fn` changes. */
function mapCall(call: Node & { getExpression(): Node; getArguments(): Node[] }, method: 'has' | 'get'): Omit<Slot, 'needs'> | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== method || call.getArguments().length !== 1) return undefined;
  const receiver = callee.getExpression();
  if (!Node.isIdentifier(receiver)) return undefined;
  const decl = declarationOf(receiver);
  const fn = call.getFirstAncestor((a) => functionOfDeclaration(a) === a);
  if (!fn || !decl || !Node.isVariableDeclaration(decl) || !isModuleLevel(decl)) return undefined;
  if (decl.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
  const init = unwrapExpression(decl.getInitializer());
  if (!init || !Node.isNewExpression(init) || init.getExpression().getText() !== 'Map') return undefined;
  if (!writtenOnlyIn(decl, fn, true)) return undefined;
  const key = call.getArguments()[0]!;
  if (!stableKey(key, fn)) return undefined;
  return { variable: decl, key: key.getText() };
}

/** The key names only parameters or consts that `fn` never reassigns. */
function stableKey(key: Node, fn: Node): boolean {
  const ids = Node.isIdentifier(key) ? [key] : key.getDescendantsOfKind(SyntaxKind.Identifier);
  if (!Node.isIdentifier(key) && !Node.isPropertyAccessExpression(key) && !Node.isTemplateExpression(key) && !Node.isStringLiteral(key)) return false;
  return ids.every((id) => {
    if (Node.isPropertyAccessExpression(id.getParent()) && (id.getParent() as Node & { getNameNode(): Node }).getNameNode() === id) return true;
    const decl = declarationOf(id);
    if (!decl) return false;
    if (Node.isParameterDeclaration(decl)) return !fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => b.getOperatorToken().getKind() === SyntaxKind.EqualsToken && b.getLeft().getText() === id.getText());
    return Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const';
  });
}

/**
 * Every write of the variable declared by `decl` (an assignment, `++`, a Map mutator) is inside `fn`:
 * no other code, in the handler or elsewhere, clears or changes the cache.
 */
function writtenOnlyIn(decl: Node & { getNameNode(): Node }, fn: Node, isMap: boolean): boolean {
  const name = decl.getNameNode();
  if (!Node.isIdentifier(name)) return false;
  // Unknown references: a write elsewhere cannot be ruled out.
  const refs = referencesOf(name);
  if (!refs) return false;
  return refs.every((ref) => ref === name || fn.containsRange(ref.getPos(), ref.getEnd()) || !isWrite(ref, isMap));
}

const MAP_MUTATORS = new Set(['set', 'delete', 'clear']);

function isWrite(ref: Node, isMap: boolean): boolean {
  const parent = ref.getParent();
  if (!parent) return false;
  if (isAssignedTo(ref)) return true;
  if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())) return true;
  if (!isMap) return false;
  // `cache.set(...)`, `cache.clear()`, or any method but a read
  if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref) return MAP_MUTATORS.has(parent.getName()) || !['get', 'has', 'size'].includes(parent.getName());
  // the Map handed on (passed to a call, stored, returned) may be changed there
  return Node.isCallExpression(parent) || Node.isPropertyAssignment(parent) || Node.isShorthandPropertyAssignment(parent) || Node.isArrayLiteralExpression(parent) || Node.isReturnStatement(parent);
}

/** `ref` is (part of) an assignment's target: `x = v`, `[x] = v`, `({ x } = v)`, `for (x of xs)`. */
function isAssignedTo(ref: Node): boolean {
  let node = ref;
  let parent = node.getParent();
  while (parent && (Node.isArrayLiteralExpression(parent) || Node.isObjectLiteralExpression(parent) || Node.isShorthandPropertyAssignment(parent) || Node.isPropertyAssignment(parent) || Node.isSpreadElement(parent) || Node.isSpreadAssignment(parent) || Node.isParenthesizedExpression(parent))) {
    if (Node.isPropertyAssignment(parent) && parent.getInitializer() !== node) return false;
    node = parent;
    parent = node.getParent();
  }
  if (!parent) return false;
  if (Node.isBinaryExpression(parent)) return parent.getLeft() === node && isAssignment(parent.getOperatorToken().getKind());
  return (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) && parent.getInitializer() === node;
}

function isAssignment(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}

/**
 * `statements` run only while `slot` is unset: one of them fills it at their top level with a
 * value that passes the check next time, and they write nothing else outside `fn` (every write of
 * the slot passes the check). What the functions they call do runs once, like the first call: it
 * cannot unset this cache or another recognised one, which only their own function writes.
 */
function fillsOnlyThen(slot: Slot, statements: Statement[], fn: Node): boolean {
  const fill = statements.findIndex((s) => {
    const e = Node.isExpressionStatement(s) || Node.isReturnStatement(s) ? unwrapExpression(s.getExpression()) : undefined;
    return !!e && fillValue(e, slot) !== undefined && passesCheck(fillValue(e, slot)!, slot);
  });
  if (fill < 0) return false;
  // a return or throw before the fill would leave the cache unset after the effects before it
  if (statements.slice(0, fill).some((s) => leaves(s, fn))) return false;
  return statements.every((s) => writesOnly(s, slot, fn));
}

/** `s` may return or throw out of `fn` (a return or throw of a nested function does not). */
function leaves(s: Node, fn: Node): boolean {
  if (Node.isReturnStatement(s) || Node.isThrowStatement(s)) return true;
  const exits = [...s.getDescendantsOfKind(SyntaxKind.ReturnStatement), ...s.getDescendantsOfKind(SyntaxKind.ThrowStatement)];
  return exits.some((x) => x.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) === fn);
}

/** The value `e` stores in the slot (`client = E`, `cache.set(k, E)`), or undefined. */
function fillValue(e: Node, slot: Slot): Node | undefined {
  if (Node.isBinaryExpression(e) && e.getOperatorToken().getKind() === SyntaxKind.EqualsToken && slot.key === undefined) {
    const left = e.getLeft();
    return Node.isIdentifier(left) && declarationOf(left) === slot.variable ? e.getRight() : undefined;
  }
  if (Node.isCallExpression(e) && slot.key !== undefined) {
    const callee = e.getExpression();
    const args = e.getArguments();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'set' || args.length !== 2) return undefined;
    const receiver = callee.getExpression();
    return Node.isIdentifier(receiver) && declarationOf(receiver) === slot.variable && args[0]!.getText() === slot.key ? args[1] : undefined;
  }
  return undefined;
}

/** The stored value passes the slot's check on the next call: an object type for a truthiness check. */
function passesCheck(value: Node, slot: Slot): boolean {
  if (slot.needs === 'any') return true;
  try {
    const type = value.getType();
    const parts = type.isUnion() ? type.getUnionTypes() : [type];
    if (slot.needs === 'defined') return parts.every((t) => !t.isAny() && !t.isUnknown() && !t.isNull() && !t.isUndefined() && !t.isVoid());
    // `{}` and `Object` admit 0 and '' as well
    return parts.every((t) => (t.isObject() || t.isClass() || t.isInterface()) && !t.isAny() && !['{}', 'Object'].includes(t.getText()));
  } catch {
    return false;
  }
}

/** Every write in `root` to something declared outside `fn` is a fill of `slot`. */
function writesOnly(root: Node, slot: Slot, fn: Node): boolean {
  const outside = (target: Node): boolean => {
    const base = rootIdentifier(target);
    const decl = base && declarationOf(base);
    return !decl || !fn.containsRange(decl.getPos(), decl.getEnd());
  };
  for (const b of root.getDescendantsOfKind(SyntaxKind.BinaryExpression).concat(Node.isBinaryExpression(root) ? [root] : [])) {
    if (!isAssignment(b.getOperatorToken().getKind()) || !outside(b.getLeft())) continue;
    const value = fillValue(b, slot);
    if (value === undefined || !passesCheck(value, slot)) return false;
  }
  for (const u of [...root.getDescendantsOfKind(SyntaxKind.PrefixUnaryExpression), ...root.getDescendantsOfKind(SyntaxKind.PostfixUnaryExpression)]) {
    if ([SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(u.getOperatorToken()) && outside(u.getOperand())) return false;
  }
  if (root.getDescendantsOfKind(SyntaxKind.DeleteExpression).length > 0) return false;
  for (const call of root.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !MAP_MUTATORS.has(callee.getName()) && !['push', 'pop', 'shift', 'unshift', 'splice', 'add', 'sort', 'reverse', 'fill'].includes(callee.getName())) continue;
    const value = outside(callee.getExpression()) ? fillValue(call, slot) : null;
    if (value === undefined || (value && !passesCheck(value, slot))) return false;
  }
  return true;
}

function rootIdentifier(target: Node): Node | undefined {
  let node: Node | undefined = unwrapExpression(target) ?? target;
  while (node && (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node))) node = unwrapExpression(node.getExpression());
  return node && Node.isIdentifier(node) ? node : undefined;
}
