/**
 * Helper inlining, a pre-pass of the rewrite. A helper the helper form cannot take (it makes two
 * requests, or runs effects before its request) is inlined into the handlers that call it, so the
 * handler machinery (phases, effects once, state) migrates its requests. Only when it is plainly
 * safe:
 *   - a module-level async function (declaration or `const f = async (...) => { ... }`) in the same
 *     file as every call, called only as `const x = await f(...)`, `x = await f(...)`,
 *     `await f(...);` or `return [await] f(...)` from handlers whose sites all come through it;
 *   - the call statement on the top level of the handler body;
 *   - simple parameters, bound once (an argument that is the same identifier is substituted);
 *   - a `return` only as its last statement, no `this`/`arguments`, not recursive, no `var`;
 *   - no name clash between its locals/free names and the calling handler's.
 * The helper declaration is removed once inlined everywhere. The inlined text replaces the source
 * in the project; `restore()` puts the original text back (then the sites are found again), which
 * the caller does when a handler with inlined code is not migrated after all: never half a rewrite.
 */
import { Node, SyntaxKind, type CallExpression, type Project, type SourceFile, type Statement } from 'ts-morph';
import { computeReaches } from '../reach/index.js';
import { reportLine } from '../report-lines.js';
import { findRegistrations, findSites } from '../find/index.js';
import { referencesOf } from '../find/resolve.js';
import type { Handler, Reach, Site } from '../model.js';
import { functionWithBody, helperName, type FunctionWithBody } from './function-body.js';
import { definitelyExits } from './control-flow.js';
import { enclosingFunction } from './points.js';
import { testCallsDriven } from './test-calls.js';
import { contextlessCallers } from './contextless-calls.js';
import { indentOf, leadingComments, textWithEdits, withComments, type TextEdit } from '../text-edits.js';
import { shareRequests, type SharedRequests } from './shared-request.js';
import { helperCopyFor, type HelperCopy, type KeptFor } from './helper-copy.js';
import { handlerKey } from './unmigrated-callers.js';

export interface InlinedHelper {
  /** `<file>:<offset>` of the helper in the original text (stable across restores). */
  id: string;
  name: string;
  /** Not inlined but copied (helper-copy.ts): the name of the copy its handlers call. */
  copyName?: string;
}

export interface InlinePass {
  /** Reaches found again over the inlined text, restricted to the original sites and their inlined copies. */
  reaches: Reach[];
  /** New site → the original site it is (or is an inlined copy of). */
  original: Map<Site, Site>;
  /** Handler functions (new nodes) holding inlined code, with the helper they hold. */
  holders: Map<Node, InlinedHelper>;
  inlined: InlinedHelper[];
  /** Sites (of the reaches given) inside an inlined helper, with the helper. */
  helperOf: Map<Site, InlinedHelper>;
  /** New sites that are inlined copies (not the original text, which a kept helper still holds). */
  copies: Set<Site>;
  /** Per file, the SDK types the functions building a kept helper's shared requests name (shared-request.ts). */
  types: Map<SourceFile, Set<string>>;
  /** Puts the original text back; returns the reaches found again over it, mapped to the original sites. */
  restore(): { reaches: Reach[]; original: Map<Site, Site> };
}

interface CallSite {
  call: CallExpression;
  statement: Statement;
  handlerFn: Node;
  binding: { kind: 'declare'; declKind: string; name: string; typeText?: string } | { kind: 'assign'; target: string } | { kind: 'discard' } | { kind: 'return' };
}

interface Candidate {
  helper: InlinedHelper;
  fn: FunctionWithBody;
  /** The module-level statement that declares the helper (removed after inlining). */
  declaration: Statement;
  calls: CallSite[];
  /** Original sites inside the helper, in source order. */
  sites: Site[];
  /** A concise arrow (`(m) => server.createMessage(...)`) whose calls are `Promise.all` elements: each call is replaced by the request itself. */
  concise?: boolean;
  /** The helper stays declared: callers outside handlers (timers, hooks) still run it. */
  keep?: boolean;
  /** Not inlined: the handlers' calls name a copy of the helper declared after it (helper-copy.ts). */
  copy?: HelperCopy;
  /** A copied helper's requests built by functions that it and its copy call (shared-request.ts), computed with the copy, whose text calls them already. */
  shared?: SharedRequests;
}

/**
 * `blocked`: helper ids not to inline (an earlier attempt left a handler unmigrated).
 * `needsInlining(fn, sites)`: whether the helper form cannot take this helper (its reason), else undefined.
 * `unmigrated`: keys (unmigrated-callers.ts) of handlers that stay on the legacy request: a helper
 * they call is kept for them, as for a caller outside handlers.
 */
