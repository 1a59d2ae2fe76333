/**
 * Analyse: where, in a handler (or helper), a legacy request is awaited, and what receives its
 * answer. A "request point" is the statement that awaits it; everything the rewrite emits is
 * anchored on that statement. Shapes the rewrite cannot prove safe throw `Obstacle` with the
 * specific reason that ends up in the report.
 */
import { Node, SyntaxKind, type CallExpression, type Statement } from 'ts-morph';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import type { CallPathStep, Site } from '../model.js';
import { unwrapExpression, valueParent } from '../find/index.js';
import { abbreviate, firstEffect } from './purity.js';
import { reportLineIn, reportPlace, reportPlaceIn } from '../report-lines.js';

export class Obstacle extends Error {}

export type Binding =
  | { kind: 'declare'; declKind: 'const' | 'let' | 'var'; target: string; name?: string; typeText?: string }
  | { kind: 'assign'; target: string }
  | { kind: 'discard' }
  /** The awaited value is used inside `statement` (`if (!(await confirm(...)))`): hoisted into a const before it. */
  | { kind: 'hoist'; awaitNode: Node; guard?: ShortCircuit };

/**
 * `if (amount > 100 && !(await approve(...)))`, `const title = given ?? (await askTitle(...))`: the
 * awaited helper call runs only when the (pure) left operand lets it; the hoisted call keeps that condition.
 */
export interface ShortCircuit {
  /** `?` / `:`: the call sits in the true / false branch of a conditional expression whose condition is `left`. */
  operator: '&&' | '||' | '??' | '?' | ':';
  left: Node;
}

/** What every request point has, whatever its kind. */
interface PointBase {
  statement: Statement;
  binding: Binding;
  sites: Site[];
  /** Wire keys, one per site (assigned by the planner). */
  keys: string[];
  /** Later independent requests asked in the same round as this one (write-once form only). */
  merged?: RequestPoint[];
  /** Leader of helper calls asked in one round, each in its own wrapper statement (wrapped-rounds.ts). */
  wrapped?: { units: Statement[] };
  /** Why this point, in sequence after the previous one, was not asked in the same round. */
  joinRefusal?: string;
  /** Set on a point asked together with an earlier one: only its binding stays in place. */
  mergedInto?: RequestPoint;
  /** `await x.elicitInput(...).then(cb)`: what receives the answer gets `await (cb)(answer)`. */
  then?: Node;
}

/** One awaited request. */
export interface DirectPoint extends PointBase {
  kind: 'direct';
}

/** Requests awaited together in one `Promise.all`, destructured into one variable each. */
export interface ParallelPoint extends PointBase {
  kind: 'parallel';
  /** Per-site binding names (array destructuring elements); empty until the points are checked. */
  elementNames: Array<string | undefined>;
}

/** An awaited call of a helper that makes the request (itself or through further helpers). */
export interface HelperPoint extends PointBase {
  kind: 'helper';
  /** The call in the handler and the helper function. */
  helperCall: CallExpression;
  helperFn: Node;
  /** The calls from `helperFn` on down to the helper that makes the request (empty when `helperFn` makes it). */
  innerPath: CallPathStep[];
}

/** `throw new UrlElicitationRequiredError([...])`. */
export interface UrlThrowPoint extends PointBase {
  kind: 'url-throw';
}

export type RequestPoint = DirectPoint | ParallelPoint | HelperPoint | UrlThrowPoint;

/** A point of a group that only helper calls form (merged or wrapped helper rounds). */
export function asHelperPoint(point: RequestPoint): HelperPoint {
  if (point.kind !== 'helper') throw new Error(`expected a helper call point, got a ${point.kind} point (line ${line(point.statement)})`);
  return point;
}

const LOOP_KINDS = new Set([
  SyntaxKind.ForStatement,
  SyntaxKind.ForInStatement,
  SyntaxKind.ForOfStatement,
  SyntaxKind.WhileStatement,
  SyntaxKind.DoStatement,
]);

export function isLoop(node: Node): boolean {
  return LOOP_KINDS.has(node.getKind());
}

/** How the legacy flag names a loop around a request (kept for the shapes the loop form does not take). */
export function loopFlag(what: string, loop: Node, why: string): Obstacle {
  const kind = loop.getKindName().replace('Statement', '').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  return new Obstacle(`${what} is inside a ${kind} loop (line ${line(loop)}): ${why}`);
}

/** The line a reason cites for `node`: in the file the user ran on (named when it is not the request's). */
export function line(node: Node): number | string {
  return reportPlace(node);
}

