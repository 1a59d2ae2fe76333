/**
 * Rewrite: the code of a planned handler (write-once: each request point replaced in place;
 * phases: the body rebuilt as a state machine over the sealed requestState, in emit-phases.ts) and
 * of a helper that asks through its callers.
 */
import { Node, SyntaxKind, type ParameterDeclaration } from 'ts-morph';
import type { HandlerWork } from './analyse.js';
import { contextAccess, freeName, type ContextAccess } from './context.js';
import { unplanned, type EmitEnv } from './emit.js';
import { askWriteOnce, baseName, helperCallLines, helperCallText, mergedHelperLines, mergedLines, pointLines, readLines } from './emit-point.js';
import { defaultHelperKey, helperArguments, type HelperWork } from './helper.js';
import { emitLoopHandler } from './emit-loop.js';
import { wrappedGroupTexts } from './wrapped-rounds.js';
import { nestedRoundEdit, type RoundStyle } from './emit-nested-round.js';
import { phasesEdit } from './emit-phases.js';
import { capabilityEdits, caseScoped, type FileWork } from './emit-common.js';
import { asHelperPoint, type RequestPoint } from './points.js';
import { flavourOf } from './module-flavour.js';
import { indentOf, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';
import { returnTypeEdits } from './return-type.js';
import { overloadsText } from './contextless-calls.js';

export function emitHandler(work: HandlerWork, fw: FileWork, helperRegistry: Map<Node, HelperWork>): TextEdit[] {
  if (work.form === 'loop') return [...returnTypeEdits(work.fn, fw, 'the handler'), ...emitLoopHandler(work, fw)];
  const file = work.handler.sourceFile;
  const ts = flavourOf(file) === 'ts';
  const names = fw.names.inFunction(work.fn);
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
  const names = fw.names.inFunction(helper.fn);
  const edits: TextEdit[] = [];
  const params = helper.fn.getParameters();
  const ctx = helper.ctxParam ?? freeName(helper.fn, 'ctx', names);
  // the key parameter is named like the request it keys (`summarizeRequest` asked under `summarizeKey`):
  // two helpers reading into the same name do not write one line twice
  const key = freeName(helper.fn, `${baseName(defaultHelperKey(helper))}Key`, names);
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
