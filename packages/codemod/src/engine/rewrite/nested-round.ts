/**
 * One round after effects, inside a nested block: the handler's requests on one path share a round
 * (one request, or a group asked together) that sits in a block after code with effects:
 *
 *   case 'update': {
 *     const input = schema.parse(args);          // re-runs every round: free of effects
 *     if (wantSummary) {                         // the block
 *       const storage = openStorage(input.dir);  // effects: run once, in the first round
 *       const text = await storage.read(input.id);
 *       try { input.summary = await summarize(server, text) } catch {}   // the round
 *     }
 *     ...
 *
 * The block becomes a two-way switch over the sealed requestState: without state, the code before
 * the round runs and the round asks, minting the locals it and the code after it read (stored when
 * JSON-serialisable, recomputed when provably pure); with the state, those locals are restored and
 * the round reads its answers. The rest of the handler is unchanged: the code on the way to the
 * block re-runs every round (so it must be free of effects), the code after it runs once. The
 * handler's other requests, on paths exclusive with this one, keep their own form (write-once).
 *
 * What makes that equal to the legacy run: the code before the round writes nothing declared
 * outside the block (the answer round recomputes those from the top, so a change would be lost),
 * neither directly nor by handing an object declared outside the block to code that may change it.
 */
import { Node, SyntaxKind, type Block, type Statement } from 'ts-morph';
import { functionOfDeclaration, declarationOf } from '../find/index.js';
import { firstEffect, abbreviate } from './purity.js';
import { mutuallyExclusive, precedingCode } from './control-flow.js';
import { declaredIn, liveAcross, type LiveVar } from './live.js';
import { Obstacle, line, type RequestPoint } from './points.js';

export interface NestedRound {
  /** The block holding the round and the code with effects before it. */
  block: Block;
  /** The round's points (a leader, with the points merged into it). */
  points: RequestPoint[];
  /** The block's statements holding the round, first and last. */
  first: Statement;
  last: Statement;
  /** The block's statements before the round (run in the first round only). */
  before: Statement[];
  /** Locals of the block sharing an object declared outside it. */
  aliases: Set<Node>;
  /** Distinguishes this block's state from that of another block of the same handler. */
  ordinal: number;
}

/** Methods that never change their receiver (arrays, strings, maps). */
const READING_METHODS = new Set([
  'map', 'filter', 'find', 'findIndex', 'findLast', 'some', 'every', 'reduce', 'flat', 'flatMap', 'slice', 'concat',
  'includes', 'indexOf', 'lastIndexOf', 'join', 'at', 'keys', 'values', 'entries', 'forEach', 'toString', 'get', 'has',
  'trim', 'toLowerCase', 'toUpperCase', 'split', 'startsWith', 'endsWith', 'replace', 'replaceAll', 'toSorted', 'toReversed',
]);

/** Groups of points that can run one after the other (connected through "both can run"). */
export function pathGroups(points: RequestPoint[], body: Node): RequestPoint[][] {
  const groups: RequestPoint[][] = [];
  for (const point of points) {
    const joined = groups.filter((g) => g.some((p) => !mutuallyExclusive(p.statement, point.statement, body)));
    const merged = [...joined.flat(), point].sort((a, b) => a.statement.getStart() - b.statement.getStart());
    for (const g of joined) groups.splice(groups.indexOf(g), 1);
    groups.push(merged);
  }
  return groups.sort((a, b) => a[0]!.statement.getStart() - b[0]!.statement.getStart());
}

function within(node: Node, root: Node): boolean {
  return node.getPos() >= root.getPos() && node.getEnd() <= root.getEnd();
}

/** The innermost block of `body` (not `body` itself) that holds every statement of `group`. */
function commonBlock(group: RequestPoint[], body: Node): Block | undefined {
  for (let node = group[0]!.statement.getParent(); node && node !== body; node = node.getParent()) {
    if (Node.isBlock(node) && group.every((p) => within(p.statement, node))) return node;
  }
  return undefined;
}