export function inlineHelpers(
  project: Project,
  reaches: Reach[],
  blocked: Set<string>,
  typeChecked: boolean,
  needsInlining: (fn: Node, sites: Site[]) => string | undefined,
  unmigrated: ReadonlySet<string> = new Set(),
): InlinePass | undefined {
  rememberStarts(reaches);
  const candidates = findCandidates(reaches, blocked, needsInlining, unmigrated);
  if (candidates.length === 0) return undefined;
  type Edit = TextEdit & { candidate?: Candidate; role?: 'copy' | 'call' };
  const byFile = new Map<SourceFile, Edit[]>();
  const add = (file: SourceFile, edit: Edit): void => void byFile.set(file, [...(byFile.get(file) ?? []), edit]);
  const types = new Map<SourceFile, Set<string>>();
  // the functions building a kept helper's requests, declared before it, and its calls of them
  const addShared = (file: SourceFile, shared: SharedRequests): void => {
    for (const e of [shared.insertion, ...shared.calls]) add(file, e);
    for (const t of shared.types) types.set(file, (types.get(file) ?? new Set()).add(t));
  };
  for (const c of candidates) {
    const file = c.fn.getSourceFile();
    if (c.copy) {
      if (c.shared) addShared(file, c.shared);
      add(c.copy.declaration.file, { ...c.copy.declaration, candidate: c, role: 'copy' });
      for (const e of c.copy.calls) add(e.file, { ...e, candidate: c, role: 'call' });
      continue;
    }
    // a kept helper and its handlers' copies call one function for each request's parameters
    const shared = c.keep && !c.concise ? shareRequests(c.fn, c.declaration, c.helper.name, c.sites) : undefined;
    if (shared) addShared(file, shared);
    for (const site of c.calls) {
      const replaced: Node = c.concise ? site.call : site.statement;
      add(file, { start: replaced.getStart(), end: replaced.getEnd(), text: c.concise ? conciseText(c, site) : inlinedText(c, site, shared?.calls ?? []), candidate: c, role: 'copy' });
    }
    // The declaration goes with its leading comments and blank lines; the blank line after it stays.
    if (!c.keep) add(file, { start: c.declaration.getFullStart(), end: c.declaration.getEnd(), text: '' });
  }

  const originalText = new Map<SourceFile, string>();
  const shifts = new Map<SourceFile, TextEdit[]>();
  /** Per file: the ranges (new text) of each inlined or copied text, and of each call renamed to a copy, with its candidate. */
  const copies = new Map<SourceFile, Array<{ start: number; end: number; candidate: Candidate; role: 'copy' | 'call' }>>();
  for (const [file, edits] of byFile) {
    const text = file.getFullText();
    edits.sort((a, b) => a.start - b.start);
    let out = '';
    let last = 0;
    const ranges: Array<{ start: number; end: number; candidate: Candidate; role: 'copy' | 'call' }> = [];
    for (const e of edits) {
      out += text.slice(last, e.start);
      const start = out.length;
      out += e.text;
      if (e.candidate) ranges.push({ start, end: out.length, candidate: e.candidate, role: e.role! });
      last = e.end;
    }
    out += text.slice(last);
    originalText.set(file, text);
    shifts.set(file, edits);
    copies.set(file, ranges);
    file.replaceWithText(out);
  }

  const oldToNew = (file: SourceFile, offset: number): number | undefined => {
    let delta = 0;
    for (const e of shifts.get(file) ?? []) {
      if (e.end <= offset) delta += e.text.length - (e.end - e.start);
      else if (e.start <= offset) return undefined;
    }
    return offset + delta;
  };
  const originalByPosition = new Map<string, Site>();
  for (const r of reaches) {
    const file = r.site.sourceFile;
    const start = originalStart(r.site);
    const moved = shifts.has(file) ? oldToNew(file, start) : start;
    if (moved !== undefined) originalByPosition.set(`${file.getFilePath()}:${moved}`, r.site);
  }
  const found = refind(project, typeChecked);
  const original = new Map<Site, Site>();
  const holders = new Map<Node, InlinedHelper>();
  const copyCounts = new Map<object, number>();
  const copySites = new Set<Site>();
  for (const site of found.sites) {
    const start = site.node.getStart();
    const copy = copies.get(site.sourceFile)?.find((r) => r.role === 'copy' && r.start <= start && start < r.end);
    if (copy) {
      copySites.add(site);
      const index = copyCounts.get(copy) ?? 0;
      copyCounts.set(copy, index + 1);
      const orig = copy.candidate.sites[index];
      if (orig) original.set(site, orig);
      continue;
    }
    const orig = originalByPosition.get(`${site.sourceFile.getFilePath()}:${start}`);
    if (orig) original.set(site, orig);
  }
  for (const [file, ranges] of copies) {
    for (const r of ranges) {
      // a copied helper's declaration is no handler; the calls of the copy are in one (a dispatched tool is not among found.handlers)
      if (r.candidate.copy && r.role === 'copy') continue;
      const handler = found.handlers.find((h) => h.sourceFile === file && h.fn.getStart() <= r.start && r.end <= h.fn.getEnd());
      const fn = handler?.fn ?? (r.role === 'call' ? enclosingFunction(file.getDescendantAtPos(r.start) ?? file) : undefined);
      if (fn) holders.set(fn, r.candidate.helper);
    }
  }
  const kept = found.sites.filter((s) => original.has(s));
  // The reaches of every site are computed again over the inlined text: their reasons must cite the
  // user's lines (the rewrite's mapper), not lines of the upgraded or inlined text.
  const newReaches = computeReaches({ sites: kept, handlers: found.handlers, others: found.others, sourceFiles: found.files, originalLine: reportLine });

  return {
    reaches: newReaches,
    original,
    holders,
    inlined: candidates.map((c) => c.helper),
    helperOf: new Map(candidates.flatMap((c) => c.sites.map((site): [Site, InlinedHelper] => [site, c.helper]))),
    copies: copySites,
    types,
    restore() {
      for (const [file, text] of originalText) file.replaceWithText(text);
      const again = refind(project, typeChecked);
      const back = new Map<Site, Site>();
      const byStart = new Map<string, Site>();
      for (const r of reaches) byStart.set(`${r.site.sourceFile.getFilePath()}:${originalStart(r.site)}`, r.site);
      for (const site of again.sites) {
        const orig = byStart.get(`${site.sourceFile.getFilePath()}:${site.node.getStart()}`);
        if (orig) back.set(site, orig);
      }
      const keptAgain = again.sites.filter((s) => back.has(s));
      return { reaches: computeReaches({ sites: keptAgain, handlers: again.handlers, others: again.others, sourceFiles: again.files, originalLine: reportLine }), original: back };
    },
  };
}

