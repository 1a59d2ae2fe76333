/**
 * Analyse / plan / rewrite stages of the engine.
 *
 *   rewriteHandlers(project, reaches, options): RewriteOutcome
 *
 * Expects the project AFTER the official v1-to-v2 upgrade (the upgrade stage, run/stages.ts, runs first): handler
 * contexts are v2 `ctx` (`ctx.mcpReq.*`) and the generated code is v2 code importing only
 * `@modelcontextprotocol/server` (plus the generated codec module, when a handler needs state).
 *
 * Per handler: request points (analyse.ts) → form (write-once or phases) → code (emit*.ts), helpers
 * rewritten once for all their callers (helper.ts), one codec module per project and flavour and
 * `requestState: { verify }` wired into the serving constructions (state-module.ts). Anything
 * unproven leaves the handler (and its helpers) byte-identical with a `flagged` decision.
 */
import { Node, type CallExpression, type NewExpression, type Project, type SourceFile } from 'ts-morph';
import { LEGACY_REQUESTS, NON_HANDLER_ADVICE, RESULT_SCHEMA_TO_LEGACY, TARGET_SERVER_PACKAGE, replacementFor } from '@mcp-mrtr/surface';
import type { CallPathStep, CallerDecision, Handler, Reach, RewriteOptions, RewriteOutcome, Site, SiteDecision } from '../model.js';
import { entryObstacle, planHandler, type HandlerWork } from './analyse.js';
import { NameAllocator, reserveAnswerReaders, type AnswerReaders } from './emit.js';
import { planHandlerEmission, planHelperEmission } from './emit-checks.js';
import { emitHandler, emitHelper } from './emit-handler.js';
import type { FileWork } from './emit-common.js';
import { defaultHelperKey, GENERIC_NAMES, planHelper, unhandledReference, type HelperWork } from './helper.js';
import { dropUnusedAliases, dropUnusedImports, ensureNamedImports, ensureNamedImportsOf, identifiersOutsideImports, mergeNamedImports, usedImportNames, type ImportRequest } from './imports.js';
import { neverBothRun } from './control-flow.js';
import { exclusiveSplit, type HandlerEntry } from './exclusive-entries.js';
import { Obstacle, enclosingFunction, line, siteLine, type HelperPoint, type RequestPoint } from './points.js';
import { reportLine, withOriginalLines, withReadingFile } from '../report-lines.js';
import { LOOP_ROUND_CAP } from './loop.js';
import {
  CODEC_EXPORT,
  DIGEST_EXPORT,
  ensureGeneratedModule,
  ensureStateModule,
  stateModuleHome,
  serverConstructionsFor,
  specifierFor,
  verifyWiringEdit,
} from './state-module.js';
import { flavourOf } from './module-flavour.js';
import { CAPABILITIES_MODULE_BASENAME, capabilitiesModuleText } from './capabilities-module.js';
import { ANSWERS_MODULE_BASENAME, answersModuleText } from './answers-module.js';
import { applyEdits, type TextEdit } from '../text-edits.js';
import { inlineHelpers, rememberStarts, type InlinedHelper } from './inline.js';
import { dispatchObstacle, dispatcherEdits, dispatcherObstacle, strayReference } from './dispatch.js';
import { withTestsOutsideRun } from './outside-tests.js';
import { registrationTypeError } from './registration-compiles.js';
import { TASK_ADVICE, taskAugmentation } from './tasks.js';
import { timeoutWrapperOf } from './timeout.js';
import { secretFieldNote } from './secret-fields.js';
import { addDriver, drivenCallEdit, drivenTestCall, HELPER_DRIVER, testCallObstacle, testCallsObstacle, testCallsOf, type DrivenTestCall } from './test-calls.js';
import { functionName } from '../reach/index.js';
import { abbreviate } from './purity.js';
import { enclosingCatch, undeclaredFailsIntoCatch } from './fail-open.js';
import { legacyCapabilitiesFallback } from './emit.js';
import { HANDLER_PATH_ADVICE, contextlessCallers, contextlessDecision, handlerPathObstacle, handlerPathReason } from './contextless-calls.js';
import { blockingHandlers, handlerKey } from './unmigrated-callers.js';

/** A request a handler reaches, with the calls on the way from the handler to it. */
type Entry = HandlerEntry;


export function rewriteHandlers(project: Project, reaches: Reach[], options: RewriteOptions): RewriteOutcome {
  return withOriginalLines(options.originalLine, () => rewriteAll(project, reaches, options));
}

