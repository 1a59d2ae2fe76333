/**
 * Emission planned: the part of planning that computes what emit needs and can fail on, so that
 * emit never fails on a user's code (the emitters only assert, emit.ts `unplanned`).
 *
 * The conditions are the ones the emitters used to throw on, evaluated here in the order the
 * emitters meet them: a handler with several of them is flagged with the reason emit met first,
 * as before. The locals each round carries (liveness) are computed here once and kept on the
 * handler's work for emit to read (`work.live`).
 */
import { Node, SyntaxKind, type Statement } from 'ts-morph';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import { anchorOf, type HandlerWork } from './analyse.js';
import { contextObstacle } from './context.js';
import { readUrlElicitations, unplanned, unreadableParams } from './emit.js';
import type { HelperWork } from './helper.js';
import { declaredIn, liveAcross, type LiveVar } from './live.js';
import { nestedLive } from './nested-round.js';
import { Obstacle, line, type RequestPoint } from './points.js';
import { returnTypeObstacle } from './return-type.js';
import { flavourOf } from './module-flavour.js';

/**
 * Computes the liveness of each round of `work` into `work.live` and checks every condition the
 * handler's emitter cannot meet; throws an Obstacle with the reason emit would have met first.
 */
export function planHandlerEmission(work: HandlerWork, typeChecked: boolean): void {
  const ts = flavourOf(work.handler.sourceFile) === 'ts';
  if (work.form === 'loop') {
    planLoopEmission(work, ts, typeChecked);
    return;
  }
  fail(contextObstacle(work.handler, work.fn, work.sites.length));
  fail(returnTypeObstacle(work.fn, 'the handler'));
  if (work.form === 'write-once') {
    // A round resuming in a nested block is emitted first, with its points; the other points after.
    const rounds = work.nested ?? [];
    work.live = rounds.map((round) => {
      let live: LiveVar[];
      try {
        live = nestedLive(round, ts, typeChecked);
      } catch (error) {
        if (error instanceof Obstacle) throw new Obstacle(`the round at line ${line(round.first)} would resume inside its block after the code before it, but ${error.message}`);
        throw error;
      }
      for (const point of round.points) fail(requestObstacle(point));
      return live;
    });
    const nested = new Set(rounds.flatMap((r) => r.points));
    for (const point of work.points) if (!nested.has(point)) fail(requestObstacle(point));
    return;
  }
  // Phases: the locals live across each point, then each point's request, in phase order.
  const statements = work.body.getStatements();
  const knownTypes = answerTypes(work, statements);
  work.live = work.points.map((point) => {
    const at = statements.indexOf(anchorOf(point.statement, work.body));
    return liveAcross(declaredIn(statements.slice(0, at)), statements.slice(at), ts, typeChecked, knownTypes);
  });
  for (const point of work.points) fail(requestObstacle(point));
}

/** The loop form's conditions, in emit-loop.ts's order. */
function planLoopEmission(work: HandlerWork, ts: boolean, typeChecked: boolean): void {
  const plan = work.loop ?? unplanned('a loop-form handler without its loop plan');
  fail(returnTypeObstacle(work.fn, 'the handler'));
  fail(contextObstacle(work.handler, work.fn, work.sites.length));
  const statements = work.body.getStatements();
  const at = statements.indexOf(plan.loop);
  const pre = statements.slice(0, at);
  const post = statements.slice(at + 1);
  work.live = [liveAcross(declaredIn(pre), [plan.loop, ...post], ts, typeChecked, new Map())];
  const topLevel = new Set(declaredIn([...pre, ...post]).map((d) => d.name));
  // A for-of loop's position is a fresh name (never one the file declares): only a for counter can clash.
  const counter = plan.kind === 'for' ? plan.counter?.name : undefined;
  if (counter !== undefined && topLevel.has(counter)) throw new Obstacle(`the loop counter \`${counter}\` is also declared outside the loop; not rewritten automatically`);
  if (declaredIn(plan.before).some((d) => topLevel.has(d.name))) throw new Obstacle('a name declared in the loop body shadows one declared outside the loop; not rewritten automatically');
  const site = work.points[0]?.sites[0];
  if (site) fail(unreadableParams(site));
}

/**
 * Checks every condition the helper's emitter cannot meet (`registry`: the helpers rewritten this
 * round); throws an Obstacle with the reason emit would have met first.
 */
export function planHelperEmission(helper: HelperWork, registry: Map<Node, HelperWork>): void {
  if (helper.senderParam === undefined && helper.fn.getParameters().length === 0 && !helper.fn.getFirstChildByKind(SyntaxKind.OpenParenToken)) {
    throw new Obstacle(`helper \`${helper.name}\` has no parameter list`);
  }
  const point = helper.point;
  if (point.kind === 'helper' && !registry.has(point.helperFn)) throw new Obstacle(`helper \`${helper.name}\` calls a helper that is not rewritten`);
  fail(requestObstacle(point));
}

/** The locals round `index` of `work` carries, as planning computed them (planHandlerEmission). */
export function plannedLive(work: HandlerWork, index: number): LiveVar[] {
  return work.live?.[index] ?? unplanned(`the locals of round ${index + 1} of the handler were not computed at planning`);
}

/** Why the request a point asks cannot be written out (its parameters, the URL elicitations it throws), or undefined. */
function requestObstacle(point: RequestPoint): string | undefined {
  if (point.kind === 'helper') return undefined;
  if (point.kind === 'url-throw') {
    const entries = readUrlElicitations(point.sites[0]!);
    return typeof entries === 'string' ? entries : undefined;
  }
  for (const site of point.sites) {
    const unreadable = unreadableParams(site);
    if (unreadable) return unreadable;
  }
  return undefined;
}

function fail(reason: string | undefined): void {
  if (reason !== undefined) throw new Obstacle(reason);
}

/**
 * The state types of the locals that receive an answer (`ElicitResult`...): the rewrite produces
 * these values itself, so their types are known without asking the checker.
 */
export function answerTypes(work: HandlerWork, statements: Statement[]): Map<string, string> {
  const knownTypes = new Map<string, string>();
  for (const point of work.points) {
    if (point.kind === 'direct' && !point.then && point.binding.kind === 'declare' && point.binding.name) knownTypes.set(point.binding.name, point.binding.typeText ?? LEGACY_REQUESTS[point.sites[0]!.method].resultType);
    if (point.kind === 'parallel') point.elementNames.forEach((n, i) => n && knownTypes.set(n, LEGACY_REQUESTS[point.sites[i]!.method].resultType));
  }
  // `let result; try { result = await ...elicitInput(...) } catch { ... }`: the untyped variable the request
  // assigns has no type of its own to put in the state; before the request it only ever holds undefined.
  const untyped = new Map(declaredIn(statements).filter((d) => d.initializer === undefined && Node.isVariableDeclaration(d.id.getParent()) && !(d.id.getParent() as Node & { getTypeNode(): Node | undefined }).getTypeNode()).map((d) => [d.name, d]));
  for (const point of work.points) {
    if (point.kind !== 'direct' || point.then || point.binding.kind !== 'assign' || !untyped.has(point.binding.target)) continue;
    const name = point.binding.target;
    const assigned = work.body.getDescendantsOfKind(SyntaxKind.BinaryExpression).filter((b) => b.getOperatorToken().getText() === '=' && b.getLeft().getText() === name);
    if (assigned.length === 1) knownTypes.set(name, `${LEGACY_REQUESTS[point.sites[0]!.method].resultType} | undefined`);
  }
  return knownTypes;
}
