/**
 * Rewrite: the code of a planned handler (write-once: each request point replaced in place;
 * phases: the body rebuilt as a state machine over the sealed requestState) and of a helper
 * that asks through its callers.
 */
import { Node, SyntaxKind, VariableDeclarationKind, type ParameterDeclaration, type Statement } from 'ts-morph';
import { firstEffect } from './purity.js';
import { anchorOf, type HandlerWork } from './analyse.js';
import { definitelyExits } from './control-flow.js';
import { contextAccess, freeName, type ContextAccess } from './context.js';
import { unplanned, type EmitEnv } from './emit.js';
import { askWithState, askWriteOnce, helperCallLines, mergedHelperLines, mergedLines, readLines, transitionLines, urlThrowLines } from './emit-point.js';
import { defaultHelperKey, helperArguments, type HelperWork } from './helper.js';
import { emitLoopHandler, RESULT_TYPE } from './emit-loop.js';
import { wrappedGroupTexts } from './wrapped-rounds.js';
import { nestedRoundEdit, type RoundStyle } from './emit-nested-round.js';
import { hoistRequests } from './emit-requests.js';
import { capabilityEdits, caseScoped, explainOnce, pascal, reindent, type FileWork } from './emit-common.js';
import { declaredIn, stateField, stateKeyOf, type LiveVar } from './live.js';
import { asHelperPoint, type HelperPoint, type RequestPoint } from './points.js';
import { answerTypes, plannedLive } from './emit-checks.js';
import { CODEC_EXPORT, DIGEST_EXPORT, flavourOf } from './state-module.js';
import { indentOf, textWithEdits, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';
import { returnTypeEdits } from './return-type.js';
import { overloadsText } from './contextless-calls.js';

export function helperCallText(point: HelperPoint, helper: HelperWork | undefined, ctx: string): string {
  const call = point.helperCall;
  const args = helperArguments(call, helper);
  if (!helper?.ctxParam) args.push(ctx);
  args.push(quote(point.keys[0]!));
  const typeArgs = call.getTypeArguments().length > 0 ? `<${call.getTypeArguments().map((t) => t.getText()).join(', ')}>` : '';
  return `${call.getExpression().getText()}${typeArgs}(${args.join(', ')})`;
}

export function emitHandler(work: HandlerWork, fw: FileWork, helperRegistry: Map<Node, HelperWork>): TextEdit[] {
  if (work.form === 'loop') return [...returnTypeEdits(work.fn, fw, 'the handler'), ...emitLoopHandler(work, fw)];
  const file = work.handler.sourceFile;
  const ts = flavourOf(file) === 'ts';
  const names = fw.names;
  const access: ContextAccess = contextAccess(work.handler, work.fn, names, ts, work.form === 'phases' || (work.nested?.length ?? 0) > 0, work.sites.length);
  if (access.edits.length > 0 && ts) {
    if (access.edits.some((e) => e.text.includes('ServerContext'))) fw.types.add('ServerContext');
  }
  const env: EmitEnv = { ts, ctx: access.ctx, values: fw.values, types: fw.types, capabilityImports: fw.capabilityImports, answerReaders: fw.answerReaders, names };
  const edits: TextEdit[] = [...access.edits, ...returnTypeEdits(work.fn, fw, 'the handler')];
  const pointStatements = work.points.map((p) => p.statement);
  const capEdits = capabilityEdits(work.body, env, pointStatements);
  const base = work.body.getStatements()[0] ? indentOf(work.body.getStatements()[0]!) : `${indentOf(work.fn)}  `;

  if (work.form === 'write-once') {
    // A round resuming in a nested block is emitted with its block (capability checks there included).
    const rounds = work.nested ?? [];
    const outside = capEdits.filter((e) => !rounds.some((r) => e.start >= r.block.getStart() && e.end <= r.block.getEnd()));
    const nestedEdits = rounds.map((r) => nestedRoundEdit(work, r, fw, helperRegistry, { ...env }, access, capEdits, roundEdits));
    return [...edits, ...writeOnceEdits(work, env, helperRegistry, access, outside, base), ...nestedEdits];
  }

  edits.push(phasesEdit(work, fw, helperRegistry, env, access, capEdits, base));
  return edits;
}

function writeOnceStyle(env: EmitEnv): RoundStyle {
  return { ask: askWriteOnce(env), passThrough: (step) => `return ${step};`, stateSuffix: '' };
}

/** Write-once form: each request point replaced in place (the handler runs again from the top on every round). */
function writeOnceEdits(work: HandlerWork, env: EmitEnv, helperRegistry: Map<Node, HelperWork>, access: ContextAccess, capEdits: TextEdit[], base: string): TextEdit[] {
  const nested = new Set((work.nested ?? []).flatMap((r) => r.points));
  const edits: TextEdit[] = [...capEdits, ...roundEdits(work.points.filter((p) => !nested.has(p)), env, helperRegistry, writeOnceStyle(env))];
  if (access.bodyPrefix.length > 0) edits.push({ start: work.body.getStart() + 1, end: work.body.getStart() + 1, text: `\n${base}${access.bodyPrefix.join(`\n${base}`)}` });
  return edits;
}

/** Each request point replaced in place: read the answer, or return the round's input requests as `style` says. */
export function roundEdits(points: RequestPoint[], env: EmitEnv, helperRegistry: Map<Node, HelperWork>, style: RoundStyle): TextEdit[] {
  const edits: TextEdit[] = [];
  const followerLines = new Map<RequestPoint, string[]>();
  for (const point of points) {
    const indent = indentOf(point.statement);
    let lines: string[];
    if (point.mergedInto?.kind === 'helper') continue;
    if (point.wrapped) {
      // Each call in its own wrapper statement: asked in place, the pending requests returned after the last wrapper.
      const texts = wrappedGroupTexts(point, env, (p) => helperCallText(asHelperPoint(p), helperRegistry.get(asHelperPoint(p).helperFn), env.ctx), style.stateSuffix);
      const units = point.wrapped.units;
      edits.push({ start: units[0]!.getStart(), end: units[0]!.getStart(), text: `${texts.before}\n${indentOf(units[0]!)}` });
      for (const [p, lines] of texts.points) edits.push({ start: p.statement.getStart(), end: p.statement.getEnd(), text: caseScoped(p, lines, indentOf(p.statement)) });
      edits.push({ start: units.at(-1)!.getEnd(), end: units.at(-1)!.getEnd(), text: `\n${indentOf(units[0]!)}${texts.after}` });
      continue;
    }
    if (point.merged && point.kind === 'helper') {
      // The group's calls are consecutive statements: one edit replaces them all.
      const group = [point, ...point.merged];
      const text = mergedHelperLines(group, env, (p) => helperCallText(asHelperPoint(p), helperRegistry.get(asHelperPoint(p).helperFn), env.ctx), style.stateSuffix).join(`\n${indent}`);
      edits.push({ start: point.statement.getStart(), end: group.at(-1)!.statement.getEnd(), text });
      continue;
    }
    if (point.mergedInto) lines = followerLines.get(point)!;
    else if (point.merged) {
      const merged = mergedLines(point, env, style.ask);
      for (const [follower, l] of merged.followers) followerLines.set(follower, l);
      lines = merged.leader;
    } else lines = pointLines(point, env, style.ask, style.passThrough, point.kind === 'helper' ? helperRegistry.get(point.helperFn) : undefined);
    edits.push({ start: point.statement.getStart(), end: point.statement.getEnd(), text: caseScoped(point, lines, indent) });
  }
  return edits;
}

/** Phase form: the body rebuilt as a phase switch over the sealed requestState, one block per resumption. */
function phasesEdit(work: HandlerWork, fw: FileWork, helperRegistry: Map<Node, HelperWork>, env: EmitEnv, access: ContextAccess, capEdits: TextEdit[], base: string): TextEdit {
  const ts = env.ts;
  const names = fw.names;
  fw.needsState = true;
  const statements = work.body.getStatements();
  const anchors = work.points.map((p) => anchorOf(p.statement, work.body));
  const idx = anchors.map((a) => statements.indexOf(a));
  const stored = freeName(work.fn, 'stored', names);
  const state = freeName(work.fn, 'state', names);
  const typeName = names.take(`${pascal(work.handler.name ?? 'handler')}State`);
  const handlerId = quote(`${work.handler.method}:${work.handler.name ?? ''}`);
  const knownTypes = answerTypes(work, statements);
  const live = work.points.map((_, k) => plannedLive(work, k));
  const segText = (s: Statement, extra: string): string => {
    const inner = capEdits.filter((e) => e.start >= s.getStart() && e.end <= s.getEnd());
    return reindent(s, textWithEdits(s, inner), extra);
  };
  const stateObject = (k: number, args: string): string => {
    const carried = live[k]!.filter((v) => v.mode === 'store').map((v) => v.name);
    const fields = [`phase: ${k + 1}`, `args: ${args}`, ...carried.map((name) => stateField(name, carried))];
    return `{ ${fields.join(', ')} }`;
  };
  const restore = (k: number): string[] => {
    const lines: string[] = [];
    const storedVars = live[k]!.filter((v) => v.mode === 'store');
    const carried = storedVars.map((v) => v.name);
    const consts = storedVars.filter((v) => v.declKind === 'const').map((v) => stateField(v.name, carried));
    const lets = storedVars.filter((v) => v.declKind !== 'const').map((v) => stateField(v.name, carried));
    if (consts.length) lines.push(`const { ${consts.join(', ')} } = ${state};`);
    if (lets.length) lines.push(`let { ${lets.join(', ')} } = ${state};`);
    const seen = new Set<Node>();
    for (const v of live[k]!.filter((x) => x.mode === 'recompute')) {
      if (seen.has(v.statement)) continue;
      seen.add(v.statement);
      lines.push(segText(v.statement, ''));
    }
    return lines;
  };
  const codec = CODEC_EXPORT;
  env.values.add('inputRequired');
  const lines: string[] = [];
  lines.push(...access.bodyPrefix);
  if (ts) {
    const variants = work.points.map((_, k) => {
      const carriedVars = live[k]!.filter((v) => v.mode === 'store');
      const carried = carriedVars.map((v) => v.name);
      const fields = [`phase: ${k + 1}`, 'args: string', ...carriedVars.map((v) => `${stateKeyOf(v.name, carried)}: ${v.typeText}`)];
      // An answer carried to a later phase is typed by its legacy result type, imported from the SDK.
      for (const v of carriedVars) {
        const result = /^(ElicitResult|CreateMessageResult|ListRootsResult)( \| undefined)?$/.exec(knownTypes.get(v.name) ?? '');
        if (result && v.typeText === knownTypes.get(v.name)) fw.types.add(result[1]!);
      }
      return `{ ${fields.join('; ')} }`;
    });
    lines.push(`type ${typeName} = ${variants.join(' | ')};`);
  }
  lines.push(`const ${stored} = ${access.ctx}.mcpReq.requestState${ts ? `<${typeName}>` : ''}();`);
  lines.push(...explainOnce(fw, `// State minted for other arguments (or another handler) is not this request's: start over.`));
  lines.push(`const ${state} = ${stored}?.args === ${DIGEST_EXPORT}(${handlerId}, ${access.args}) ? ${stored} : undefined;`);
  const requests = hoistRequests(work.points, work.body, work.fn, ts, names, base);
  env.requests = requests.expressions;
  lines.push(...requests.lines);
  const inner = '  ';
  // Continuation lines of original code keep their absolute indentation; moving an element into a
  // phase block shifts them, except where a multi-line template literal makes whitespace content.
  const templates = work.body.getDescendants().filter((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n')).map((d) => d.getText());
  const shift = (element: string): string => (templates.some((t) => element.includes(t)) ? inner + element : inner + element.split('\n').join(`\n${inner}`));
  const block = (body: string[]): string[] => body.map((l) => (l === '' ? l : shift(l)));
  // A nested point (only when it is the single point): its top-level statement is emitted with the point
  // replaced, and the code after it is emitted in both rounds (it runs in the first round when the
  // request is not reached).
  const anchorText = (k: number, pointText: string[], dropFollowing: boolean): string => {
    const anchor = anchors[k]!;
    const point = work.points[k]!;
    // After a transition (always returns) the rest of the point's block is unreachable and would name the unbound answer.
    const siblings = (point.statement.getParent() as Node & { getStatements?: () => Statement[] }).getStatements?.() ?? [point.statement];
    const end = dropFollowing ? siblings[siblings.length - 1]!.getEnd() : point.statement.getEnd();
    const inner = capEdits.filter((e) => e.start >= anchor.getStart() && e.end <= anchor.getEnd() && !(e.start >= point.statement.getStart() && e.end <= end));
    return textWithEdits(anchor, [...inner, { start: point.statement.getStart(), end, text: caseScoped(point, pointText, indentOf(point.statement)) }]);
  };
  const nested = (k: number): boolean => anchors[k] !== work.points[k]!.statement;
  const resumeLines = (k: number, scoped: EmitEnv): string[] => {
    const point = work.points[k]!;
    const ask = askWithState(scoped, state, codec);
    const lines = pointLines(point, scoped, ask, (step) => `return inputRequired({ inputRequests: ${step}.inputRequests, requestState: await ${codec}.mint(${state}, ${access.ctx}) });`, (point.kind === 'helper' ? helperRegistry.get(point.helperFn) : undefined));
    return nested(k) ? [anchorText(k, lines, false)] : lines;
  };
  const n = work.points.length;
  const segmentAfter = (k: number): Statement[] => statements.slice(k === 0 ? 0 : idx[k - 1]! + 1, k < n ? idx[k] : statements.length);
  const digestExpr = `${DIGEST_EXPORT}(${handlerId}, ${access.args})`;
  /**
   * A point inside a block (`if (gift) { ... await ask ... }`) may be passed by in the round that
   * reaches its block, and then the code after the block runs in that round too: that code, with the
   * block, is written once as a function of the carried locals, called by the round that asks and
   * by the round that reads the answer. Only for a plain request whose carried locals all travel in
   * the state, in a handler that returns on every path (the function declares the handler's result).
   */
  const resultType = RESULT_TYPE[work.handler.method];
  const shared = new Map<number, string>();
  if (resultType && definitelyExits(work.body)) {
    work.points.forEach((point, j) => {
      if (!nested(j) || (point.kind !== 'direct' && point.kind !== 'parallel') || live[j]!.some((v) => v.mode !== 'store')) return;
      const base = `continueFrom${pascal(point.keys[0]!)}`;
      const name = freeName(work.fn, base, names);
      // Two keys may spell one name (`a_b`, `aB`): the second gets a suffix.
      shared.set(j, [...shared.values()].includes(name) ? names.take(base) : name);
    });
  }
  const carriedNames = (j: number): string[] => live[j]!.filter((v) => v.mode === 'store').map((v) => v.name);
  /**
   * Code from point `j` on, in a round that did not stop earlier: every point reached asks and
   * returns with the state of its phase; a nested point may be skipped, and then the code after
   * its statement runs on in the same round.
   */
  const forward = (j: number, scoped: EmitEnv, argsDigest: string): string[] => {
    const point = work.points[j]!;
    if (shared.has(j)) return [`return ${shared.get(j)}(${[...carriedNames(j), 'false'].join(', ')});`];
    const ask = askWithState(scoped, stateObject(j, argsDigest), codec);
    const transition = transitionLines(point, scoped, ask, point.kind === 'helper' ? helperCallText(point, helperRegistry.get(point.helperFn), access.ctx) : undefined);
    if (!nested(j)) return transition;
    // The statement holding the request leaves on every path once the request asks (`try { ask } catch { return ... }`): nothing after it runs in this round.
    if (definitelyExits(anchors[j], point.statement)) return [anchorText(j, transition, true)];
    const out = [anchorText(j, transition, true), ...segmentAfter(j + 1).map((s) => segText(s, ''))];
    if (j + 1 < n) return [...out, ...forward(j + 1, scoped, argsDigest)];
    const last = statements[statements.length - 1];
    if (!definitelyExits(last)) out.push('return undefined;');
    return out;
  };
  for (const [j, name] of shared) {
    const point = work.points[j]!;
    const scoped: EmitEnv = { ...env, names: names.clone() };
    const resuming = freeName(work.fn, 'resuming', scoped.names);
    const storedVars = live[j]!.filter((v) => v.mode === 'store');
    const parameters = [...storedVars.map((v) => (ts ? `${v.name}: ${v.typeText}` : v.name)), ts ? `${resuming}: boolean` : resuming];
    if (ts) fw.types.add(resultType!).add('InputRequiredResult');
    const body = [
      ...narrowingGuards(statements.slice(0, idx[j]), statements.slice(idx[j]!), live[j]!, work.fn),
      anchorText(j, readLines(point, scoped, askWithState(scoped, stateObject(j, digestExpr), codec), undefined, resuming), false),
      ...segmentAfter(j + 1).map((st) => segText(st, '')),
      ...(j + 1 < n ? forward(j + 1, scoped, digestExpr) : []),
    ];
    lines.push(...explainOnce(fw, `// The code from a question inside a block on, written once: the round that reaches the block runs it asking (${resuming} false), the next round reading the answer.`));
    lines.push(`const ${name} = async (${parameters.join(', ')})${ts ? `: Promise<${resultType} | InputRequiredResult>` : ''} => {`, ...block(body), '};');
  }
  for (let k = 0; k <= n; k++) {
    const isLast = k === n;
    const bodyLines: string[] = [];
    const scoped: EmitEnv = { ...env, names: names.clone() };
    const resumesShared = k > 0 && shared.has(k - 1);
    if (resumesShared) {
      // The carried locals go to the function as they are: restored as constants.
      const carried = carriedNames(k - 1);
      if (carried.length > 0) bodyLines.push(`const { ${carried.map((name) => stateField(name, carried)).join(', ')} } = ${state};`);
      bodyLines.push(`return ${shared.get(k - 1)}(${[...carried, 'true'].join(', ')});`);
    } else if (k > 0) {
      bodyLines.push(...restore(k - 1));
      bodyLines.push(...narrowingGuards(statements.slice(0, idx[k - 1]), statements.slice(idx[k - 1]!), live[k - 1]!, work.fn));
      bodyLines.push(...resumeLines(k - 1, scoped));
    }
    if (!resumesShared) {
      const segment = segmentAfter(k);
      // Before a call of the shared function, a `let` the function reassigns is no longer reassigned here.
      const callsShared = !isLast && shared.has(k);
      for (const s of segment) bodyLines.push(callsShared ? constWhereUnassigned(s, segment, segText(s, '')) : segText(s, ''));
    }
    if (resumesShared && !isLast) {
      lines.push(`if (${state}.phase === ${k}) {`, ...block(bodyLines), '}');
    } else if (!isLast) {
      // The first round has no state yet: the digest is computed; later rounds carry it on.
      bodyLines.push(...forward(k, scoped, k === 0 ? `${DIGEST_EXPORT}(${handlerId}, ${access.args})` : `${state}.args`));
      lines.push(k === 0 ? `if (${state} === undefined) {` : `if (${state}.phase === ${k}) {`);
      lines.push(...block(bodyLines));
      lines.push('}');
    } else {
      // The last resumption has its own block like the others, so each phase reads as one `if`.
      lines.push(`if (${state}.phase === ${k}) {`, ...block(bodyLines), '}');
      lines.push(...unknownPhaseLines(fw, work.body, work.handler.method, work.handler.name));
    }
  }
  const text = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(work.body)}}`;
  return { start: work.body.getStart(), end: work.body.getEnd(), text: text.replace(/\n[ \t]+\n/g, '\n\n') };
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

/**
 * After the last phase block: only sealed state whose phase this handler does not have gets here,
 * minted by another version of it (a deployment that changed its questions while a round was in
 * flight). A handler that returns on every path fails it with an error naming the handler; one
 * that may end without a result ends the same way here.
 */
function unknownPhaseLines(fw: FileWork, body: Node, method: string, name: string | undefined): string[] {
  if (!definitelyExits(body)) return [];
  return [
    ...explainOnce(fw, `// Sealed state with a phase this handler does not have was minted by another version of it.`),
    `throw new Error(${quote(`requestState phase unknown to ${method}:${name ?? ''}`)});`,
  ];
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

function pointLines(point: RequestPoint, env: EmitEnv, ask: ReturnType<typeof askWriteOnce>, passThrough: (step: string) => string, helper: HelperWork | undefined): string[] {
  switch (point.kind) {
    case 'direct':
    case 'parallel':
      return readLines(point, env, ask);
    case 'helper':
      return helperCallLines(point, env, helperCallText(point, helper, env.ctx), passThrough);
    case 'url-throw':
      return urlThrowLines(point, env, ask);
  }
}

/** `fallback?: string` → `fallback: string | undefined` (a required parameter cannot follow an optional one). */
function optionalParamEdits(params: ParameterDeclaration[]): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const p of params) {
    const question = p.getQuestionTokenNode();
    if (!question || p.isRestParameter()) continue;
    edits.push({ start: question.getStart(), end: question.getEnd(), text: '' });
    const type = p.getTypeNode();
    if (type) edits.push({ start: type.getStart(), end: type.getEnd(), text: /=>|^new\b/.test(type.getText()) ? `(${type.getText()}) | undefined` : `${type.getText()} | undefined` });
  }
  return edits;
}