function rewriteAll(project: Project, reaches: Reach[], options: RewriteOptions): RewriteOutcome {
  rememberStarts(reaches);
  // Helpers the helper form cannot take are inlined into their handlers when that is plainly safe
  // (inline.ts); a handler holding inlined code that still does not migrate gets its text back.
  const blocked = new Set<string>();
  /** Original site → why inlining its helper was undone. */
  const tried = new Map<Site, string>();
  let current = reaches;
  let toOriginal = new Map<Site, Site>(reaches.map((r) => [r.site, r.site]));
  /** Handlers (handlerKey) that stay on a shared helper's legacy request, the helper copied for its other handlers. */
  const unmigrated = new Set<string>();
  for (let attempt = 0; attempt < 8; attempt++) {
    const pass = inlineHelpers(project, current, blocked, options.typeChecked, helperFormObstacle, unmigrated);
    if (!pass) {
      const plan = converge(project, current, options);
      // the text is the user's (or restored to it): the blockers' keys hold for the next attempt
      const more = [...plan.blockers].map(handlerKey).filter((key) => !unmigrated.has(key));
      if (more.length === 0) return translateDecisions(applyPlan(project, plan, options), toOriginal, new Map(), tried, new Set(), reaches);
      for (const key of more) unmigrated.add(key);
      continue;
    }
    const plan = converge(project, pass.reaches, options);
    const failedHolders = [...pass.holders].filter(([fn]) => plan.failed.has(fn));
    if (failedHolders.length === 0) {
      const inlinedFrom = new Map<Site, InlinedHelper>();
      for (const [site, helper] of pass.helperOf) if (toOriginal.has(site)) inlinedFrom.set(toOriginal.get(site)!, helper);
      // the functions a kept helper's requests moved into name the SDK's params types
      for (const [file, types] of pass.types) for (const t of types) plan.files.get(file)?.types.add(t);
      return translateDecisions(applyPlan(project, plan, options), compose(pass.original, toOriginal), inlinedFrom, tried, pass.copies, reaches);
    }
    for (const [fn, helper] of failedHolders) {
      blocked.add(helper.id);
      const why = (plan.failed.get(fn) ?? '').replace(/ \(line \d+(?: of [^)]+)?\)| at line \d+(?: of [^ ,;:)]+)?/g, '');
      for (const [site, h] of pass.helperOf) if (h === helper && toOriginal.has(site)) tried.set(toOriginal.get(site)!, `${helper.copyName !== undefined ? `a copy of \`${helper.name}\` for its handlers` : `inlining \`${helper.name}\` into its caller`} was tried and undone: ${why}`);
    }
    const back = pass.restore();
    current = back.reaches;
    toOriginal = compose(back.original, toOriginal);
  }
  throw new Error('helper inlining did not converge');
}

/** Why the helper form cannot take `fn` (then inlining is tried), or undefined. */
function helperFormObstacle(fn: Node, sites: Site[]): string | undefined {
  try {
    planHelper(fn, sites);
    return undefined;
  } catch (error) {
    return reasonOf(error);
  }
}

function compose(step: Map<Site, Site>, rest: Map<Site, Site>): Map<Site, Site> {
  const out = new Map<Site, Site>();
  for (const [site, mid] of step) {
    const orig = rest.get(mid);
    if (orig) out.set(site, orig);
  }
  return out;
}

/**
 * Decisions for the sites the run found (an inlined helper's site: flagged if any of its copies is,
 * or if the helper stays for a caller outside handlers), with the callers of every copy.
 */
function translateDecisions(outcome: RewriteOutcome, toOriginal: Map<Site, Site>, inlinedFrom: Map<Site, InlinedHelper>, tried: Map<Site, string>, copies: Set<Site>, reaches: Reach[]): RewriteOutcome {
  const byOriginal = new Map<Site, SiteDecision>();
  // A site nothing reaches keeps the reason of the run's own reach: its lines name the user's file,
  // a reach recomputed after inlining names the inlined text.
  // So does a site only code outside handlers reaches, when the rewrite flagged it for that code.
  const unreachable = new Map<Site, string>();
  const outsideOnly = new Map<Site, string>();
  // A helper copied for its handlers stays for its callers outside them: their reason, read in the user's text.
  const keptForOutside = new Map<Site, string>();
  const outsideCallers = new Set(reaches.filter((r) => r.nonHandlerContexts.length > 0).map((r) => r.site));
  for (const r of reaches) {
    const context = r.nonHandlerContexts[0];
    if (!context || r.site.obstacle) continue;
    if (context.context === 'unreachable') unreachable.set(r.site, outsideReason(r));
    else if (r.handlers.length === 0) outsideOnly.set(r.site, outsideReason(r));
    else if (inlinedFrom.get(r.site)?.copyName !== undefined) keptForOutside.set(r.site, outsideReason(r));
  }
  const callers = new Map<Site, CallerDecision[]>();
  for (const d of outcome.decisions) {
    const orig = toOriginal.get(d.site);
    if (!orig) continue;
    const helper = inlinedFrom.get(orig);
    const copied = helper !== undefined && copies.has(d.site);
    const list = callers.get(orig) ?? [];
    for (const c of d.callers ?? []) {
      const entry = copied && c.reason ? { ...c, reason: `${copiedInto(helper, 'this handler')}: ${c.reason.replace(/ \(line \d+(?: of [^)]+)?\)/g, '')}` } : c;
      if (!list.some((x) => x.caller === entry.caller && x.status === entry.status)) list.push(entry);
    }
    callers.set(orig, list);
    const existing = byOriginal.get(orig);
    if (existing?.status === 'flagged') continue;
    if (existing && d.status === 'migrated') {
      // copies of an inlined helper: each one's handler must fail into such a catch
      if (!d.undeclaredCaught) delete existing.undeclaredCaught;
      continue;
    }
    // Line numbers in the reason would name the inlined text, not the source the report shows.
    const undone = d.status === 'flagged' ? tried.get(orig) : undefined;
    const outside = d.status === 'flagged' ? (unreachable.get(orig) ?? (d.reason?.endsWith(' code has no MRTR form') ? outsideOnly.get(orig) : undefined) ?? (copied ? undefined : keptForOutside.get(orig))) : undefined;
    const reason = outside !== undefined ? outside : copied ? `${copiedInto(helper, 'its caller(s)')}: ${(d.reason ?? '').replace(/ \(line \d+(?: of [^)]+)?\)/g, '')}` : undone ? `${d.reason}; ${undone}` : d.reason;
    byOriginal.set(orig, { ...d, site: orig, ...(reason !== undefined ? { reason } : {}) });
  }
  for (const [orig, decision] of byOriginal) {
    const list = callers.get(orig) ?? [];
    if (list.length > 0) decision.callers = list;
    // A helper kept for a caller outside handlers: the handlers that call it have their own migrated copies.
    const migrated = list.filter((c) => c.status === 'migrated');
    const helper = inlinedFrom.get(orig);
    if (decision.status === 'flagged' && migrated.length > 0 && helper) {
      const one = migrated.length === 1;
      const now = helper.copyName !== undefined ? `${one ? 'calls' : 'call'} \`${helper.copyName}\`, a copy of \`${helper.name}\` rewritten for ${one ? 'it' : 'them'}` : `${one ? 'has its' : 'have their'} own copy of \`${helper.name}\``;
      // kept only for handlers left unmigrated (unmigrated-callers.ts): the reason is theirs, so it names them
      const keptFor = outsideCallers.has(orig) ? [] : list.filter((c) => c.status !== 'migrated').map((c) => c.caller);
      const reason = keptFor.length > 0 ? `kept as written for ${keptFor.join(', ')}: ${decision.reason}` : decision.reason;
      decision.reason = `${reason}; migrated for ${migrated.map((c) => c.caller).join(', ')}, which now ${now}`;
      // the advice for its other callers alone would tell to migrate the handlers by hand
      if (helper.copyName !== undefined) {
        decision.advice =
          keptFor.length > 0
            ? `the handlers that called it call \`${helper.copyName}\`, its migrated copy, now; it still sends the legacy request for ${keptFor.join(', ')}: migrate ${keptFor.length === 1 ? 'that handler' : 'those handlers'} by hand (the reason is above), make ${keptFor.length === 1 ? 'it' : 'them'} call \`${helper.copyName}\`, then drop it`
            : `the handlers that called it call \`${helper.copyName}\`, its migrated copy, now; it still does what it did for its callers outside request handlers: move what they need into a handler (a test can drive the handler or the copy with inputResponses), then drop it`;
      }
    }
  }
  return { decisions: [...byOriginal.values()], createdFiles: outcome.createdFiles };
}

/** `helper \`f\` inlined into <where>`, or `the copy \`fForHandlers\` of helper \`f\``: what a flagged copy's reason is about. */
function copiedInto(helper: InlinedHelper, where: string): string {
  return helper.copyName !== undefined ? `the copy \`${helper.copyName}\` of helper \`${helper.name}\`` : `helper \`${helper.name}\` inlined into ${where}`;
}

/** Plans and computes every edit without touching the project; a handler failing at any stage is
 * excluded and the plan recomputed (its helpers may then be unusable for other handlers too). */
function converge(project: Project, reaches: Reach[], options: RewriteOptions): Plan {
  const excluded = new Map<Node, string>();
  for (let round = 0; round < 50; round++) {
    const plan = planAll(project, reaches, options, excluded);
    if (plan.newFailures.size === 0) return plan;
    for (const [fn, reason] of plan.newFailures) excluded.set(fn, reason);
  }
  throw new Error('rewrite planning did not converge');
}

