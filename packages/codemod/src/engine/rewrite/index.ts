/**
 * Analyse / plan / rewrite stages of the engine.
 *
 *   rewriteHandlers(project, reaches, options): RewriteOutcome
 *
 * Expects the project AFTER the official v1-to-v2 upgrade (migrate.ts runs it first): handler
 * contexts are v2 `ctx` (`ctx.mcpReq.*`) and the generated code is v2 code importing only
 * `@modelcontextprotocol/server` (plus the generated codec module, when a handler needs state).
 *
 * Per handler: request points (analyse.ts) → form (write-once or phases) → code (emit*.ts), helpers
 * rewritten once for all their callers (helper.ts), one codec module per project and flavour and
 * `requestState: { verify }` wired into the serving constructions (state-module.ts). Anything
 * unproven leaves the handler (and its helpers) byte-identical with a `flagged` decision.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type NewExpression, type Project, type SourceFile, type Statement } from 'ts-morph';
import { LEGACY_REQUESTS, NON_HANDLER_ADVICE, RESULT_SCHEMA_TO_LEGACY, TARGET_SERVER_PACKAGE, replacementFor } from '@mcp-mrtr/surface';
import type { CallPathStep, Handler, Reach, RewriteOptions, RewriteOutcome, Site, SiteDecision } from '../model.js';
import { anchorOf, definitelyExits, planHandler, type HandlerWork } from './analyse.js';
import { contextAccess, freeName, type ContextAccess } from './context.js';
import { NameAllocator, UnsupportedShape, capabilitiesExpression, type EmitEnv } from './emit.js';
import { askWithState, askWriteOnce, baseName, helperCallLines, readLines, transitionLines, urlThrowLines } from './emit-point.js';
import { defaultHelperKey, planHelper, unhandledReference, type HelperWork } from './helper.js';
import { dropUnusedAliases, dropUnusedImports, ensureNamedImports } from './imports.js';
import { classifyLive, declaredIn, referencedLater, type LiveVar } from './live.js';
import { Obstacle, line, type RequestPoint } from './points.js';
import {
  CODEC_EXPORT,
  DIGEST_EXPORT,
  ensureStateModule,
  flavourOf,
  serverConstructionsFor,
  specifierFor,
  verifyWiringEdit,
} from './state-module.js';
import { applyEdits, indentOf, quote, textWithEdits, type TextEdit } from './text.js';

interface Entry {
  site: Site;
  path: CallPathStep[];
}

interface FileWork {
  edits: TextEdit[];
  values: Set<string>;
  types: Set<string>;
  needsState: boolean;
  names: NameAllocator;
}

export function rewriteHandlers(project: Project, reaches: Reach[], options: RewriteOptions): RewriteOutcome {
  const excluded = new Map<Node, string>();
  // Plan and compute every edit without touching the project; a handler failing at any stage is
  // excluded and the plan recomputed (its helpers may then be unusable for other handlers too).
  for (let round = 0; round < 50; round++) {
    const plan = planAll(project, reaches, options, excluded);
    if (plan.newFailures.size === 0) return applyPlan(project, plan, options);
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
}

function planAll(project: Project, reaches: Reach[], options: RewriteOptions, excluded: Map<Node, string>): Plan {
  const decisions = new Map<string, SiteDecision>();
  const newFailures = new Map<Node, string>();
  const flag = (site: Site, reason: string, advice?: string): void => {
    if (decisions.get(site.id)?.status === 'flagged') return;
    decisions.set(site.id, { site, status: 'flagged', reason, advice: advice ?? replacementFor(site.method) });
  };

  // Sites no handler reaches, or that a non-handler context reaches, have no MRTR form there.
  const byHandler = new Map<Node, { handler: Handler; entries: Entry[] }>();
  const failed = new Map<Node, string>(excluded);
  for (const reach of reaches) {
    const context = reach.nonHandlerContexts[0];
    if (context) flag(reach.site, `${context.description} reaches this request: ${context.context} code has no MRTR form`, NON_HANDLER_ADVICE[context.context]);
    else if (reach.handlers.length === 0) flag(reach.site, 'no tools/call, prompts/get or resources/read handler reaches this request', NON_HANDLER_ADVICE.unreachable);
    for (const { handler, path: callPath } of reach.handlers) {
      const slot = byHandler.get(handler.fn) ?? { handler, entries: [] };
      slot.entries.push({ site: reach.site, path: callPath });
      byHandler.set(handler.fn, slot);
      if (context && !failed.has(handler.fn)) {
        failed.set(handler.fn, `the request at line ${reach.site.line} is in code also run from ${context.description} (${context.context}), so it cannot be rewritten for this handler alone`);
      }
    }
  }

  const works = new Map<Node, HandlerWork>();
  for (const [fn, { handler, entries }] of byHandler) {
    if (failed.has(fn)) continue;
    try {
      works.set(fn, planHandler(handler, entries));
    } catch (error) {
      failed.set(fn, reasonOf(error));
    }
  }

  // Helpers are rewritten once for all callers, so every caller must be a migrated handler point.
  const helpers = new Map<Node, HelperWork>();
  for (let changed = true; changed; ) {
    changed = false;
    const handledCalls = new Set<CallExpression>();
    const sitesByHelper = new Map<Node, Site[]>();
    for (const work of works.values()) {
      for (const point of work.points) {
        if (point.kind !== 'helper') continue;
        handledCalls.add(point.helperCall!);
        const list = sitesByHelper.get(point.helperFn!) ?? [];
        for (const s of point.sites) if (!list.includes(s)) list.push(s);
        sitesByHelper.set(point.helperFn!, list);
      }
    }
    for (const [fn, sites] of sitesByHelper) {
      let reason: string | undefined;
      try {
        const helper = planHelper(fn, sites);
        helpers.set(fn, helper);
        reason = unhandledReference(helper, handledCalls);
      } catch (error) {
        reason = reasonOf(error);
      }
      if (!reason) continue;
      helpers.delete(fn);
      for (const [handlerFn, work] of works) {
        if (!work.points.some((p) => p.helperFn === fn)) continue;
        works.delete(handlerFn);
        failed.set(handlerFn, reason);
        changed = true;
      }
    }
  }

  // Compute edits.
  const files = new Map<SourceFile, FileWork>();
  const fileWork = (file: SourceFile): FileWork => {
    let w = files.get(file);
    if (!w) {
      w = { edits: [], values: new Set(), types: new Set(), needsState: false, names: new NameAllocator(identifiersIn(file)) };
      files.set(file, w);
    }
    return w;
  };
  const constructions = new Set<NewExpression>();
  for (const [fn, work] of works) {
    const fw = fileWork(work.handler.sourceFile);
    try {
      assignKeys(work, helpers);
      fw.edits.push(...emitHandler(work, fw, helpers, options));
      if (work.form === 'phases') {
        const servers = serverConstructionsFor(work.handler, project);
        if (servers.length === 0) throw new Obstacle('no McpServer/Server construction found to wire requestState verification into');
        for (const s of servers) constructions.add(s);
      }
      for (const site of work.sites) {
        const point = work.points.find((p) => p.sites.includes(site));
        const key = point?.keys[point.sites.indexOf(site)];
        decisions.set(site.id, { site, status: 'migrated', key, reason: noteFor(work, point) });
      }
    } catch (error) {
      newFailures.set(fn, reasonOf(error));
    }
  }
  for (const helper of helpers.values()) {
    const fw = fileWork(helper.fn.getSourceFile());
    try {
      fw.edits.push(...emitHelper(helper, fw));
    } catch (error) {
      for (const [fn, work] of works) if (work.points.some((p) => p.helperFn === helper.fn)) newFailures.set(fn, reasonOf(error));
    }
  }
  for (const [fn, reason] of failed) {
    if (excluded.has(fn) && excluded.get(fn) !== reason && !byHandler.has(fn)) continue;
    for (const entry of byHandler.get(fn)?.entries ?? []) flag(entry.site, reason);
  }
  const aliases = new Map<SourceFile, Set<string>>();
  for (const d of decisions.values()) {
    if (d.status !== 'migrated' || d.site.shape !== 'alias-call' || !Node.isCallExpression(d.site.node)) continue;
    const callee = d.site.node.getExpression();
    if (!Node.isIdentifier(callee)) continue;
    const set = aliases.get(d.site.sourceFile) ?? new Set<string>();
    set.add(callee.getText());
    aliases.set(d.site.sourceFile, set);
  }
  return { aliases, decisions, files, constructions, newFailures };
}

function applyPlan(project: Project, plan: Plan, options: RewriteOptions): RewriteOutcome {
  const createdFiles: string[] = [];
  const stateModules = new Map<SourceFile, SourceFile>();
  for (const [file, fw] of plan.files) {
    if (fw.needsState) stateModules.set(file, ensureStateModule(project, file, options.stateKeyEnv, createdFiles));
  }
  const wiring = new Map<SourceFile, TextEdit[]>();
  for (const construction of plan.constructions) {
    const edit = verifyWiringEdit(construction, CODEC_EXPORT);
    if (!edit) continue;
    const file = construction.getSourceFile();
    wiring.set(file, [...(wiring.get(file) ?? []), edit]);
    if (!stateModules.has(file)) stateModules.set(file, [...stateModules.values()][0] ?? ensureStateModule(project, file, options.stateKeyEnv, createdFiles));
  }
  const touched = new Set<SourceFile>([...plan.files.keys(), ...wiring.keys()]);
  for (const file of touched) {
    const fw = plan.files.get(file);
    const edits = [...(fw?.edits ?? []), ...(wiring.get(file) ?? [])];
    if (edits.length === 0) continue;
    file.replaceWithText(applyEdits(file.getFullText(), edits));
    const flavour = flavourOf(file);
    const values = [...(fw?.values ?? [])].sort();
    const types = flavour === 'ts' ? [...(fw?.types ?? [])].filter((t) => !fw?.values.has(t)).sort() : [];
    ensureNamedImports(file, TARGET_SERVER_PACKAGE, values, types, flavour);
    dropUnusedImports(file, Object.keys(RESULT_SCHEMA_TO_LEGACY));
    dropUnusedAliases(file, [...(plan.aliases.get(file) ?? [])]);
    const stateModule = stateModules.get(file);
    if (stateModule && stateModule !== file) {
      const names = [...(wiring.has(file) ? [CODEC_EXPORT] : []), ...(fw?.needsState ? [CODEC_EXPORT, DIGEST_EXPORT] : [])];
      ensureNamedImports(file, specifierFor(file, stateModule), [...new Set(names)], [], flavour);
    }
  }
  return { decisions: [...plan.decisions.values()], createdFiles };
}

function helperNameOf(point: RequestPoint): string | undefined {
  const callee = point.helperCall!.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined;
}

function reasonOf(error: unknown): string {
  if (error instanceof Obstacle || error instanceof UnsupportedShape) return error.message;
  return `internal rewrite error: ${error instanceof Error ? error.message : String(error)}`;
}

function identifiersIn(file: SourceFile): string[] {
  return file.getFullText().match(/[A-Za-z_$][\w$]*/g) ?? [];
}