/** Why the path from `body` to `block` cannot be re-run up to the block on every round, or undefined. */
function pathProblem(block: Block, body: Node, fn: Node): string | undefined {
  for (let node: Node | undefined = block.getParent(); node && node !== body; node = node.getParent()) {
    if (Node.isIterationStatement(node)) return `the block at line ${line(block)} is inside a loop (line ${line(node)})`;
    if (Node.isTryStatement(node) && node.getFinallyBlock() && within(block, node.getFinallyBlock()!)) return `the block at line ${line(block)} is inside a finally block`;
    const allowed = Node.isBlock(node) || Node.isIfStatement(node) || Node.isTryStatement(node) || Node.isCatchClause(node) || Node.isCaseClause(node) || Node.isDefaultClause(node) || Node.isCaseBlock(node) || Node.isSwitchStatement(node) || Node.isLabeledStatement(node);
    if (!allowed) return `the block at line ${line(block)} sits inside a ${node.getKindName()}`;
  }
  const effect = firstEffect(precedingCode(block, body), fn);
  if (effect) return `\`${effect.description}\` (line ${line(effect.node)}) runs on the way to the block at line ${line(block)} and would repeat on the answer round`;
  return undefined;
}

/** The widest property chain `id` heads (`input.headers` for `input` in `input.headers.x`'s base). */
function chainFrom(id: Node): Node {
  let chain: Node = id;
  for (;;) {
    const parent = chain.getParent();
    if (parent && (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) && parent.getExpression() === chain) chain = parent;
    else if (parent && Node.isNonNullExpression(parent)) chain = parent;
    else return chain;
  }
}

function isPrimitive(node: Node): boolean {
  const type = node.getType();
  const parts = type.isUnion() ? type.getUnionTypes() : [type];
  return parts.every((t) => t.isString() || t.isNumber() || t.isBoolean() || t.isBooleanLiteral() || t.isLiteral() || t.isUndefined() || t.isNull() || t.isEnumLiteral());
}

/**
 * Whether the function `callee` may change the object it receives as its parameter `index`:
 * assignments through it, calls of its methods (other than reading ones), or handing it on to
 * another call that may (followed a few levels).
 */
function mayChangeParameter(callee: Node, index: number, depth: number): boolean {
  const params = (callee as Node & { getParameters?: () => Node[] }).getParameters?.();
  const body = (callee as Node & { getBody?: () => Node | undefined }).getBody?.();
  const param = params?.[index];
  if (!param || !body || !Node.isParameterDeclaration(param)) return true;
  const nameNode = param.getNameNode();
  if (!Node.isIdentifier(nameNode)) return true;
  return body.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === nameNode.getText() && declarationOf(id) === param && useMayChange(id, depth));
}

/** Whether this use of an object-valued name may change the object. */
function useMayChange(id: Node, depth: number): boolean {
  const chain = chainFrom(id);
  const use = chain.getParent();
  if (!use) return false;
  if (Node.isBinaryExpression(use) && use.getLeft() === chain && /^(=|\+=|-=|\*=|\/=|%=|\*\*=|&&=|\|\|=|\?\?=|<<=|>>=|>>>=|&=|\|=|\^=)$/.test(use.getOperatorToken().getText())) return chain !== id;
  if ((Node.isPrefixUnaryExpression(use) || Node.isPostfixUnaryExpression(use)) && /\+\+|--/.test(use.getText())) return chain !== id;
  if (Node.isDeleteExpression(use)) return true;
  // `x.push(...)`, `x.items.sort()`: the method's receiver is the chain without its last name.
  if (Node.isCallExpression(use) && use.getExpression() === chain && chain !== id) {
    const name = Node.isPropertyAccessExpression(chain) ? chain.getName() : '';
    return !READING_METHODS.has(name);
  }
  if (isPrimitive(chain)) return false;
  if (Node.isCallExpression(use) || Node.isNewExpression(use)) {
    const index = (use.getArguments() as Node[]).indexOf(chain);
    if (index < 0) return false;
    const callee = Node.isCallExpression(use) ? use.getExpression() : undefined;
    const fn = callee && Node.isIdentifier(callee) ? functionOfDeclaration(declarationOf(callee)) : undefined;
    return !fn || depth >= 3 || mayChangeParameter(fn, index, depth + 1);
  }
  // Stored into another object or variable: an alias the rest of the code could change it through.
  if (Node.isPropertyAssignment(use) || Node.isShorthandPropertyAssignment(use) || Node.isArrayLiteralExpression(use) || Node.isVariableDeclaration(use) || Node.isReturnStatement(use)) return true;
  if (Node.isBinaryExpression(use) && use.getRight() === chain && use.getOperatorToken().getText() === '=') return true;
  return false;
}

