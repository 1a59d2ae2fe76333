/**
 * Tools run through a table lookup (reach/dispatch.ts): the tool function is rewritten like a
 * handler and returns `CallToolResult | InputRequiredResult`; the dispatching handler passes its
 * context on and returns the result through. This module checks that the dispatching code does
 * return the call's result untouched, or post-processes it with pure code that an input_required
 * result can skip (dispatch-result.ts), and computes the edits outside the tool function: the
 * dispatcher's context parameter and return type, the context argument of the dispatching call,
 * the pass-through guard after a post-processed result, the assertion of a table's wide result
 * (result-assertion.ts),
 * and the table's declared function type (`Record<string, (args, server) => Promise<CallToolResult>>`,
 * an interface's `handler` member, a base class's abstract `execute`).
 */
import { Node, SyntaxKind, ts, type CallExpression, type ParameterDeclaration, type Statement } from 'ts-morph';
import type { Handler } from '../model.js';
import { isInNodeModules, referencesOf } from '../find/resolve.js';
import { contextAccess, contextObstacle, dispatchContext, type DispatchContext } from './context.js';
import { unplanned } from './emit.js';
import type { FileWork } from './emit-common.js';
import { checkStatementPath, enclosingFunction, line } from './points.js';
import { abbreviate, firstEffect } from './purity.js';
import { reportLine } from '../report-lines.js';
import { precedingCode } from './control-flow.js';
import { flavourOf } from './module-flavour.js';
import type { TextEdit } from '../text-edits.js';
import { INPUT_REQUIRED_TYPE, returnTypeEdits, returnTypeObstacle, widenForInputRequired } from './return-type.js';
import { PASS_THROUGH_GUARD, passThroughEdit, resultRoute } from './dispatch-result.js';
import { assertionEdits, provableAssertion, type ResultAssertion } from './result-assertion.js';

/** Why the dispatching code cannot return the tool function's input_required result as it is, or undefined. */
export function dispatchObstacle(handler: Handler, allDispatched: Handler[]): string | undefined {
  const { dispatcher, call } = handler.dispatch!;
  const others = allDispatched.filter((h) => h !== handler && h.fn === handler.fn);
  if (others.length > 0) {
    return `the tool function is looked up by ${others.length + 1} handlers (lines ${[dispatcher, ...others.map((o) => o.dispatch!.dispatcher)].map((d) => line(d.registrationCall)).join(', ')}); it can be rewritten for one dispatch only`;
  }
  const wrapperCall = handler.dispatch!.wrapperCall;
  if (wrapperCall) {
    // the callback the wrapper returns is one function for every registration calling the wrapper: its edits serve one
    const sharing = allDispatched.filter((h) => h.dispatch!.dispatcher !== dispatcher && h.dispatch!.dispatcher.fn === dispatcher.fn);
    if (sharing.length > 0) {
      return `the callback \`${abbreviate(wrapperCall.getExpression().getText(), 30)}(...)\` returns (line ${line(dispatcher.fn)}) runs this tool function for the registration at line ${line(dispatcher.registrationCall)} and another for ${sharing.length === 1 ? 'the one' : 'those'} at line${sharing.length === 1 ? '' : 's'} ${sharing.map((h) => line(h.dispatch!.dispatcher.registrationCall)).join(', ')}; it can be rewritten for one registration only`;
    }
  }
  const what = `the dispatching call \`${abbreviate(call.getText(), 50)}\` (line ${line(call)})`;
  if (enclosingFunction(call) !== dispatcher.fn) return `${what} runs inside a nested callback of the handler, which does not return its result`;
  const route = resultRoute(call, dispatcher.fn);
  if (route.kind === 'blocked') return `${what} ${route.reason}; its input_required result would not reach the client`;
  // A post-processed result is not what the handler returns; the guard returns only input_required as it is.
  const mismatch = route.kind === 'returned' ? resultMismatch(handler) : undefined;
  if (mismatch && 'reason' in mismatch) return mismatch.reason;
  // The dispatcher runs again on every round: what it does before the call must be free of effects.
  const body = (dispatcher.fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  const statement = body && Node.isBlock(body) ? call.getFirstAncestor((a) => Node.isStatement(a) && a.getParent() !== undefined && body.containsRange(a.getPos(), a.getEnd()) && a !== body) : undefined;
  const before = statement ? precedingCode(statement, body!) : [];
  const effect = firstEffect([...before, call.getExpression(), ...call.getArguments()], dispatcher.fn);
  if (effect) return `the handler that looks the tool function up runs \`${effect.description}\` (line ${line(effect.node)}) before ${what}; it would run again on every round`;
  if (statement) checkStatementPath(statement as Statement, dispatcher.fn, what);
  return undefined;
}

/**
 * The dispatching handler returns the tool function's result as it is, so that result's declared
 * type must be one the v2 registration accepts: a table typed with v1's `ServerResult` (the union
 * of every method's result) returned from a v2 `tools/call` handler, which takes `CallToolResult |
 * InputRequiredResult`, does not compile after the v1-to-v2 upgrade, with or without the rewrite.
 * Checked with the type checker when types resolve (the registration's contextual type); undefined
 * when they do not or when the result is accepted, the assertion that makes it compile when the
 * table's functions provably return only accepted results (result-assertion.ts), else the reason.
 */
function resultMismatch(handler: Handler): { reason: string } | { assertion: ResultAssertion } | undefined {
  const { dispatcher, call } = handler.dispatch!;
  const fn = dispatcher.fn;
  if (!Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn)) return undefined;
  let accepted: ts.Type | undefined;
  let returned: ts.Type | undefined;
  const checker = fn.getProject().getTypeChecker().compilerObject;
  try {
    const contextual = fn.getContextualType();
    const signature = contextual?.getCallSignatures()[0];
    if (!signature) return undefined;
    accepted = checker.getAwaitedType(signature.getReturnType().compilerType);
    returned = checker.getAwaitedType(call.getType().compilerType);
  } catch {
    return undefined;
  }
  if (!accepted || !returned) return undefined;
  const loose = ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never;
  if (accepted.flags & loose || returned.flags & loose) return undefined;
  if (checker.isTypeAssignableTo(returned, accepted)) return undefined;
  const method = dispatcher.registrationCall.getArguments()[0];
  const methodName = method && Node.isStringLiteral(method) ? method.getLiteralValue() : undefined;
  const assertion = flavourOf(dispatcher.sourceFile) === 'ts' ? provableAssertion(call, fn, methodName, accepted) : undefined;
  if (assertion) return { assertion };
  const table = signatureDeclarations(call, handler.fn)[0];
  const typed = table ? ` (the table's function type at ${table.getSourceFile().getBaseName()}:${line(table)})` : '';
  const registration = methodName !== undefined ? `a v2 '${methodName}' handler` : 'the v2 registration';
  return { reason: `the dispatching handler (${dispatcher.sourceFile.getBaseName()}:${line(dispatcher.registrationCall)}) returns the tool function's result, typed \`${abbreviate(checker.typeToString(returned), 40)}\`${typed}, which ${registration} does not accept as its result: the v1-to-v2 upgrade of that handler does not compile, so the tool is not migrated${methodName === 'tools/call' ? " (type the table's result CallToolResult)" : ''}` };
}

