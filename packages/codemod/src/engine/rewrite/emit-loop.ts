/**
 * Loop form (code): the phase form with one phase that re-enters a loop. The loop (and the code
 * after it) is written once, as a function of the locals it carries and its position. The first
 * round runs the code before the loop and calls it from the start: the first iteration that reaches
 * the request asks with the live locals and the loop position in the sealed requestState. Every
 * later round restores them and calls it from that position: the iteration reads the answer and the
 * loop runs on, the next iteration asks again with the new position (and accumulators), or the loop
 * ends and the code after it runs.
 */
import { Node, SyntaxKind, type ForOfStatement, type Statement } from 'ts-morph';
import type { HandlerWork } from './analyse.js';
import { contextAccess, freeName } from './context.js';
import { planRead, unplanned, type EmitEnv } from './emit.js';
import { plannedLive } from './emit-checks.js';
import { capabilityEdits, caseScoped, explainOnce, pascal, reindent, unknownPhaseLines, type FileWork } from './emit-common.js';
import { answerRead, askWithState, baseName } from './emit-point.js';
import { declaredIn, stateField, stateKeyOf, type LiveVar } from './live.js';
import { LOOP_ROUND_CAP, type LoopPlan } from './loop.js';
import type { RequestPoint } from './points.js';
import { CODEC_EXPORT, DIGEST_EXPORT } from './state-module.js';
import { flavourOf } from './module-flavour.js';
import { hoistRequests } from './emit-requests.js';
import { indentOf, textWithEdits, withComments, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';

export function emitLoopHandler(work: HandlerWork, fw: FileWork): TextEdit[] {
  const plan = work.loop!;
  const loop = plan.loop;
  const point = work.points[0]!;
  const ts = flavourOf(work.handler.sourceFile) === 'ts';
  const names = fw.names.inFunction(work.fn);
  const access = contextAccess(work.handler, work.fn, names, ts, true, work.sites.length);
  if (ts && access.edits.some((e) => e.text.includes('ServerContext'))) fw.types.add('ServerContext');
  const env: EmitEnv = { ts, ctx: access.ctx, values: fw.values, types: fw.types, capabilityImports: fw.capabilityImports, answerReaders: fw.answerReaders, names };
  const edits: TextEdit[] = [...access.edits];
  const capEdits = capabilityEdits(work.body, env, [point.statement]);
  const statements = work.body.getStatements();
  const base = indentOf(statements[0]!);
  const unit = indentOf(plan.anchor ?? point.statement).slice(indentOf(loop).length) || '  ';
  const at = statements.indexOf(loop);
  const pre = statements.slice(0, at);
  const post = statements.slice(at + 1);

  const text = (node: Node): string => textWithEdits(node, capEdits.filter((e) => e.start >= node.getStart() && e.end <= node.getEnd()));
  const segText = (s: Statement): string => reindent(s, text(s), '');
  const templates = work.body.getDescendants().filter((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n')).map((d) => d.getText());
  const nested = (lines: string[]): string[] => lines.map((l) => (l === '' ? l : unit + l));

  fw.needsState = true;
  env.values.add('inputRequired');
  const stored = freeName(work.fn, 'stored', names);
  const state = freeName(work.fn, 'state', names);
  const resuming = freeName(work.fn, 'resuming', names);
  const typeName = names.take(`${pascal(work.handler.name ?? 'handler')}State`);
  const handlerId = quote(`${work.handler.method}:${work.handler.name ?? ''}`);

  const topLevel = new Set(declaredIn([...pre, ...post]).map((d) => d.name));
  const live = plannedLive(work, 0);
  const storedVars = live.filter((v) => v.mode === 'store');
  const carried = storedVars.map((v) => v.name);

  // The loop position: the for counter, or an index over the for-of array; a round count when the legacy loop has no bound.
  let position: string | undefined;
  let item: { declKind: string; binding: string; list: string } | undefined;
  if (plan.kind === 'for' && plan.counter) position = plan.counter.name;
  if (plan.kind === 'for-of' && Node.isForOfStatement(loop)) {
    const list = loop.getInitializer() as Node & { getDeclarationKind(): string; getDeclarations(): Array<{ getNameNode(): Node }> };
    const nameNode = list.getDeclarations()[0]!.getNameNode();
    position = freeName(work.fn, `${Node.isIdentifier(nameNode) ? nameNode.getText() : 'item'}Index`, names);
    item = { declKind: list.getDeclarationKind(), binding: nameNode.getText(), list: text(loop.getExpression()) };
  }
  if (position && topLevel.has(position)) unplanned(`the loop counter \`${position}\` is also declared outside the loop; not rewritten automatically`);
  const rounds = plan.capped ? freeName(work.fn, 'rounds', names) : undefined;
  const firstBefore = new Set(declaredIn(plan.before).map((d) => d.name));
  if ([...firstBefore].some((n) => topLevel.has(n))) unplanned('a name declared in the loop body shadows one declared outside the loop; not rewritten automatically');

  const stateObject = (args: string, roundsValue: string | undefined): string => {
    const fields = ['phase: 1', `args: ${args}`, ...storedVars.map((v) => stateField(v.name, carried)), ...(position ? [position] : []), ...(rounds ? [`${rounds}: ${roundsValue}`] : [])];
    return `{ ${fields.join(', ')} }`;
  };

  const lines: string[] = [...access.bodyPrefix];
  if (ts) {
    const fields = ['phase: 1', 'args: string', ...storedVars.map((v) => `${stateKeyOf(v.name, carried)}: ${v.typeText}`), ...(position ? [`${position}: number`] : []), ...(rounds ? [`${rounds}: number`] : [])];
    lines.push(`type ${typeName} = { ${fields.join('; ')} };`);
  }
  lines.push(`const ${stored} = ${access.ctx}.mcpReq.requestState${ts ? `<${typeName}>` : ''}();`);
  lines.push(...explainOnce(fw, `// State minted for other arguments (or another handler) is not this request's: start over.`));
  lines.push(`const ${state} = ${stored}?.args === ${DIGEST_EXPORT}(${handlerId}, ${access.args}) ? ${stored} : undefined;`);
  // The request is built in the loop both rounds run: written once, above it.
  const requests = hoistRequests(work.points, work.body, work.fn, ts, names, base);
  env.requests = requests.expressions;
  lines.push(...requests.lines);

  const itemLine = (): string[] => (item ? [`${item.declKind} ${item.binding} = ${item.list}[${position}]${ts ? '!' : ''};`] : []);
  const runLoop = freeName(work.fn, `run${pascal(work.handler.name ?? 'handler')}Loop`, names);
  const loopFunction = loopFunctionLines({ work, fw, env, plan, live, position, rounds, resuming, state, itemLine, stateObject, segText, nested, handlerId, name: runLoop, args: access.args, capEdits, templates });
  lines.push(...explainOnce(fw, `// The loop runs in every round: the first from the start, asking in the first iteration that reaches the request; a later one from the position in requestState, reading the answer in the iteration that asked.`));
  lines.push(...loopFunction);

  // First round: the code before the loop, then the loop from its start.
  // A recomputed local is computed where the loop starts, in its function: the first round's copy is
  // left out when nothing before the loop reads it (it is pure, so leaving it out changes nothing).
  const recomputedNames = new Set(live.filter((v) => v.mode === 'recompute').map((v) => v.name));
  const recomputed = new Set(live.filter((v) => v.mode === 'recompute' && declaredIn([v.statement]).every((d) => recomputedNames.has(d.name))).map((v) => v.statement as Node));
  const readLater = (s: Statement): boolean => {
    const declared = new Set(declaredIn([s]).map((d) => d.name));
    return pre.slice(pre.indexOf(s) + 1).some((later) => later.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => declared.has(id.getText())));
  };
  const first: string[] = pre.filter((s) => !recomputed.has(s) || readLater(s)).flatMap((s) => withComments(s, segText(s)));
  const initial = plan.kind === 'for' && plan.counter ? [plan.counter.init] : item ? ['0'] : [];
  first.push(`return ${runLoop}(${[...storedVars.map((v) => v.name), ...initial, ...(rounds ? ['0'] : []), 'false'].join(', ')});`);

  // The later rounds, one phase: restore, then the loop from the restored position.
  const rest: string[] = [];
  const restored = [...storedVars.map((v) => stateField(v.name, carried)), ...(position ? [position] : []), ...(rounds ? [rounds] : [])];
  if (restored.length) rest.push(`const { ${restored.join(', ')} } = ${state};`);
  rest.push(`return ${runLoop}(${[...storedVars.map((v) => v.name), ...(position ? [position] : []), ...(rounds ? [rounds] : []), 'true'].join(', ')});`);

  const inner = '  ';
  const shift = (element: string): string => (templates.some((t) => element.includes(t)) ? inner + element : inner + element.split('\n').join(`\n${inner}`));
  // Like the straight-line form's phase switch: the first round, then the resumption's own `if`.
  const block = (body: string[]): string[] => body.map((l) => (l === '' ? l : shift(l)));
  lines.push(`if (${state} === undefined) {`, ...block(first), '}', `if (${state}.phase === 1) {`, ...block(rest), '}');
  // Every known round returns the loop function's result: an unknown phase has no position to resume from.
  lines.push(...unknownPhaseLines(fw, work.handler.method, work.handler.name));
  const out = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(work.body)}}`;
  edits.push({ start: work.body.getStart(), end: work.body.getEnd(), text: out.replace(/\n[ \t]+\n/g, '\n\n') });
  return edits;
}

/** A handler's result type by its method: the generated functions that return its results declare it. */
export const RESULT_TYPE: Record<string, string> = { 'tools/call': 'CallToolResult', 'prompts/get': 'GetPromptResult', 'resources/read': 'ReadResourceResult' };

interface LoopParts {
  work: HandlerWork;
  fw: FileWork;
  env: EmitEnv;
  plan: LoopPlan;
  live: LiveVar[];
  position: string | undefined;
  rounds: string | undefined;
  resuming: string;
  state: string;
  itemLine: () => string[];
  stateObject: (args: string, roundsValue: string | undefined) => string;
  segText: (s: Statement) => string;
  nested: (lines: string[]) => string[];
  handlerId: string;
  name: string;
  /** The handler's arguments, as the digest reads them. */
  args: string;
  capEdits: TextEdit[];
  /** Multi-line template literals of the body: whitespace inside them is content and keeps its indentation. */
  templates: string[];
}

/** A request nested in the loop body: the code around it kept in the body statement that holds it, the request replaced. */
function anchorWith(point: RequestPoint, anchor: Statement, capEdits: TextEdit[], pointLines: string[]): string {
  const end = point.statement.getEnd();
  const edits = capEdits.filter((e) => e.start >= anchor.getStart() && e.end <= anchor.getEnd() && !(e.start >= point.statement.getStart() && e.end <= end));
  return reindent(anchor, textWithEdits(anchor, [...edits, { start: point.statement.getStart(), end, text: caseScoped(point, pointLines, indentOf(point.statement)) }]), '');
}

/**
 * The loop as a function of the locals it carries and its position, written once and called by
 * both rounds: `resuming` says whether the iteration at the position in requestState reads the answer
 * (a later round) or asks (the first round, where nothing was asked yet). The code after the loop
 * runs in it too, so its returns are the handler's.
 */
function loopFunctionLines(p: LoopParts): string[] {
  const { work, fw, env, plan, live, position, rounds, resuming, state, stateObject, segText, nested } = p;
  const text = (node: Node): string => textWithEdits(node, p.capEdits.filter((e) => e.start >= node.getStart() && e.end <= node.getEnd()));
  const loop = plan.loop;
  const point = work.points[0]!;
  const ts = env.ts;
  const storedVars = live.filter((v) => v.mode === 'store');
  const parameters = [...storedVars.map((v) => (ts ? `${v.name}: ${v.typeText}` : v.name)), ...(position ? [ts ? `${position}: number` : position] : []), ...(rounds ? [ts ? `${rounds}: number` : rounds] : []), ts ? `${resuming}: boolean` : resuming];
  let returns = '';
  if (ts) {
    const result = RESULT_TYPE[work.handler.method]!;
    fw.types.add(result);
    fw.types.add('InputRequiredResult');
    returns = `: Promise<${result} | InputRequiredResult>`;
  }
  const body0: string[] = [];
  const seen = new Set<Node>();
  for (const v of live.filter((x) => x.mode === 'recompute')) {
    if (seen.has(v.statement)) continue;
    seen.add(v.statement);
    body0.push(segText(v.statement));
  }
  const scoped: EmitEnv = { ...env, names: env.names.clone() };
  const key = point.keys[0]!;
  const read = planRead(point.sites[0]!, quote(key), baseName(key), scoped);
  const ask = askWithState(scoped, stateObject(`${DIGEST_EXPORT}(${p.handlerId}, ${p.args})`, rounds ? `${rounds} + 1` : undefined), CODEC_EXPORT);
  const answer = answerRead(point, scoped);
  const pointBody: string[] = [...read.prelude];
  // Only the iteration the state was minted in reads the answer (a nested request: the others ask).
  const reading = plan.anchor ? `${resuming} && ${position} === ${state}${ts ? '?' : ''}.${position}` : resuming;
  pointBody.push(`const ${answer.name} = ${reading} ? ${read.read} : undefined;`, `if (${answer.name} === undefined) {`);
  // The error names the handler: a log line says which flow gave up (and two capped loops of one file differ).
  if (rounds) pointBody.push(`  if (${rounds} >= ${LOOP_ROUND_CAP}) throw new Error(${quote(`No answer accepted after ${LOOP_ROUND_CAP} rounds (${work.handler.method}:${work.handler.name ?? ''})`)});`);
  pointBody.push(...read.capabilityCheck.map((l) => `  ${l}`), `  ${ask(`{ ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)}: ${read.builder} }`)}`, '}');
  pointBody.push(`${resuming} = false;`, ...answer.bind);
  const body: string[] = [...p.itemLine(), ...plan.before.flatMap((s) => withComments(s, segText(s))), ...(plan.anchor ? [anchorWith(point, plan.anchor, p.capEdits, pointBody)] : pointBody), ...plan.after.flatMap((s) => withComments(s, segText(s)))];
  if (plan.kind === 'for' && Node.isForStatement(loop)) {
    const cond = loop.getCondition();
    const update = loop.getIncrementor();
    body0.push(`for (; ${cond ? text(cond) : ''}; ${update ? text(update) : ''}) {`, ...nested(body), '}');
  } else if (plan.kind === 'while' && Node.isWhileStatement(loop)) body0.push(`while (${text(loop.getExpression())}) {`, ...nested(body), '}');
  else if (plan.kind === 'do' && Node.isDoStatement(loop)) body0.push('do {', ...nested(body), `} while (${text(loop.getExpression())});`);
  else body0.push(`for (; ${position} < ${text((loop as ForOfStatement).getExpression())}.length; ${position}++) {`, ...nested(body), '}');
  const post = work.body.getStatements().slice(work.body.getStatements().indexOf(loop) + 1);
  body0.push(...post.flatMap((s) => withComments(s, segText(s))));
  return [`const ${p.name} = async (${parameters.join(', ')})${returns} => {`, ...body0.map((l) => (l === '' ? l : p.templates.some((t) => l.includes(t)) ? `  ${l}` : `  ${l.split('\n').join('\n  ')}`)), '};'];
}
