/**
 * Analyse + plan for one handler: its request points (direct, Promise.all, helper call, URL
 * elicitation throw), then the form: "write-once" (one point, nothing with effects before it:
 * re-run from the top, read or ask) or "phases" (explicit state machine carried in requestState).
 */
import { Node, SyntaxKind, type Block, type Statement } from 'ts-morph';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import type { CallPathStep, Handler, Site } from '../model.js';
import { functionWithBody, type FunctionWithBody } from './function-body.js';
import { effectsIn, firstEffect, abbreviate } from './purity.js';
import { enclosingLoop, planLoop, type LoopPlan } from './loop.js';
import { definitelyExits, mutuallyExclusive, precedingCode } from './control-flow.js';
import { awaitedRequest } from './timeout.js';
import { lostFailureFallback } from './fail-open.js';
import { joinWrapped, wrappedJoinRefusal } from './wrapped-rounds.js';
import { pathGroups, planNestedRound, type NestedRound } from './nested-round.js';
import type { LiveVar } from './live.js';
import {
  Obstacle,
  arrayBindingNames,
  checkStatementPath,
  enclosingFunction,
  line,
  pointForAwaited,
  promiseAllOf,
  siteLabel,
  type RequestPoint,
} from './points.js';

/** Helpers calling helpers (`ensureConfirmed → confirm → elicitInput`): each level asks through the next. */
export const MAX_HELPER_DEPTH = 4;

export interface HandlerWork {
  handler: Handler;
  fn: FunctionWithBody;
  body: Block;
  points: RequestPoint[];
  form: 'write-once' | 'phases' | 'loop';
  /** Loop form: the loop that holds the request. */
  loop?: LoopPlan;
  /** Why the phase form was needed (for the decision note). */
  phaseReason?: string;
  /** Write-once form: rounds that resume inside a nested block after effects (nested-round.ts). */
  nested?: NestedRound[];
  sites: Site[];
  /**
   * The locals each round carries, computed at planning (emit-checks.ts) for emit: phases, one
   * list per point; loop, the loop's; write-once, one per nested round.
   */
  live?: LiveVar[][];
}

function throwStatementOf(site: Site): Statement {
  const node = site.node;
  if (Node.isThrowStatement(node)) return node;
  const t = node.getFirstAncestorByKind(SyntaxKind.ThrowStatement);
  if (!t) throw new Obstacle(`${siteLabel(site)} creates a UrlElicitationRequiredError that is not thrown directly`);
  return t;
}

/** Request points of a handler from the sites that reach it (direct or through one helper call). */
export function requestPoints(fn: FunctionWithBody, entries: Array<{ site: Site; path: CallPathStep[] }>): RequestPoint[] {
  const byStatement = new Map<Statement, RequestPoint>();
  const add = (point: RequestPoint): void => {
    const existing = byStatement.get(point.statement);
    if (existing) {
      if (existing.kind === point.kind && (point.kind === 'parallel' || (point.kind === 'helper' && existing.kind === 'helper' && existing.helperCall === point.helperCall))) {
        for (const s of point.sites) if (!existing.sites.includes(s)) existing.sites.push(s);
        return;
      }
      throw new Obstacle(`two requests share one statement (line ${line(point.statement)})`);
    }
    byStatement.set(point.statement, point);
  };
  for (const entry of entries) add(entryPoint(fn, entry));
  const points = [...byStatement.values()].sort((a, b) => a.statement.getStart() - b.statement.getStart());
  for (const point of points) {
    if (point.kind === 'parallel') {
      const all = promiseAllOf(point.sites[0]!)!;
      const elements = all.getArguments()[0]!.asKindOrThrow(SyntaxKind.ArrayLiteralExpression).getElements();
      if (elements.length !== point.sites.length || !elements.every((e) => point.sites.some((s) => s.node === e))) {
        throw new Obstacle(`Promise.all at line ${line(all)} mixes legacy requests with other promises`);
      }
      point.sites.sort((a, b) => a.node.getStart() - b.node.getStart());
      if (point.binding.kind !== 'declare') throw new Obstacle(`the Promise.all of requests at line ${line(all)} is not destructured into variables`);
      const names = arrayBindingNames(point.binding.target, point.sites.length);
      if (names.length !== point.sites.length || names.some((n) => !n)) throw new Obstacle(`the Promise.all of requests at line ${line(all)} is not destructured into one variable per request`);
      point.elementNames = names;
    }
    if (point.kind === 'helper' && point.sites.length > 1) {
      throw new Obstacle(`helper \`${abbreviate(point.helperCall.getExpression().getText(), 40)}\` makes ${point.sites.length} requests; only single-request helpers are rewritten`);
    }
    checkStatementPath(point.statement, fn, point.kind === 'helper' ? `the call to helper \`${abbreviate(point.helperCall.getExpression().getText(), 40)}\`` : siteLabel(point.sites[0]!), true);
  }
  return points;
}