function noteFor(work: HandlerWork, point: RequestPoint | undefined): string {
  if (work.form === 'write-once') return 'write-once: the handler re-runs from the top and reads the answer from inputResponses';
  const index = point ? work.points.indexOf(point) + 1 : 0;
  return `phase ${index} of ${work.points.length} (${work.phaseReason}); earlier answers and live locals carried in the sealed requestState`;
}

/** Wire keys named after what receives the answer; unique within the handler. */
function assignKeys(work: HandlerWork, helpers: Map<Node, HelperWork>): void {
  const used = new Set<string>();
  const unique = (base: string): string => {
    let key = base;
    for (let i = 2; used.has(key); i++) key = `${base}_${i}`;
    used.add(key);
    return key;
  };
  for (const point of work.points) {
    const b = point.binding;
    const bound = b.kind === 'declare' ? b.name : b.kind === 'assign' && /^[\w$.]+$/.test(b.target) ? b.target.split('.').pop() : b.kind === 'hoist' && point.kind === 'helper' ? helperNameOf(point) : undefined;
    if (point.kind === 'parallel') point.keys = point.sites.map((s, i) => unique(point.elementNames?.[i] ?? LEGACY_REQUESTS[s.method].defaultKey));
    else if (point.kind === 'helper') {
      const helper = helpers.get(point.helperFn!);
      point.keys = [unique(bound ?? (helper ? defaultHelperKey(helper) : LEGACY_REQUESTS[point.sites[0]!.method].defaultKey))];
    } else {
      const site = point.sites[0]!;
      point.keys = [unique(bound ?? site.receiverName ?? LEGACY_REQUESTS[site.method].defaultKey)];
    }
  }
}