/** The nearest enclosing function-like node. */
export function enclosingFunction(node: Node): Node | undefined {
  return node.getFirstAncestor(
    (a) => Node.isFunctionDeclaration(a) || Node.isFunctionExpression(a) || Node.isArrowFunction(a) || Node.isMethodDeclaration(a) || Node.isConstructorDeclaration(a) || Node.isGetAccessorDeclaration(a) || Node.isSetAccessorDeclaration(a),
  );
}

function describeFunction(fn: Node): string {
  const parent = fn.getParent();
  if (parent && Node.isCallExpression(parent)) {
    const callee = parent.getExpression();
    const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
    return `a callback passed to \`${abbreviate(name, 30)}(...)\``;
  }
  return 'a nested function';
}

/** Checks the statement sits in `fn`'s own body under block/if/try/switch only. */
/** With `allowLoops`, plain loops are let through (the planner decides whether it can carry them in requestState). */
export function checkStatementPath(statement: Statement, fn: Node, what: string, allowLoops = false): void {
  const body = (fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  let node: Node = statement;
  while (node !== body) {
    const parent = node.getParent();
    if (!parent) throw new Obstacle(`${what} is not inside the handler body`);
    if (LOOP_KINDS.has(parent.getKind())) {
      const loop = parent.getKindName().replace('Statement', '').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
      const isForAwait = Node.isForOfStatement(parent) && parent.isAwaited();
      if (allowLoops && !isForAwait && !Node.isForInStatement(parent)) {
        node = parent;
        continue;
      }
      throw new Obstacle(
        isForAwait
          ? `${what} is inside a for-await loop over a stream: each iteration would need its own round and the stream position cannot be carried in requestState`
          : `${what} is inside a ${loop} loop (line ${line(parent)}): the loop position and accumulators would have to travel in requestState; not rewritten automatically`,
      );
    }
    if (Node.isTryStatement(parent) && parent.getFinallyBlock() === node) {
      throw new Obstacle(`${what} is inside a finally block (line ${line(parent)})`);
    }
    // Every round that stops to ask leaves the try block through the finally block: its effects would
    // run once per round instead of once.
    const finallyBlock = Node.isTryStatement(parent) ? parent.getFinallyBlock() : undefined;
    const finallyEffect = finallyBlock ? firstEffect(finallyBlock.getStatements(), fn) : undefined;
    if (finallyEffect) {
      throw new Obstacle(`${what} is inside a try statement whose finally block runs \`${abbreviate(finallyEffect.node.getText())}\` (line ${line(finallyEffect.node)}): it would run on every round instead of once`);
    }
    if (
      !(
        Node.isBlock(parent) ||
        Node.isIfStatement(parent) ||
        Node.isTryStatement(parent) ||
        Node.isCatchClause(parent) ||
        Node.isCaseClause(parent) ||
        Node.isDefaultClause(parent) ||
        Node.isCaseBlock(parent) ||
        Node.isSwitchStatement(parent) ||
        Node.isLabeledStatement(parent)
      )
    ) {
      throw new Obstacle(`${what} sits inside a ${parent.getKindName()} the rewrite does not restructure`);
    }
    node = parent;
  }
}

/** Request point for an awaited expression (a site call or a helper call) inside `fn`. */
export function pointForAwaited(expr: Node, fn: Node, what: string, allowShortCircuit = false): Omit<RequestPoint, 'kind' | 'sites' | 'keys'> & { then?: Node } {
  const owner = enclosingFunction(expr);
  if (owner !== fn) {
    if (owner) throw new Obstacle(`${what} is inside ${describeFunction(owner)}, not awaited by the handler itself`);
    throw new Obstacle(`${what} is not inside a function`);
  }
  const { parent, child, awaited } = valueParent(expr);
  if (!awaited) {
    if (parent && Node.isReturnStatement(parent)) {
      // `return helper(...)` in an async function outside a try block is `return await helper(...)`.
      if (isAsyncFunction(fn) && !insideTryBlock(parent, fn) && isListStatement(parent)) return { statement: parent, binding: { kind: 'hoist', awaitNode: child } };
      throw new Obstacle(`${what} is returned as a promise without await (line ${line(parent)})${isAsyncFunction(fn) ? ' inside a try block, where awaiting it would change which errors the catch sees' : ' from a function that is not async'}`);
    }
    const chained = parent?.getParent();
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === 'then' && parent.getExpression() === child && chained && Node.isCallExpression(chained) && chained.getExpression() === parent) {
      // `await request.then(cb)` is `await cb(await request)` when cb is a plain callback of the answer.
      const [cb, ...rest] = chained.getArguments();
      const usable = cb && rest.length === 0 && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb)) && cb.getParameters().length <= 1 && !cb.getDescendants().some((d) => d.getKind() === SyntaxKind.ThisKeyword);
      if (usable && valueParent(chained).awaited) return { ...pointForAwaited(chained, fn, what), then: cb };
    }
    if (parent && Node.isPropertyAccessExpression(parent) && /^(then|catch|finally)$/.test(parent.getName())) {
      throw new Obstacle(`${what} is consumed through a .${parent.getName()}() promise chain`);
    }
    throw new Obstacle(`${what} is not awaited: a detached request outlives the handler round`);
  }
  if (!parent) throw new Obstacle(`${what} has no enclosing statement`);
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === child) {
    const list = parent.getParent();
    const statement = list?.getParent();
    if (!list || !Node.isVariableDeclarationList(list) || !statement || !Node.isVariableStatement(statement)) {
      throw new Obstacle(`${what} initialises a variable outside a plain declaration statement`);
    }
    if (list.getDeclarations().length !== 1) throw new Obstacle(`${what} shares a declaration statement with other variables (line ${line(statement)})`);
    const nameNode = parent.getNameNode();
    const declKind = statement.getDeclarationKind() as 'const' | 'let' | 'var';
    return {
      statement,
      binding: {
        kind: 'declare',
        declKind,
        target: nameNode.getText(),
        name: Node.isIdentifier(nameNode) ? nameNode.getText() : undefined,
        typeText: parent.getTypeNode()?.getText(),
      },
    };
  }
  if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === child) {
    const statement = parent.getParent();
    if (!statement || !Node.isExpressionStatement(statement)) throw new Obstacle(`${what} is assigned inside a larger expression (line ${line(parent)})`);
    return { statement, binding: { kind: 'assign', target: parent.getLeft().getText() } };
  }
  if (Node.isExpressionStatement(parent)) return { statement: parent, binding: { kind: 'discard' } };
  return hoistable(child, what, allowShortCircuit);
}