/** The request point of one site the handler reaches (direct, in a Promise.all, a helper call, a URL elicitation throw), or its obstacle. */
function entryPoint(fn: FunctionWithBody, { site, path }: { site: Site; path: CallPathStep[] }): RequestPoint {
  const label = siteLabel(site);
  if (path.length === 0) {
    if (site.shape === 'url-elicitation-error') {
      const statement = throwStatementOf(site);
      if (enclosingFunction(statement) !== fn) throw new Obstacle(`${label} is thrown inside a nested function`);
      return { kind: 'url-throw', statement, binding: { kind: 'discard' }, sites: [site], keys: [] };
    }
    if (site.shape === 'completion-notifier') throw new Obstacle(`${label}: URL elicitation completion notifications have no MRTR form (the retry itself signals completion)`);
    const all = promiseAllOf(site);
    if (all) {
      if (/allSettled/.test(all.getExpression().getText())) throw new Obstacle(`${label} is inside Promise.allSettled: per-request failure results have no MRTR equivalent`);
      const base = pointForAwaited(all, fn, label);
      if (base.then) throw new Obstacle(`${label} is in a Promise.all consumed through a .then() promise chain`);
      return { kind: 'parallel', ...base, sites: [site], keys: [], elementNames: [] };
    }
    return { kind: 'direct', ...pointForAwaited(awaitedRequest(site), fn, label), sites: [site], keys: [] };
  }
  const virtual = path.find((p) => p.virtualThrough !== undefined);
  if (virtual) {
    throw new Obstacle(
      `${label} is reached through ${virtual.virtualThrough}, by the call \`${abbreviate(virtual.call.getExpression().getText(), 40)}(...)\` at line ${line(virtual.call)}: ` +
        `other instances run other implementations of it, which a rewrite of this one would not change, so calls through it are not rewritten`,
    );
  }
  if (path.length > MAX_HELPER_DEPTH) {
    throw new Obstacle(`${label} is reached through ${path.length} nested helper calls (${path.map((p) => abbreviate(p.call.getExpression().getText(), 25)).join(' → ')}); at most ${MAX_HELPER_DEPTH} helper levels are rewritten`);
  }
  const step = path[0]!;
  const name = abbreviate(step.call.getExpression().getText(), 40);
  const base = pointForAwaited(step.call, fn, `the call to helper \`${name}\``, true);
  if (base.then) throw new Obstacle(`the call to helper \`${name}\` is consumed through a .then() promise chain`);
  return { kind: 'helper', ...base, sites: [site], keys: [], helperCall: step.call, helperFn: step.callee, innerPath: path.slice(1) };
}

/** Expressions evaluated as part of the point before the request goes out. */
function pointOwnCode(point: RequestPoint): Node[] {
  if (point.kind === 'helper') return point.helperCall.getArguments();
  if (point.kind === 'url-throw') return [];
  return point.sites.flatMap((s) => (s.params ? [s.params] : []));
}

