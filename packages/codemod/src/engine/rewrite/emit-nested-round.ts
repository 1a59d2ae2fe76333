/**
 * Emission of a round that resumes inside a nested block (nested-round.ts): the block's statements
 * become a two-way switch over the sealed requestState.
 *
 *   {
 *     const stored = ctx.mcpReq.requestState<S>();
 *     const state = stored?.args === argumentsDigest('tools/call:x#1', args) ? stored : undefined;
 *     if (state === undefined) {
 *       <the code before the round>
 *       <the round, asking with the state { phase: 1, args, ...carried locals }>
 *       <the code after the round>
 *     } else {
 *       <the carried locals restored (or recomputed)>
 *       <the round, reading its answers (asking again with the same state when one is missing)>
 *       <the code after the round>
 *     }
 *   }
 */
import { Node, type Statement } from 'ts-morph';
import type { HandlerWork } from './analyse.js';
import type { ContextAccess } from './context.js';
import { freeName } from './context.js';
import type { EmitEnv } from './emit.js';
import { askWithState } from './emit-point.js';
import { explainOnce, pascal, reindent, type FileWork } from './emit-common.js';
import { hoistRequests } from './emit-requests.js';
import type { HelperWork } from './helper.js';
import { stateField, stateKeyOf } from './live.js';
import type { NestedRound } from './nested-round.js';
import type { RequestPoint } from './points.js';
import { plannedLive } from './emit-checks.js';
import { CODEC_EXPORT, DIGEST_EXPORT } from './state-module.js';
import { applyEdits, indentOf, textWithEdits, withComments, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';

function inside(edit: TextEdit, start: number, end: number): boolean {
  return edit.start >= start && edit.end <= end;
}

/** Edits replacing each point of a round in place, returning its input requests as `style` says (emit-handler.ts). */
export type RoundEditor = (points: RequestPoint[], env: EmitEnv, helperRegistry: Map<Node, HelperWork>, style: RoundStyle) => TextEdit[];

export interface RoundStyle {
  ask: ReturnType<typeof askWithState>;
  /** The statement returning a helper's input_required step through. */
  passThrough: (step: string) => string;
  /** Added to the `inputRequired({ inputRequests })` of a group asked together. */
  stateSuffix: string;
}

export function nestedRoundEdit(work: HandlerWork, round: NestedRound, fw: FileWork, helperRegistry: Map<Node, HelperWork>, env: EmitEnv, access: ContextAccess, capEdits: TextEdit[], roundEdits: RoundEditor): TextEdit {
  const ts = env.ts;
  // everything the round writes is declared inside its block: its names are the block's (a request
  // under a key another branch shares is `summaryStep` in both)
  const names = fw.names.inFunction(work.fn).clone();
  env.names = names;
  fw.needsState = true;
  const live = plannedLive(work, work.nested?.indexOf(round) ?? -1);
  const block = round.block;
  const statements = block.getStatements();
  const file = block.getSourceFile();
  const stored = freeName(work.fn, 'stored', names);
  const state = freeName(work.fn, 'state', names);
  const typeName = names.take(`${pascal(work.handler.name ?? 'handler')}State`);
  const handlerId = quote(`${work.handler.method}:${work.handler.name ?? ''}#${round.ordinal}`);
  const digest = `${DIGEST_EXPORT}(${handlerId}, ${access.args})`;
  const carriedVars = live.filter((v) => v.mode === 'store');
  const carried = carriedVars.map((v) => v.name);
  const codec = CODEC_EXPORT;
  env.values.add('inputRequired');
  const base = indentOf(statements[0]!);
  const inner = '  ';
  const templates = block.getDescendants().filter((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n')).map((d) => d.getText());
  const shift = (element: string): string => (templates.some((t) => element.includes(t)) ? inner + element : inner + element.split('\n').join(`\n${inner}`));
  const segText = (s: Statement): string => reindent(s, textWithEdits(s, capEdits.filter((e) => inside(e, s.getStart(), s.getEnd()))), '');
  const firstAt = statements.indexOf(round.first);
  const lastAt = statements.indexOf(round.last);
  const commented = (s: Statement, text: string = segText(s)): string[] => withComments(s, text);
  const after = statements.slice(lastAt + 1).flatMap((s) => commented(s));
  const roundText = (stateExpr: string, scoped: EmitEnv): string => {
    const suffix = `, requestState: await ${codec}.mint(${stateExpr}, ${access.ctx})`;
    const style = {
      ask: askWithState(scoped, stateExpr, codec),
      passThrough: (step: string) => `return inputRequired({ inputRequests: ${step}.inputRequests${suffix} });`,
      stateSuffix: suffix,
    };
    const start = round.first.getStart();
    const end = round.last.getEnd();
    const edits = [...capEdits.filter((e) => inside(e, start, end)), ...roundEdits(round.points, scoped, helperRegistry, style)];
    return applyEdits(file.getFullText().slice(start, end), edits, start);
  };
  const lines: string[] = [];
  if (ts) {
    const fields = ['phase: 1', 'args: string', ...carriedVars.map((v) => `${stateKeyOf(v.name, carried)}: ${v.typeText}`)];
    lines.push(`type ${typeName} = { ${fields.join('; ')} };`);
  }
  lines.push(`const ${stored} = ${access.ctx}.mcpReq.requestState${ts ? `<${typeName}>` : ''}();`);
  lines.push(...explainOnce(fw, `// State minted for other arguments (or another handler) is not this request's: start over.`));
  lines.push(`const ${state} = ${stored}?.args === ${digest} ? ${stored} : undefined;`);
  const requests = hoistRequests(round.points, block, work.fn, ts, names, base);
  env.requests = requests.expressions;
  lines.push(...requests.lines);
  // The code before the round runs in the first round only, as a function returning the state it
  // leaves; the answer round takes the same state back. Everything after runs once per round.
  const current = freeName(work.fn, 'current', names);
  const fields = ['phase: 1', `args: ${digest}`, ...carried.map((name) => stateField(name, carried))];
  const firstRound = [...statements.slice(0, firstAt).flatMap((s) => commented(s)), `return { ${fields.join(', ')} };`];
  const shifted = firstRound.map((l) => (l === '' ? l : shift(l)));
  lines.push(...explainOnce(fw, `// The code before the round runs in the first round only; the answer round takes what it left from the state.`));
  lines.push(`const ${current} = ${state} ?? (await (async ()${ts ? `: Promise<${typeName}>` : ''} => {`, ...shifted, '})());');
  // A `let` the rest of the block never assigns again comes back as a const.
  const asConst = (v: { declKind: string; name: string }): boolean => v.declKind === 'const' || !assignedIn(statements.slice(firstAt), v.name);
  const consts = carriedVars.filter(asConst).map((v) => stateField(v.name, carried));
  const lets = carriedVars.filter((v) => !asConst(v)).map((v) => stateField(v.name, carried));
  if (consts.length) lines.push(`const { ${consts.join(', ')} } = ${current};`);
  if (lets.length) lines.push(`let { ${lets.join(', ')} } = ${current};`);
  const seen = new Set<Node>();
  for (const v of live.filter((x) => x.mode === 'recompute')) {
    if (seen.has(v.statement)) continue;
    seen.add(v.statement);
    lines.push(segText(v.statement));
  }
  lines.push(...commented(round.first, roundText(current, env)), ...after);
  const text = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(block)}}`;
  return { start: block.getStart(), end: block.getEnd(), text: text.replace(/\n[ \t]+\n/g, '\n\n') };
}

/** Whether `statements` assign `name` (`name = ...`, `[name] = ...`, `name++`). */
function assignedIn(statements: Statement[], name: string): boolean {
  const names = (n: Node): boolean => [n, ...n.getDescendants()].some((d) => Node.isIdentifier(d) && d.getText() === name);
  return statements.some((s) =>
    s.getDescendants().some(
      (d) =>
        (Node.isBinaryExpression(d) && /^(=|\+=|-=|\*=|\/=|%=|\*\*=|&&=|\|\|=|\?\?=|<<=|>>=|>>>=|&=|\|=|\^=)$/.test(d.getOperatorToken().getText()) && names(d.getLeft())) ||
        ((Node.isPrefixUnaryExpression(d) || Node.isPostfixUnaryExpression(d)) && /\+\+|--/.test(d.getText()) && names(d.getOperand())),
    ),
  );
}
