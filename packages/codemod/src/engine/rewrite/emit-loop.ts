/**
 * Loop form (code): the phase form with one phase that re-enters a loop. The first round runs the
 * code before the loop and the loop's first iteration up to the request, then asks with the live
 * locals and the loop position in the sealed requestState. Every later round restores them, reads
 * the answer in the iteration it was asked in, and runs the loop on: the next iteration asks again
 * with the new position (and accumulators), or the loop ends and the code after it runs.
 */
import { Node, type Statement } from 'ts-morph';
import type { RewriteOptions } from '../model.js';
import type { HandlerWork } from './analyse.js';
import { contextAccess, freeName } from './context.js';
import { planRead, type EmitEnv } from './emit.js';
import { capabilityEdits, caseScoped, explainOnce, pascal, reindent, type FileWork } from './emit-common.js';
import { answerRead, askWithState, baseName, transitionLines } from './emit-point.js';
import { declaredIn, liveAcross, stateField, stateKeyOf } from './live.js';
import { LOOP_ROUND_CAP } from './loop.js';
import { Obstacle } from './points.js';
import { CODEC_EXPORT, DIGEST_EXPORT, flavourOf } from './state-module.js';
import { hoistRequests } from './emit-requests.js';
import { indentOf, textWithEdits, type TextEdit } from '../text-edits.js';
import { quote } from './text.js';