export function emitHelper(helper: HelperWork, fw: FileWork, registry: Map<Node, HelperWork>): TextEdit[] {
  const file = helper.fn.getSourceFile();
  const ts = flavourOf(file) === 'ts';
  const names = fw.names.clone();
  const edits: TextEdit[] = [];
  const params = helper.fn.getParameters();
  const ctx = helper.ctxParam ?? freeName(helper.fn, 'ctx', names);
  const key = freeName(helper.fn, 'key', names);
  const contextless = helper.contextless;
  // a context that stays optional (callers passing none) leaves the key optional too: only the overload with a context takes it
  const keyParam = contextless ? `${key} = ${quote(defaultHelperKey(helper))}` : `${key}${ts ? ': string' : ''}`;
  const added = [...(helper.ctxParam ? [] : [`${ctx}${ts ? ': ServerContext' : ''}`]), keyParam];
  if (!helper.ctxParam && ts) fw.types.add('ServerContext');
  const last = params[params.length - 1];
  // the context and key follow: an optional parameter before them takes `undefined` explicitly (every call is padded to it)
  if (helper.senderParam === undefined) edits.push(...optionalParamEdits(params.filter((p) => p !== contextless?.param)));
  if (contextless?.resultType !== undefined && (Node.isFunctionDeclaration(helper.fn) || Node.isMethodDeclaration(helper.fn))) {
    const indent = indentOf(helper.fn);
    edits.push({ start: helper.fn.getStart(), end: helper.fn.getStart(), text: `${overloadsText(helper.fn, contextless, key, indent)}\n${indent}` });
    fw.types.add('InputRequiredResult');
  }
  if (helper.senderParam !== undefined) {
    // The sender parameter goes; the rest keep their text, followed by the context and key.
    const kept = params.filter((_, i) => i !== helper.senderParam).map((p) => p.getText());
    edits.push({ start: params[0]!.getStart(), end: last!.getEnd(), text: [...kept, ...added].join(', ') });
  } else if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${added.join(', ')}` });
  else {
    const open = helper.fn.getFirstChildByKind(SyntaxKind.OpenParenToken);
    if (!open) unplanned(`helper \`${helper.name}\` has no parameter list`);
    edits.push({ start: open.getEnd(), end: open.getEnd(), text: added.join(', ') });
  }
  const returnType = (helper.fn as unknown as { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.();
  if (returnType && ts) {
    const m = /^Promise<([\s\S]*)>$/.exec(returnType.getText())!;
    edits.push({ start: returnType.getStart(), end: returnType.getEnd(), text: `Promise<${m[1]} | InputRequiredResult>` });
    fw.types.add('InputRequiredResult');
  }
  const env: EmitEnv = { ts, ctx, values: fw.values, types: fw.types, capabilityImports: fw.capabilityImports, answerReaders: fw.answerReaders, names };
  edits.push(...capabilityEdits(helper.body, env, [helper.point.statement]));
  const point = { ...helper.point, keys: [defaultHelperKey(helper)] };
  const indent = indentOf(point.statement);
  let lines: string[];
  if (point.kind === 'helper') {
    // An intermediate helper asks through the next one with the same context and key, and returns its input_required result through.
    const inner = registry.get(point.helperFn);
    if (!inner) return unplanned(`helper \`${helper.name}\` calls a helper that is not rewritten`);
    const call = point.helperCall;
    const args = helperArguments(call, inner);
    if (!inner.ctxParam) args.push(ctx);
    args.push(key);
    const typeArgs = call.getTypeArguments().length > 0 ? `<${call.getTypeArguments().map((t) => t.getText()).join(', ')}>` : '';
    lines = helperCallLines(point, env, `${call.getExpression().getText()}${typeArgs}(${args.join(', ')})`, (step) => `return ${step};`);
  } else lines = readLines(point, env, askWriteOnce(env), [key]);
  edits.push({ start: point.statement.getStart(), end: point.statement.getEnd(), text: caseScoped(point, lines, indent) });
  fw.values.add('inputRequired');
  return edits;
}
