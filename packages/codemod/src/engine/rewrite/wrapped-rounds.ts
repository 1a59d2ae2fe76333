/**
 * Independent helper requests in sequence, each in its own wrapper statement, asked in one round:
 *
 *   if (wantSummary) { try { note.summary = await summarize(server, text) } catch {} }
 *   if (wantTags) { try { note.tags = await tag(server, text) } catch {} }
 *
 * The wrappers (an `if` without `else`, a `try` with a catch and no `finally`) are consecutive
 * statements of one block. In the first round every helper that needs an answer hands back its
 * input requests, collected; after the last wrapper one check returns them all together. In the
 * answer round every helper has its answer and the code runs as before, in the legacy order.
 *
 * What makes that equal to the legacy sequence: nothing a later wrapper evaluates before its
 * request (conditions, code before the call, the call's arguments) reads what an earlier request
 * bound; every part that runs in both rounds (conditions, catch blocks) is free of effects; and no
 * later wrapper leaves the handler early (it would do so without the earlier answers).
 */
import { Node, type Statement } from 'ts-morph';
import { TARGET } from '@mcp-mrtr/surface';
import { firstEffect } from './purity.js';
import { precedingCode } from './control-flow.js';
import { line, type RequestPoint } from './points.js';
import type { EmitEnv } from './emit.js';
import { baseName } from './emit-point.js';

/** A point's wrapper statements, innermost first: each one's protected part ends with the one inside. */
function wrapperChain(point: RequestPoint): Statement[] {
  const chain: Statement[] = [];
  let node: Node = point.statement;
  for (;;) {
    let parent = node.getParent();
    if (!parent) break;
    if (Node.isBlock(parent)) {
      const statements = parent.getStatements();
      if (statements[statements.length - 1] !== node) break;
      node = parent;
      parent = parent.getParent();
      if (!parent) break;
    }
    if (Node.isIfStatement(parent) && parent.getThenStatement() === node && !parent.getElseStatement()) {
      chain.push(parent);
      node = parent;
      continue;
    }
    if (Node.isTryStatement(parent) && parent.getTryBlock() === node && parent.getCatchClause() && !parent.getFinallyBlock()) {
      chain.push(parent);
      node = parent;
      continue;
    }
    break;
  }
  return chain;
}

/** The statement list `s` sits in directly (a block: a case clause's own statements are not taken). */
function blockOf(s: Statement): Statement[] | undefined {
  const parent = s.getParent();
  return parent && Node.isBlock(parent) ? parent.getStatements() : undefined;
}

/** The statement after `s` in its block or case clause. */
function followingStatement(s: Statement): Statement | undefined {
  const parent = s.getParent();
  if (!parent || !(Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent))) return undefined;
  const statements = parent.getStatements();
  return statements[statements.indexOf(s) + 1];
}

const ASSIGN_TARGET = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** Whether `nodes` read what the assignment to `target` (`note.summary`, `summary`) changes. */
function readsTarget(nodes: Node[], target: string): boolean {
  const [root, first] = target.split('.');
  for (const node of nodes) {
    for (const id of [node, ...node.getDescendants()]) {
      if (!Node.isIdentifier(id) || id.getText() !== root) continue;
      const parent = id.getParent();
      if (parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) continue;
      // `note.tags` does not read `note.summary`; `note`, `note.summary`, `note.get()` may.
      const access = parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === id ? parent : undefined;
      const call = access?.getParent();
      const called = !!call && Node.isCallExpression(call) && call.getExpression() === access;
      if (first !== undefined && access && access.getName() !== first && !called) continue;
      return true;
    }
  }
  return false;
}

function exitsIn(nodes: Node[]): Node | undefined {
  for (const node of nodes) {
    const exit = [node, ...node.getDescendants()].find((d) => Node.isReturnStatement(d) || Node.isThrowStatement(d) || Node.isBreakStatement(d) || Node.isContinueStatement(d));
    if (exit) return exit;
  }
  return undefined;
}

export interface WrappedGroup {
  /** The wrapper statements, one per point, consecutive in one block. */
  units: Statement[];
}

/**
 * Whether `next` joins the round of `leader` (alone, or with the wrapped group it leads) as the next
 * wrapper statement; `undefined` when it does, else why not (for the flag of the pair).
 */
