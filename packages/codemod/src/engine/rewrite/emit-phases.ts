/**
 * Rewrite, phase form: the handler's body rebuilt as a phase switch over the sealed requestState.
 * The first round runs from the top; each resumption has its own `if (state.phase === N)` block that
 * restores the carried locals and goes on from its question. A question inside a block whose code
 * after the block also runs in the round that passes it by is written once, as a `continueFrom...`
 * function both rounds call.
 */
import { Node, SyntaxKind, VariableDeclarationKind, type Statement } from 'ts-morph';
import { firstEffect } from './purity.js';
import { anchorOf, type HandlerWork } from './analyse.js';
import { definitelyExits } from './control-flow.js';
import { freeName, type ContextAccess } from './context.js';
import type { EmitEnv } from './emit.js';
import { askWithState, helperCallText, pointLines, readLines, transitionLines } from './emit-point.js';
import type { HelperWork } from './helper.js';
import { RESULT_TYPE } from './emit-loop.js';
import { hoistRequests } from './emit-requests.js';
import { caseScoped, explainOnce, pascal, reindent, unknownPhaseLines, type FileWork } from './emit-common.js';
import { declaredIn, stateField, stateKeyOf, type LiveVar } from './live.js';
import { answerTypes, plannedLive } from './emit-checks.js';
import { CODEC_EXPORT, DIGEST_EXPORT } from './state-module.js';
import { indentOf, leadingComments, textWithEdits, withComments, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';

/** One handler's phase form: what its phase blocks and continuation functions are written from. */
interface PhaseForm {
  work: HandlerWork;
  fw: FileWork;
  helperRegistry: Map<Node, HelperWork>;
  env: EmitEnv;
  access: ContextAccess;
  /** The handler's capability-check edits, applied to the code each block moves. */
  capEdits: TextEdit[];
  statements: Statement[];
  /** Per point, the top-level statement holding it, and that statement's index in `statements`. */
  anchors: Statement[];
  idx: number[];
  /** Per point, the locals the rounds after it carry (stored in the state or recomputed). */
  live: LiveVar[][];
  /** The local holding this request's own state (undefined in the first round). */
  state: string;
  /** The digest of the handler and its arguments that binds the state to this request. */
  digestExpr: string;
  /** Per point index, the name of its `continueFrom...` function. */
  shared: Map<number, string>;
  /** Moved code indented one level deeper (except inside multi-line templates). */
  block: (body: string[]) => string[];
}

/** Phase form: the body rebuilt as a phase switch over the sealed requestState, one block per resumption. */
export function phasesEdit(work: HandlerWork, fw: FileWork, helperRegistry: Map<Node, HelperWork>, env: EmitEnv, access: ContextAccess, capEdits: TextEdit[], base: string): TextEdit {
  const ts = env.ts;
  const names = fw.names.inFunction(work.fn);
  fw.needsState = true;
  const statements = work.body.getStatements();
  const anchors = work.points.map((p) => anchorOf(p.statement, work.body));
  const stored = freeName(work.fn, 'stored', names);
  const state = freeName(work.fn, 'state', names);
  const typeName = names.take(`${pascal(work.handler.name ?? 'handler')}State`);
  const handlerId = quote(`${work.handler.method}:${work.handler.name ?? ''}`);
  const form: PhaseForm = {
    work, fw, helperRegistry, env, access, capEdits, statements, anchors, state,
    idx: anchors.map((a) => statements.indexOf(a)),
    live: work.points.map((_, k) => plannedLive(work, k)),
    digestExpr: `${DIGEST_EXPORT}(${handlerId}, ${access.args})`,
    shared: new Map(),
    block: blockIndent(work),
  };
  env.values.add('inputRequired');
  const lines: string[] = [];
  lines.push(...access.bodyPrefix);
  if (ts) lines.push(stateTypeLine(form, typeName, answerTypes(work, statements)));
  lines.push(`const ${stored} = ${access.ctx}.mcpReq.requestState${ts ? `<${typeName}>` : ''}();`);
  lines.push(...explainOnce(fw, `// State minted for other arguments (or another handler) is not this request's: start over.`));
  lines.push(`const ${state} = ${stored}?.args === ${form.digestExpr} ? ${stored} : undefined;`);
  const requests = hoistRequests(work.points, work.body, work.fn, ts, names, base);
  env.requests = requests.expressions;
  lines.push(...requests.lines);
  nameContinuations(form);
  lines.push(...continuationLines(form));
  lines.push(...phaseBlockLines(form));
  const text = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(work.body)}}`;
  return { start: work.body.getStart(), end: work.body.getEnd(), text: text.replace(/\n[ \t]+\n/g, '\n\n') };
}

/**
 * Continuation lines of original code keep their absolute indentation; moving an element into a
 * phase block shifts them, except where a multi-line template literal makes whitespace content.
 */
function blockIndent(work: HandlerWork): (body: string[]) => string[] {
  const inner = '  ';
  const templates = work.body.getDescendants().filter((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n')).map((d) => d.getText());
  const shift = (element: string): string => (templates.some((t) => element.includes(t)) ? inner + element : inner + element.split('\n').join(`\n${inner}`));
  return (body) => body.map((l) => (l === '' ? l : shift(l)));
}

/** The state's type: one variant per phase, with the args digest and the locals that phase carries. */
function stateTypeLine(form: PhaseForm, typeName: string, knownTypes: Map<string, string>): string {
  const variants = form.work.points.map((_, k) => {
    const carriedVars = form.live[k]!.filter((v) => v.mode === 'store');
    const carried = carriedVars.map((v) => v.name);
    const fields = [`phase: ${k + 1}`, 'args: string', ...carriedVars.map((v) => `${stateKeyOf(v.name, carried)}: ${v.typeText}`)];
    // An answer carried to a later phase is typed by its legacy result type, imported from the SDK.
    for (const v of carriedVars) {
      const result = /^(ElicitResult|CreateMessageResult|ListRootsResult)( \| undefined)?$/.exec(knownTypes.get(v.name) ?? '');
      if (result && v.typeText === knownTypes.get(v.name)) form.fw.types.add(result[1]!);
    }
    return `{ ${fields.join('; ')} }`;
  });
  return `type ${typeName} = ${variants.join(' | ')};`;
}

/** A moved statement's text, with the capability edits inside it applied. */
function segText(form: PhaseForm, s: Statement, extra: string): string {
  const inner = form.capEdits.filter((e) => e.start >= s.getStart() && e.end <= s.getEnd());
  return reindent(s, textWithEdits(s, inner), extra);
}

/** The top-level statements after point `k - 1` up to point `k` (from the top for 0, to the end for n). */
function segmentAfter(form: PhaseForm, k: number): Statement[] {
  const n = form.work.points.length;
  return form.statements.slice(k === 0 ? 0 : form.idx[k - 1]! + 1, k < n ? form.idx[k] : form.statements.length);
}

function carriedNames(form: PhaseForm, j: number): string[] {
  return form.live[j]!.filter((v) => v.mode === 'store').map((v) => v.name);
}

/** The state minted when point `k` asks: its phase, the args digest and the carried locals. */
function stateObject(form: PhaseForm, k: number, args: string): string {
  const carried = carriedNames(form, k);
  const fields = [`phase: ${k + 1}`, `args: ${args}`, ...carried.map((name) => stateField(name, carried))];
  return `{ ${fields.join(', ')} }`;
}

/** The locals of the round after point `k`: restored from the state, or recomputed by their statement. */
function restoreLines(form: PhaseForm, k: number): string[] {
  const lines: string[] = [];
  const storedVars = form.live[k]!.filter((v) => v.mode === 'store');
  const carried = storedVars.map((v) => v.name);
  const consts = storedVars.filter((v) => v.declKind === 'const').map((v) => stateField(v.name, carried));
  const lets = storedVars.filter((v) => v.declKind !== 'const').map((v) => stateField(v.name, carried));
  if (consts.length) lines.push(`const { ${consts.join(', ')} } = ${form.state};`);
  if (lets.length) lines.push(`let { ${lets.join(', ')} } = ${form.state};`);
  const seen = new Set<Node>();
  for (const v of form.live[k]!.filter((x) => x.mode === 'recompute')) {
    if (seen.has(v.statement)) continue;
    seen.add(v.statement);
    lines.push(segText(form, v.statement, ''));
  }
  return lines;
}

/** A point nested in its top-level statement (`if (gift) { ... await ask ... }`), not that statement itself. */
function nested(form: PhaseForm, k: number): boolean {
  return form.anchors[k] !== form.work.points[k]!.statement;
}

/**
 * A nested point (only when it is the single point): its top-level statement is emitted with the point
 * replaced, and the code after it is emitted in both rounds (it runs in the first round when the
 * request is not reached).
 */
function anchorText(form: PhaseForm, k: number, pointText: string[], dropFollowing: boolean): string {
  const anchor = form.anchors[k]!;
  const point = form.work.points[k]!;
  // After a transition (always returns) the rest of the point's block is unreachable and would name the unbound answer.
  const siblings = (point.statement.getParent() as Node & { getStatements?: () => Statement[] }).getStatements?.() ?? [point.statement];
  const end = dropFollowing ? siblings[siblings.length - 1]!.getEnd() : point.statement.getEnd();
  const inner = form.capEdits.filter((e) => e.start >= anchor.getStart() && e.end <= anchor.getEnd() && !(e.start >= point.statement.getStart() && e.end <= end));
  return textWithEdits(anchor, [...inner, { start: point.statement.getStart(), end, text: caseScoped(point, pointText, indentOf(point.statement)) }]);
}

/** Point `k` in the round that resumes after it: reads the answer (asking again with the same state when it is missing). */
function resumeLines(form: PhaseForm, k: number, scoped: EmitEnv): string[] {
  const { work, state, access } = form;
  const point = work.points[k]!;
  const ask = askWithState(scoped, state, CODEC_EXPORT);
  const lines = pointLines(point, scoped, ask, (step) => `return inputRequired({ inputRequests: ${step}.inputRequests, requestState: await ${CODEC_EXPORT}.mint(${state}, ${access.ctx}) });`, (point.kind === 'helper' ? form.helperRegistry.get(point.helperFn) : undefined));
  return nested(form, k) ? [anchorText(form, k, lines, false)] : lines;
}

/**
 * A point inside a block (`if (gift) { ... await ask ... }`) may be passed by in the round that
 * reaches its block, and then the code after the block runs in that round too: that code, with the
 * block, is written once as a function of the carried locals, called by the round that asks and
 * by the round that reads the answer. Only for a plain request whose carried locals all travel in
 * the state, in a handler that returns on every path (the function declares the handler's result).
 */
function nameContinuations(form: PhaseForm): void {
  const { work, fw } = form;
  if (!RESULT_TYPE[work.handler.method] || !definitelyExits(work.body)) return;
  work.points.forEach((point, j) => {
    if (!nested(form, j) || (point.kind !== 'direct' && point.kind !== 'parallel') || form.live[j]!.some((v) => v.mode !== 'store')) return;
    const base = `continueFrom${pascal(point.keys[0]!)}`;
    const name = freeName(work.fn, base, fw.names.inFunction(work.fn));
    // Two keys may spell one name (`a_b`, `aB`): the second gets a suffix.
    form.shared.set(j, [...form.shared.values()].includes(name) ? fw.names.inFunction(work.fn).take(base) : name);
  });
}

/**
 * Code from point `j` on, in a round that did not stop earlier: every point reached asks and
 * returns with the state of its phase; a nested point may be skipped, and then the code after
 * its statement runs on in the same round.
 */
function forward(form: PhaseForm, j: number, scoped: EmitEnv, argsDigest: string): string[] {
  const { work, statements } = form;
  const n = work.points.length;
  const point = work.points[j]!;
  if (form.shared.has(j)) return [`return ${form.shared.get(j)}(${[...carriedNames(form, j), 'false'].join(', ')});`];
  const ask = askWithState(scoped, stateObject(form, j, argsDigest), CODEC_EXPORT);
  const transition = transitionLines(point, scoped, ask, point.kind === 'helper' ? helperCallText(point, form.helperRegistry.get(point.helperFn), form.access.ctx) : undefined);
  if (!nested(form, j)) return transition;
  // The statement holding the request leaves on every path once the request asks (`try { ask } catch { return ... }`): nothing after it runs in this round.
  if (definitelyExits(form.anchors[j], point.statement)) return [anchorText(form, j, transition, true)];
  const out = [anchorText(form, j, transition, true), ...segmentAfter(form, j + 1).flatMap((s) => withComments(s, segText(form, s, '')))];
  if (j + 1 < n) return [...out, ...forward(form, j + 1, scoped, argsDigest)];
  const last = statements[statements.length - 1];
  if (!definitelyExits(last)) out.push('return undefined;');
  return out;
}

/** The `continueFrom...` functions: from a nested question on, taking the carried locals and whether the round resumes. */
function continuationLines(form: PhaseForm): string[] {
  const { work, fw, env, statements, idx } = form;
  const ts = env.ts;
  const n = work.points.length;
  const resultType = RESULT_TYPE[work.handler.method];
  const lines: string[] = [];
  for (const [j, name] of form.shared) {
    const point = work.points[j]!;
    const scoped: EmitEnv = { ...env, names: fw.names.inFunction(work.fn).clone() };
    const resuming = freeName(work.fn, 'resuming', scoped.names);
    const storedVars = form.live[j]!.filter((v) => v.mode === 'store');
    const parameters = [...storedVars.map((v) => (ts ? `${v.name}: ${v.typeText}` : v.name)), ts ? `${resuming}: boolean` : resuming];
    if (ts) fw.types.add(resultType!).add('InputRequiredResult');
    const body = [
      ...narrowingGuards(statements.slice(0, idx[j]), statements.slice(idx[j]!), form.live[j]!, work.fn),
      ...leadingComments(form.anchors[j]!),
      anchorText(form, j, readLines(point, scoped, askWithState(scoped, stateObject(form, j, form.digestExpr), CODEC_EXPORT), undefined, resuming), false),
      ...segmentAfter(form, j + 1).flatMap((st) => withComments(st, segText(form, st, ''))),
      ...(j + 1 < n ? forward(form, j + 1, scoped, form.digestExpr) : []),
    ];
    lines.push(...explainOnce(fw, `// The code from a question inside a block on, written once: the round that reaches the block runs it asking (${resuming} false), the next round reading the answer.`));
    lines.push(`const ${name} = async (${parameters.join(', ')})${ts ? `: Promise<${resultType} | InputRequiredResult>` : ''} => {`, ...form.block(body), '};');
  }
  return lines;
}