interface Plan {
  /** Alias names (`ask` in `const ask = x.elicitInput.bind(x)`) of rewritten sites, per file. */
  aliases: Map<SourceFile, Set<string>>;
  decisions: Map<string, SiteDecision>;
  files: Map<SourceFile, FileWork>;
  constructions: Set<NewExpression>;
  newFailures: Map<Node, string>;
  /** Handler functions left unmigrated (with the reason). */
  failed: Map<Node, string>;
  /** Of those, the ones whose calls alone keep a shared helper from its other handlers. */
  blockers: Set<Node>;
}

/** The flag reason of a site a non-handler context reaches; an unreachable function's description is the whole reason. */
export function nonHandlerReason(context: { context: string; description: string }): string {
  if (context.context === 'unreachable') return context.description;
  if (context.context === 'contextless-call') return `${context.description}, the argument this request is sent on: that call runs the function without the request, and rewriting the function for the handlers would change what it runs`;
  if (context.context === 'test-code') return `${context.description} calls the code of this request directly: rewriting it for the handlers would change what the test calls`;
  return `${context.description} reaches this request: ${context.context} code has no MRTR form`;
}

/**
 * The reason of a request code outside handlers reaches: the first such caller's, with how many
 * more there are (the report lists every caller, and each handler that also reaches it, with its
 * own decision).
 */
function outsideReason(reach: Reach, blocking?: Blocking): string {
  if (blocking?.onHandlerPath) {
    const others = reach.nonHandlerContexts.filter((c) => c.context !== 'contextless-call').length;
    return `${blocking.onHandlerPath}${others > 0 ? ` (and ${others} more caller${others > 1 ? 's' : ''} outside handlers)` : ''}`;
  }
  // led by the caller that keeps the request as it is: callers before it may be served (a test's call driven)
  const first = blocking?.context ?? reach.nonHandlerContexts[0]!;
  const rest = reach.nonHandlerContexts.length - 1;
  const more = rest > 0 ? ` (and ${rest} more caller${rest > 1 ? 's' : ''} outside handlers)` : '';
  const notDriven = blocking?.notDriven !== undefined ? ` (a call of it cannot go through the rewritten helper: ${blocking.notDriven})` : '';
  return `${nonHandlerReason(first)}${notDriven}${more}`;
}

/** One planning round's working state, shared by its steps (planAll). */
interface PlanRound {
  project: Project;
  reaches: Reach[];
  options: RewriteOptions;
  /** Handlers excluded by earlier rounds (with the reason). */
  excluded: Map<Node, string>;
  decisions: Map<string, SiteDecision>;
  /** Handlers that cannot be emitted this round (planEmission): excluded in the next. */
  newFailures: Map<Node, string>;
  failed: Map<Node, string>;
  byHandler: Map<Node, { handler: Handler; entries: Entry[] }>;
  works: Map<Node, HandlerWork>;
  helpers: Map<Node, HelperWork>;
  files: Map<SourceFile, FileWork>;
  constructions: Set<NewExpression>;
  /** The serving constructions of each handler carrying requestState (planEmission), for its verify wiring. */
  servers: Map<Node, NewExpression[]>;
  /** Helpers planEmission found emit cannot write (their handlers fail with the reason). */
  unemittable: Set<HelperWork>;
  /** Tests' direct calls of a rewritten helper, routed through the driver written into the test file (test-calls.ts). */
  testCalls: Map<CallExpression, DrivenTestCall>;
  /** Test files that received the driver. */
  driverFiles: Set<SourceFile>;
  /** Handlers, unmigrated for reasons of their own, whose calls alone keep a shared helper from its other handlers (unmigrated-callers.ts). */
  blockers: Set<Node>;
  /** Each entry's own obstacle, computed when a failed handler's reason is read for its requests (reasonAt). */
  entryObstacles: Map<Entry, string | undefined>;
  /** The requests a handler's failure is about, when it is a helper's (the helper's requests). */
  failedFor: Map<Node, Site[]>;
  /** Requests left as they are in a handler rewritten without them (exclusive-entries.ts). */
  splitOff: Map<Node, Set<Site>>;
}

/**
 * One planning round, in steps: sites grouped by the handlers that reach them (flagging those with
 * no MRTR form), table-dispatched tools checked, handlers planned, helpers planned for all their
 * callers, what emission needs computed and checked, edits emitted, then the decisions of the
 * failed handlers and of every site's callers.
 */
function planAll(project: Project, reaches: Reach[], options: RewriteOptions, excluded: Map<Node, string>): Plan {
  const round: PlanRound = {
    project,
    reaches,
    options,
    excluded,
    decisions: new Map(),
    newFailures: new Map(),
    failed: new Map(excluded),
    byHandler: new Map(),
    works: new Map(),
    helpers: new Map(),
    files: new Map(),
    constructions: new Set(),
    servers: new Map(),
    unemittable: new Set(),
    testCalls: new Map(),
    driverFiles: new Set(),
    blockers: new Set(),
    entryObstacles: new Map(),
    failedFor: new Map(),
    splitOff: new Map(),
  };
  groupByHandler(round);
  checkRegistrations(round);
  checkDispatchedTools(round);
  planHandlers(round);
  planHelpers(round);
  planEmission(round);
  emitHandlers(round);
  emitDispatchers(round);
  emitHelpers(round);
  flagFailedHandlers(round);
  recordCallers(round);
  const { decisions, files, constructions, newFailures, failed, blockers } = round;
  return { aliases: rewrittenAliases(decisions), decisions, files, constructions, newFailures, failed, blockers };
}

function flagSite(round: PlanRound, site: Site, reason: string, advice?: string): void {
  if (round.decisions.get(site.id)?.status === 'flagged') return;
  round.decisions.set(site.id, { site, status: 'flagged', reason, advice: advice ?? replacementFor(site.method) });
}

/** Sites no handler reaches, or that a non-handler context reaches, have no MRTR form there. */
function groupByHandler(round: PlanRound): void {
  const { byHandler, failed } = round;
  for (const reach of round.reaches) {
    const blocking = blockingContext(reach);
    const context = blocking?.context;
    const task = taskAugmentation(reach.site);
    if (task) {
      flagSite(round, reach.site, task, TASK_ADVICE);
      for (const { handler, path: callPath } of reach.handlers) {
        const slot = byHandler.get(handler.fn) ?? { handler, entries: [] };
        slot.entries.push({ site: reach.site, path: callPath });
        byHandler.set(handler.fn, slot);
        if (!failed.has(handler.fn)) failed.set(handler.fn, `the handler also makes the task-augmented request at line ${siteLine(reach.site)}, which has no MRTR form, so the handler is left as it is`);
      }
      continue;
    }
    const obstacle = reach.site.obstacle;
    if (obstacle) flagSite(round, reach.site, obstacle);
    else if (context) flagSite(round, reach.site, outsideReason(reach, blocking), blocking?.onHandlerPath ? HANDLER_PATH_ADVICE : NON_HANDLER_ADVICE[context.context]);
    else if (reach.handlers.length === 0) flagSite(round, reach.site, 'no tools/call, prompts/get or resources/read handler reaches this request', NON_HANDLER_ADVICE.unreachable);
    for (const { handler, path: callPath } of reach.handlers) {
      const slot = byHandler.get(handler.fn) ?? { handler, entries: [] };
      slot.entries.push({ site: reach.site, path: callPath });
      byHandler.set(handler.fn, slot);
      const shared = sharedSiteReason(reach, callPath);
      if (shared && !failed.has(handler.fn)) failed.set(handler.fn, shared);
    }
  }
}