/**
 * The first change the code before the round makes to something declared outside the block (a
 * local of the handler or its parameters), or to a local of the block aliasing such an object.
 */
function outerChange(before: Statement[], block: Block, fn: Node, watched: Set<Node>): string | undefined {
  const isOuter = (decl: Node | undefined): boolean => !!decl && within(decl, fn) && !within(decl, block);
  for (const statement of before) {
    if (Node.isVariableStatement(statement) && statement.getDeclarationKind() === 'var') return `\`var\` declaration at line ${line(statement)} before the round (it would outlive the block unset on the answer round)`;
    for (const id of [statement, ...statement.getDescendants()].filter((d) => Node.isIdentifier(d))) {
      const decl = declarationOf(id);
      if (!isOuter(decl) && !(decl && watched.has(decl))) continue;
      const parent = id.getParent();
      if (parent && (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id)) continue;
      if (decl && (Node.isFunctionDeclaration(decl) || Node.isImportSpecifier(decl))) continue;
      const chain = chainFrom(id);
      const use = chain.getParent();
      // `let all = input.messages`: the block's local shares the object; watch it too.
      if (use && Node.isVariableDeclaration(use) && use.getInitializer() === chain && !isPrimitive(chain)) {
        watched.add(use);
        continue;
      }
      const rebinds = chain === id && !!use && ((Node.isBinaryExpression(use) && use.getLeft() === chain && /=$/.test(use.getOperatorToken().getText()) && !/^[=!<>]=+$/.test(use.getOperatorToken().getText())) || ((Node.isPrefixUnaryExpression(use) || Node.isPostfixUnaryExpression(use)) && /\+\+|--/.test(use.getText())));
      // Rebinding the block's own alias changes nothing outside; rebinding an outer local does.
      if (rebinds && decl && watched.has(decl)) continue;
      if (rebinds) return `\`${abbreviate(use!.getText(), 50)}\` (line ${line(id)}) assigns \`${id.getText()}\`, declared outside the block: the answer round recomputes it from the top, so the assignment would be lost`;
      if (useMayChange(id, 0)) return `\`${abbreviate(use?.getText() ?? id.getText(), 50)}\` (line ${line(id)}) may change \`${id.getText()}\`, declared outside the block: the answer round recomputes it from the top, so the change would be lost`;
    }
  }
  return undefined;
}

/** The block's statement holding `node`. */
function anchorIn(node: Node, block: Block): Statement {
  let current: Node = node;
  while (current.getParent() && current.getParent() !== block) current = current.getParent()!;
  return current as Statement;
}

/**
 * Plans the round of `group` (its points, with `leaders` as merged by the caller: exactly one
 * leader) in a block after effects; returns the plan or why it cannot be done.
 */