/** Start offset of a site in the text it was found in (kept on the side: the node may be forgotten later). */
const STARTS = new WeakMap<Site, number>();
function originalStart(site: Site): number {
  let start = STARTS.get(site);
  if (start === undefined) {
    start = site.node.getStart();
    STARTS.set(site, start);
  }
  return start;
}

/** Records the start offsets of sites before any text is replaced. */
export function rememberStarts(reaches: Reach[]): void {
  for (const r of reaches) originalStart(r.site);
}

function refind(project: Project, typeChecked: boolean): { sites: Site[]; handlers: Handler[]; others: ReturnType<typeof findRegistrations>['others']; files: SourceFile[] } {
  const files = project.getSourceFiles().filter((f) => !f.isInNodeModules() && !f.isDeclarationFile());
  const sites: Site[] = [];
  const handlers: Handler[] = [];
  const others: ReturnType<typeof findRegistrations>['others'] = [];
  for (const file of files) {
    sites.push(...findSites(file, { typeChecked }));
    const regs = findRegistrations(file, { typeChecked });
    handlers.push(...regs.handlers);
    others.push(...regs.others);
  }
  return { sites, handlers, others, files };
}

function findCandidates(reaches: Reach[], blocked: Set<string>, needsInlining: (fn: Node, sites: Site[]) => string | undefined, unmigrated: ReadonlySet<string>): Candidate[] {
  /** `keptFor`: who still runs a mixed helper as written (callers outside handlers, handlers left unmigrated). */
  const byHelper = new Map<Node, { sites: Site[]; steps: Array<{ call: CallExpression; handler: Handler }>; mixed: boolean; keptFor: KeptFor }>();
  const handlersOf = (r: Reach): Reach['handlers'] => r.handlers.filter(({ handler }) => !unmigrated.has(handlerKey(handler.fn)));
  for (const r of reaches) {
    // A helper also run from a non-handler context (a timer, a hook), or by a handler that stays
    // unmigrated, keeps its declaration for that caller; the handlers that call it get their own
    // copy, which migrates.
    const handlers = handlersOf(r);
    const keptForHandlers = handlers.length < r.handlers.length;
    const mixed = r.nonHandlerContexts.length > 0 || keptForHandlers;
    if (mixed && handlers.length === 0) continue;
    // only tests calling the helper itself: the helper form serves the handlers and drives the tests' calls, when it can
    if (mixed && !keptForHandlers && r.nonHandlerContexts.every((c) => c.testCall) && testCallsDriven(r)) continue;
    // only calls passing no context: the helper form keeps one function for them and the handlers, when it can
    if (mixed && !keptForHandlers && servedByHelperForm(r, needsInlining)) continue;
    for (const { handler, path } of handlers) {
      if (path.length !== 1) continue;
      const step = path[0]!;
      const slot = byHelper.get(step.callee) ?? { sites: [], steps: [], mixed: false, keptFor: { outside: false, handlers: false } };
      if (!slot.sites.includes(r.site)) slot.sites.push(r.site);
      if (!slot.steps.some((s) => s.call === step.call)) slot.steps.push({ call: step.call, handler });
      slot.mixed ||= mixed;
      slot.keptFor.outside ||= r.nonHandlerContexts.length > 0;
      slot.keptFor.handlers ||= keptForHandlers;
      byHelper.set(step.callee, slot);
    }
  }
  const out: Candidate[] = [];
  for (const [fnNode, { sites, steps, mixed, keptFor }] of byHelper) {
    const id = `${fnNode.getSourceFile().getFilePath()}:${fnNode.getStart()}`;
    if (blocked.has(id)) continue;
    const ofHelper = reaches.filter((r) => sites.includes(r.site));
    // Every handler that reaches a site of the helper must come through it; non-handler contexts only in the kept form.
    const throughOthers = ofHelper.some((r) => handlersOf(r).some((h) => h.path.length !== 1 || h.path[0]!.callee !== fnNode));
    if (mixed) {
      // inlined into its handlers when that is plainly safe, else copied for them when the helper form takes it
      const inlined = throughOthers ? undefined : candidateFor(fnNode, id, sites, steps, true);
      const chosen = inlined ?? copyCandidateFor(fnNode, id, sites, steps, ofHelper, needsInlining, keptFor);
      if (chosen) out.push(chosen);
      continue;
    }
    if (throughOthers || ofHelper.some((r) => r.nonHandlerContexts.length > 0)) continue;
    const concise = conciseCandidateFor(fnNode, id, sites, steps);
    if (concise) {
      out.push(concise);
      continue;
    }
    if (!needsInlining(fnNode, sites)) continue;
    const candidate = candidateFor(fnNode, id, sites, steps);
    if (candidate) out.push(candidate);
  }
  return out;
}