export function planHandler(handler: Handler, entries: Array<{ site: Site; path: CallPathStep[] }>): HandlerWork {
  const bodyNode = (handler.fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  const forwarded = entries.find((e) => e.path.length > 0);
  if (bodyNode && !Node.isBlock(bodyNode) && forwarded) {
    // the body may be the call itself or hold it (`({ content: [{ text: await pick() }] })`): name the call, not the body
    const call = forwarded.path[0]!.call;
    const bare = unwrapParentheses(bodyNode);
    const body = bare === call || (Node.isAwaitExpression(bare) && unwrapParentheses(bare.getExpression()) === call) ? 'the call' : 'an expression holding the call';
    throw new Obstacle(`the handler's body is ${body} \`${abbreviate(call.getExpression().getText(), 40)}(...)\` (an arrow without a block), through which the request is reached; the rewrite restructures statement bodies only`);
  }
  const { fn, body } = functionWithBody(handler.fn, 'the handler');
  for (const { site } of entries) {
    const lost = lostFailureFallback(site);
    if (lost) throw new Obstacle(lost);
  }
  const points = requestPoints(fn, entries);
  const sites = entries.map((e) => e.site);
  if (points.length === 0) throw new Obstacle('no request point found in the handler');
  try {
    return planBody(handler, fn, body, points, sites);
  } catch (error) {
    // Real handlers often wrap their whole flow in `try { ... } catch { return errorResult }`: plan
    // inside that try block instead, when the code before it cannot have effects (it re-runs each round).
    const inner = error instanceof Obstacle ? enclosingTryBlock(body, points, fn) : undefined;
    if (!inner) throw error;
    return planBody(handler, fn, inner, points, sites);
  }
}

/**
 * What keeps one of the handler's requests from being rewritten on its own (the checks planHandler
 * makes of each request before it plans the handler as a whole), or undefined: a handler failing on
 * one of its requests explains its other requests by theirs, or by naming the one that failed.
 */
export function entryObstacle(handler: Handler, entry: { site: Site; path: CallPathStep[] }): string | undefined {
  try {
    const lost = lostFailureFallback(entry.site);
    if (lost) return lost;
    const { fn } = functionWithBody(handler.fn, 'the handler');
    const point = entryPoint(fn, entry);
    // a Promise.all's statement is named by its first request, which may be another entry
    if (point.kind !== 'parallel') checkStatementPath(point.statement, fn, point.kind === 'helper' ? `the call to helper \`${abbreviate(point.helperCall.getExpression().getText(), 40)}\`` : siteLabel(entry.site), true);
    return undefined;
  } catch (error) {
    if (error instanceof Obstacle) return error.message;
    return undefined;
  }
}

/**
 * The try block of the single top-level `try` statement (no `finally`) that holds every request point,
 * when the statements before it are free of effects. Nested wrappers are unwrapped one level at a time.
 */
function enclosingTryBlock(body: Block, points: RequestPoint[], fn: Node): Block | undefined {
  const anchors = new Set(points.map((p) => anchorOf(p.statement, body)));
  if (anchors.size !== 1) return undefined;
  const anchor = [...anchors][0]!;
  if (!Node.isTryStatement(anchor) || anchor.getFinallyBlock()) return undefined;
  const tryBlock = anchor.getTryBlock();
  if (!points.every((p) => tryBlock.containsRange(p.statement.getPos(), p.statement.getEnd()))) return undefined;
  const before = body.getStatements().slice(0, body.getStatements().indexOf(anchor));
  if (firstEffect(before, fn)) return undefined;
  return tryBlock;
}

function planBody(handler: Handler, fn: FunctionWithBody, body: Block, points: RequestPoint[], sites: Site[]): HandlerWork {
  try {
    return planForms(handler, fn, body, points, sites);
  } catch (error) {
    if (!(error instanceof Obstacle)) throw error;
    const nested = planNestedRounds(handler, fn, body, points, sites);
    if (nested === undefined) throw error;
    if (typeof nested === 'string') throw new Obstacle(`${error.message}; ${nested}`);
    return nested;
  }
}

/**
 * The handler's requests by path (groups of requests that can run one after the other): each group
 * asked as one round, write-once when nothing with effects runs before it, else resumed inside the
 * block that holds it after those effects (nested-round.ts). Undefined when a group is not one
 * round (several rounds on one path), a string when a round cannot resume in its block (why).
 */
function planNestedRounds(handler: Handler, fn: FunctionWithBody, body: Block, points: RequestPoint[], sites: Site[]): HandlerWork | string | undefined {
  if (points.some((p) => p.kind === 'url-throw' || enclosingLoop(p.statement, body))) return undefined;
  const nested: NestedRound[] = [];
  for (const group of pathGroups(points, body)) {
    for (const p of group) {
      delete p.merged;
      delete p.mergedInto;
      delete p.wrapped;
    }
    const leaders = mergeIndependent(group, fn);
    if (leaders.length !== 1) return undefined;
    const leader = leaders[0]!;
    const effect = firstEffect([...precedingCode(leader.statement, body), ...group.flatMap(pointOwnCode)], fn);
    if (!effect) continue;
    if (group.some((p) => p.binding.kind === 'hoist' && p.binding.guard)) return undefined;
    let round: NestedRound | string;
    try {
      round = planNestedRound(group, points, body, fn, pointOwnCode, nested.length + 1);
    } catch (error) {
      if (!(error instanceof Obstacle)) throw error;
      round = error.message;
    }
    const which = group.length === 1 ? `the request at line ${line(leader.statement)}` : `the round of lines ${group.map((p) => line(p.statement)).join(', ')}`;
    if (typeof round === 'string') return `${which} would resume inside its block after the code before it, but ${round}`;
    nested.push(round);
  }
  if (nested.length === 0) return undefined;
  return { handler, fn, body, points, form: 'write-once', nested, sites };
}

function planForms(handler: Handler, fn: FunctionWithBody, body: Block, points: RequestPoint[], sites: Site[]): HandlerWork {
  const looped = points.find((p) => enclosingLoop(p.statement, body));
  const shortCircuited = points.find((p) => p.binding.kind === 'hoist' && p.binding.guard);
  if (looped && shortCircuited) throw new Obstacle(`the call to helper at line ${line(shortCircuited.statement)} is evaluated only under a condition inside a loop: only rewritten in the write-once form`);
  if (looped) return { handler, fn, body, points, form: 'loop', loop: planLoop(points, looped, body, fn), sites };
  const guarded = points.find((p) => p.binding.kind === 'hoist' && p.binding.guard);
  // One round per path: the groups of independent requests (each asked at once) are on mutually
  // exclusive paths (switch cases, if/else branches that return), and nothing before a group has
  // effects, so re-running from the top on the answer round is harmless.
  const leaders = mergeIndependent(points, fn);
  const groupOf = (leader: RequestPoint): RequestPoint[] => [leader, ...(leader.merged ?? [])];
  const oneRoundPerPath = leaders.every((a, i) => leaders.slice(i + 1).every((b) => mutuallyExclusive(groupOf(a).at(-1)!.statement, b.statement, body)));
  const effectBefore = (leader: RequestPoint) => firstEffect([...precedingCode(leader.statement, body), ...groupOf(leader).flatMap(pointOwnCode)], fn);
  const blocked = oneRoundPerPath ? leaders.find((leader) => effectBefore(leader)) : undefined;
  if (oneRoundPerPath && !blocked) return { handler, fn, body, points, form: 'write-once', sites };
  // The requests in sequence would share a round, but code with effects before one of the rounds would repeat.
  const sharedRound = blocked && leaders.some((leader) => leader.merged) ? { leader: blocked, effect: effectBefore(blocked)! } : undefined;
  for (const p of points) {
    delete p.merged;
    delete p.mergedInto;
    delete p.wrapped;
  }
  // Several requests stay write-once when no path reaches more than one of them (if/else, switch cases that return).
  let phaseReason = sequenceReason(points, body);
  // the reason of a flag also says why requests in sequence were not asked in one round
  const why = sharedRound
    ? `; those on one path would be asked in one round, but \`${sharedRound.effect.description}\` (line ${line(sharedRound.effect.node)}) runs before the request at line ${line(sharedRound.leader.statement)} and would repeat on the answer round`
    : sequenceObstacle(points, body);
  const flagReason = phaseReason ? `${phaseReason}${why}` : undefined;
  for (const point of points) {
    if (phaseReason) break;
    // up to three, one per statement: the first may be a call the codemod cannot see into, the next the real effect
    const effects = effectsIn([...precedingCode(point.statement, body), ...pointOwnCode(point)], fn, 3);
    const before = point.kind === 'url-throw' ? `the UrlElicitationRequiredError thrown at line ${line(point.statement)}` : 'the request';
    if (effects.length > 0) {
      const named = effects.map((effect) => `\`${effect.description}\` (line ${line(effect.node)})`);
      const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
      phaseReason = `${list} ${named.length === 1 ? 'runs' : 'run'} before ${before} and may have ${named.length === 1 ? 'an effect, so it must run' : 'effects, so they must run'} only once`;
    }
  }
  if (!phaseReason) return { handler, fn, body, points, form: 'write-once', sites };
  const obstacle = flagReason ?? phaseReason;
  if (guarded && guarded.binding.kind === 'hoist') {
    throw new Obstacle(`${obstacle}, and the call to helper at line ${line(guarded.statement)} is evaluated only under a condition (\`${guarded.binding.guard!.operator}\`): only rewritten in the write-once form`);
  }
  for (const point of points) {
    if (point.kind === 'url-throw') throw new Obstacle(`${obstacle}, and a UrlElicitationRequiredError is thrown: only rewritten in the write-once form`);
    if (point.statement.getParent() === body) continue;
    const label = point.kind === 'helper' ? `the helper call at line ${line(point.statement)}` : siteLabel(point.sites[0]!);
    const where = describeNesting(point.statement, body);
    // A nested request: its top-level statement re-runs on the answer round, so the code on the way to it must be free of effects.
    const anchor = anchorOf(point.statement, body);
    if (points.some((other) => other !== point && anchorOf(other.statement, body) === anchor)) {
      throw new Obstacle(`${obstacle}, and ${label} shares the top-level statement at line ${line(anchor)} with another request: phase form needs one request per top-level statement`);
    }
    const effect = firstEffect(precedingCode(point.statement, anchor), fn);
    if (effect) throw new Obstacle(`${obstacle}, and \`${effect.description}\` (line ${line(effect.node)}) runs inside ${where} before ${label}: it would repeat on the answer round`);
  }
  return { handler, fn, body, points, form: 'phases', phaseReason, sites };
}

/**
 * Why the requests need phases because one path reaches several of them: "N requests in sequence"
 * when every pair can run one after the other, else the pairs that can (the others are on mutually
 * exclusive paths, such as the cases of a switch), by line.
 */
function sequenceReason(points: RequestPoint[], body: Block): string | undefined {
  const pairs: Array<[RequestPoint, RequestPoint]> = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      if (!mutuallyExclusive(points[i]!.statement, points[j]!.statement, body)) pairs.push([points[i]!, points[j]!]);
    }
  }
  if (pairs.length === 0) return undefined;
  if (pairs.length === (points.length * (points.length - 1)) / 2) return `${points.length} requests in sequence`;
  const shown = pairs.slice(0, 3).map(([a, b]) => `lines ${line(a.statement)} and ${line(b.statement)}`);
  const more = pairs.length > shown.length ? `; ${pairs.length - shown.length} more pairs` : '';
  return `requests in sequence on one path (${shown.join('; ')}${more}; every other pair is on mutually exclusive paths)`;
}