/** The first round (`state === undefined`), then one `if (state.phase === k)` block per resumption. */
function phaseBlockLines(form: PhaseForm): string[] {
  const { work, fw, env, state, statements, idx, shared } = form;
  const n = work.points.length;
  const lines: string[] = [];
  for (let k = 0; k <= n; k++) {
    const isLast = k === n;
    const bodyLines: string[] = [];
    const scoped: EmitEnv = { ...env, names: fw.names.inFunction(work.fn).clone() };
    const resumesShared = k > 0 && shared.has(k - 1);
    if (resumesShared) {
      // The carried locals go to the function as they are: restored as constants.
      const carried = carriedNames(form, k - 1);
      if (carried.length > 0) bodyLines.push(`const { ${carried.map((name) => stateField(name, carried)).join(', ')} } = ${state};`);
      bodyLines.push(`return ${shared.get(k - 1)}(${[...carried, 'true'].join(', ')});`);
    } else if (k > 0) {
      bodyLines.push(...restoreLines(form, k - 1));
      bodyLines.push(...narrowingGuards(statements.slice(0, idx[k - 1]), statements.slice(idx[k - 1]!), form.live[k - 1]!, work.fn));
      // the comments above the request's statement go with the statement that now reads its answer
      bodyLines.push(...leadingComments(form.anchors[k - 1]!));
      bodyLines.push(...resumeLines(form, k - 1, scoped));
    }
    if (!resumesShared) {
      const segment = segmentAfter(form, k);
      // Before a call of the shared function, a `let` the function reassigns is no longer reassigned here.
      const callsShared = !isLast && shared.has(k);
      for (const s of segment) bodyLines.push(...withComments(s, callsShared ? constWhereUnassigned(s, segment, segText(form, s, '')) : segText(form, s, '')));
    }
    if (resumesShared && !isLast) {
      lines.push(`if (${state}.phase === ${k}) {`, ...form.block(bodyLines), '}');
    } else if (!isLast) {
      // The first round has no state yet: the digest is computed; later rounds carry it on.
      bodyLines.push(...forward(form, k, scoped, k === 0 ? form.digestExpr : `${state}.args`));
      lines.push(k === 0 ? `if (${state} === undefined) {` : `if (${state}.phase === ${k}) {`);
      lines.push(...form.block(bodyLines));
      lines.push('}');
    } else {
      // The last resumption has its own block like the others, so each phase reads as one `if`.
      lines.push(`if (${state}.phase === ${k}) {`, ...form.block(bodyLines), '}');
      // A handler that may end without a result ends the same way here.
      if (definitelyExits(work.body)) lines.push(...unknownPhaseLines(fw, work.handler.method, work.handler.name));
    }
  }
  return lines;
}