/** Why no handler reaching this site can be rewritten: the request's own obstacle, or a non-handler context running it too. */
function sharedSiteReason(reach: Reach, path: CallPathStep[] = []): string | undefined {
  const { obstacle } = reach.site;
  const blocking = blockingContext(reach);
  const context = blocking?.context;
  if (obstacle) return `the request at line ${siteLine(reach.site)} cannot be rewritten (${obstacle}), so this handler is left as it is`;
  // the obstacle is a handler's way down (a tracer's callback), not the callers without a context:
  // this handler's own, or another's when this one calls the function plainly (rewritten once for all of them)
  if (blocking?.onHandlerPath) {
    const own = handlerPathObstacle(path, enclosingFunction(reach.site.node)!);
    if (own !== undefined) return `the request at line ${siteLine(reach.site)} is in a function this handler reaches in a way the rewrite cannot follow (${own}), so it is left as it is`;
    return `the request at line ${siteLine(reach.site)} is in a function another handler reaches in a way the rewrite cannot follow (${blocking.notDriven}); the function is rewritten once for all its handlers, so it is left as it is for this one too`;
  }
  const shared =
    context?.context === 'contextless-call'
      ? `the request at line ${siteLine(reach.site)} is in a function other code also calls without the argument it is sent on (${context.description})`
      : context
        ? `the request at line ${siteLine(reach.site)} is in code also run from ${context.description} (${context.context})`
        : undefined;
  if (shared === undefined) return undefined;
  // a handler gets its own copy only of a function it calls itself
  if (path.length > 1) return `${shared}, and this handler reaches it through ${path.length} calls (${callChain(path)}): only a function the handler calls itself gets a copy of its own, so it is left as it is`;
  return `${shared}, so it cannot be rewritten for this handler alone`;
}

/** `resolveScope → deps.resolveStorageScope → askScope`: the functions a handler calls on its way to a request. */
function callChain(path: CallPathStep[]): string {
  return path.map((step) => `\`${functionName(step.callee) ?? abbreviate(step.call.getExpression().getText(), 30)}\``).join(' → ');
}

/**
 * A non-handler context keeping the handlers from migrating. `onHandlerPath`: the whole reason when
 * the callers without a context would be served and only the handlers' way down to the request is
 * the obstacle (contextless-calls.ts).
 */
interface Blocking {
  context: Reach['nonHandlerContexts'][number];
  notDriven?: string;
  onHandlerPath?: string;
}

/**
 * The first non-handler context that keeps the handlers from migrating. A test calling the
 * request's function itself does not when handlers call it too: the helper is rewritten for them
 * and the test's call driven through it (planHelpers decides, test-calls.ts), or the handlers fail
 * with the test's reason there.
 */
function blockingContext(reach: Reach): Blocking | undefined {
  for (const context of reach.nonHandlerContexts) {
    // calls passing no context keep calling the one rewritten function (contextless-calls.ts)
    if (context.context === 'contextless-call' && reach.handlers.length > 0) {
      const decision = contextlessDecision(reach)!;
      if (decision.callers && decision.handlerPathObstacle === undefined) continue;
      if (decision.callers) {
        const fn = enclosingFunction(reach.site.node)!;
        return { context, notDriven: decision.handlerPathObstacle, onHandlerPath: handlerPathReason(decision.handlerPathObstacle!, decision.callers, fn) };
      }
      return { context, notDriven: decision.callersObstacle };
    }
    if (!context.testCall || reach.handlers.length === 0) return { context };
    const fn = enclosingFunction(reach.site.node);
    if (!fn) return { context, notDriven: 'the request is not in a function' };
    const notDriven = testCallsObstacle(fn, reach.site);
    // the test whose own call cannot be driven is the one that keeps the handlers, not the first test calling
    if (notDriven) return undrivenTest(reach, fn) ?? { context, notDriven };
  }
  return undefined;
}

/** The first test context whose own call of the request's function cannot go through the rewritten helper, with why. */
function undrivenTest(reach: Reach, fn: Node): Blocking | undefined {
  for (const context of reach.nonHandlerContexts) {
    const notDriven = context.testCall ? testCallObstacle(context.testCall, fn, reach.site) : undefined;
    if (notDriven) return { context, notDriven };
  }
  return undefined;
}

/** With types, a handler whose registration call itself does not compile on v2 is left as it is (registration-compiles.ts). */
function checkRegistrations({ byHandler, failed, options }: PlanRound): void {
  if (!options.typeChecked) return;
  for (const { handler } of byHandler.values()) {
    if (failed.has(handler.fn)) continue;
    const reason = registrationTypeError(handler);
    if (reason) failed.set(handler.fn, reason);
  }
}

/** Tools run through a table lookup: the dispatching code must pass the context and return the result as it is. */
function checkDispatchedTools({ project, options, byHandler, failed }: PlanRound): void {
  const dispatched = [...byHandler.values()].map((v) => v.handler).filter((h) => h.dispatch);
  // the project's tests outside the run's paths call tools too (outside-tests.ts)
  const outside = dispatched.length > 0 ? (options.testsOutsideRun?.() ?? []) : [];
  withTestsOutsideRun(project, outside, dispatched, () => checkEachDispatchedTool(dispatched, byHandler, failed));
}

function checkEachDispatchedTool(dispatched: Handler[], byHandler: PlanRound['byHandler'], failed: PlanRound['failed']): void {
  for (const handler of dispatched) {
    if (failed.has(handler.fn)) continue;
    const dispatcher = handler.dispatch!.dispatcher;
    try {
      const reason = withReadingFile(
        readingFileOf(byHandler.get(handler.fn)?.entries ?? []),
        () =>
          dispatchObstacle(handler, dispatched) ??
          strayReference(handler) ??
          (byHandler.has(dispatcher.fn) ? `the handler that looks it up (line ${line(dispatcher.registrationCall)}) makes requests of its own; a dispatcher and its tool functions are not rewritten together` : undefined),
      );
      if (reason) failed.set(handler.fn, reason);
    } catch (error) {
      failed.set(handler.fn, reasonOf(error));
    }
  }
}

function planHandlers(round: PlanRound): void {
  const { byHandler, failed, works } = round;
  for (const [fn, slot] of byHandler) {
    if (failed.has(fn)) continue;
    const { handler, entries } = slot;
    try {
      works.set(fn, withReadingFile(readingFileOf(entries), () => planHandler(handler, entries)));
    } catch (error) {
      const split = error instanceof Obstacle ? planWithoutBlocked(round, slot) : false;
      if (!split) failed.set(fn, reasonOf(error));
    }
  }
}

