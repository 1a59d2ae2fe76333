/**
 * Loop form (plan): a request inside a loop asks once per iteration, so the loop position (and
 * whatever the loop accumulates) must travel in requestState. Only the common shapes are taken:
 *
 *   - the loop is a top-level statement of the handler body and holds the handler's only request;
 *   - the request statement sits directly in the loop body; the code before it in the body (it is
 *     re-run on the answer round) is pure and never leaves the iteration;
 *   - `for (let i = init; cond; update)`, `while (cond)`, `do { } while (cond)`, or
 *     `for (const item of list)` over an array (walked by an index carried in the state).
 *
 * A loop the legacy code bounds (a counter in its condition, or the items of an array) keeps that
 * bound; `while`/`do`/condition-less loops get a fixed cap on rounds. Anything else keeps the flag,
 * with the reason.
 */
import { Node, SyntaxKind, type Block, type DoStatement, type ForOfStatement, type ForStatement, type Statement, type WhileStatement } from 'ts-morph';
import { firstEffect } from './purity.js';
import { precedingCode } from './control-flow.js';
import { isLoop, line, loopFlag, siteLabel, type RequestPoint } from './points.js';

/** Rounds a loop without a legacy bound may ask before the handler gives up. */
export const LOOP_ROUND_CAP = 20;

export interface LoopPlan {
  loop: ForStatement | WhileStatement | DoStatement | ForOfStatement;
  kind: 'for' | 'while' | 'do' | 'for-of';
  /** Loop body statements before / after the request statement. */
  before: Statement[];
  after: Statement[];
  /** `for`: the counter declared in the initializer (carried in the state). */
  counter?: { name: string; init: string };
  /** No legacy bound: a round counter in the state caps the loop at LOOP_ROUND_CAP rounds. */
  capped: boolean;
  /**
   * The loop body statement holding the request when the request sits deeper, under `if`/blocks
   * (`if (risky(file)) { const ok = await ...; if (!ok) continue; }`); `before`/`after` are then the
   * body statements around it.
   */
  anchor?: Statement;
}

/** The loop (if any) between `statement` and `body`. */
export function enclosingLoop(statement: Node, body: Node): Node | undefined {
  for (let node = statement.getParent(); node && node !== body; node = node.getParent()) if (isLoop(node)) return node;
  return undefined;
}

function exits(nodes: Node[]): Node | undefined {
  for (const n of nodes) {
    if (Node.isReturnStatement(n) || Node.isThrowStatement(n) || Node.isBreakStatement(n) || Node.isContinueStatement(n)) return n;
    const found = n.getFirstDescendant((d) => Node.isReturnStatement(d) || Node.isThrowStatement(d) || Node.isBreakStatement(d) || Node.isContinueStatement(d));
    if (found) return found;
  }
  return undefined;
}