/**
 * A helper that code outside handlers also runs, and that the helper form takes: the handlers that
 * call it directly get a copy of it to call, which the helper form then rewrites for them.
 */
function copyCandidateFor(
  fnNode: Node,
  id: string,
  sites: Site[],
  steps: Array<{ call: CallExpression; handler: Handler }>,
  reaches: Reach[],
  needsInlining: (fn: Node, sites: Site[]) => string | undefined,
  keptFor: KeptFor,
): Candidate | undefined {
  if (reaches.some((r) => r.site.obstacle) || needsInlining(fnNode, sites) !== undefined) return undefined;
  const declaration = moduleDeclarationOf(fnNode, true);
  if (!declaration) return undefined;
  const name = helperName(fnNode);
  const sorted = [...sites].sort((a, b) => a.node.getStart() - b.node.getStart());
  // the helper and its copy call one function for each request's parameters
  const shared = shareRequests(fnNode as FunctionWithBody, declaration, name, sorted);
  const copy = helperCopyFor(fnNode, declaration, name, steps.map(({ call, handler }) => ({ call, handlerFn: handler.fn })), shared?.calls, keptFor);
  if (!copy) return undefined;
  return { helper: { id, name, copyName: copy.name }, fn: fnNode as FunctionWithBody, declaration, calls: [], sites: sorted, keep: true, copy, ...(shared ? { shared } : {}) };
}

/** Every caller outside handlers passes no context, and the helper form takes the function and them. */
function servedByHelperForm(reach: Reach, needsInlining: (fn: Node, sites: Site[]) => string | undefined): boolean {
  if (!reach.nonHandlerContexts.every((c) => c.context === 'contextless-call') || typeof contextlessCallers(reach) !== 'object') return false;
  const fn = enclosingFunction(reach.site.node);
  return fn !== undefined && needsInlining(fn, [reach.site]) === undefined;
}