/**
 * A handler that failed on a request whose path never runs with its other requests' (exclusive-entries.ts):
 * the others planned without it, in the write-once form, and it flagged with its own reason.
 */
function planWithoutBlocked(round: PlanRound, slot: { handler: Handler; entries: Entry[] }): boolean {
  const split = exclusiveSplit(slot.handler, slot.entries);
  if (!split) return false;
  let work: HandlerWork;
  try {
    work = withReadingFile(readingFileOf(split.rest), () => planHandler(slot.handler, split.rest));
  } catch {
    return false;
  }
  if (work.form !== 'write-once') return false;
  round.works.set(slot.handler.fn, work);
  slot.entries = split.rest;
  round.splitOff.set(slot.handler.fn, new Set(split.blocked.map(({ entry }) => entry.site)));
  for (const { entry, reason } of split.blocked) flagSite(round, entry.site, reason);
  return true;
}

/** The file a handler's flag reasons are read in: its requests' file, when they are all in one. */
function readingFileOf(entries: ReadonlyArray<{ site: Site }>): SourceFile | undefined {
  const files = new Set(entries.map((e) => e.site.sourceFile));
  return files.size === 1 ? [...files][0] : undefined;
}

/** Helpers are rewritten once for all callers, so every caller must be a migrated handler point. */
function planHelpers({ works, helpers, failed, reaches, testCalls, blockers, failedFor }: PlanRound): void {
  // handlers left unmigrated for reasons of their own, before a helper they share takes others with them
  const ownFailures = new Set(failed.keys());
  for (let changed = true; changed; ) {
    changed = false;
    testCalls.clear();
    const handledCalls = new Set<CallExpression>();
    const sitesByHelper = new Map<Node, { sites: Site[]; inner: CallPathStep[][] }>();
    const register = (fn: Node, call: CallExpression, sites: Site[], inner: CallPathStep[]): void => {
      handledCalls.add(call);
      const slot = sitesByHelper.get(fn) ?? { sites: [], inner: [] };
      for (const s of sites) if (!slot.sites.includes(s)) slot.sites.push(s);
      slot.inner.push(inner);
      sitesByHelper.set(fn, slot);
      if (inner.length > 0) register(inner[0]!.callee, inner[0]!.call, sites, inner.slice(1));
    };
    for (const work of works.values()) {
      for (const point of work.points) if (point.kind === 'helper') register(point.helperFn, point.helperCall, point.sites, point.innerPath ?? []);
    }
    for (const [fn, { sites, inner }] of sitesByHelper) {
      let reason: string | undefined;
      try {
        const helper = planHelper(fn, sites, inner);
        helpers.set(fn, helper);
        reason = drivenTestCalls(helper, reaches, handledCalls, testCalls) ?? servedContextlessCalls(helper, reaches, handledCalls);
        if (reason === undefined) {
          reason = unhandledReference(helper, handledCalls);
          if (reason !== undefined) for (const fn of blockingHandlers(helper.fn, handledCalls, ownFailures) ?? []) blockers.add(fn);
        }
      } catch (error) {
        reason = reasonOf(error);
      }
      if (!reason) continue;
      helpers.delete(fn);
      for (const [handlerFn, work] of works) {
        if (!work.points.some((p) => usesHelper(p, fn))) continue;
        works.delete(handlerFn);
        failed.set(handlerFn, reason);
        failedFor.set(handlerFn, sites);
        changed = true;
      }
    }
  }
}

/**
 * The tests calling a helper that makes its request itself (recorded by the reach stage) are
 * handled calls when each can be driven through the migrated helper; otherwise the reason its
 * handlers cannot be rewritten.
 */
function drivenTestCalls(helper: HelperWork, reaches: Reach[], handled: Set<CallExpression>, testCalls: Map<CallExpression, DrivenTestCall>): string | undefined {
  if (helper.point.kind !== 'direct') return undefined;
  const site = helper.point.sites[0]!;
  const context = reaches.find((r) => r.site === site)?.nonHandlerContexts.find((c) => c.testCall);
  if (!context) return undefined;
  // every test's call of it (the reach names the first test that does)
  for (const call of testCallsOf(helper.fn)) {
    const driven = drivenTestCall(call, helper);
    if (typeof driven === 'string') return `${nonHandlerReason(context)} (a call of it cannot go through the rewritten helper: ${driven})`;
    handled.add(call);
    testCalls.set(call, driven);
  }
  return undefined;
}

/**
 * The calls of a helper that pass no context for its request (recorded by the reach stage) are
 * handled calls when the rewritten helper keeps that parameter optional and overloads type them
 * (contextless-calls.ts); otherwise the reason its handlers cannot be rewritten.
 */
function servedContextlessCalls(helper: HelperWork, reaches: Reach[], handled: Set<CallExpression>): string | undefined {
  if (helper.point.kind !== 'direct') return undefined;
  const site = helper.point.sites[0]!;
  const reach = reaches.find((r) => r.site === site);
  const served = reach ? contextlessCallers(reach) : undefined;
  if (served === undefined) return undefined;
  const context = reach!.nonHandlerContexts.find((c) => c.context === 'contextless-call')!;
  if (typeof served === 'string') return `${nonHandlerReason(context)} (a call of it cannot go through the rewritten function: ${served})`;
  if (helper.ctxParam !== served.param.getName()) return `${nonHandlerReason(context)} (a call of it cannot go through the rewritten function: ${notAskedOn(site, served.param.getName())})`;
  for (const call of served.calls) handled.add(call);
  helper.contextless = served;
  return undefined;
}

/** Why the helper form's rewrite does not ask on the parameter the calls without a context leave out. */
function notAskedOn(site: Site, param: string): string {
  let node: Node | undefined = Node.isCallExpression(site.node) ? site.node.getExpression() : undefined;
  while (node && (Node.isPropertyAccessExpression(node) || Node.isCallExpression(node))) node = node.getExpression();
  // `ctx!.sendRequest(...)`: the rewrite asks on a context parameter it adds, not on the asserted one
  if (node && Node.isNonNullExpression(node) && node.getExpression().getText() === param) {
    return `the request is sent on \`${param}!\` (asserted present), which the rewrite does not take as the context it asks on: it adds a context parameter of its own`;
  }
  return `\`${param}\` is not the context it asks on`;
}

/** The edits of one file, collected across handlers, dispatchers and helpers. */
function fileWorkOf({ files }: PlanRound, file: SourceFile): FileWork {
  let w = files.get(file);
  if (!w) {
    const names = new NameAllocator(identifiersIn(file));
    w = { edits: [], values: new Set(), types: new Set(), capabilityImports: new Set(), answerReaders: reserveAnswerReaders(names), needsState: false, names };
    files.set(file, w);
  }
  return w;
}

/**
 * What emit needs, computed and checked before it runs (emit-checks.ts): each handler's wire keys
 * and the locals its rounds carry, and every condition emit cannot meet, in emit's order (handlers
 * with their serving constructions, then dispatchers, then helpers, whose reason replaces their
 * handlers'). A handler that fails is excluded from the next planning round, with the reason.
 */