/**
 * Why dispatcherEdits cannot take the dispatcher of `tools`, or undefined: the conditions it meets,
 * in its order (planning checks them before emit runs, emit-checks.ts).
 */
export function dispatcherObstacle(dispatcher: Handler, tools: Handler[]): string | undefined {
  const fn = dispatcher.fn as Node & { getParameters(): ParameterDeclaration[]; getBody(): Node | undefined };
  const context = tools.some((t) => !dispatchContext(t).passed) ? contextObstacle(dispatcher, fn, 0) : undefined;
  if (context) return context;
  const returnType = returnTypeObstacle(dispatcher.fn, 'the dispatching handler');
  if (returnType) return returnType;
  const declarations = new Set<Node>();
  for (const tool of tools) {
    const toolContext = dispatchContext(tool);
    for (const decl of signatureDeclarations(tool.dispatch!.call, tool.fn)) {
      if (declarations.has(decl)) continue;
      declarations.add(decl);
      const obstacle = signatureObstacle(decl, toolContext);
      if (obstacle) return obstacle;
    }
  }
  return undefined;
}

/**
 * Edits outside the tool function for every dispatched tool of one dispatcher: its context
 * parameter and return type, the context argument of each dispatching call, and the declared
 * function types the calls go through. `fileWork` gives the accumulation of the file an edit is in.
 */