/** For a flag: why the first pair of requests in sequence was not asked in one round (see separateBlocks). */
function sequenceObstacle(points: RequestPoint[], body: Block): string {
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      if (!mutuallyExclusive(points[i]!.statement, points[j]!.statement, body)) return separateBlocks([points[i]!, points[j]!], body, points);
    }
  }
  return '';
}

/**
 * Why a pair in sequence is not asked in one round when each request sits in its own block
 * (`if (a) { try { x = await h1() } catch {} }` then the same for `h2`): only consecutive
 * independent requests of one statement list share a round.
 */
function separateBlocks([a, b]: [RequestPoint, RequestPoint], body: Block, points: RequestPoint[]): string {
  if (a.statement.getParent() === b.statement.getParent()) return '';
  if (b.joinRefusal && (b.mergedInto === a || points.indexOf(b) === points.indexOf(a) + 1)) return `; they are not asked in one round: ${b.joinRefusal}`;
  const where = (p: RequestPoint) => {
    const block = p.statement.getParent() === body ? undefined : innermostNesting(p.statement, body);
    return `line ${line(p.statement)} ${block ?? 'at the top level'}`;
  };
  return `; they are not asked in one round because each is in its own block (${where(a)}, ${where(b)}): only consecutive independent requests of one block, or helper calls each in the next statement's own \`if\`/\`try\` block, share a round`;
}