function capabilityEdits(root: Node, env: EmitEnv, exclude: Node[]): TextEdit[] {
  const edits: TextEdit[] = [];
  root.forEachDescendant((node, traversal) => {
    if (exclude.includes(node)) return traversal.skip();
    if (!Node.isCallExpression(node)) return;
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'getClientCapabilities') return;
    edits.push({ start: node.getStart(), end: node.getEnd(), text: `(${capabilitiesExpression(env)} ?? ${node.getText()})` });
    traversal.skip();
  });
  return edits;
}

function helperCallText(point: RequestPoint, helper: HelperWork | undefined, ctx: string): string {
  const call = point.helperCall!;
  const args = call.getArguments().map((a) => a.getText());
  const paramCount = helper?.paramCount ?? args.length;
  while (args.length < paramCount) args.push('undefined');
  if (!helper?.ctxParam) args.push(ctx);
  args.push(quote(point.keys[0]!));
  const typeArgs = call.getTypeArguments().length > 0 ? `<${call.getTypeArguments().map((t) => t.getText()).join(', ')}>` : '';
  return `${call.getExpression().getText()}${typeArgs}(${args.join(', ')})`;
}

function reindent(node: Node, text: string, extra: string): string {
  const multilineTemplate = node.getDescendants().some((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'));
  if (multilineTemplate) return text;
  return text.split('\n').map((l, i) => (i === 0 || l.trim() === '' ? l : extra + l)).join('\n');
}

function emitHandler(work: HandlerWork, fw: FileWork, helperRegistry: Map<Node, HelperWork>, options: RewriteOptions): TextEdit[] {
  const file = work.handler.sourceFile;
  const ts = flavourOf(file) === 'ts';
  const names = fw.names;
  const access: ContextAccess = contextAccess(work.handler, work.fn, names, ts, work.form === 'phases', work.sites.length);
  if (access.edits.length > 0 && ts) {
    if (access.edits.some((e) => e.text.includes('ServerContext'))) fw.types.add('ServerContext');
  }
  const env: EmitEnv = { ts, ctx: access.ctx, values: fw.values, types: fw.types, names };
  const edits: TextEdit[] = [...access.edits];
  const pointStatements = work.points.map((p) => p.statement);
  const capEdits = capabilityEdits(work.body, env, pointStatements);
  const base = work.body.getStatements()[0] ? indentOf(work.body.getStatements()[0]!) : `${indentOf(work.fn)}  `;

  if (work.form === 'write-once') {
    edits.push(...capEdits);
    for (const point of work.points) {
      const indent = indentOf(point.statement);
      const lines = pointLines(point, env, askWriteOnce(env), (step) => `return ${step};`, helperRegistry.get(point.helperFn!));
      edits.push({ start: point.statement.getStart(), end: point.statement.getEnd(), text: lines.join(`\n${indent}`) });
    }
    if (access.bodyPrefix.length > 0) edits.push({ start: work.body.getStart() + 1, end: work.body.getStart() + 1, text: `\n${base}${access.bodyPrefix.join(`\n${base}`)}` });
    return edits;
  }

  // Phase form.
  fw.needsState = true;
  const statements = work.body.getStatements();
  const anchors = work.points.map((p) => anchorOf(p.statement, work.body));
  const idx = anchors.map((a) => statements.indexOf(a));
  const stored = names.take('stored');
  const state = names.take('state');
  const typeName = names.take(`${pascal(work.handler.name ?? 'handler')}State`);
  const handlerId = quote(`${work.handler.method}:${work.handler.name ?? ''}`);
  const knownTypes = new Map<string, string>();
  for (const point of work.points) {
    if (point.kind === 'direct' && point.binding.kind === 'declare' && point.binding.name) knownTypes.set(point.binding.name, point.binding.typeText ?? LEGACY_REQUESTS[point.sites[0]!.method].resultType);
    if (point.kind === 'parallel') point.elementNames!.forEach((n, i) => n && knownTypes.set(n, LEGACY_REQUESTS[point.sites[i]!.method].resultType));
  }
  for (const t of knownTypes.values()) if (/^(ElicitResult|CreateMessageResult|ListRootsResult)$/.test(t)) fw.types.add(t);
  const live: LiveVar[][] = [];
  for (let k = 0; k < work.points.length; k++) {
    const declared = declaredIn(statements.slice(0, idx[k]));
    const after = statements.slice(idx[k]);
    live.push(classifyLive(referencedLater(declared, after), after, ts, options.typeChecked, knownTypes));
  }
  const segText = (s: Statement, extra: string): string => {
    const inner = capEdits.filter((e) => e.start >= s.getStart() && e.end <= s.getEnd());
    return reindent(s, textWithEdits(s, inner), extra);
  };
  const stateObject = (k: number, args: string): string => {
    const fields = [`phase: ${k + 1}`, `args: ${args}`, ...live[k]!.filter((v) => v.mode === 'store').map((v) => v.name)];
    return `{ ${fields.join(', ')} }`;
  };
  const restore = (k: number): string[] => {
    const lines: string[] = [];
    const storedVars = live[k]!.filter((v) => v.mode === 'store');
    const consts = storedVars.filter((v) => v.declKind === 'const').map((v) => v.name);
    const lets = storedVars.filter((v) => v.declKind !== 'const').map((v) => v.name);
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
      const fields = [`phase: ${k + 1}`, 'args: string', ...live[k]!.filter((v) => v.mode === 'store').map((v) => `${v.name}: ${v.typeText}`)];
      return `{ ${fields.join('; ')} }`;
    });
    lines.push(`type ${typeName} = ${variants.join(' | ')};`);
  }
  lines.push(`const ${stored} = ${access.ctx}.mcpReq.requestState${ts ? `<${typeName}>` : ''}();`);
  lines.push(`// State minted for other arguments (or another handler) is not this request's: start over.`);
  lines.push(`const ${state} = ${stored}?.args === ${DIGEST_EXPORT}(${handlerId}, ${access.args}) ? ${stored} : undefined;`);
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
    return textWithEdits(anchor, [...inner, { start: point.statement.getStart(), end, text: pointText.join(`\n${indentOf(point.statement)}`) }]);
  };
  const nested = (k: number): boolean => anchors[k] !== work.points[k]!.statement;
  const resumeLines = (k: number, scoped: EmitEnv): string[] => {
    const point = work.points[k]!;
    const ask = askWithState(scoped, state, codec);
    const lines = pointLines(point, scoped, ask, (step) => `return inputRequired({ inputRequests: ${step}.inputRequests, requestState: await ${codec}.mint(${state}, ${access.ctx}) });`, helperRegistry.get(point.helperFn!));
    return nested(k) ? [anchorText(k, lines, false)] : lines;
  };
  const n = work.points.length;
  const segmentAfter = (k: number): Statement[] => statements.slice(k === 0 ? 0 : idx[k - 1]! + 1, k < n ? idx[k] : statements.length);
  /**
   * Code from point `j` on, in a round that did not stop earlier: every point reached asks and
   * returns with the state of its phase; a nested point may be skipped, and then the code after
   * its statement runs on in the same round.
   */
  const forward = (j: number, scoped: EmitEnv): string[] => {
    const point = work.points[j]!;
    const ask = askWithState(scoped, stateObject(j, j === 0 ? `${DIGEST_EXPORT}(${handlerId}, ${access.args})` : `${state}.args`), codec);
    const transition = transitionLines(point, scoped, ask, point.kind === 'helper' ? helperCallText(point, helperRegistry.get(point.helperFn!), access.ctx) : undefined);
    if (!nested(j)) return transition;
    const out = [anchorText(j, transition, true), ...segmentAfter(j + 1).map((s) => segText(s, ''))];
    if (j + 1 < n) return [...out, ...forward(j + 1, scoped)];
    const last = statements[statements.length - 1];
    if (!definitelyExits(last)) out.push('return undefined;');
    return out;
  };
  for (let k = 0; k <= n; k++) {
    const isLast = k === n;
    const bodyLines: string[] = [];
    const scoped: EmitEnv = { ...env, names: names.clone() };
    if (k > 0) {
      bodyLines.push(...restore(k - 1));
      bodyLines.push(...resumeLines(k - 1, scoped));
    }
    for (const s of segmentAfter(k)) bodyLines.push(segText(s, ''));
    if (!isLast) {
      bodyLines.push(...forward(k, scoped));
      lines.push(k === 0 ? `if (${state} === undefined) {` : `if (${state}.phase === ${k}) {`);
      lines.push(...block(bodyLines));
      lines.push('}');
    } else lines.push(...bodyLines);
  }
  const text = `{\n${lines.map((l) => base + l).join('\n')}\n${indentOf(work.body)}}`;
  edits.push({ start: work.body.getStart(), end: work.body.getEnd(), text: text.replace(/\n[ \t]+\n/g, '\n\n') });
  return edits;
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