function isAsyncFunction(fn: Node): boolean {
  return (fn as Node & { isAsync?: () => boolean }).isAsync?.() === true;
}

/** Whether `node` sits in the protected block of a `try` statement inside `fn`. */
function insideTryBlock(node: Node, fn: Node): boolean {
  for (let n: Node | undefined = node; n && n !== fn; n = n.getParent()) {
    const parent = n.getParent();
    if (parent && Node.isTryStatement(parent) && parent.getTryBlock() === n) return true;
  }
  return false;
}

/**
 * `if (!(await confirm(...)))`, `return (await x.elicitInput(...)).action === 'accept'`: the await can
 * move into a const right before its statement when it is evaluated unconditionally and first.
 */
function hoistable(awaitNode: Node, what: string, allowShortCircuit: boolean): Omit<RequestPoint, 'kind' | 'sites' | 'keys'> {
  let node: Node = awaitNode;
  let parent = node.getParent();
  let guard: ShortCircuit | undefined;
  while (parent && !isListStatement(parent)) {
    if (Node.isConditionalExpression(parent) && parent.getCondition() !== node) {
      const why = repeatableOperandProblem(parent.getCondition());
      if (!allowShortCircuit || guard || why) throw new Obstacle(`${what} is inside a conditional expression branch (line ${line(parent)})${allowShortCircuit && why ? `, and its condition ${why}` : ''}`);
      guard = { operator: parent.getWhenTrue() === node ? '?' : ':', left: parent.getCondition() };
    }
    if (Node.isBinaryExpression(parent) && parent.getRight() === node && /^(&&|\|\||\?\?|&&=|\|\|=|\?\?=)$/.test(parent.getOperatorToken().getText())) {
      const operator = parent.getOperatorToken().getText();
      const left = parent.getLeft();
      const why = repeatableOperandProblem(left);
      if (!allowShortCircuit || guard || !/^(&&|\|\||\?\?)$/.test(operator) || why) {
        throw new Obstacle(`${what} is on the short-circuited side of \`${operator}\` (line ${line(parent)})${allowShortCircuit && why ? `, and its left operand ${why}` : ''}`);
      }
      guard = { operator: operator as ShortCircuit['operator'], left };
    }
    if (Node.isStatement(parent) && !isListStatement(parent)) break;
    node = parent;
    parent = parent.getParent();
  }
  if (!parent || !isListStatement(parent)) throw new Obstacle(`${what}'s result is used inside an expression, not received by a statement`);
  const statement = parent as Statement;
  const head = headOf(statement);
  if (!head || !(head.getPos() <= awaitNode.getPos() && awaitNode.getEnd() <= head.getEnd())) {
    throw new Obstacle(`${what}'s result is used inside \`${abbreviate(statement.getText())}\`, not received by a statement`);
  }
  const before = head.getDescendants().filter((d) => d.getEnd() <= awaitNode.getStart() && (Node.isCallExpression(d) || Node.isAwaitExpression(d) || Node.isNewExpression(d)));
  if (before.length > 0) throw new Obstacle(`${what} is evaluated after \`${abbreviate(before[0]!.getText())}\` in the same statement (line ${line(statement)})`);
  return { statement, binding: { kind: 'hoist', awaitNode, ...(guard ? { guard } : {}) } };
}