function planEmission(round: PlanRound): void {
  const { works, helpers, newFailures, project, options, servers, unemittable } = round;
  for (const [fn, work] of works) {
    try {
      assignKeys(work, helpers);
      planHandlerEmission(work, options.typeChecked);
      if (work.form === 'phases' || work.form === 'loop' || (work.nested?.length ?? 0) > 0) {
        const found = serverConstructionsFor(work.handler.dispatch?.dispatcher ?? work.handler, project);
        if (found.length === 0) throw new Obstacle('no McpServer/Server construction found to wire requestState verification into');
        servers.set(fn, found);
      }
    } catch (error) {
      newFailures.set(fn, reasonOf(error));
    }
  }
  for (const [dispatcher, tools] of dispatchedTools(round)) {
    let reason: string | undefined;
    try {
      reason = dispatcherObstacle(dispatcher, tools);
    } catch (error) {
      reason = reasonOf(error);
    }
    if (reason !== undefined) for (const tool of tools) newFailures.set(tool.fn, reason);
  }
  for (const helper of helpers.values()) {
    try {
      planHelperEmission(helper, helpers);
    } catch (error) {
      unemittable.add(helper);
      for (const [fn, work] of works) if (work.points.some((p) => usesHelper(p, helper.fn))) newFailures.set(fn, reasonOf(error));
    }
  }
}

/** The dispatched tools to emit, by the handler that looks them up. */
function dispatchedTools({ works, newFailures }: PlanRound): Map<Handler, Handler[]> {
  const byDispatcher = new Map<Handler, Handler[]>();
  for (const [fn, work] of works) {
    const dispatch = work.handler.dispatch;
    if (!dispatch || newFailures.has(fn)) continue;
    byDispatcher.set(dispatch.dispatcher, [...(byDispatcher.get(dispatch.dispatcher) ?? []), work.handler]);
  }
  return byDispatcher;
}

function emitHandlers(round: PlanRound): void {
  const { works, helpers, decisions, constructions, newFailures, servers } = round;
  for (const [fn, work] of works) {
    if (newFailures.has(fn)) continue;
    const fw = fileWorkOf(round, work.handler.sourceFile);
    try {
      fw.edits.push(...emitHandler(work, fw, helpers));
      for (const s of servers.get(fn) ?? []) constructions.add(s);
      for (const site of work.sites) {
        const point = work.points.find((p) => p.sites.includes(site));
        const key = point?.keys[point.sites.indexOf(site)];
        // every handler reaching the site must fail into such a catch (a site reached twice is decided twice)
        const earlier = decisions.get(site.id);
        // and every point of this handler asking it (a helper called in two cases of a switch)
        const fromServer = legacyCapabilitiesFallback(site) !== undefined;
        const undeclaredCaught = work.points.filter((p) => p.sites.includes(site)).every((p) => undeclaredFailsIntoCatch(site, p, work, fromServer)) && point !== undefined && (earlier === undefined || earlier.undeclaredCaught === true);
        decisions.set(site.id, { site, status: 'migrated', key, reason: noteFor(work, point) + (timeoutWrapperOf(site)?.note ?? '') + catchNote(site, point) + secretFieldNote(site), ...(undeclaredCaught ? { undeclaredCaught } : {}) });
      }
    } catch (error) {
      newFailures.set(fn, reasonOf(error));
    }
  }
}

function emitDispatchers(round: PlanRound): void {
  const { newFailures } = round;
  for (const [dispatcher, tools] of dispatchedTools(round)) {
    try {
      dispatcherEdits(dispatcher, tools, (node) => fileWorkOf(round, node.getSourceFile()));
    } catch (error) {
      for (const tool of tools) newFailures.set(tool.fn, reasonOf(error));
    }
  }
}

function emitHelpers(round: PlanRound): void {
  const { works, helpers, newFailures, unemittable } = round;
  for (const helper of helpers.values()) {
    if (unemittable.has(helper)) continue;
    const fw = fileWorkOf(round, helper.fn.getSourceFile());
    try {
      fw.edits.push(...emitHelper(helper, fw, helpers));
      for (const driven of round.testCalls.values()) {
        if (driven.helper !== helper) continue;
        const file = driven.call.getSourceFile();
        const testWork = fileWorkOf(round, file);
        testWork.edits.push(drivenCallEdit(driven));
        addDriver(file, testWork, round.driverFiles);
      }
    } catch (error) {
      for (const [fn, work] of works) if (work.points.some((p) => usesHelper(p, helper.fn))) newFailures.set(fn, reasonOf(error));
    }
  }
}

function flagFailedHandlers(round: PlanRound): void {
  const { failed, excluded, byHandler } = round;
  for (const [fn, reason] of failed) {
    if (excluded.has(fn) && excluded.get(fn) !== reason && !byHandler.has(fn)) continue;
    for (const entry of byHandler.get(fn)?.entries ?? []) flagSite(round, entry.site, reasonAt(round, fn, entry.site, reason));
  }
}

/**
 * A failed handler's reason as it applies to one of its requests. Planning stops at the first request
 * it cannot take, so the handler's reason is often that request's own obstacle, which is not this
 * one's: this one's own obstacle then, when it has one, or the failure said to be another request's
 * (the reason names it).
 */
function reasonAt(round: PlanRound, fn: Node, site: Site, reason: string): string {
  const slot = round.byHandler.get(fn);
  if (!slot || slot.entries.length < 2) return reason;
  const helperSites = round.failedFor.get(fn);
  // a helper's reason names the helper, not where its request is
  if (helperSites && round.failed.get(fn) === reason) return helperSites.includes(site) ? reason : `the handler is left as it is for another of its requests, at line ${siteLine(helperSites[0]!)}: ${reason}`;
  const own = (entry: Entry): string | undefined => {
    if (!round.entryObstacles.has(entry)) round.entryObstacles.set(entry, withReadingFile(readingFileOf(slot.entries), () => entryObstacle(slot.handler, entry)));
    return round.entryObstacles.get(entry);
  };
  const about = slot.entries.find((entry) => own(entry) === reason);
  if (!about || about.site === site) return reason;
  const mine = slot.entries.filter((entry) => entry.site === site).map(own).find((r) => r !== undefined);
  // read in this request's file, where its report entry and marker sit: the other request's lines name theirs
  const theirs = about.site.sourceFile === site.sourceFile ? reason : (withReadingFile(site.sourceFile, () => entryObstacle(slot.handler, about)) ?? reason);
  return mine ?? `the handler is left as it is for another of its requests: ${theirs}`;
}

/** Every decided site's callers: non-handler contexts, and each handler migrated or flagged with its reason. */
function recordCallers(round: PlanRound): void {
  for (const reach of round.reaches) withReadingFile(reach.site.sourceFile, () => recordCallersOf(reach, round));
}