export function planLoop(points: RequestPoint[], point: RequestPoint, body: Block, fn: Node): LoopPlan {
  const loopNode = enclosingLoop(point.statement, body)!;
  const what = point.kind === 'helper' ? `the helper call at line ${line(point.statement)}` : siteLabel(point.sites[0]!);
  const flag = (why: string): never => {
    throw loopFlag(what, loopNode, `${why}; not rewritten automatically`);
  };
  if (points.length > 1) flag(`the handler makes ${points.length} requests; the loop form takes a loop holding the handler's only request`);
  if (point.kind !== 'direct') flag(point.kind === 'helper' ? 'requests through a helper inside a loop are not carried in requestState' : 'only a single awaited request inside a loop is carried in requestState');
  if (loopNode.getParent() !== body) flag('the loop is nested inside another statement; only a loop at the top level of the handler is rewritten');
  const loopBody = (loopNode as Node & { getStatement(): Node }).getStatement();
  if (!Node.isBlock(loopBody)) flag('the loop body is not a block');
  const block = loopBody as Block;
  let anchor: Statement | undefined;
  if (point.statement.getParent() !== loopBody) {
    anchor = nestedAnchor(point.statement, block, flag);
    const onTheWay = precedingCode(point.statement, anchor);
    const exit = exits(onTheWay);
    if (exit) flag(`\`${exit.getText().split('\n')[0]}\` (line ${line(exit)}) can leave the iteration before the request, and that code re-runs on the answer round`);
    const effect = firstEffect(onTheWay, block);
    if (effect) flag(`\`${effect.description}\` (line ${line(effect.node)}) runs in the loop before the request and would repeat on the answer round`);
    if (onTheWay.some((n) => Node.isAwaitExpression(n) || n.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0)) flag('the loop body awaits something before the request');
  }
  if (loopNode.getFirstDescendantByKind(SyntaxKind.LabeledStatement) || loopNode.getParent()?.getKind() === SyntaxKind.LabeledStatement) flag('the loop uses labels');
  if (block.getDescendantsOfKind(SyntaxKind.VariableDeclarationList).some((l) => l.getDeclarationKind() === 'var')) flag('the loop body declares `var` variables, which outlive the iteration');
  const statements = block.getStatements();
  const at = statements.indexOf(anchor ?? point.statement);
  const before = statements.slice(0, at);
  const after = statements.slice(at + 1);
  const exit = exits(before);
  if (exit) flag(`\`${exit.getText().split('\n')[0]}\` (line ${line(exit)}) can leave the iteration before the request, and that code re-runs on the answer round`);
  const effect = firstEffect([...before, ...point.sites.flatMap((s) => (s.params ? [s.params] : []))], block);
  if (effect) flag(`\`${effect.description}\` (line ${line(effect.node)}) runs in the loop before the request and would repeat on the answer round`);
  if (before.some((s) => s.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0)) flag('the loop body awaits something before the request');
  const loop = loopNode as LoopPlan['loop'];
  const pureCondition = (cond: Node | undefined): void => {
    if (!cond) return;
    const e = firstEffect([cond], fn);
    if (e || cond.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0) flag(`the loop condition \`${cond.getText()}\` is re-evaluated on the answer round and is not provably pure`);
  };
  if (Node.isForStatement(loop)) {
    const init = loop.getInitializer();
    let counter: LoopPlan['counter'];
    if (init) {
      if (!Node.isVariableDeclarationList(init) || init.getDeclarationKind() !== 'let' || init.getDeclarations().length !== 1) flag('the for-loop initializer is not a single `let` counter');
      const decl = (init as Node & { getDeclarations(): Array<Node & { getNameNode(): Node; getInitializer(): Node | undefined; getTypeNode(): Node | undefined }> }).getDeclarations()[0]!;
      const value = decl.getInitializer();
      if (!Node.isIdentifier(decl.getNameNode()) || !value || !Node.isNumericLiteral(value) || decl.getTypeNode()) flag('the for-loop counter is not a number initialised with a literal');
      counter = { name: decl.getNameNode().getText(), init: value!.getText() };
    }
    pureCondition(loop.getCondition());
    const bounded = !!counter && !!loop.getCondition()?.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === counter!.name);
    if (anchor && !counter) flag('the request is nested inside a statement of a loop without a counter; the iteration that asked could not be told apart on the answer round');
    return { loop, kind: 'for', before, after, counter, capped: !bounded, anchor };
  }
  if (anchor && !Node.isForOfStatement(loop)) flag('the request is nested inside a statement of the loop body; only `for` loops with a counter and `for-of` loops take a nested request');
  if (Node.isWhileStatement(loop)) {
    pureCondition(loop.getExpression());
    return { loop, kind: 'while', before, after, capped: true };
  }
  if (Node.isDoStatement(loop)) return { loop, kind: 'do', before, after, capped: true };
  if (Node.isForOfStatement(loop)) {
    const init = loop.getInitializer();
    if (!Node.isVariableDeclarationList(init) || init.getDeclarationKind() === 'var' || init.getDeclarations().length !== 1) flag('the for-of loop does not declare its item with `const`/`let`');
    const list = loop.getExpression();
    if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(list.getText())) flag(`the for-of loop iterates \`${list.getText()}\`, not a variable or property the answer round can read again`);
    const root = list.getText().split('.')[0]!;
    const changed = loop.getStatement().getDescendantsOfKind(SyntaxKind.Identifier).find((id) => id.getText() === root && changesList(id));
    if (changed) flag(`the loop body changes \`${root}\` (line ${line(changed)}) while iterating it`);
    const type = list.getType();
    if (!(type.isArray() || type.isTuple() || type.getText().startsWith('readonly '))) flag(`cannot prove \`${list.getText()}\` is an array (the loop position is carried as an index)`);
    return { loop, kind: 'for-of', before, after, capped: false, anchor };
  }
  return flag('unsupported loop');
}

/** The loop body statement holding `statement`, when the path between them is `if` statements and blocks only. */
function nestedAnchor(statement: Statement, loopBody: Block, flag: (why: string) => never): Statement {
  let node: Node = statement;
  for (let parent = node.getParent(); parent && parent !== loopBody; node = parent, parent = parent.getParent()) {
    if (!(Node.isBlock(parent) || Node.isIfStatement(parent))) flag(`the request is nested inside a statement of the loop body (a ${parent.getKindName().replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}); only if statements and blocks are taken around a nested request`);
  }
  return node as Statement;
}

const MUTATING_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** `list = ...`, `list.x = ...`, `list[i] = ...`, `list.push(...)`: the iterated array may change under the index. */
function changesList(id: Node): boolean {
  let node: Node = id;
  for (let parent = node.getParent(); parent; node = parent, parent = parent.getParent()) {
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === node) {
      const call = parent.getParent();
      if (Node.isCallExpression(call) && call.getExpression() === parent && MUTATING_METHODS.has(parent.getName())) return true;
      continue;
    }
    if (Node.isElementAccessExpression(parent) && parent.getExpression() === node) continue;
    if (Node.isBinaryExpression(parent) && parent.getLeft() === node && /=$/.test(parent.getOperatorToken().getText()) && !/^(==|===|!=|!==|<=|>=)$/.test(parent.getOperatorToken().getText())) return true;
    if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && /\+\+|--/.test(parent.getText())) return true;
    return false;
  }
  return false;
}
