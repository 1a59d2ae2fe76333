/**
 * Statements that replace a request point: read (or ask) the answer(s), then bind the
 * legacy-shaped value to what received it before.
 */
import { TARGET } from '@mcp-mrtr/surface';
import { shortCircuitCondition, type Binding, type RequestPoint } from './points.js';
import { capabilitiesExpression, planRead, urlElicitations, type EmitEnv, type ReadPlan } from './emit.js';
import { keyProperty, quote } from './text.js';

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

export function bindingLines(binding: Binding, value: string, valueType: string | undefined, env: EmitEnv): string[] {
  switch (binding.kind) {
    case 'declare': {
      // `const { roots } = await server.listRoots()`: the generated value is the object literal
      // `{ roots: <answer>.roots }`, so the one destructured property is bound directly.
      const pattern = /^\{\s*([A-Za-z_$][\w$]*)(?:\s*:\s*([A-Za-z_$][\w$]*))?\s*\}$/.exec(binding.target);
      const literal = /^\{ ([A-Za-z_$][\w$]*): ([A-Za-z_$][\w$.]*) \}$/.exec(value);
      if (pattern && literal && pattern[1] === literal[1] && !binding.typeText) return [`${binding.declKind} ${pattern[2] ?? pattern[1]} = ${literal[2]};`];
      const type = binding.typeText ?? (env.ts && binding.name ? valueType : undefined);
      return [`${binding.declKind} ${binding.target}${type ? `: ${type}` : ''} = ${value};`];
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
export function hoistLines(point: RequestPoint, env: EmitEnv, value: string, valueType: string | undefined): { name: string; lines: string[] } {
  const b = point.binding;
  if (b.kind !== 'hoist') throw new Error('not a hoisted point');
  const name = env.names.take(point.kind === 'helper' ? `${baseName(point.keys[0]!)}Result` : baseName(point.keys[0]!));
  const s = point.statement;
  const text = s.getText();
  const start = b.awaitNode.getStart() - s.getStart();
  const end = b.awaitNode.getEnd() - s.getStart();
  return { name, lines: [`const ${name}${env.ts && valueType ? `: ${valueType}` : ''} = ${value};`, text.slice(0, start) + name + text.slice(end)] };
}

function keyLiteral(key: string): string {
  return quote(key);
}

function reads(point: RequestPoint, env: EmitEnv, keyExprs: string[]): ReadPlan[] {
  return point.sites.map((site, i) => planRead(site, keyExprs[i]!, baseName(point.keys[i]!), env));
}

export function baseName(key: string): string {
  const cleaned = key.replace(/[^\w$]/g, '_');
  return /^[A-Za-z_$]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * Several independent requests asked in one round (write-once): everything is read at the first
 * one's place; each later one keeps only its binding, at its own place.
 */
export function mergedLines(leader: RequestPoint, env: EmitEnv, ask: AskStyle): { leader: string[]; followers: Map<RequestPoint, string[]> } {
  const group = [leader, ...(leader.merged ?? [])];
  const plans = group.map((p) => reads(p, env, p.keys.map(keyLiteral))[0]!);
  const lines: string[] = [];
  for (const plan of plans) lines.push(...plan.prelude);
  lines.push(`if (${plans.map((p) => `(${p.missing})`).join(' || ')}) {`);
  for (const plan of plans) lines.push(...plan.capabilityCheck.map((l) => `  ${l}`));
  lines.push(`  ${ask(`{ ${plans.map((plan, i) => `${keyProperty(group[i]!.keys[0]!)}: ${plan.builder}`).join(', ')} }`)}`);
  lines.push('}');
  for (const plan of plans) lines.push(...(plan.afterAnswer ?? []));
  lines.push(...pointBindingLines(leader, plans[0]!.value!, plans[0]!.valueType, env));
  const followers = new Map<RequestPoint, string[]>();
  group.slice(1).forEach((p, i) => followers.set(p, pointBindingLines(p, plans[i + 1]!.value!, plans[i + 1]!.valueType, env)));
  return { leader: lines, followers };
}

/**
 * Independent helper calls asked in one round (write-once; the calls are consecutive statements):
 * each is called with the context and its own key, then one check returns the input requests of
 * every call that needs an answer, together. After the check each result is its value.
 */
export function mergedHelperLines(group: RequestPoint[], env: EmitEnv, callText: (point: RequestPoint) => string): string[] {
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
      bindings.push(...bindingLines(b, step, undefined, env));
    }
  }
  const needed = results.map((r) => `isInputRequiredResult(${r})`).join(' || ');
  const requests = results.map((r) => `...(isInputRequiredResult(${r}) ? ${r}.inputRequests : {})`).join(', ');
  return [...calls, `if (${needed}) return ${TARGET.inputRequired}({ inputRequests: { ${requests} } });`, ...bindings];
}

/**
 * The value bound for a point's answer. `await request.then(cb)`: the answer in a const of the legacy
 * result type first (`pre`), then `await (cb)(thatConst)` (no longer the result type).
 */
export function boundValue(point: RequestPoint, value: string, valueType: string | undefined, env: EmitEnv): { pre: string[]; value: string; type: string | undefined } {
  if (!point.then) return { pre: [], value, type: valueType };
  const name = env.names.take(`${baseName(point.keys[0] ?? 'answer')}Result`);
  return { pre: [`const ${name}${env.ts && valueType ? `: ${valueType}` : ''} = ${value};`], value: `await (${point.then.getText()})(${name})`, type: undefined };
}

/** Binding lines for a point's answer (see boundValue). */
export function pointBindingLines(point: RequestPoint, value: string, valueType: string | undefined, env: EmitEnv): string[] {
  const bound = boundValue(point, value, valueType, env);
  if (point.binding.kind === 'hoist') return [...bound.pre, ...hoistLines(point, env, bound.value, bound.type).lines];
  return [...bound.pre, ...bindingLines(point.binding, bound.value, bound.type, env)];
}

/** Read-or-ask for a direct or parallel point; `ask` decides how the round is returned. */
export function readLines(point: RequestPoint, env: EmitEnv, ask: AskStyle, keyExprs?: string[]): string[] {
  const exprs = keyExprs ?? point.keys.map(keyLiteral);
  const plans = reads(point, env, exprs);
  const lines: string[] = [];
  for (const plan of plans) lines.push(...plan.prelude);
  const requests = plans.map((plan, i) => `${keyExprs ? `[${exprs[i]}]` : keyProperty(point.keys[i]!)}: ${plan.builder}`);
  lines.push(`if (${plans.map((p) => (plans.length > 1 ? `(${p.missing})` : p.missing)).join(' || ')}) {`);
  for (const plan of plans) lines.push(...plan.capabilityCheck.map((l) => `  ${l}`));
  lines.push(`  ${ask(`{ ${requests.join(', ')} }`)}`);
  lines.push('}');
  for (const plan of plans) lines.push(...(plan.afterAnswer ?? []));
  if (point.kind === 'parallel') {
    const decl = point.binding.kind === 'declare' ? point.binding.declKind : 'const';
    plans.forEach((plan, i) => {
      const name = point.elementNames![i]!;
      lines.push(`${decl} ${name}${env.ts && plan.valueType ? `: ${plan.valueType}` : ''} = ${plan.value};`);
    });
  } else lines.push(...pointBindingLines(point, plans[0]!.value!, plans[0]!.valueType, env));
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
  for (const plan of plans) lines.push(...plan.prelude.filter((l) => !/(Answer|Content)\d* = /.test(l)));
  for (const plan of plans) plan.afterAnswer = [];
  for (const plan of plans) lines.push(...plan.capabilityCheck);
  lines.push(ask(`{ ${plans.map((plan, i) => `${keyProperty(point.keys[i]!)}: ${plan.builder}`).join(', ')} }`));
  return lines;
}

/** A helper call point: call with ctx and key, return the helper's input_required result through. */
export function helperCallLines(point: RequestPoint, env: EmitEnv, callText: string, passThrough: (step: string) => string): string[] {
  const b = point.binding;
  if (b.kind === 'hoist') {
    const { name, lines } = hoistLines(point, env, 'STEP', undefined);
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
  return [`const ${step} = await ${callText};`, `if (isInputRequiredResult(${step})) ${passThrough(step)}`, ...bindingLines(b, step, undefined, env)];
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