function innermostNesting(statement: Node, body: Node): string | undefined {
  for (let node = statement.getParent(); node && node !== body; node = node.getParent()) {
    if (Node.isTryStatement(node)) return `in a try statement (line ${line(node)})`;
    if (Node.isIfStatement(node)) return `in an if statement (line ${line(node)})`;
    if (Node.isCaseClause(node) || Node.isDefaultClause(node)) return `in a switch case (line ${line(node)})`;
    if (Node.isIterationStatement(node)) return `in a loop (line ${line(node)})`;
  }
  return undefined;
}

/** The statement directly in `body` that contains `node`. */
export function anchorOf(node: Node, body: Node): Statement {
  let current: Node = node;
  while (current.getParent() && current.getParent() !== body) current = current.getParent()!;
  return current as Statement;
}

/**
 * Consecutive requests in one statement list (the handler body, a block, a `case` clause) with no
 * data dependency (the later one's parameters do not use the earlier answer or anything computed in
 * between, and the code in between is pure and never exits) are asked in one round. Direct requests
 * join direct ones; calls of single-request helpers join helper calls on the very next statement,
 * or, each at the end of its own `if`/`try` block, in the next statement (wrapped-rounds.ts).
 * Returns the points that lead a round.
 */
function mergeIndependent(points: RequestPoint[], fn: Node): RequestPoint[] {
  const leaders: RequestPoint[] = [];
  for (const point of points) delete point.joinRefusal;
  for (const point of points) {
    const leader = leaders[leaders.length - 1];
    if (leader && !leader.wrapped && canJoin(leader, point, fn)) {
      (leader.merged ??= []).push(point);
      point.mergedInto = leader;
      continue;
    }
    const refusal = leader && point.statement.getParent() !== leader.statement.getParent() ? wrappedJoinRefusal(leader, point, points, fn) : 'not wrapped';
    if (leader && refusal === undefined) {
      joinWrapped(leader, point);
      continue;
    }
    if (leader && point.statement.getParent() !== leader.statement.getParent()) point.joinRefusal = refusal;
    leaders.push(point);
  }
  return leaders;
}

