/**
 * Statements that replace a request point: read (or ask) the answer(s), then bind the
 * legacy-shaped value to what received it before.
 */
import { TARGET } from '@mcp-mrtr/surface';
import { shortCircuitCondition, type Binding, type HelperPoint, type RequestPoint } from './points.js';
import { helperArguments, type HelperWork } from './helper.js';
import { capabilitiesExpression, planRead, urlElicitations, type EmitEnv, type ReadPlan } from './emit.js';
import { camelCase, keyProperty, quote } from './text.js';

/** How a point asks: the `return ...` statement given the `inputRequests` object text. */
export type AskStyle = (inputRequests: string) => string;

export function askWriteOnce(env: EmitEnv): AskStyle {
  env.values.add(TARGET.inputRequired);
  return (requests) => `return ${TARGET.inputRequired}({ inputRequests: ${requests} });`;
}

export function askWithState(env: EmitEnv, stateExpr: string, codec: string): AskStyle {
  env.values.add(TARGET.inputRequired);
  return (requests) => `return ${TARGET.inputRequired}({ inputRequests: ${requests}, requestState: await ${codec}.mint(${stateExpr}, ${env.ctx}) });`;
}

export function bindingLines(binding: Binding, value: string): string[] {
  switch (binding.kind) {
    case 'declare': {
      const type = binding.typeText ? `: ${binding.typeText}` : '';
      return [`${binding.declKind} ${binding.target}${type} = ${value};`];
    }
    case 'assign':
      return [`${binding.target} = ${value};`];
    case 'discard':
      return [];
    case 'hoist':
      throw new Error('hoisted points are bound by hoistLines');
  }
}

/** Name for a hoisted answer, and the statement that used it, with the await replaced by the name. */
export function hoistLines(point: RequestPoint, env: EmitEnv, value: string | undefined): { name: string; lines: string[] } {
  const b = point.binding;
  if (b.kind !== 'hoist') throw new Error('not a hoisted point');
  const name = env.names.take(point.kind === 'helper' ? `${baseName(point.keys[0]!)}Result` : baseName(point.keys[0]!));
  return { name, lines: [...(value === undefined ? [] : [`const ${name} = ${value};`]), awaitReplaced(point, name)] };
}

/** The point's statement with its awaited request replaced by `name`. */
function awaitReplaced(point: RequestPoint, name: string): string {
  const b = point.binding;
  if (b.kind !== 'hoist') throw new Error('not a hoisted point');
  const s = point.statement;
  const text = s.getText();
  return text.slice(0, b.awaitNode.getStart() - s.getStart()) + name + text.slice(b.awaitNode.getEnd() - s.getStart());
}

function keyLiteral(key: string): string {
  return quote(key);
}

function reads(point: RequestPoint, env: EmitEnv, keyExprs: string[]): ReadPlan[] {
  return point.sites.map((site, i) => planRead(site, keyExprs[i]!, baseName(point.keys[i]!), env));
}

export function baseName(key: string): string {
  const camel = camelCase(key);
  return /^[A-Za-z_$]/.test(camel) ? camel : `_${camel}`;
}

/**
 * Where a point's answer is read into, and what binds it to the legacy code's target after the
 * ask-if-missing check. A plain `const x = await ...` reads straight into `x` (the check narrows it
 * to the legacy result type), as does an answer used inside its statement (hoisted into a const
 * named after the key); anything else (a `let`, an assignment, destructuring, a declared type,
 * `.then(cb)`) reads into `<key>Answer` and binds that afterwards.
 */
export interface AnswerRead {
  /** The local holding the reader's result (`undefined` when missing). */
  name: string;
  /** Statements after the check that bind the answer as the legacy code did. */
  bind: string[];
}

export function answerRead(point: RequestPoint, env: EmitEnv): AnswerRead {
  const b = point.binding;
  if (!point.then && b.kind === 'declare' && b.declKind === 'const' && b.name !== undefined && b.target === b.name && !b.typeText) return { name: b.name, bind: [] };
  if (!point.then && b.kind === 'hoist') {
    const { name, lines } = hoistLines(point, env, undefined);
    return { name, bind: lines };
  }
  const name = env.names.take(`${baseName(point.keys[0]!)}Answer`);
  return { name, bind: pointBindingLines(point, name, env) };
}

/** `const <name> = <reader call>;` for each read. */
function readStatements(reads: Array<{ name: string; plan: ReadPlan }>, readWhen?: string): string[] {
  return reads.map((r) => `const ${r.name} = ${readWhen ? `${readWhen} ? ${r.plan.read} : undefined` : r.plan.read};`);
}

function missingCondition(names: string[]): string {
  return names.map((n) => `${n} === undefined`).join(' || ');
}

/**
 * Several independent requests asked in one round (write-once): everything is read at the first
 * one's place; each later one keeps only its binding, at its own place.
 */