export function dispatcherEdits(dispatcher: Handler, tools: Handler[], fileWork: (node: Node) => FileWork): void {
  const fw = fileWork(dispatcher.fn);
  const ts = flavourOf(dispatcher.sourceFile) === 'ts';
  const fn = dispatcher.fn as Node & { getParameters(): ParameterDeclaration[]; getBody(): Node | undefined };
  const needsContext = tools.some((t) => !dispatchContext(t).passed);
  const edits: TextEdit[] = [];
  let ctx = '';
  if (needsContext) {
    const access = contextAccess(dispatcher, fn, fw.names.inFunction(dispatcher.fn), ts, false, 0);
    ctx = access.ctx;
    edits.push(...access.edits);
    if (access.edits.some((e) => e.text.includes('ServerContext'))) fw.types.add('ServerContext');
  }
  edits.push(...returnTypeEdits(dispatcher.fn, fw, 'the dispatching handler'));
  const calls = new Set<CallExpression>();
  const declarations = new Set<Node>();
  for (const tool of tools) {
    const { call } = tool.dispatch!;
    const context = dispatchContext(tool);
    const route = calls.has(call) ? undefined : resultRoute(call, dispatcher.fn);
    if (route?.kind === 'post-processed') {
      edits.push(passThroughEdit(route));
      fw.values.add(PASS_THROUGH_GUARD);
    }
    const mismatch = route?.kind === 'returned' ? resultMismatch(tool) : undefined;
    if (mismatch && 'assertion' in mismatch) {
      edits.push(...assertionEdits(mismatch.assertion));
      for (const type of mismatch.assertion.types) fw.types.add(type);
    }
    if (!context.passed && !calls.has(call)) {
      const args = call.getArguments();
      const padding = Array.from({ length: context.index - args.length }, () => 'undefined');
      const text = [...padding, ctx].join(', ');
      const close = call.getLastChildByKind(SyntaxKind.CloseParenToken)!;
      const last = args[args.length - 1];
      edits.push(last ? { start: last.getEnd(), end: last.getEnd(), text: `, ${text}` } : { start: close.getStart(), end: close.getStart(), text });
    }
    calls.add(call);
    for (const decl of signatureDeclarations(call, tool.fn)) {
      if (declarations.has(decl)) continue;
      declarations.add(decl);
      fileWork(decl).edits.push(...signatureEdits(decl, context, fileWork(decl)));
    }
  }
  fw.edits.push(...edits);
}

/** Declarations of the function type the dispatching call is checked against (project code only, not the tool function itself). */
function signatureDeclarations(call: CallExpression, toolFn: Node): Node[] {
  let signatures;
  try {
    signatures = call.getExpression().getType().getCallSignatures();
  } catch {
    return [];
  }
  const out: Node[] = [];
  for (const signature of signatures) {
    const decl = signature.getDeclaration() as Node | undefined;
    if (!decl || decl === toolFn || isInNodeModules(decl) || out.includes(decl)) continue;
    if (Node.isFunctionTypeNode(decl) || Node.isMethodSignature(decl) || (Node.isMethodDeclaration(decl) && decl.isAbstract())) out.push(decl);
    else if (Node.isMethodDeclaration(decl)) out.push(decl);
  }
  return out;
}

/** Why the function type `decl` cannot take the context parameter or return input_required, or undefined (emit's conditions, checked at planning). */
function signatureObstacle(decl: Node, context: DispatchContext): string | undefined {
  if (flavourOf(decl.getSourceFile()) !== 'ts') return undefined;
  const where = `${decl.getSourceFile().getBaseName()}:${line(decl)}`;
  const sig = decl as Node & { getParameters(): ParameterDeclaration[]; getReturnTypeNode(): Node | undefined };
  const params = sig.getParameters();
  if (!context.passed) {
    if (params.length > context.index) return `the table's function type at ${where} declares more parameters than the dispatching call passes`;
    if (params.some((p) => p.isRestParameter())) return `the table's function type at ${where} takes a rest parameter; cannot add the context parameter`;
    if (params.length === 0 && !decl.getFirstChildByKind(SyntaxKind.OpenParenToken)) return `the table's function type at ${where} has no parameter list to add the context parameter to`;
  }
  const returnType = sig.getReturnTypeNode();
  if (!returnType) return `the table's function type at ${where} declares no return type to admit input_required results`;
  if (widenForInputRequired(returnType).kind === 'no-promise') return `the table's function type at ${where} returns \`${returnType.getText()}\`, which has no Promise member for the migrated (async) tool to return input_required through`;
  return undefined;
}