/**
 * `text` (the emitted `statement`) declared with `const` when it is a `let` whose names nothing in
 * `segment` assigns and every declaration has an initializer; otherwise `text` unchanged.
 */
function constWhereUnassigned(statement: Statement, segment: Statement[], text: string): string {
  if (!Node.isVariableStatement(statement) || statement.getDeclarationKind() !== VariableDeclarationKind.Let || !text.startsWith('let ')) return text;
  const declarations = statement.getDeclarations();
  if (declarations.some((d) => !d.getInitializer() || !Node.isIdentifier(d.getNameNode()))) return text;
  const names = new Set(declarations.map((d) => d.getName()));
  const assigned = segment.some((s) =>
    s.getDescendants().some((node) => {
      if (Node.isBinaryExpression(node) && /^(=|\+=|-=|\*=|\/=|%=|\*\*=|<<=|>>=|>>>=|&=|\|=|\^=|&&=|\|\|=|\?\?=)$/.test(node.getOperatorToken().getText())) {
        const left = node.getLeft();
        return (Node.isIdentifier(left) ? [left] : left.getDescendantsOfKind(SyntaxKind.Identifier)).some((id) => names.has(id.getText()));
      }
      if ((Node.isPrefixUnaryExpression(node) || Node.isPostfixUnaryExpression(node)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(node.getOperatorToken())) {
        return names.has(node.getOperand().getText());
      }
      return false;
    }),
  );
  return assigned ? text : `const ${text.slice('let '.length)}`;
}

/** `a.b?.c` → that text for a property chain rooted at an identifier; undefined for other expressions. */
function chainOf(node: Node): string | undefined {
  if (Node.isIdentifier(node)) return node.getText();
  if (Node.isPropertyAccessExpression(node)) {
    const base = chainOf(node.getExpression());
    return base === undefined ? undefined : `${base}${node.hasQuestionDotToken() ? '?.' : '.'}${node.getName()}`;
  }
  if (Node.isNonNullExpression(node) || Node.isParenthesizedExpression(node)) return chainOf(node.getExpression());
  return undefined;
}

function chainsIn(root: Node): string[] {
  const out: string[] = [];
  const visit = (node: Node): void => {
    const chain = Node.isPropertyAccessExpression(node) || Node.isIdentifier(node) ? chainOf(node) : undefined;
    if (chain !== undefined) {
      out.push(chain);
      if (Node.isPropertyAccessExpression(node)) return;
    }
    node.forEachChild(visit);
  };
  visit(root);
  return out;
}

/**
 * A later phase restores its locals from requestState with their declared types, so TypeScript no
 * longer sees the narrowing that an earlier guard (`if (r.action !== 'accept' || !r.content) return ...;`)
 * gave them. The guards that the restored values passed before the state was minted are re-checked
 * (they cannot fire on sealed state: same values, pure conditions), which re-establishes the narrowing.
 * Only guards over restored locals (and names not declared in the handler body) whose chains the code
 * after the point reads are repeated.
 */
function narrowingGuards(before: Statement[], after: Statement[], live: LiveVar[], fn: Node): string[] {
  const restored = new Set(live.map((v) => v.name));
  const local = new Set(declaredIn(before).map((d) => d.name));
  const laterChains = after.flatMap((s) => chainsIn(s));
  const out: string[] = [];
  for (const s of before) {
    if (!Node.isIfStatement(s) || s.getElseStatement() || !definitelyExits(s.getThenStatement())) continue;
    const condition = s.getExpression();
    // Calls (capability reads, helpers) may answer differently in a later round: only plain comparisons are repeated.
    if (condition.getDescendants().some((d) => Node.isCallExpression(d) || Node.isNewExpression(d) || Node.isAwaitExpression(d) || Node.isFunctionLikeDeclaration(d) || Node.isBinaryExpression(d) && /^(=|\+=|-=|\*=|\/=|%=|&&=|\|\|=|\?\?=)$/.test(d.getOperatorToken().getText()))) continue;
    if (Node.isCallExpression(condition) || Node.isAwaitExpression(condition)) continue;
    const chains = chainsIn(condition);
    const roots = chains.map((c) => c.split(/\??\./)[0]!);
    if (!roots.some((r) => restored.has(r)) || roots.some((r) => local.has(r) && !restored.has(r))) continue;
    if (firstEffect([condition], fn)) continue;
    // Needed when later code reads a guarded chain without optional chaining (`r.content.title`, not `r.content?.title`).
    const narrows = chains.some((c) => restored.has(c.split(/\??\./)[0]!) && laterChains.some((l) => (l === c && c.includes('.')) || l.startsWith(`${c}.`)));
    if (!narrows) continue;
    out.push(`if (${condition.getText()}) throw new Error('requestState failed a check it passed when minted');`);
  }
  if (out.length > 0) out.unshift(`// Checks the restored values passed before this round, repeated so TypeScript narrows them again.`);
  return out;
}