export function mergedLines(leader: RequestPoint, env: EmitEnv, ask: AskStyle): { leader: string[]; followers: Map<RequestPoint, string[]> } {
  const group = [leader, ...(leader.merged ?? [])];
  const plans = group.map((p) => reads(p, env, p.keys.map(keyLiteral))[0]!);
  const answers = group.map((p) => answerRead(p, env));
  const lines: string[] = [];
  for (const plan of plans) lines.push(...plan.prelude);
  lines.push(...readStatements(answers.map((a, i) => ({ name: a.name, plan: plans[i]! }))));
  lines.push(`if (${missingCondition(answers.map((a) => a.name))}) {`);
  for (const plan of plans) lines.push(...plan.capabilityCheck.map((l) => `  ${l}`));
  lines.push(`  ${ask(`{ ${plans.map((plan, i) => `${keyProperty(group[i]!.keys[0]!)}: ${plan.builder}`).join(', ')} }`)}`);
  lines.push('}');
  lines.push(...answers[0]!.bind);
  const followers = new Map<RequestPoint, string[]>();
  group.slice(1).forEach((p, i) => followers.set(p, answers[i + 1]!.bind));
  return { leader: lines, followers };
}

/**
 * Independent helper calls asked in one round (write-once; the calls are consecutive statements):
 * each is called with the context and its own key, then one check returns the input requests of
 * every call that needs an answer, together. After the check each result is its value.
 */
export function mergedHelperLines(group: RequestPoint[], env: EmitEnv, callText: (point: RequestPoint) => string, stateSuffix = ''): string[] {
  env.values.add('isInputRequiredResult');
  env.values.add(TARGET.inputRequired);
  const calls: string[] = [];
  const results: string[] = [];
  const bindings: string[] = [];
  for (const point of group) {
    const b = point.binding;
    if (b.kind === 'declare' && b.name && !b.typeText) {
      calls.push(`${b.declKind} ${b.name} = await ${callText(point)};`);
      results.push(b.name);
    } else {
      const step = env.names.take(`${baseName(point.keys[0]!)}Step`);
      calls.push(`const ${step} = await ${callText(point)};`);
      results.push(step);
      bindings.push(...bindingLines(b, step));
    }
  }
  const needed = results.map((r) => `isInputRequiredResult(${r})`).join(' || ');
  const requests = results.map((r) => `...(isInputRequiredResult(${r}) ? ${r}.inputRequests : {})`).join(', ');
  return [...calls, `if (${needed}) return ${TARGET.inputRequired}({ inputRequests: { ${requests} }${stateSuffix} });`, ...bindings];
}

/**
 * Binding lines for a point's answer `value`. `await request.then(cb)`: `await (cb)(value)` is
 * bound (no longer the result type).
 */
export function pointBindingLines(point: RequestPoint, value: string, env: EmitEnv): string[] {
  const bound = point.then ? `await (${point.then.getText()})(${value})` : value;
  if (point.binding.kind === 'hoist') return point.then ? hoistLines(point, env, bound).lines : [awaitReplaced(point, value)];
  return bindingLines(point.binding, bound);
}

/** Read-or-ask for a direct or parallel point; `ask` decides how the round is returned. */
/**
 * The point's answers read (asking while one is missing), bound as the legacy code bound them.
 * `readWhen`: a condition under which the answers are read at all; otherwise they count as missing
 * and the point asks (a round that has not asked yet must not take answers sent along with it).
 */
export function readLines(point: RequestPoint, env: EmitEnv, ask: AskStyle, keyExprs?: string[], readWhen?: string): string[] {
  const exprs = keyExprs ?? point.keys.map(keyLiteral);
  const plans = reads(point, env, exprs);
  const lines: string[] = [];
  for (const plan of plans) lines.push(...plan.prelude);
  const requests = plans.map((plan, i) => `${keyExprs ? `[${exprs[i]}]` : keyProperty(point.keys[i]!)}: ${plan.builder}`);
  let answers: Array<{ name: string; plan: ReadPlan }>;
  const bind: string[] = [];
  if (point.kind === 'parallel') {
    // `const [a, b] = await Promise.all([...])`: each element reads into its own name.
    const decl = point.binding.kind === 'declare' ? point.binding.declKind : 'const';
    answers = plans.map((plan, i) => {
      const element = point.elementNames[i]!;
      if (decl === 'const') return { name: element, plan };
      const name = env.names.take(`${baseName(point.keys[i]!)}Answer`);
      bind.push(`${decl} ${element} = ${name};`);
      return { name, plan };
    });
  } else {
    const answer = answerRead(point, env);
    answers = [{ name: answer.name, plan: plans[0]! }];
    bind.push(...answer.bind);
  }
  lines.push(...readStatements(answers, readWhen));
  lines.push(`if (${missingCondition(answers.map((a) => a.name))}) {`);
  for (const plan of plans) lines.push(...plan.capabilityCheck.map((l) => `  ${l}`));
  lines.push(`  ${ask(`{ ${requests.join(', ')} }`)}`);
  lines.push('}');
  lines.push(...bind);
  return lines;
}