function recordCallersOf(reach: Reach, round: PlanRound): void {
  const { decisions, failed, newFailures, works, testCalls } = round;
  const decision = decisions.get(reach.site.id);
  if (!decision) return;
  const list: CallerDecision[] = reach.nonHandlerContexts.map((c) => {
    const driven = c.testCall && decision.status === 'migrated' ? testCalls.get(c.testCall) : undefined;
    if (driven) {
      const calls = [...testCalls.values()].filter((d) => d.helper === driven.helper).map((d) => `${d.call.getSourceFile().getBaseName()}:${reportLine(d.call)}`);
      const reason = `its calls of \`${driven.helper.name}\` (${calls.join(', ')}) go through ${HELPER_DRIVER}, added to the test file: it answers the rewritten helper's input requests with the test's own \`${driven.method}\` and calls it again`;
      return { caller: c.description, status: 'migrated', reason };
    }
    if (c.context === 'contextless-call' && decision.status === 'migrated') {
      return { caller: c.description, status: 'migrated', reason: 'without the context it never asks: it calls the rewritten function, whose overload without the context returns the result itself' };
    }
    return { caller: c.description, status: 'flagged', reason: c.context === 'test-code' ? 'a test calling this code directly has no MRTR form' : `${c.context} code has no MRTR form` };
  });
  // a handler reaching several such requests failed on the first: each request names its own
  const task = taskAugmentation(reach.site);
  for (const { handler, path } of reach.handlers) {
    const shared = task ? undefined : sharedSiteReason(reach, path);
    const failure = failed.get(handler.fn) ?? newFailures.get(handler.fn);
    const reason = shared ?? (failure !== undefined ? reasonAt(round, handler.fn, reach.site, failure) : undefined);
    const caller = callerName(handler);
    if (list.some((c) => c.caller === caller)) continue;
    if (round.splitOff.get(handler.fn)?.has(reach.site)) {
      list.push({ caller, status: 'flagged', reason: `its other requests are migrated; this one stays as written: ${decision.reason ?? 'not migrated'}` });
      continue;
    }
    list.push(reason !== undefined || !works.has(handler.fn) ? { caller, status: 'flagged', reason: reason ?? decision.reason ?? 'not migrated' } : { caller, status: 'migrated' });
  }
  decision.callers = list;
}

/** Alias names of migrated alias-call sites, per file (their declarations may go unused). */
function rewrittenAliases(decisions: Map<string, SiteDecision>): Map<SourceFile, Set<string>> {
  const aliases = new Map<SourceFile, Set<string>>();
  for (const d of decisions.values()) {
    if (d.status !== 'migrated' || d.site.shape !== 'alias-call' || !Node.isCallExpression(d.site.node)) continue;
    const callee = d.site.node.getExpression();
    if (!Node.isIdentifier(callee)) continue;
    const set = aliases.get(d.site.sourceFile) ?? new Set<string>();
    set.add(callee.getText());
    aliases.set(d.site.sourceFile, set);
  }
  return aliases;
}

function applyPlan(project: Project, plan: Plan, options: RewriteOptions): RewriteOutcome {
  const createdFiles: string[] = [];
  const stateModules = new Map<SourceFile, SourceFile>();
  const importers = [...[...plan.files].filter(([, fw]) => fw.needsState).map(([file]) => file), ...[...plan.constructions].map((c) => c.getSourceFile())];
  const home = (file: SourceFile) => stateModuleHome(file, importers.filter((f) => flavourOf(f) === flavourOf(file)));
  for (const [file, fw] of plan.files) {
    if (fw.needsState) stateModules.set(file, ensureStateModule(project, file, options.stateKeyEnv, createdFiles, home(file)));
  }
  const wiring = new Map<SourceFile, TextEdit[]>();
  for (const construction of plan.constructions) {
    const edit = verifyWiringEdit(construction, CODEC_EXPORT);
    if (!edit) continue;
    const file = construction.getSourceFile();
    wiring.set(file, [...(wiring.get(file) ?? []), edit]);
    if (!stateModules.has(file)) stateModules.set(file, [...stateModules.values()][0] ?? ensureStateModule(project, file, options.stateKeyEnv, createdFiles, home(file)));
  }
  // The capabilities helper goes beside the files that call it, like the codec module.
  const capabilityUsers = [...plan.files].filter(([, fw]) => fw.capabilityImports.size > 0).map(([file]) => file);
  const capabilityModules = new Map<SourceFile, SourceFile>();
  for (const file of capabilityUsers) {
    const home = stateModuleHome(file, capabilityUsers.filter((f) => flavourOf(f) === flavourOf(file)));
    capabilityModules.set(file, ensureGeneratedModule(project, file, CAPABILITIES_MODULE_BASENAME, capabilitiesModuleText, createdFiles, home));
  }
  const readerUsers = [...plan.files].filter(([, fw]) => fw.answerReaders.used.size > 0).map(([file]) => file);
  const answerModules = new Map<SourceFile, SourceFile>();
  for (const file of readerUsers) {
    const home = stateModuleHome(file, readerUsers.filter((f) => flavourOf(f) === flavourOf(file)));
    answerModules.set(file, ensureGeneratedModule(project, file, ANSWERS_MODULE_BASENAME, answersModuleText, createdFiles, home));
  }
  const touched = new Set<SourceFile>([...plan.files.keys(), ...wiring.keys()]);
  for (const file of touched) {
    const fw = plan.files.get(file);
    const edits = [...(fw?.edits ?? []), ...(wiring.get(file) ?? [])];
    if (edits.length === 0) continue;
    file.replaceWithText(applyEdits(file.getFullText(), edits));
    const flavour = flavourOf(file);
    // what the written code uses, read once: the edits below change imports only (and drop unused aliases)
    const used = identifiersOutsideImports(file);
    const values = usedImportNames(used, [...(fw?.values ?? [])].sort());
    const types = flavour === 'ts' ? usedImportNames(used, [...(fw?.types ?? [])].filter((t) => !fw?.values.has(t)).sort()) : [];
    ensureNamedImports(file, TARGET_SERVER_PACKAGE, values, types, flavour);
    dropUnusedImports(file, Object.keys(RESULT_SCHEMA_TO_LEGACY));
    if (flavour !== 'cjs') mergeNamedImports(file, TARGET_SERVER_PACKAGE);
    dropUnusedAliases(file, [...(plan.aliases.get(file) ?? [])]);
    const generated: ImportRequest[] = [];
    const stateModule = stateModules.get(file);
    if (stateModule && stateModule !== file) {
      const names = [...(wiring.has(file) ? [CODEC_EXPORT] : []), ...(fw?.needsState ? [CODEC_EXPORT, DIGEST_EXPORT] : [])];
      generated.push({ specifier: specifierFor(file, stateModule), values: usedImportNames(used, [...new Set(names)].sort()), types: [] });
    }
    const capabilityModule = capabilityModules.get(file);
    if (capabilityModule && fw) generated.push({ specifier: specifierFor(file, capabilityModule), values: usedImportNames(used, [...fw.capabilityImports].sort()), types: [] });
    const answerModule = answerModules.get(file);
    if (answerModule && fw) generated.push({ specifier: specifierFor(file, answerModule), values: usedImportNames(used, readerImports(fw.answerReaders, flavour)), types: [] });
    ensureNamedImportsOf(file, generated, flavour);
  }
  return { decisions: [...plan.decisions.values()], createdFiles };
}