/** `keep`: the helper stays declared for callers outside handlers (only the handlers' calls are inlined). */
function candidateFor(fnNode: Node, id: string, sites: Site[], steps: Array<{ call: CallExpression; handler: Handler }>, keep = false): Candidate | undefined {
  let fn: FunctionWithBody;
  try {
    fn = functionWithBody(fnNode, 'helper').fn;
  } catch {
    return undefined;
  }
  const declaration = moduleDeclarationOf(fnNode, keep);
  if (!declaration) return undefined;
  if ((fn as unknown as { isAsync?: () => boolean }).isAsync?.() !== true) return undefined;
  const body = fn.getBody() as Node & { getStatements(): Statement[] };
  const statements = body.getStatements();
  // Returns only as the last statement (or anywhere when every call is `return f(...)`: the helper's
  // returns are then the handler's); nothing that binds differently once inlined.
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunctionOf(r) === fnNode);
  const earlyReturns = returns.some((r) => r !== statements[statements.length - 1]);
  const own = body.getDescendants().filter((d) => enclosingFunctionOf(d) === fnNode || d === body);
  if (own.some((d) => d.getKind() === SyntaxKind.ThisKeyword || (Node.isIdentifier(d) && d.getText() === 'arguments'))) return undefined;
  if (body.getDescendantsOfKind(SyntaxKind.VariableDeclarationList).some((l) => l.getDeclarationKind() === 'var')) return undefined;
  if (own.some((d) => Node.isAwaitExpression(d) && Node.isForOfStatement(d.getParent()))) return undefined;
  // Several requests become phases only when each sits in its own top-level statement; nested ones
  // would make the attempt fail after the (costly) second analysis.
  if (sites.length > 1 && sites.some((site) => site.node.getFirstAncestor((a) => Node.isStatement(a))?.getParent() !== body)) return undefined;
  const name = helperName(fnNode);
  if (body.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === name && !isPropertyName(i))) return undefined;
  const params = fn.getParameters();
  // an optional parameter is substituted like any other: every inlined call passes each parameter (checked below)
  if (params.some((p) => !Node.isIdentifier(p.getNameNode()) || p.isRestParameter() || p.hasInitializer())) return undefined;
  const file = fnNode.getSourceFile();
  // Every reference is one of the calls below (nothing else may still need the helper).
  const nameNode = (fnNode as Node & { getNameNode?: () => Node | undefined }).getNameNode?.() ?? (Node.isVariableDeclaration(fnNode.getParent()) ? (fnNode.getParent() as Node & { getNameNode(): Node }).getNameNode() : undefined);
  if (!nameNode || !Node.isIdentifier(nameNode)) return undefined;
  const calls: CallSite[] = [];
  for (const { call, handler } of steps) {
    if (call.getSourceFile() !== file) return undefined;
    const site = callSiteOf(call, handler.fn);
    if (!site) return undefined;
    if (call.getArguments().length !== params.length) return undefined;
    calls.push(site);
  }
  if (earlyReturns && calls.some((c) => c.binding.kind !== 'return')) return undefined;
  const refs = referencesOf(nameNode)?.filter((r) => r !== nameNode && !r.getSourceFile().isInNodeModules());
  if (!refs) return undefined;
  if (!keep && (refs.length !== calls.length || refs.some((r) => !calls.some((c) => c.call.getExpression() === r)))) return undefined;
  // Name clashes between the helper's locals/parameters and the calling handler.
  const locals = new Set<string>([...params.map((p) => p.getName()), ...body.getDescendantsOfKind(SyntaxKind.VariableDeclaration).flatMap((d) => d.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()).concat(Node.isIdentifier(d.getNameNode()) ? [d.getName()] : []))]);
  const free = new Set(body.getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => !locals.has(i.getText()) && !isPropertyName(i)).map((i) => i.getText()));
  for (const c of calls) {
    const handlerNames = new Set(c.handlerFn.getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => !isPropertyName(i)).map((i) => i.getText()));
    const handlerDeclared = new Set(c.handlerFn.getDescendantsOfKind(SyntaxKind.VariableDeclaration).flatMap((d) => d.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()).concat(Node.isIdentifier(d.getNameNode()) ? [d.getName()] : [])));
    for (const p of (c.handlerFn as FunctionWithBody).getParameters()) for (const i of [p.getNameNode(), ...p.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier)]) if (Node.isIdentifier(i)) handlerDeclared.add(i.getText());
    const args = c.call.getArguments();
    for (const local of locals) {
      const index = params.findIndex((p) => p.getName() === local);
      // Substituted: the same variable (unless the helper assigns its copy).
      if (index >= 0 && args[index]!.getText() === local) {
        if (isReassigned(body, local)) return undefined;
        continue;
      }
      if (handlerNames.has(local)) return undefined;
    }
    for (const name of free) if (handlerDeclared.has(name)) return undefined;
    if (c.binding.kind === 'declare' && locals.has(c.binding.name)) return undefined;
  }
  return { helper: { id, name }, fn, declaration, calls, sites: [...sites].sort((a, b) => a.node.getStart() - b.node.getStart()), ...(keep ? { keep } : {}) };
}