export function planNestedRound(group: RequestPoint[], all: RequestPoint[], body: Node, fn: Node, ownCode: (p: RequestPoint) => Node[], ordinal: number): NestedRound | string {
  let block = commonBlock(group, body);
  if (!block) return 'the requests are not inside a block of their own';
  // Widen to an enclosing block while the way to it has effects (they move into the first round).
  let problem = pathProblem(block, body, fn);
  for (let outer: Node | undefined = block.getParent(); problem && outer && outer !== body; outer = outer.getParent()) {
    if (!Node.isBlock(outer)) continue;
    block = outer;
    problem = pathProblem(block, body, fn);
  }
  if (problem) return problem;
  const other = all.find((p) => !group.includes(p) && within(p.statement, block!));
  if (other) return `the block at line ${line(block)} also holds the request at line ${line(other.statement)}, on another path`;
  const first = anchorIn(group[0]!.statement, block);
  const last = anchorIn(group.at(-1)!.statement, block);
  const statements = block.getStatements();
  const before = statements.slice(0, statements.indexOf(first));
  // The round's own code before its requests runs again on the answer round.
  const again = [...precedingCode(group[0]!.statement, first), ...group.flatMap(ownCode)];
  const effect = firstEffect(again, fn);
  if (effect) return `\`${effect.description}\` (line ${line(effect.node)}) runs inside the round before its request and would repeat on the answer round`;
  const exit = leavingStatement(before);
  if (exit) return `the code before the round can leave the block (\`${abbreviate(exit.getText(), 40)}\`, line ${line(exit)}), which the first round's own function cannot`;
  const aliases = new Set<Node>();
  const change = outerChange(before, block, fn, aliases);
  if (change) return change;
  if (!firstEffect(before, fn)) return 'nothing with effects runs before the round in its block';
  return { block, points: group, first, last, before, aliases, ordinal };
}

/**
 * The locals declared before the round in the block that the round or the code after it reads, as
 * they travel to the answer round (an Obstacle when one cannot).
 */
export function nestedLive(round: NestedRound, ts: boolean, typeChecked: boolean): LiveVar[] {
  const statements = round.block.getStatements();
  const after = statements.slice(statements.indexOf(round.first));
  const live = liveAcross(declaredIn(round.before), after, ts, typeChecked, new Map());
  // A carried local that shared an object declared outside the block comes back as a copy: the code
  // after the round must not change it (the legacy run changed the shared object too).
  for (const v of live) {
    const decl = v.statement.getDeclarations().find((d) => d.getName() === v.name);
    if (!decl || !round.aliases.has(decl) || v.mode !== 'store') continue;
    const use = after.flatMap((s) => s.getDescendantsOfKind(SyntaxKind.Identifier)).find((id) => id.getText() === v.name && declarationOf(id) === decl && useMayChange(id, 0));
    if (use) throw new Obstacle(`\`${v.name}\` shares an object declared outside the block and is changed at line ${line(use)} after the round; carried in requestState it would be a copy`);
  }
  return live;
}

/**
 * A `return`, or a `break`/`continue` whose target is outside `statements` (a labelled one, or one of
 * no loop or switch inside them), in `statements` but not in a nested function.
 */
function leavingStatement(statements: Statement[]): Node | undefined {
  for (const root of statements) {
    for (const node of [root, ...root.getDescendants()]) {
      if (!(Node.isReturnStatement(node) || Node.isBreakStatement(node) || Node.isContinueStatement(node))) continue;
      let inner = false;
      let target = false;
      for (let up: Node | undefined = node.getParent(); up && up !== root.getParent(); up = up.getParent()) {
        if (Node.isFunctionLikeDeclaration(up) || Node.isArrowFunction(up) || Node.isFunctionExpression(up)) {
          inner = true;
          break;
        }
        if (!Node.isReturnStatement(node) && !(node as Node & { getLabel(): Node | undefined }).getLabel() && (Node.isIterationStatement(up) || (Node.isBreakStatement(node) && Node.isSwitchStatement(up)))) {
          target = true;
          break;
        }
      }
      if (!inner && !target) return node;
    }
  }
  return undefined;
}