export function emitLoopHandler(work: HandlerWork, fw: FileWork, options: RewriteOptions): TextEdit[] {
  const plan = work.loop!;
  const loop = plan.loop;
  const point = work.points[0]!;
  const ts = flavourOf(work.handler.sourceFile) === 'ts';
  const names = fw.names;
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
  const after = [loop, ...post];
  const live = liveAcross(declaredIn(pre), after, ts, options.typeChecked, new Map());
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
  if (position && topLevel.has(position)) throw new Obstacle(`the loop counter \`${position}\` is also declared outside the loop; not rewritten automatically`);
  const rounds = plan.capped ? freeName(work.fn, 'rounds', names) : undefined;
  const firstBefore = new Set(declaredIn(plan.before).map((d) => d.name));
  if ([...firstBefore].some((n) => topLevel.has(n))) throw new Obstacle('a name declared in the loop body shadows one declared outside the loop; not rewritten automatically');

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
  // The request is built in the first round's iteration and again in the loop of later rounds: written once, above both.
  const requests = hoistRequests(work.points, work.body, work.fn, ts, names, base);
  env.requests = requests.expressions;
  lines.push(...requests.lines);

  const itemLine = (): string[] => (item ? [`${item.declKind} ${item.binding} = ${item.list}[${position}]${ts ? '!' : ''};`] : []);

  // First round: the code before the loop, then the loop's first iteration up to the request, which asks.
  const first: string[] = pre.map(segText);
  if (plan.kind === 'for' && plan.counter) first.push(`let ${plan.counter.name} = ${plan.counter.init};`);
  if (item) first.push(`let ${position} = 0;`);
  let condition: string | undefined;
  if (plan.kind === 'for') condition = Node.isForStatement(loop) && loop.getCondition() ? text(loop.getCondition()!) : undefined;
  if (plan.kind === 'while' && Node.isWhileStatement(loop)) condition = loop.getExpression().getText() === 'true' ? undefined : text(loop.getExpression());
  if (item) condition = `${position} < ${item.list}.length`;
  const scoped0: EmitEnv = { ...env, names: names.clone() };
  const ask0 = askWithState(scoped0, stateObject(`${DIGEST_EXPORT}(${handlerId}, ${access.args})`, '1'), CODEC_EXPORT);
  const iteration0 = [...explainOnce(fw, `// The loop's first iteration asks; the retry resumes it with the loop position from requestState.`), ...itemLine(), ...plan.before.map(segText), ...transitionLines(point, scoped0, ask0)];
  // A request nested in the loop body: the code around it replaced in the body statement that holds it.
  // After a transition (it always returns) the rest of the point's block is unreachable and would name the unbound answer.
  const anchorWith = (pointLines: string[], dropFollowing: boolean): string => {
    const anchor = plan.anchor!;
    const siblings = (point.statement.getParent() as Node & { getStatements?: () => Statement[] }).getStatements?.() ?? [point.statement];
    const end = dropFollowing ? siblings[siblings.length - 1]!.getEnd() : point.statement.getEnd();
    const edits = capEdits.filter((e) => e.start >= anchor.getStart() && e.end <= anchor.getEnd() && !(e.start >= point.statement.getStart() && e.end <= end));
    return reindent(anchor, textWithEdits(anchor, [...edits, { start: point.statement.getStart(), end, text: caseScoped(point, pointLines, indentOf(point.statement)) }]), '');
  };
  const header = (): string => (plan.kind === 'for' && Node.isForStatement(loop) ? `for (; ${loop.getCondition() ? text(loop.getCondition()!) : ''}; ${loop.getIncrementor() ? text(loop.getIncrementor()!) : ''}) {` : `for (; ${position} < ${item!.list}.length; ${position}++) {`);
  if (plan.anchor) {
    // The first round runs the loop until an iteration reaches the request, which asks with that position.
    const body0 = [...itemLine(), ...plan.before.map(segText), anchorWith(transitionLines(point, scoped0, ask0), true), ...plan.after.map(segText)];
    first.push(`// The first iteration that reaches the request asks; the retry resumes there with the loop position from requestState.`, header(), ...nested(body0), '}', ...post.map(segText));
  } else if (condition) {
    first.push(`if (${condition}) {`, ...nested(iteration0), '}', ...post.map(segText));
  } else {
    // The iteration moves out of the loop body: its continuation lines lose one level, as the first lines do.
    const dedent = (element: string): string => (templates.some((t) => element.includes(t)) ? element : element.split('\n').map((l, i) => (i > 0 && l.startsWith(unit) ? l.slice(unit.length) : l)).join('\n'));
    first.push(...iteration0.map(dedent));
  }

  // Later rounds: restore, read the answer in the iteration that asked, run the loop on.
  const rest: string[] = [];
  const consts = storedVars.filter((v) => v.declKind === 'const').map((v) => stateField(v.name, carried));
  const lets = [...storedVars.filter((v) => v.declKind !== 'const').map((v) => stateField(v.name, carried)), ...(position ? [position] : []), ...(rounds ? [rounds] : [])];
  if (consts.length) rest.push(`const { ${consts.join(', ')} } = ${state};`);
  if (lets.length) rest.push(`let { ${lets.join(', ')} } = ${state};`);
  const seen = new Set<Node>();
  for (const v of live.filter((x) => x.mode === 'recompute')) {
    if (seen.has(v.statement)) continue;
    seen.add(v.statement);
    rest.push(segText(v.statement));
  }
  rest.push(`let ${resuming} = true;`);
  const scoped1: EmitEnv = { ...env, names: names.clone() };
  const key = point.keys[0]!;
  const read = planRead(point.sites[0]!, quote(key), baseName(key), scoped1);
  const ask1 = askWithState(scoped1, stateObject(`${state}.args`, rounds ? `${rounds} + 1` : undefined), CODEC_EXPORT);
  const answer = answerRead(point, scoped1);
  const pointBody: string[] = [...read.prelude];
  // Only the iteration the state was minted in reads the answer (a nested request: the others ask).
  const reading = plan.anchor ? `${resuming} && ${position} === ${state}.${position}` : resuming;
  pointBody.push(`const ${answer.name} = ${reading} ? ${read.read} : undefined;`, `if (${answer.name} === undefined) {`);
  if (rounds) pointBody.push(`  if (${rounds} >= ${LOOP_ROUND_CAP}) throw new Error(${quote(`No answer accepted after ${LOOP_ROUND_CAP} rounds`)});`);
  pointBody.push(...read.capabilityCheck.map((l) => `  ${l}`), `  ${ask1(`{ ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)}: ${read.builder} }`)}`, '}');
  pointBody.push(`${resuming} = false;`, ...answer.bind);
  const body: string[] = [...itemLine(), ...plan.before.map(segText), ...(plan.anchor ? [anchorWith(pointBody, false)] : pointBody)];
  body.push(...plan.after.map(segText));
  if (plan.kind === 'for' && Node.isForStatement(loop)) {
    const cond = loop.getCondition();
    const update = loop.getIncrementor();
    rest.push(`for (; ${cond ? text(cond) : ''}; ${update ? text(update) : ''}) {`, ...nested(body), '}');
  } else if (plan.kind === 'while' && Node.isWhileStatement(loop)) rest.push(`while (${text(loop.getExpression())}) {`, ...nested(body), '}');
  else if (plan.kind === 'do' && Node.isDoStatement(loop)) rest.push('do {', ...nested(body), `} while (${text(loop.getExpression())});`);
  else rest.push(`for (; ${position} < ${item!.list}.length; ${position}++) {`, ...nested(body), '}');
  rest.push(...post.map(segText));

  const inner = '  ';
  const shift = (element: string): string => (templates.some((t) => element.includes(t)) ? inner + element : inner + element.split('\n').join(`\n${inner}`));
  lines.push(`if (${state} === undefined) {`, ...first.map((l) => (l === '' ? l : shift(l))), '}', ...rest);
  const out = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(work.body)}}`;
  edits.push({ start: work.body.getStart(), end: work.body.getEnd(), text: out.replace(/\n[ \t]+\n/g, '\n\n') });
  return edits;
}