function isReassigned(body: Node, name: string): boolean {
  return (
    body.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((e) => /^(=|\+=|-=|\*=|\/=|%=|\*\*=|\?\?=|\|\|=|&&=)$/.test(e.getOperatorToken().getText()) && e.getLeft().getText() === name) ||
    body.getDescendants().some((d) => (Node.isPrefixUnaryExpression(d) || Node.isPostfixUnaryExpression(d)) && /\+\+|--/.test(d.getText()) && d.getOperand().getText() === name)
  );
}

function isPropertyName(id: Node): boolean {
  const parent = id.getParent();
  return (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) || (Node.isPropertyAssignment(parent) && parent.getNameNode() === id);
}

function enclosingFunctionOf(node: Node): Node | undefined {
  return node.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isFunctionExpression(a) || Node.isArrowFunction(a) || Node.isMethodDeclaration(a));
}

/** `exportedToo`: an exported helper is fine when its declaration stays. */
function moduleDeclarationOf(fn: Node, exportedToo = false): Statement | undefined {
  if (Node.isFunctionDeclaration(fn)) return Node.isSourceFile(fn.getParent()) && (exportedToo || (!fn.isExported() && !fn.isDefaultExport())) ? fn : undefined;
  const decl = fn.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== fn) return undefined;
  const statement = decl.getVariableStatement();
  if (!statement || !Node.isSourceFile(statement.getParent()) || (!exportedToo && statement.isExported()) || statement.getDeclarations().length !== 1) return undefined;
  return statement;
}

/** The statement form of a helper call the inliner takes. */
function callSiteOf(call: CallExpression, handlerFn: Node): CallSite | undefined {
  let child: Node = call;
  let parent = call.getParent();
  if (parent && Node.isAwaitExpression(parent)) {
    child = parent;
    parent = parent.getParent();
  }
  if (!parent || enclosingFunctionOf(call) !== handlerFn) return undefined;
  // The inlined requests must land on the handler's top level (the phase form takes one request per
  // top-level statement); elsewhere the attempt would only be undone, at the cost of a second analysis.
  const handlerBody = (handlerFn as Node & { getBody?: () => Node | undefined }).getBody?.();
  const inList = (s: Node): s is Statement => s.getParent() === handlerBody;
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === child && Node.isAwaitExpression(child)) {
    const statement = parent.getVariableStatement();
    if (!statement || statement.getDeclarations().length !== 1 || !Node.isIdentifier(parent.getNameNode()) || !inList(statement)) return undefined;
    return { call, statement, handlerFn, binding: { kind: 'declare', declKind: statement.getDeclarationKind(), name: parent.getName(), typeText: parent.getTypeNode()?.getText() } };
  }
  if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getText() === '=' && parent.getRight() === child && Node.isAwaitExpression(child) && Node.isIdentifier(parent.getLeft())) {
    const statement = parent.getParent();
    if (!statement || !Node.isExpressionStatement(statement) || !inList(statement)) return undefined;
    return { call, statement, handlerFn, binding: { kind: 'assign', target: parent.getLeft().getText() } };
  }
  if (Node.isExpressionStatement(parent) && Node.isAwaitExpression(child) && inList(parent)) return { call, statement: parent, handlerFn, binding: { kind: 'discard' } };
  if (Node.isReturnStatement(parent) && inList(parent) && !insideTry(parent, handlerFn)) return { call, statement: parent, handlerFn, binding: { kind: 'return' } };
  return undefined;
}

function insideTry(node: Node, fn: Node): boolean {
  for (let n: Node | undefined = node; n && n !== fn; n = n.getParent()) {
    const p = n.getParent();
    if (p && Node.isTryStatement(p) && p.getTryBlock() === n) return true;
  }
  return false;
}

/**
 * The helper's body in place of the call statement: parameters bound once, the last return bound as
 * the call was; `shared`: the edits that make the kept helper's requests call their shared functions, made in the copy too.
 */