function emitHelper(helper: HelperWork, fw: FileWork): TextEdit[] {
  const file = helper.fn.getSourceFile();
  const ts = flavourOf(file) === 'ts';
  const names = fw.names.clone();
  const edits: TextEdit[] = [];
  const params = helper.fn.getParameters();
  const ctx = helper.ctxParam ?? freeName(helper.fn, 'ctx', names);
  const key = freeName(helper.fn, 'key', names);
  const added = [...(helper.ctxParam ? [] : [`${ctx}${ts ? ': ServerContext' : ''}`]), `${key}${ts ? ': string' : ''}`];
  if (!helper.ctxParam && ts) fw.types.add('ServerContext');
  const last = params[params.length - 1];
  if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${added.join(', ')}` });
  else {
    const open = helper.fn.getFirstChildByKind(SyntaxKind.OpenParenToken);
    if (!open) throw new Obstacle(`helper \`${helper.name}\` has no parameter list`);
    edits.push({ start: open.getEnd(), end: open.getEnd(), text: added.join(', ') });
  }
  const returnType = (helper.fn as unknown as { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.();
  if (returnType && ts) {
    const m = /^Promise<([\s\S]*)>$/.exec(returnType.getText())!;
    edits.push({ start: returnType.getStart(), end: returnType.getEnd(), text: `Promise<${m[1]} | InputRequiredResult>` });
    fw.types.add('InputRequiredResult');
  }
  const env: EmitEnv = { ts, ctx, values: fw.values, types: fw.types, names };
  edits.push(...capabilityEdits(helper.body, env, [helper.point.statement]));
  const point = { ...helper.point, keys: [defaultHelperKey(helper)] };
  const indent = indentOf(point.statement);
  const lines = readLines(point, env, askWriteOnce(env), [key]);
  edits.push({ start: point.statement.getStart(), end: point.statement.getEnd(), text: lines.join(`\n${indent}`) });
  fw.values.add('inputRequired');
  return edits;
}

function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(joined) ? joined : `Handler${joined}`;
}