/** The readers a file calls, as import specifiers (`readRoots as readRoots2` where the file binds the name). */
function readerImports(readers: AnswerReaders, flavour: ReturnType<typeof flavourOf>): string[] {
  return [...readers.used].sort().map((reader) => {
    const local = readers.locals.get(reader) ?? reader;
    if (local === reader) return reader;
    return flavour === 'cjs' ? `${reader}: ${local}` : `${reader} as ${local}`;
  });
}

/** How a report names the handler a site is reached from (by name: a line could name text an inlining moved). */
function callerName(handler: Handler): string {
  const how = handler.dispatch ? ', run through a table lookup' : '';
  if (handler.name !== undefined) return `${handler.method} handler \`${handler.name}\`${how ? ` (${how.slice(2)})` : ''}`;
  // a method registered under a computed name (a tool base class's `register()` with `this.name`): named by its class
  const fn = handler.fn;
  const cls = Node.isMethodDeclaration(fn) ? fn.getParent() : undefined;
  const method = Node.isMethodDeclaration(fn) && (Node.isClassDeclaration(cls) || Node.isClassExpression(cls)) ? ` \`${cls.getName() ? `${cls.getName()}.` : ''}${fn.getName()}\`` : '';
  return `${handler.method} handler${method} (${handler.dispatch ? '' : 'registered at '}line ${line(handler.dispatch?.call ?? handler.registrationCall)}${how})`;
}

/** Whether the point asks through `fn`, directly or further down its helper chain. */
function usesHelper(point: RequestPoint, fn: Node): boolean {
  return point.kind === 'helper' && (point.helperFn === fn || point.innerPath.some((step) => step.callee === fn));
}

/** `const ok = ask ? await approve(...) : true`: the variable the statement declares. */
function declaredName(statement: Node): string | undefined {
  if (!Node.isVariableStatement(statement)) return undefined;
  const decls = statement.getDeclarations();
  return decls.length === 1 && Node.isIdentifier(decls[0]!.getNameNode()) ? decls[0]!.getName() : undefined;
}

function helperNameOf(point: HelperPoint): string | undefined {
  const callee = point.helperCall.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined;
}

function reasonOf(error: unknown): string {
  if (error instanceof Obstacle) return error.message;
  return `internal rewrite error: ${error instanceof Error ? error.message : String(error)}`;
}

function identifiersIn(file: SourceFile): string[] {
  return file.getFullText().match(/[A-Za-z_$][\w$]*/g) ?? [];
}

function noteFor(work: HandlerWork, point: RequestPoint | undefined): string {
  const round = point ? work.nested?.find((r) => r.points.includes(point)) : undefined;
  if (round) {
    return `one round resumed inside the block at line ${line(round.block)}: the code before the round in that block runs once, the locals it leaves to the round carried in the sealed requestState; the code on the way to the block re-runs each round`;
  }
  if (work.form === 'write-once') return 'write-once: the handler re-runs from the top and reads the answer from inputResponses';
  if (work.form === 'loop') {
    const rounds = work.loop!.capped ? `one round per iteration, at most ${LOOP_ROUND_CAP}` : work.loop!.kind === 'for-of' ? 'one round per item' : "one round per iteration, bounded by the loop's own condition";
    return `loop form (${rounds}); the loop position and live locals carried in the sealed requestState`;
  }
  const index = point ? work.points.indexOf(point) + 1 : 0;
  return `phase ${index} of ${work.points.length} (${work.phaseReason}); earlier answers and live locals carried in the sealed requestState`;
}

/**
 * A request inside `try { ... } catch`, in its own function or around a call on the way to it from
 * the handler (`try { summary = await summarize(server, text) } catch { ... }`): on 2026-07-28 an
 * answer is data, never an error, so a client that fails to answer (its sampling handler throws, as
 * a refusal does) fails the call instead of reaching the catch.
 */
function catchNote(site: Site, point: RequestPoint | undefined): string {
  if (enclosingCatch(site.node)) return '; note: a client that fails to answer now fails the call instead of reaching the surrounding catch (an answer cannot be an error)';
  const calls = point?.kind === 'helper' ? [point.helperCall, ...point.innerPath.map((step) => step.call)] : [];
  for (const call of calls) {
    const clause = enclosingCatch(call);
    if (clause) {
      // read in the request's file, where the report entry sits: the caller's lines name their file
      const [catchLine, callLine] = withReadingFile(site.sourceFile, () => [line(clause), line(call)]);
      return `; note: a client that fails to answer now fails the call instead of reaching the catch (line ${catchLine}) around the call \`${abbreviate(call.getExpression().getText(), 40)}(...)\` at line ${callLine} (an answer cannot be an error)`;
    }
  }
  return '';
}


/**
 * Wire keys named after what receives the answer (the variable, the helper's purpose), or after the
 * tool/prompt/resource when that variable is a generic `result`; unique within the handler, except
 * that requests which never both run in one call (the branches of an `if`, the clauses of a
 * `switch` that do not fall through, outside any loop) share a key: `summary` in the `save` case
 * and in the `update` case, never both asked in one round, rather than `summary` and `summary_2`.
 */
function assignKeys(work: HandlerWork, helpers: Map<Node, HelperWork>): void {
  const handlerName = work.handler.name && /^[A-Za-z_$][\w$]*$/.test(work.handler.name) ? work.handler.name : undefined;
  const meaningful = (name: string | undefined): string | undefined => (name !== undefined && GENERIC_NAMES.has(name) ? (handlerName ?? name) : name);
  const askers = new Map<string, RequestPoint[]>();
  const clashes = (key: string, point: RequestPoint): boolean => (askers.get(key) ?? []).some((other) => other === point || !neverBothRun(other.statement, point.statement, work.body));
  const unique = (base: string, point: RequestPoint): string => {
    let key = base;
    for (let i = 2; clashes(key, point); i++) key = `${base}_${i}`;
    askers.set(key, [...(askers.get(key) ?? []), point]);
    return key;
  };
  for (const point of work.points) {
    const b = point.binding;
    const bound = meaningful(b.kind === 'declare' ? b.name : b.kind === 'assign' && /^[\w$.]+$/.test(b.target) ? b.target.split('.').pop() : b.kind === 'hoist' && point.kind === 'helper' ? (b.guard ? declaredName(point.statement) : undefined) ?? helperNameOf(point) : undefined);
    if (point.kind === 'parallel') point.keys = point.sites.map((s, i) => unique(point.elementNames?.[i] ?? LEGACY_REQUESTS[s.method].defaultKey, point));
    else if (point.kind === 'helper') {
      const helper = helpers.get(point.helperFn);
      point.keys = [unique(bound ?? (helper ? defaultHelperKey(helper) : LEGACY_REQUESTS[point.sites[0]!.method].defaultKey), point)];
    } else {
      const site = point.sites[0]!;
      point.keys = [unique(bound ?? site.receiverName ?? LEGACY_REQUESTS[site.method].defaultKey, point)];
    }
  }
}