function inlinedText(c: Candidate, site: CallSite, shared: TextEdit[]): string {
  const textOf = (node: Node): string => textWithEdits(node, shared.filter((e) => e.start >= node.getStart() && e.end <= node.getEnd()));
  const indent = indentOf(site.statement);
  const body = c.fn.getBody() as Node & { getStatements(): Statement[] };
  const statements = body.getStatements();
  const bodyIndent = statements[0] ? indentOf(statements[0]) : '';
  const reindent = (text: string): string => text.split('\n').map((l, i) => (i === 0 ? l : l.startsWith(bodyIndent) ? indent + l.slice(bodyIndent.length) : l)).join('\n');
  const lines: string[] = [
    c.keep
      ? `// Inlined from helper \`${c.helper.name}\` (kept for its callers outside request handlers): its requests are this handler's rounds now.`
      : `// Inlined from helper \`${c.helper.name}\`: its requests are this handler's rounds now.`,
  ];
  const args = site.call.getArguments();
  c.fn.getParameters().forEach((p, i) => {
    const arg = args[i]!.getText();
    if (arg === p.getName()) return;
    const type = p.getTypeNode()?.getText();
    const reassigned = isReassigned(body, p.getName());
    // `extra?: Extra` stays possibly undefined in the copy (an annotation would narrow it to the argument's
    // type): its checks (`if (extra?.sendRequest)`) keep their type even once the request in them is gone
    if (type !== undefined && p.hasQuestionToken()) lines.push(`${reassigned ? 'let' : 'const'} ${p.getName()} = ${arg} as ${type} | undefined;`);
    else lines.push(`${reassigned ? 'let' : 'const'} ${p.getName()}${type ? `: ${type}` : ''} = ${arg};`);
  });
  const last = statements[statements.length - 1];
  if (site.binding.kind === 'return') {
    // `return f(...)`: the helper's statements as they are, its returns now the handler's.
    for (const s of statements) lines.push(...withComments(s, textOf(s)).map(reindent));
    if (!definitelyExits(last)) lines.push('return undefined;');
    return lines.join(`\n${indent}`);
  }
  const tail = last && Node.isReturnStatement(last) ? last : undefined;
  for (const s of statements) if (s !== tail) lines.push(...withComments(s, textOf(s)).map(reindent));
  // the comments above the final return document the value it binds
  if (tail) lines.push(...leadingComments(tail).map(reindent));
  const returned = tail?.getExpression();
  const value = returned && textOf(returned);
  const returnType = (c.fn as unknown as { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.()?.getText();
  const resolved = returnType ? /^Promise<([\s\S]*)>$/.exec(returnType)?.[1] : undefined;
  const b = site.binding;
  if (b.kind === 'declare') {
    const type = b.typeText ?? resolved;
    lines.push(`${b.declKind} ${b.name}${type ? `: ${type}` : ''} = ${value !== undefined ? reindent(value) : 'undefined'};`);
  } else if (b.kind === 'assign') lines.push(`${b.target} = ${value !== undefined ? reindent(value) : 'undefined'};`);
  else if (value !== undefined && !/^[\w$.]+$/.test(value)) lines.push(`void (${reindent(value)});`);
  return lines.join(`\n${indent}`);
}

/**
 * A local concise arrow whose body is its one request, called only as elements of `Promise.all([...])`
 * in handlers (`const ask = (m: string) => server.server.createMessage({ ... m ... })`): no helper form
 * can take a call that is not awaited on its own, but the request itself can stand in the array (the
 * parallel form then asks all of them in one round). Only when plainly safe: simple parameters, every
 * argument free of effects (so substituting it, once or several times, evaluates the same), every
 * reference one of these calls, and no name the request uses re-declared between the arrow and a call.
 */
function conciseCandidateFor(fnNode: Node, id: string, sites: Site[], steps: Array<{ call: CallExpression; handler: Handler }>): Candidate | undefined {
  if (!Node.isArrowFunction(fnNode) || sites.length !== 1) return undefined;
  const body = unwrapParens(fnNode.getBody());
  if (!Node.isCallExpression(body) || body !== sites[0]!.node) return undefined;
  const decl = fnNode.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== fnNode || !Node.isIdentifier(decl.getNameNode())) return undefined;
  const statement = decl.getVariableStatement();
  if (!statement || statement.getDeclarations().length !== 1 || statement.isExported() || statement.getDeclarationKind() !== 'const') return undefined;
  const params = fnNode.getParameters();
  // an optional parameter is substituted like any other: every inlined call passes each parameter (checked below)
  if (params.some((p) => !Node.isIdentifier(p.getNameNode()) || p.isRestParameter() || p.hasInitializer())) return undefined;
  if (body.getDescendants().some((d) => d.getKind() === SyntaxKind.ThisKeyword || (Node.isIdentifier(d) && d.getText() === 'arguments') || isFunctionLike(d))) return undefined;
  const paramNames = new Set(params.map((p) => p.getName()));
  const free = new Set(body.getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => !paramNames.has(i.getText()) && !isPropertyName(i)).map((i) => i.getText()));
  const calls: CallSite[] = [];
  for (const { call, handler } of steps) {
    if (call.getSourceFile() !== fnNode.getSourceFile() || enclosingFunctionOf(call) !== handler.fn) return undefined;
    const array = call.getParent();
    const all = array?.getParent();
    if (!array || !Node.isArrayLiteralExpression(array) || !all || !Node.isCallExpression(all) || all.getArguments()[0] !== array) return undefined;
    if (unwrapParens(all.getExpression()).getText() !== 'Promise.all') return undefined;
    if (call.getArguments().length !== params.length || !call.getArguments().every(isEffectFree)) return undefined;
    if (call.getTypeArguments().length > 0) return undefined;
    if (shadowedBetween(call, statement, free)) return undefined;
    calls.push({ call, statement: statement, handlerFn: handler.fn, binding: { kind: 'discard' } });
  }
  const nameNode = decl.getNameNode();
  if (!Node.isIdentifier(nameNode)) return undefined;
  const refs = referencesOf(nameNode)?.filter((r) => r !== nameNode && !r.getSourceFile().isInNodeModules());
  if (!refs || refs.length !== calls.length || refs.some((r) => !calls.some((c) => c.call.getExpression() === r))) return undefined;
  return { helper: { id, name: decl.getName() }, fn: fnNode as unknown as FunctionWithBody, declaration: statement, calls, sites: [...sites], concise: true };
}