/** Why a short-circuit's left operand cannot be evaluated a second time (it is, in the hoisted condition). */
function repeatableOperandProblem(left: Node): string | undefined {
  const nodes = [left, ...left.getDescendants()];
  const bad = nodes.find(
    (d) =>
      Node.isCallExpression(d) ||
      Node.isNewExpression(d) ||
      Node.isAwaitExpression(d) ||
      Node.isYieldExpression(d) ||
      Node.isTaggedTemplateExpression(d) ||
      Node.isFunctionLikeDeclaration(d) ||
      Node.isClassExpression(d) ||
      ((Node.isPrefixUnaryExpression(d) || Node.isPostfixUnaryExpression(d)) && /\+\+|--/.test(d.getText())) ||
      (Node.isBinaryExpression(d) && /^(=|\+=|-=|\*=|\/=|%=|\*\*=|<<=|>>=|>>>=|&=|\|=|\^=|&&=|\|\|=|\?\?=)$/.test(d.getOperatorToken().getText())),
  );
  return bad ? `\`${abbreviate(bad.getText())}\` is not a plain read (the hoisted call repeats the operand as its condition)` : undefined;
}

/** The condition under which a short-circuit evaluates its right operand. */
export function shortCircuitCondition(guard: ShortCircuit): string {
  const left = guard.left.getText();
  const simple = /^[\w$.?!]+$/.test(left);
  const wrapped = simple ? left : `(${left})`;
  if (guard.operator === '&&' || guard.operator === '?') return left;
  if (guard.operator === '||' || guard.operator === ':') return `!${wrapped}`;
  return `${wrapped} === null || ${wrapped} === undefined`;
}

/** A statement the rewrite may replace by several: in a statement list, or the single-statement branch of an `if` (then wrapped in braces). */
function isListStatement(node: Node): boolean {
  const parent = node.getParent();
  if (!Node.isStatement(node) || !parent) return false;
  if (Node.isIfStatement(parent)) return parent.getThenStatement() === node || parent.getElseStatement() === node;
  return Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent) || Node.isSourceFile(parent);
}

/** The expression a statement evaluates first. */
function headOf(statement: Statement): Node | undefined {
  if (Node.isIfStatement(statement)) return statement.getExpression();
  if (Node.isReturnStatement(statement) || Node.isThrowStatement(statement) || Node.isExpressionStatement(statement)) return statement.getExpression();
  if (Node.isVariableStatement(statement) && statement.getDeclarations().length === 1) return statement.getDeclarations()[0]!.getInitializer();
  if (Node.isSwitchStatement(statement)) return statement.getExpression();
  return undefined;
}

/** `await Promise.all([a.createMessage(...), b.createMessage(...)])`: the call holding the array, if `site` is an element. */
export function promiseAllOf(site: Site): CallExpression | undefined {
  const array = site.node.getParent();
  if (!array || !Node.isArrayLiteralExpression(array)) return undefined;
  const call = array.getParent();
  if (!call || !Node.isCallExpression(call) || call.getArguments()[0] !== array) return undefined;
  const callee = unwrapExpression(call.getExpression());
  return callee && /^Promise\.(all|allSettled)$/.test(callee.getText()) ? call : undefined;
}

/** The line a reason cites for a site: in the file the user ran on. */
export function siteLine(site: Site): number {
  return reportLineIn(site.sourceFile, site.line);
}

export function siteLabel(site: Site): string {
  return `the ${LEGACY_REQUESTS[site.method].kind} request at line ${reportPlaceIn(site.sourceFile, site.line)}`;
}

/** Names bound by an array binding pattern, in element order. */
export function arrayBindingNames(target: string, count: number): Array<string | undefined> {
  const inner = /^\[(.*)\]$/s.exec(target.trim());
  if (!inner) return new Array(count).fill(undefined);
  return inner[1]!.split(',').map((part) => {
    const name = part.trim();
    return /^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined;
  });
}