export function wrappedJoinRefusal(leader: RequestPoint, next: RequestPoint, all: RequestPoint[], fn: Node): string | undefined {
  if (leader.kind !== 'helper' || next.kind !== 'helper') return 'only helper calls in their own blocks share a round';
  const group = [leader, ...(leader.merged ?? [])];
  if (leader.merged && !leader.wrapped) return 'the earlier request already shares a round with the statement after it';
  const lastUnit = leader.wrapped ? leader.wrapped.units.at(-1)! : undefined;
  const candidates = lastUnit ? [lastUnit] : wrapperChain(leader);
  const nextChain = wrapperChain(next);
  for (const [point, chain, which] of [[leader, candidates, 'first'], [next, nextChain, 'second']] as const) {
    const after = chain.length === 0 ? followingStatement(point.statement) : undefined;
    if (after) return `the code after the ${which} request in its block (line ${line(after)}) would run before its answer arrives`;
  }
  let found: { unit: Statement; nextUnit: Statement } | undefined;
  for (const unit of candidates) {
    const list = blockOf(unit);
    const at = list?.indexOf(unit) ?? -1;
    const following = at >= 0 ? list![at + 1] : undefined;
    if (following && nextChain.includes(following)) found = { unit, nextUnit: following };
    if (found) break;
  }
  if (!found) return 'the second is not in the statement right after the first one\'s (an `if` without `else` or a `try`/`catch` whose block ends with the call, in one block)';
  const { unit, nextUnit } = found;
  for (const [point, u] of [[leader, unit], [next, nextUnit]] as const) {
    if (all.some((p) => p !== point && u.containsRange(p.statement.getPos(), p.statement.getEnd()))) return `the statement at line ${line(u)} holds more than one request`;
  }
  for (const point of [...group, next]) {
    const b = point.binding;
    if (b.kind === 'assign' ? !ASSIGN_TARGET.test(b.target) : b.kind !== 'discard') return `the answer at line ${line(point.statement)} is not assigned to a variable or property`;
  }
  for (const wrapper of [...wrapperChain(next).slice(0, wrapperChain(next).indexOf(nextUnit) + 1), ...(leader.wrapped ? [] : wrapperChain(leader).slice(0, wrapperChain(leader).indexOf(unit) + 1))]) {
    if (!Node.isTryStatement(wrapper)) continue;
    const block = wrapper.getCatchClause()!.getBlock();
    const effect = firstEffect([block], fn);
    if (effect) return `the catch block at line ${line(block)} runs \`${effect.description}\`, which would repeat on the answer round`;
    const exit = exitsIn([block]);
    if (exit) return `the catch block at line ${line(block)} leaves with \`${exit.getText().slice(0, 40)}\` before the other answer arrives`;
  }
  // The code of the later wrapper up to its call runs in the first round without the earlier answers.
  const before = [...precedingCode(next.statement, nextUnit), ...next.helperCall.getArguments()];
  const effect = firstEffect(before, fn);
  if (effect) return `\`${effect.description}\` (line ${line(effect.node)}) runs before the second request and would repeat on the answer round`;
  const exit = exitsIn(precedingCode(next.statement, nextUnit));
  if (exit) return `the code before the second request can leave the handler (line ${line(exit)}) before the first one's answer arrives`;
  for (const point of group) {
    if (point.binding.kind === 'assign' && readsTarget(before, point.binding.target)) return `the second request's condition or arguments read \`${point.binding.target}\`, the first one's answer`;
  }
  return undefined;
}

/** Records `next` in the wrapped group of `leader` (after wrappedJoinRefusal said yes). */
export function joinWrapped(leader: RequestPoint, next: RequestPoint): void {
  if (!leader.wrapped) {
    const nextUnit = wrapperChain(next).find((u) => wrapperChain(leader).some((l) => blockOf(l)?.[blockOf(l)!.indexOf(l) + 1] === u))!;
    const unit = wrapperChain(leader).find((l) => blockOf(l)?.[blockOf(l)!.indexOf(l) + 1] === nextUnit)!;
    leader.wrapped = { units: [unit, nextUnit] };
  } else {
    const last = leader.wrapped.units.at(-1)!;
    leader.wrapped.units.push(blockOf(last)![blockOf(last)!.indexOf(last) + 1]!);
  }
  (leader.merged ??= []).push(next);
  next.mergedInto = leader;
}

/**
 * The edits text of a wrapped group: each call becomes "ask or bind" in place, the collection of
 * pending input requests is declared before the first wrapper and returned after the last one.
 */
export function wrappedGroupTexts(leader: RequestPoint, env: EmitEnv, callText: (point: RequestPoint) => string, stateSuffix = ''): { before: string; points: Map<RequestPoint, string[]>; after: string } {
  env.values.add('isInputRequiredResult');
  env.values.add(TARGET.inputRequired);
  if (env.ts) env.types.add('InputRequiredResult');
  const pending = env.names.take('pendingInputs');
  const points = new Map<RequestPoint, string[]>();
  for (const point of [leader, ...(leader.merged ?? [])]) {
    const step = env.names.take(`${baseName(point.keys[0]!)}Step`);
    const b = point.binding;
    const bind = b.kind === 'assign' ? [`else ${b.target} = ${step};`] : [];
    points.set(point, [`const ${step} = await ${callText(point)};`, `if (isInputRequiredResult(${step})) ${pending}.push(${step});`, ...bind]);
  }
  const item = env.names.take('pending');
  return {
    before: `const ${pending}${env.ts ? ': InputRequiredResult[]' : ''} = [];`,
    points,
    after: `if (${pending}.length > 0) return ${TARGET.inputRequired}({ inputRequests: Object.assign({}, ...${pending}.map((${item}) => ${item}.inputRequests))${stateSuffix} });`,
  };
}