/** Phase form: at the end of the previous phase, ask for this point's request(s) (never read). */
export function transitionLines(point: RequestPoint, env: EmitEnv, ask: AskStyle, helperCall?: string): string[] {
  if (point.kind === 'helper') {
    env.values.add('isInputRequiredResult');
    const step = env.names.take(`${baseName(point.keys[0]!)}Step`);
    const stateOnly = ask('STEP_REQUESTS');
    return [
      `const ${step} = await ${helperCall};`,
      // The helper may answer without asking (e.g. fail-open without the capability): a state-only round resumes at the next phase.
      stateOnly.replace('inputRequests: STEP_REQUESTS', `...(isInputRequiredResult(${step}) ? { inputRequests: ${step}.inputRequests } : {})`),
    ];
  }
  const plans = reads(point, env, point.keys.map(keyLiteral));
  const lines: string[] = [];
  for (const plan of plans) lines.push(...plan.prelude);
  for (const plan of plans) lines.push(...plan.capabilityCheck);
  lines.push(ask(`{ ${plans.map((plan, i) => `${keyProperty(point.keys[i]!)}: ${plan.builder}`).join(', ')} }`));
  return lines;
}

/** A helper call point: call with ctx and key, return the helper's input_required result through. */
export function helperCallLines(point: RequestPoint, env: EmitEnv, callText: string, passThrough: (step: string) => string): string[] {
  const b = point.binding;
  if (b.kind === 'hoist') {
    const { name, lines } = hoistLines(point, env, 'STEP');
    if (b.guard) {
      // Asked only when the short-circuit would have called the helper; `name` stays undefined otherwise, as unused.
      env.values.add('isInputRequiredResult');
      return [`let ${name};`, `if (${shortCircuitCondition(b.guard)}) {`, `  ${name} = await ${callText};`, `  if (isInputRequiredResult(${name})) ${passThrough(name)}`, '}', lines[1]!];
    }
    // `return helper(...)`: the helper's input_required result is returned through as it is.
    if (lines[1] === `return ${name};` && passThrough(name) === `return ${name};`) return [`return await ${callText};`];
    env.values.add('isInputRequiredResult');
    return [`const ${name} = await ${callText};`, `if (isInputRequiredResult(${name})) ${passThrough(name)}`, lines[1]!];
  }
  env.values.add('isInputRequiredResult');
  if (b.kind === 'declare' && b.name && !b.typeText) {
    return [`${b.declKind} ${b.name} = await ${callText};`, `if (isInputRequiredResult(${b.name})) ${passThrough(b.name)}`];
  }
  const step = env.names.take(`${baseName(point.keys[0]!)}Step`);
  return [`const ${step} = await ${callText};`, `if (isInputRequiredResult(${step})) ${passThrough(step)}`, ...bindingLines(b, step)];
}

/** `throw new UrlElicitationRequiredError([...])`: ask for the URL elicitation(s) unless answered. */
export function urlThrowLines(point: RequestPoint, env: EmitEnv, ask: AskStyle): string[] {
  const site = point.sites[0]!;
  const entries = urlElicitations(site);
  env.values.add(TARGET.inputResponse);
  env.values.add(TARGET.inputRequired);
  const keys = entries.map((_, i) => (i === 0 ? point.keys[0]! : `${point.keys[0]!}_${i + 1}`));
  const missing = keys.map((k) => `${TARGET.inputResponse}(${env.ctx}.mcpReq.inputResponses, ${quote(k)}).kind === 'missing'`).join(' || ');
  const requests = entries.map((e, i) => `${keyProperty(keys[i]!)}: ${TARGET.inputRequired}.elicitUrl({ message: ${e.message}, url: ${e.url} })`);
  const caps = env.names.take(`${baseName(point.keys[0]!)}Capabilities`);
  return [
    `const ${caps} = ${capabilitiesExpression(env)};`,
    // A client that declared no URL elicitation gets the legacy error, as before.
    `if ((${caps} === undefined || ${caps}.elicitation?.url) && (${missing})) {`,
    `  ${ask(`{ ${requests.join(', ')} }`)}`,
    '}',
    // Answered and still required (the user did not complete the flow): the legacy error, as before.
    point.statement.getText(),
  ];
}

/** The call of a helper that asks through its callers: its arguments, then the context when it had none, then the point's key. */
export function helperCallText(point: HelperPoint, helper: HelperWork | undefined, ctx: string): string {
  const call = point.helperCall;
  const args = helperArguments(call, helper);
  if (!helper?.ctxParam) args.push(ctx);
  args.push(quote(point.keys[0]!));
  const typeArgs = call.getTypeArguments().length > 0 ? `<${call.getTypeArguments().map((t) => t.getText()).join(', ')}>` : '';
  return `${call.getExpression().getText()}${typeArgs}(${args.join(', ')})`;
}

/** The statements replacing one point, by its kind: read (or ask) the answer, call the helper, or ask the URL elicitation. */
export function pointLines(point: RequestPoint, env: EmitEnv, ask: AskStyle, passThrough: (step: string) => string, helper: HelperWork | undefined): string[] {
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