function unwrapParens(node: Node): Node {
  let n = node;
  while (Node.isParenthesizedExpression(n)) n = n.getExpression();
  return n;
}

function isFunctionLike(node: Node): boolean {
  return Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node) || Node.isClassExpression(node);
}

/** Literals, identifiers, property reads and templates of those: evaluating it again, or later, gives the same value. */
function isEffectFree(node: Node): boolean {
  if (Node.isStringLiteral(node) || Node.isNumericLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node) || Node.isIdentifier(node)) return true;
  const kind = node.getKind();
  if (kind === SyntaxKind.TrueKeyword || kind === SyntaxKind.FalseKeyword || kind === SyntaxKind.NullKeyword) return true;
  if (Node.isPropertyAccessExpression(node)) return isEffectFree(node.getExpression());
  if (Node.isParenthesizedExpression(node)) return isEffectFree(node.getExpression());
  if (Node.isTemplateExpression(node)) return node.getTemplateSpans().every((span) => isEffectFree(span.getExpression()));
  return false;
}

/** Whether a name the request uses is declared in a scope that holds `call` but not the helper's declaration. */
function shadowedBetween(call: Node, declaration: Statement, names: Set<string>): boolean {
  const home = declaration.getParent();
  for (let scope: Node | undefined = call.getParent(); scope && scope !== home; scope = scope.getParent()) {
    const declared: string[] = [];
    if (Node.isArrowFunction(scope) || Node.isFunctionExpression(scope) || Node.isFunctionDeclaration(scope) || Node.isMethodDeclaration(scope)) {
      for (const p of scope.getParameters()) declared.push(...p.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()), p.getNameNode().getText());
    }
    if (Node.isBlock(scope) || Node.isSourceFile(scope) || Node.isCaseClause(scope) || Node.isDefaultClause(scope)) {
      for (const st of scope.getStatements()) {
        if (Node.isVariableStatement(st)) for (const d of st.getDeclarations()) declared.push(d.getNameNode().getText(), ...d.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
        if ((Node.isFunctionDeclaration(st) || Node.isClassDeclaration(st)) && st.getName()) declared.push(st.getName()!);
      }
    }
    if (Node.isCatchClause(scope)) {
      const v = scope.getVariableDeclaration();
      if (v) declared.push(v.getNameNode().getText(), ...v.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
    }
    if (Node.isForOfStatement(scope) || Node.isForInStatement(scope) || Node.isForStatement(scope)) {
      const init = scope.getInitializer();
      if (init && Node.isVariableDeclarationList(init)) for (const d of init.getDeclarations()) declared.push(d.getNameNode().getText(), ...d.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
    }
    if (declared.some((n) => names.has(n))) return true;
  }
  return false;
}

/** The request call with each parameter replaced by the call's argument (shorthand properties spelled out). */
function conciseText(c: Candidate, site: CallSite): string {
  const body = unwrapParens((c.fn as unknown as { getBody(): Node }).getBody());
  const params = c.fn.getParameters().map((p) => p.getName());
  const args = site.call.getArguments().map((a) => a.getText());
  const start = body.getStart();
  const edits: TextEdit[] = [];
  for (const id of body.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const index = params.indexOf(id.getText());
    if (index < 0 || isPropertyName(id)) continue;
    const parent = id.getParent();
    const arg = args[index]!;
    const simple = /^[\w$.]+$/.test(arg) || /^(['"`]).*\1$/s.test(arg);
    const value = simple ? arg : `(${arg})`;
    if (Node.isShorthandPropertyAssignment(parent)) edits.push({ start: id.getStart() - start, end: id.getEnd() - start, text: `${id.getText()}: ${value}` });
    else edits.push({ start: id.getStart() - start, end: id.getEnd() - start, text: value });
  }
  let text = body.getText();
  for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}