/** `(args: X, server: S) => Promise<R>` → `(args: X, server: S, ctx: ServerContext) => Promise<R | InputRequiredResult>`. */
function signatureEdits(decl: Node, context: DispatchContext, fw: FileWork): TextEdit[] {
  if (flavourOf(decl.getSourceFile()) !== 'ts') return [];
  const obstacle = signatureObstacle(decl, context);
  if (obstacle) unplanned(obstacle);
  const edits: TextEdit[] = [];
  const sig = decl as Node & { getParameters(): ParameterDeclaration[]; getReturnTypeNode(): Node | undefined };
  const params = sig.getParameters();
  if (!context.passed) {
    const added = [...Array.from({ length: context.index - params.length }, (_, i) => `_arg${params.length + i}: unknown`), 'ctx: ServerContext'];
    fw.types.add('ServerContext');
    const last = params[params.length - 1];
    if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${added.join(', ')}` });
    else {
      const open = decl.getFirstChildByKind(SyntaxKind.OpenParenToken) ?? unplanned('the function type has no parameter list');
      edits.push({ start: open.getEnd(), end: open.getEnd(), text: added.join(', ') });
    }
  }
  const widening = widenForInputRequired(sig.getReturnTypeNode() ?? unplanned('the function type declares no return type'));
  if (widening.kind === 'edits') {
    fw.types.add(INPUT_REQUIRED_TYPE);
    edits.push(...widening.edits);
  }
  return edits;
}

/** Every reference to a named tool function is its table entry: anything else would call it without the context. */
export function strayReference(handler: Handler): string | undefined {
  const fn = handler.fn;
  let nameNode: Node | undefined;
  if (Node.isFunctionDeclaration(fn)) nameNode = fn.getNameNode();
  else if (Node.isMethodDeclaration(fn)) nameNode = fn.getNameNode();
  else {
    const parent = fn.getParent();
    if (parent && Node.isVariableDeclaration(parent)) nameNode = parent.getNameNode();
    if (parent && Node.isPropertyAssignment(parent) && parent.getInitializer() === fn) return strayMemberCall(parent, handler.dispatch!.call);
  }
  if (!nameNode || !Node.isIdentifier(nameNode)) return undefined;
  const { call } = handler.dispatch!;
  const references = referencesOf(nameNode);
  if (!references) return `the uses of \`${nameNode.getText()}\` could not be listed`;
  for (const ref of references) {
    if (ref === nameNode || ref.getSourceFile().isInNodeModules()) continue;
    const parent = ref.getParent();
    if (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isImportClause(parent)) continue;
    // the table entry (`{ delete_file: deleteFile }`, `[deleteFile]`, `['a', deleteFile]`), or the dispatch itself
    if (parent && (Node.isShorthandPropertyAssignment(parent) || (Node.isPropertyAssignment(parent) && parent.getInitializer() === ref) || Node.isArrayLiteralExpression(parent))) continue;
    // the argument of the registration's wrapper call (`withParams(closeTicket)`) its callback runs it through
    if (parent && parent === handler.dispatch!.wrapperCall) continue;
    if (Node.isMethodDeclaration(fn) && parent && Node.isPropertyAccessExpression(parent) && parent.getParent() === call) continue;
    // an override's name appears in the base class; references through `super.execute(...)` call it without the context
    if (Node.isMethodDeclaration(fn) && parent && Node.isPropertyAccessExpression(parent) && parent.getParent() && Node.isCallExpression(parent.getParent()) && parent.getParent() !== call) {
      return `\`${nameNode.getText()}\` is also called at ${ref.getSourceFile().getBaseName()}:${reportLine(ref)}, outside the table dispatch`;
    }
    if (Node.isMethodDeclaration(fn)) continue;
    return `\`${nameNode.getText()}\` is also used at ${ref.getSourceFile().getBaseName()}:${reportLine(ref)}, outside the table dispatch`;
  }
  return undefined;
}

/**
 * `handler: async (args) => ...` of an entry object (often a factory's result): a call of that
 * member anywhere but the dispatch (a unit test's `createTool(api).handler(args)`) would run the
 * migrated function without the context the dispatch now passes.
 */
function strayMemberCall(property: Node & { getNameNode(): Node }, dispatchCall: CallExpression): string | undefined {
  const nameNode = property.getNameNode();
  if (!Node.isIdentifier(nameNode)) return undefined;
  const refs = referencesOf(nameNode);
  if (!refs) return `the references of \`${nameNode.getText()}\` cannot be listed, so calls of it outside the table dispatch cannot be ruled out`;
  for (const ref of refs) {
    if (ref === nameNode || ref.getSourceFile().isInNodeModules()) continue;
    const access = ref.getParent();
    const called = access && Node.isPropertyAccessExpression(access) ? access.getParent() : undefined;
    if (!called || !Node.isCallExpression(called) || called.getExpression() !== access || called === dispatchCall) continue;
    return `\`${abbreviate(access!.getText(), 40)}\` is also called at ${ref.getSourceFile().getBaseName()}:${reportLine(ref)}, outside the table dispatch, which would run the migrated tool without its context`;
  }
  return undefined;
}