/** The statements of the list `statement` sits in directly, when it is in one. */
function statementList(statement: Statement): Statement[] | undefined {
  const parent = statement.getParent();
  if (parent && (Node.isBlock(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent))) return parent.getStatements();
  return undefined;
}

function canJoin(leader: RequestPoint, next: RequestPoint, fn: Node): boolean {
  const bothDirect = leader.kind === 'direct' && next.kind === 'direct';
  const bothHelpers = leader.kind === 'helper' && next.kind === 'helper';
  if (!bothDirect && !bothHelpers) return false;
  const statements = statementList(leader.statement);
  if (!statements || next.statement.getParent() !== leader.statement.getParent()) return false;
  const last = leader.merged?.[leader.merged.length - 1] ?? leader;
  const from = statements.indexOf(last.statement);
  const to = statements.indexOf(next.statement);
  if (from < 0 || to < 0 || statements.indexOf(leader.statement) < 0) return false;
  // A helper's result may be its input_required step until the group's check: nothing may read it in between.
  if (bothHelpers && to !== from + 1) return false;
  const between = statements.slice(from + 1, to);
  if (between.some((s) => definitelyExits(s) || s.getDescendants().some((d) => Node.isReturnStatement(d) || Node.isThrowStatement(d) || Node.isBreakStatement(d) || Node.isContinueStatement(d)))) return false;
  if (firstEffect(between, fn)) return false;
  // Names bound by the group so far and by the code in between must not feed the next request.
  const bound = new Set<string>();
  for (const p of [leader, ...(leader.merged ?? [])]) {
    if (p.binding.kind !== 'declare' || !p.binding.name) return false;
    bound.add(p.binding.name);
  }
  for (const s of between) for (const id of s.getDescendantsOfKind(SyntaxKind.Identifier)) bound.add(id.getText());
  if (next.binding.kind !== 'declare' || !next.binding.name) return false;
  const inputs = next.kind === 'helper' ? next.helperCall.getArguments() : next.sites[0]!.params ? [next.sites[0]!.params] : [];
  return !inputs.some((input) => [input, ...input.getDescendants()].some((id) => Node.isIdentifier(id) && bound.has(id.getText())));
}

function describeNesting(statement: Node, body: Node): string {
  let node: Node | undefined = statement.getParent();
  let last = 'a block';
  while (node && node !== body) {
    if (Node.isIfStatement(node)) last = `an if statement (line ${line(node)})`;
    else if (Node.isTryStatement(node)) last = `a try statement (line ${line(node)})`;
    else if (Node.isSwitchStatement(node)) last = `a switch (line ${line(node)})`;
    node = node.getParent();
  }
  return last;
}

export function defaultKey(site: Site): string {
  return LEGACY_REQUESTS[site.method].defaultKey;
}

/** `node` without the parentheses around it. */
function unwrapParentheses(node: Node): Node {
  let inner = node;
  while (Node.isParenthesizedExpression(inner)) inner = inner.getExpression();
  return inner;
}
