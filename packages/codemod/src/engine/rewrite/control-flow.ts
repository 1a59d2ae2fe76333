/**
 * Control-flow questions about statements of one function body, asked by planning (analyse, loop,
 * helper) and by emit: what has run before a statement, whether a statement always leaves, whether
 * two statements can both run.
 */
import { Node, type Statement } from 'ts-morph';

/**
 * Whether control never continues after `node` (every path returns or throws). `leaving`: a statement
 * inside `node` taken as one that returns (the request a first round replaces with its ask).
 */
export function definitelyExits(node: Node | undefined, leaving?: Node): boolean {
  if (!node) return false;
  if (node === leaving) return true;
  if (Node.isReturnStatement(node) || Node.isThrowStatement(node)) return true;
  if (Node.isBlock(node)) return node.getStatements().some((s) => definitelyExits(s, leaving));
  if (Node.isIfStatement(node)) return definitelyExits(node.getThenStatement(), leaving) && definitelyExits(node.getElseStatement(), leaving);
  if (Node.isTryStatement(node)) {
    if (definitelyExits(node.getFinallyBlock(), leaving)) return true;
    const catchBlock = node.getCatchClause()?.getBlock();
    return definitelyExits(node.getTryBlock(), leaving) && (!catchBlock || definitelyExits(catchBlock, leaving));
  }
  return false;
}

/**
 * Whether a statement of a case clause always leaves the switch: it returns or throws, or it is a
 * `break` of the clause, also inside the clause's block (`case 'a': { ...; break; }`) or in both
 * branches of an if. A `break` inside a nested loop or switch leaves only that, so those are not entered.
 */
function leavesSwitch(statement: Node): boolean {
  if (definitelyExits(statement)) return true;
  if (Node.isBreakStatement(statement)) return true;
  if (Node.isBlock(statement)) return statement.getStatements().some(leavesSwitch);
  if (Node.isIfStatement(statement)) {
    const otherwise = statement.getElseStatement();
    return leavesSwitch(statement.getThenStatement()) && otherwise !== undefined && leavesSwitch(otherwise);
  }
  return false;
}

/** The parts of a statement that have run when control continues after it, on to `next`. */
function partsRunWhenFallingThrough(statement: Node, next: Node): Node[] {
  if (Node.isIfStatement(statement)) {
    const then = statement.getThenStatement();
    const otherwise = statement.getElseStatement();
    const leaves = (branch: Node) => definitelyExits(branch) || skipsPast(branch, next);
    return [statement.getExpression(), ...(leaves(then) ? [] : [then]), ...(otherwise && !leaves(otherwise) ? [otherwise] : [])];
  }
  return [statement];
}

/** Whether no execution can reach `b` after having reached `a` (`a` comes first in the source). */
export function mutuallyExclusive(a: Node, b: Node, body: Node): boolean {
  // `a` itself returns or throws (a URL elicitation throw, `return await ...`): nothing after it runs,
  // unless a try around it hands control to its catch or finally.
  if (definitelyExits(a) && !a.getAncestors().some((n) => n !== body && body.containsRange(n.getPos(), n.getEnd()) && Node.isTryStatement(n))) return true;
  let node: Node = a;
  while (node !== body) {
    const parent = node.getParent();
    if (!parent) return false;
    const holdsB = parent.getPos() <= b.getPos() && b.getEnd() <= parent.getEnd();
    if (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent)) {
      const statements = parent.getStatements();
      for (const s of statements.slice(statements.indexOf(node as Statement) + 1)) {
        if (s.getPos() <= b.getPos() && b.getEnd() <= s.getEnd()) return false;
        if (definitelyExits(s) || skipsPast(s, b)) return true;
      }
      if (holdsB) return false;
    } else if (holdsB) {
      // a in the then-branch, b in the else-branch of the same if
      if (Node.isIfStatement(parent)) return parent.getThenStatement() === node;
      if (Node.isCaseBlock(parent)) {
        // a's case clause leaves the switch (break/return/throw) before b's clause can be reached
        const clause = node as Node & { getStatements(): Statement[] };
        return clause.getStatements().some(leavesSwitch);
      }
      return false;
    }
    node = parent;
  }
  return false;
}

/**
 * `statement` leaves the switch or loop around it that holds `b` (an unlabelled `break`, or a
 * `continue` of a loop, also as a statement of a block): control goes on after that switch, or to
 * the loop's next iteration, past `b` (`case 'x': { if (remote) { out = await viaRemote(); break; } ... b }`).
 */
function skipsPast(statement: Node, b: Node): boolean {
  const kind = jumpOf(statement);
  if (!kind) return false;
  const target = statement.getFirstAncestor((n) => isLoop(n) || (kind === 'break' && Node.isSwitchStatement(n)));
  return target !== undefined && target.containsRange(b.getPos(), b.getEnd());
}

function jumpOf(statement: Node): 'break' | 'continue' | undefined {
  if (Node.isBreakStatement(statement) && !statement.getLabel()) return 'break';
  if (Node.isContinueStatement(statement) && !statement.getLabel()) return 'continue';
  if (Node.isBlock(statement)) {
    for (const inner of statement.getStatements()) {
      const kind = jumpOf(inner);
      if (kind) return kind;
    }
  }
  return undefined;
}

/**
 * Whether `a` and `b` (`a` first in the source) never both run in one execution of `body`: no
 * execution reaches `b` after `a`, and no loop inside `body` holds both (a loop could run `b` in
 * one iteration and `a` in the next).
 */
export function neverBothRun(a: Node, b: Node, body: Node): boolean {
  if (!mutuallyExclusive(a, b, body)) return false;
  return !a.getAncestors().some((n) => n !== body && body.containsRange(n.getPos(), n.getEnd()) && n.containsRange(b.getPos(), b.getEnd()) && isLoop(n));
}

function isLoop(node: Node): boolean {
  return Node.isForStatement(node) || Node.isForOfStatement(node) || Node.isForInStatement(node) || Node.isWhileStatement(node) || Node.isDoStatement(node);
}

/** Code that runs before `statement` on its path from the top of `body`. */
export function precedingCode(statement: Node, body: Node): Node[] {
  const out: Node[] = [];
  let node: Node = statement;
  while (node !== body) {
    const parent = node.getParent();
    if (!parent) break;
    if (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent)) {
      for (const s of parent.getStatements()) {
        if (s === node) break;
        out.push(...partsRunWhenFallingThrough(s, statement));
      }
    }
    if (Node.isIfStatement(parent)) out.push(parent.getExpression());
    if (Node.isCaseClause(parent)) out.push(parent.getExpression());
    if (Node.isSwitchStatement(parent)) out.push(parent.getExpression());
    if (Node.isCaseBlock(parent)) {
      for (const clause of parent.getClauses()) {
        if (clause === node) break;
        if (Node.isCaseClause(clause)) out.push(clause.getExpression());
      }
    }
    if (Node.isCatchClause(parent)) {
      const tryStatement = parent.getParent();
      if (tryStatement && Node.isTryStatement(tryStatement)) out.push(tryStatement.getTryBlock());
    }
    node = parent;
  }
  return out;
}
