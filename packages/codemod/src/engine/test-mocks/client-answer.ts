/**
 * The mechanical rewrite of a test mock: a spy on the server's `elicitInput` / `createMessage` /
 * `listRoots` with a fixed answer, in a test that connects a `@modelcontextprotocol/client` Client,
 * becomes that client's answer handler:
 *
 *   const spy = vi.spyOn(server.server, 'elicitInput').mockResolvedValue(answer);   // before
 *   const client = new Client(info);
 *
 *   const spy = vi.fn().mockResolvedValue(answer);                                   // after
 *   const client = new Client(info, { capabilities: { elicitation: { form: {}, url: {} } } });
 *   client.setRequestHandler('elicitation/create', (request) => spy(request.params));
 *
 * Why this and nothing else (measured against @modelcontextprotocol/server 2.4.0, see
 * test/cli/test-mocks-behaviour.test.ts): the migrated handler never calls `elicitInput`; on a
 * 2025-era connection the SDK's legacy shim sends the request itself (elicitation bypasses the public
 * `elicitInput`, sampling and roots go through `createMessage` / `listRoots`) and only to a client
 * that declared the capability; on 2026-07-28 the client fulfils input_required rounds with the same
 * handler. So the answer must come from the client, which must declare the capability, and the spy
 * still counts one call per question asked. Anything that would not keep the test's meaning (the
 * request params asserted, answers computed from arguments, rejections, clients built elsewhere)
 * is left alone and flagged.
 */
import {
  CLIENT_ANSWER_CAPABILITY,
  CLIENT_CLASS,
  CLIENT_REQUEST_HANDLER_REGISTRATION,
  LEGACY_REQUESTS,
  MCP_SERVER_INNER_PROPERTY,
  SERVER_METHOD_TO_LEGACY,
  TARGET_CLIENT_PACKAGE,
  LEGACY_METHODS,
  MRTR_METHODS,
  type LegacyMethod,
} from '@mcp-mrtr/surface';
import { ts } from 'ts-morph';
import type { TextEdit } from '../text-edits.js';
import { directCallee, type MockMatch } from './find.js';

const LEGACY_METHODS_ORDER: readonly LegacyMethod[] = LEGACY_METHODS;

export type ClientAnswerPlan = { rewritten: true; method: LegacyMethod; note: string } | { rewritten: false; why: string };

/** Runners whose spies have a `fn()` twin with the same configuration API. */
const FN_RUNNERS = new Set(['vi', 'jest']);
/** Configuration that fixes the answer regardless of the request. */
const FIXED_VALUE_CONFIG = new Set(['mockResolvedValue', 'mockResolvedValueOnce', 'mockReturnValue', 'mockReturnValueOnce']);
const FIXED_IMPLEMENTATION_CONFIG = new Set(['mockImplementation', 'mockImplementationOnce']);
/** Assertions that only count calls: they keep their meaning when the client is the one called. */
const CALL_COUNT_MATCHERS = new Set(['toHaveBeenCalled', 'toHaveBeenCalledTimes', 'toHaveBeenCalledOnce', 'toBeCalled', 'toBeCalledTimes']);
/** Spy housekeeping that means the same on a `fn()` mock. */
const HOUSEKEEPING = new Set(['mockClear', 'mockRestore']);

type FunctionNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

function enclosingFunction(node: ts.Node): FunctionNode | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) return n;
  }
  return undefined;
}

function isInStatementList(statement: ts.Node): boolean {
  return ts.isBlock(statement.parent) || ts.isSourceFile(statement.parent);
}

interface ClientDecl {
  name: string;
  statement: ts.VariableStatement;
  construction: ts.NewExpression;
}

/** Where the answering client comes from: built in the test itself, or by a same-file helper the test calls. */
type ClientSource =
  | { kind: 'inline'; client: ClientDecl }
  | { kind: 'helper'; client: ClientDecl; helper: FunctionNode; call: ts.CallExpression };

interface Candidate {
  match: MockMatch;
  method: LegacyMethod;
  fn: FunctionNode;
  source: ClientSource;
  /** Replaces `vi.spyOn(target, 'm')` by `vi.fn()` (and names an unbound spy). */
  edits: TextEdit[];
  answerName: string;
}

/** Local names of `Client` imported from `@modelcontextprotocol/client`. */
function clientClassNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== TARGET_CLIENT_PACKAGE) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || statement.importClause?.isTypeOnly) continue;
    for (const element of bindings.elements) {
      if (!element.isTypeOnly && (element.propertyName ?? element.name).text === CLIENT_CLASS) names.add(element.name.text);
    }
  }
  return names;
}

function descendants(root: ts.Node, accept: (node: ts.Node) => boolean): ts.Node[] {
  const found: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (accept(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return found;
}

/** `const <name> = new Client(...)` as a statement of its own, directly in `fn`, or why not. */
function clientDeclaration(construction: ts.NewExpression, fn: FunctionNode, where: string): ClientDecl | string {
  if (enclosingFunction(construction) !== fn) return `the ${CLIENT_CLASS} is created in a nested function of ${where}`;
  const declaration = construction.parent;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== construction || !ts.isIdentifier(declaration.name)) {
    return `the ${CLIENT_CLASS} in ${where} is not assigned to a variable of its own`;
  }
  const list = declaration.parent;
  const statement = list.parent;
  if (!ts.isVariableDeclarationList(list) || list.declarations.length !== 1 || !ts.isVariableStatement(statement) || !isInStatementList(statement)) {
    return `the ${CLIENT_CLASS} in ${where} is not declared in a statement of its own`;
  }
  return { name: declaration.name.text, statement, construction };
}

/** Same-file functions by name: `function connect() {}`, `const connect = async () => {}` (one declaration per name). */
function fileFunctions(sourceFile: ts.SourceFile): Map<string, FunctionNode | null> {
  const functions = new Map<string, FunctionNode | null>();
  const add = (name: string, fn: FunctionNode) => functions.set(name, functions.has(name) ? null : fn);
  descendants(sourceFile, (n) => {
    if (ts.isFunctionDeclaration(n) && n.name && n.body) add(n.name.text, n);
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) add(n.name.text, n.initializer);
    return false;
  });
  return functions;
}

/** The server a spy watches: `vi.spyOn(server.server, ...)` → `server`, `vi.spyOn(lowLevel, ...)` → `lowLevel`. */
function spiedServerText(spy: ts.CallExpression, sourceFile: ts.SourceFile): string | undefined {
  const target = spy.arguments[0];
  if (!target) return undefined;
  const base = ts.isPropertyAccessExpression(target) && target.name.text === MCP_SERVER_INNER_PROPERTY ? target.expression : target;
  return base.getText(sourceFile);
}

/**
 * The one Client the test drives: built in the test function itself, or by a same-file helper the
 * test calls once with the spied server (`await connect(server)`); or why there is none to answer on.
 */
function testClient(fn: FunctionNode, spy: ts.CallExpression, sourceFile: ts.SourceFile, classNames: Set<string>): ClientSource | string {
  const isClientNew = (n: ts.Node): n is ts.NewExpression =>
    ts.isNewExpression(n) && ts.isIdentifier(n.expression) && classNames.has(n.expression.text);
  if (classNames.size === 0) return `the test file does not import ${CLIENT_CLASS} from ${TARGET_CLIENT_PACKAGE}, so there is no client to answer the request`;
  const inTest = descendants(fn, isClientNew) as ts.NewExpression[];
  if (inTest.length > 1) return `this test creates ${inTest.length} clients; which one should answer is not mechanical`;
  if (inTest.length === 1) {
    const client = clientDeclaration(inTest[0]!, fn, 'this test');
    return typeof client === 'string' ? client : { kind: 'inline', client };
  }
  const functions = fileFunctions(sourceFile);
  const helperCalls = (descendants(fn, (n) => ts.isCallExpression(n) && ts.isIdentifier(n.expression)) as ts.CallExpression[])
    .map((call) => ({ call, helper: functions.get((call.expression as ts.Identifier).text) }))
    .filter((h): h is { call: ts.CallExpression; helper: FunctionNode } => !!h.helper && descendants(h.helper, isClientNew).length > 0);
  if (helperCalls.length === 0) {
    return descendants(sourceFile, isClientNew).length > 0
      ? `the ${CLIENT_CLASS} is created outside this test and not by a same-file helper it calls (a hook?): declare the capability and register the answer handler where it is created`
      : `no ${CLIENT_CLASS} drives this test (the handler is probably called directly)`;
  }
  if (helperCalls.length > 1) return `this test calls ${helperCalls.length} client helpers; which client should answer is not mechanical`;
  const { call, helper } = helperCalls[0]!;
  const helperName = (call.expression as ts.Identifier).text;
  const where = `the helper ${helperName}`;
  const constructions = descendants(helper, isClientNew) as ts.NewExpression[];
  if (constructions.length > 1) return `${where} creates ${constructions.length} clients`;
  const client = clientDeclaration(constructions[0]!, helper, where);
  if (typeof client === 'string') return client;
  const server = spiedServerText(spy, sourceFile);
  if (!server || !call.arguments.some((a) => a.getText(sourceFile) === server)) return `the test does not pass the spied server (${server ?? '?'}) to ${where}`;
  if (helper.parameters.some((p) => p.dotDotDotToken) || call.arguments.some((a) => ts.isSpreadElement(a)) || call.arguments.length !== helper.parameters.length) {
    return `the call to ${where} does not pass every parameter, so an answers parameter cannot be appended`;
  }
  return { kind: 'helper', client, helper, call };
}

/** `spyOn(...)` → the configuration chain around it and the expression it ends in. */
function configChain(spy: ts.CallExpression): { calls: { name: string; call: ts.CallExpression }[]; outer: ts.Expression } {
  const calls: { name: string; call: ts.CallExpression }[] = [];
  let outer: ts.Expression = spy;
  while (ts.isPropertyAccessExpression(outer.parent) && outer.parent.expression === outer && ts.isCallExpression(outer.parent.parent) && outer.parent.parent.expression === outer.parent) {
    calls.push({ name: outer.parent.name.text, call: outer.parent.parent });
    outer = outer.parent.parent;
  }
  return { calls, outer };
}

function fixedAnswerProblem(calls: { name: string; call: ts.CallExpression }[]): string | undefined {
  if (calls.length === 0) return 'the spy calls through to the real method (no fixed answer to move to the client)';
  for (const { name, call } of calls) {
    if (FIXED_VALUE_CONFIG.has(name) && call.arguments.length === 1) continue;
    const impl = call.arguments[0];
    if (FIXED_IMPLEMENTATION_CONFIG.has(name) && call.arguments.length === 1 && impl && (ts.isArrowFunction(impl) || ts.isFunctionExpression(impl)) && impl.parameters.length === 0) continue;
    return `.${name}(...) is not a fixed answer (answers computed from the request, rejections and return values differ once the client answers)`;
  }
  return undefined;
}

/** Every use of the spy variable must be a call-count assertion or housekeeping. */
function usesProblem(name: string, declaration: ts.Identifier, fn: FunctionNode, sourceFile: ts.SourceFile): string | undefined {
  const uses = descendants(sourceFile, (n) => ts.isIdentifier(n) && n.text === name && n !== declaration) as ts.Identifier[];
  for (const use of uses) {
    const parent = use.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.name === use) continue; // `x.spy`: another name
    if (ts.isPropertyAssignment(parent) && parent.name === use) continue;
    // A variable declared in the test function cannot be seen outside it: a use there is another variable.
    let inside = false;
    for (let n: ts.Node | undefined = use; n; n = n.parent) if (n === fn) inside = true;
    if (!inside) continue;
    if (ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'expect' && parent.arguments.length === 1) {
      let access: ts.Node = parent.parent;
      if (ts.isPropertyAccessExpression(access) && access.name.text === 'not') access = access.parent;
      if (ts.isPropertyAccessExpression(access) && CALL_COUNT_MATCHERS.has(access.name.text) && ts.isCallExpression(access.parent)) continue;
      return `the test inspects what the spy was called with (${parent.parent.getText(sourceFile).slice(0, 60)}): the client sees the request params with mode and _meta added`;
    }
    if (ts.isPropertyAccessExpression(parent) && HOUSEKEEPING.has(parent.name.text) && ts.isCallExpression(parent.parent) && ts.isExpressionStatement(parent.parent.parent)) continue;
    return `the spy ${name} is used beyond call counting (${parent.getText(sourceFile).slice(0, 60)})`;
  }
  return undefined;
}

function uniqueName(base: string, text: string, taken: Set<string>): string {
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}${i}`;
    if (!taken.has(name) && !new RegExp(`\\b${name}\\b`).test(text)) {
      taken.add(name);
      return name;
    }
  }
}

/** Members the SDK's 2025-era legacy shim calls on the server itself to send an embedded request (elicitation bypasses `elicitInput`). */
const SHIM_SENDERS: Readonly<Record<string, string>> = { createMessage: 'sampling', listRoots: 'roots' };

/**
 * Why an assigned mock (`server.createMessage = vi.fn()...`) is not rewritten. A test that calls the
 * server's own request handler (`_requestHandlers.get('tools/call')`) gets the SDK's wrapper, which
 * serves the migrated handler's input_required through the legacy shim: the shim calls the server's
 * `createMessage` / `listRoots` (this mock) only after an initialize declaring the capability, and
 * a test that never sends one sees the shim's "Cannot request input" result. Said so, as the test's
 * failure names neither the mock nor the handler.
 */
function assignedMockProblem(name: string, sourceFile: ts.SourceFile): string {
  const base = 'an assigned mock on the server (rewrite it as a client answer handler by hand)';
  const capability = SHIM_SENDERS[name];
  const requestHandler = new RegExp(`_requestHandlers\\s*\\)?\\s*\\.get\\(\\s*(['"\`])(${MRTR_METHODS.join('|')})\\1`).exec(sourceFile.text);
  if (!capability || !requestHandler) return base;
  return `${base}; the test's calls of the server's own ${requestHandler[2]} request handler (_requestHandlers.get) go through the SDK's 2025-era legacy shim, which calls this ${name} only after an initialize that declared ${capability}, and otherwise answers "Cannot request input ..." instead of the mock's answer`;
}

/** The spy-site half of the rewrite, or why the spy is not mechanical. */
function candidate(match: MockMatch, sourceFile: ts.SourceFile, classNames: Set<string>, taken: Set<string>): Candidate | string {
  if (match.shape === 'assigned') return assignedMockProblem(match.name, sourceFile);
  if (match.shape === 'fake-member') {
    return 'a fake context or server object: the test calls the handler directly, and the migrated handler reads ctx.mcpReq.inputResponses instead of calling it';
  }
  const method = SERVER_METHOD_TO_LEGACY[match.name];
  if (!method) return `a spy on ${match.name}: no client-side handler answers it the same way`;
  const spy = match.node as ts.CallExpression;
  const { namespace } = directCallee(spy);
  if (!namespace || !FN_RUNNERS.has(namespace)) return `a ${match.how} spy (only vi/jest spies have a fn() twin with the same configuration)`;
  const { calls, outer } = configChain(spy);
  const answerProblem = fixedAnswerProblem(calls);
  if (answerProblem) return answerProblem;
  const fn = enclosingFunction(spy);
  if (!fn) return 'the spy is set up outside a test function';
  const source = testClient(fn, spy, sourceFile, classNames);
  if (typeof source === 'string') return source;

  const spyCall = { start: spy.getStart(sourceFile), end: spy.getEnd(), text: `${namespace}.fn()` };
  const holder = outer.parent;
  let statement: ts.Statement;
  let answerName: string | undefined;
  if (ts.isExpressionStatement(holder) && isInStatementList(holder)) {
    statement = holder;
  } else if (ts.isVariableDeclaration(holder) && holder.initializer === outer && ts.isIdentifier(holder.name)) {
    const list = holder.parent;
    if (!ts.isVariableDeclarationList(list) || list.declarations.length !== 1 || !ts.isVariableStatement(list.parent) || !isInStatementList(list.parent)) {
      return 'the spy is declared together with other variables';
    }
    const problem = usesProblem(holder.name.text, holder.name, fn, sourceFile);
    if (problem) return problem;
    statement = list.parent;
    answerName = holder.name.text;
  } else {
    return 'the spy is used inside a larger expression';
  }
  // The answer must be in scope where the client gets it, and (helper) already initialised there.
  const uses = source.kind === 'inline' ? source.client.statement : source.call;
  if (!contains(statement.parent, uses)) return 'the spy is declared in a block that does not contain the client';
  if (source.kind === 'helper' && statement.getEnd() > source.call.getStart(sourceFile)) {
    return 'the spy is set up after the helper connects the client';
  }
  if (answerName) return { match, method, fn, source, answerName, edits: [spyCall] };
  const name = uniqueName(`${match.name}Answer`, sourceFile.text, taken);
  const start = statement.getStart(sourceFile);
  return { match, method, fn, source, answerName: name, edits: [{ start: start, end: start, text: `const ${name} = ` }, spyCall] };
}

function contains(ancestor: ts.Node, node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

const capabilityEntry = (m: LegacyMethod) => `${LEGACY_REQUESTS[m].capability}: ${CLIENT_ANSWER_CAPABILITY[m]}`;

/**
 * `new Client(info)` / `new Client(info, { ... })` → the same with `entries` added to the declared
 * capabilities (`entryFor` of each method whose capability is not declared yet).
 */
function capabilityEdits(client: ClientDecl, methods: LegacyMethod[], entryFor: (m: LegacyMethod) => string, sourceFile: ts.SourceFile): TextEdit[] | string {
  const args = client.construction.arguments ?? ts.factory.createNodeArray();
  const entries = (ms: LegacyMethod[]) => ms.map(entryFor).join(', ');
  if (args.length === 1) {
    const end = args[0]!.getEnd();
    return [{ start: end, end, text: `, { capabilities: { ${entries(methods)} } }` }];
  }
  const options = args[1];
  if (args.length !== 2 || !options || !ts.isObjectLiteralExpression(options)) return `the ${CLIENT_CLASS} options are not an object literal`;
  const capabilities = options.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'capabilities');
  if (!capabilities) {
    if (options.properties.length === 0) return [{ start: options.getStart(sourceFile), end: options.getEnd(), text: `{ capabilities: { ${entries(methods)} } }` }];
    const first = options.properties[0]!.getStart(sourceFile);
    return [{ start: first, end: first, text: `capabilities: { ${entries(methods)} }, ` }];
  }
  if (!ts.isPropertyAssignment(capabilities) || !ts.isObjectLiteralExpression(capabilities.initializer)) {
    return `the ${CLIENT_CLASS}'s capabilities are not an object literal`;
  }
  const declared = capabilities.initializer;
  const present = new Set(declared.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '')));
  const missing = methods.filter((m) => !present.has(LEGACY_REQUESTS[m].capability));
  if (missing.length === 0) return [];
  if (declared.properties.length === 0) return [{ start: declared.getStart(sourceFile), end: declared.getEnd(), text: `{ ${entries(missing)} }` }];
  const first = declared.properties[0]!.getStart(sourceFile);
  return [{ start: first, end: first, text: `${entries(missing)}, ` }];
}

/** Does `fn` already register a handler on the client that could answer `method`? */
function alreadyAnswers(client: ClientDecl, fn: FunctionNode, method: LegacyMethod): boolean {
  return descendants(fn, (n) => {
    if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return false;
    if (n.expression.name.text !== CLIENT_REQUEST_HANDLER_REGISTRATION) return false;
    if (!ts.isIdentifier(n.expression.expression) || n.expression.expression.text !== client.name) return false;
    const first = n.arguments[0];
    return !first || !ts.isStringLiteralLike(first) || first.text === method;
  }).length > 0;
}

function lineIndent(sourceFile: ts.SourceFile, node: ts.Node): string {
  const lineStart = sourceFile.text.lastIndexOf('\n', node.getStart(sourceFile) - 1) + 1;
  return /^[ \t]*/.exec(sourceFile.text.slice(lineStart))![0];
}

function migratedNote(c: Candidate): string {
  const via = c.source.kind === 'helper' ? ` (passed to ${(c.source.call.expression as ts.Identifier).text}, which now declares the capability for it)` : ` (${c.source.client.name} declares the ${LEGACY_REQUESTS[c.method].capability} capability)`;
  return (
    `test ${c.match.how} for ${c.match.name} (${c.method}) rewritten: the fixed answer now comes from the test client's ${c.method} handler${via}, ` +
    `so it reaches the migrated handler through its input_required round on either protocol era; call-count assertions keep their meaning`
  );
}

type Entry = { index: number; c: Candidate };

/** Inline client: declare the capabilities, register one handler per answered method after it. */
function inlineEdits(client: ClientDecl, accepted: Entry[], sourceFile: ts.SourceFile): TextEdit[] | string {
  const caps = capabilityEdits(client, accepted.map((a) => a.c.method), capabilityEntry, sourceFile);
  if (typeof caps === 'string') return caps;
  const indent = lineIndent(sourceFile, client.statement);
  const registrations = accepted
    .map(({ c }) => `\n${indent}${client.name}.${CLIENT_REQUEST_HANDLER_REGISTRATION}('${c.method}', (request) => ${c.answerName}(request.params));`)
    .join('');
  const end = client.statement.getEnd();
  return [...caps, { start: end, end, text: registrations }];
}

interface HelperRewrite {
  /** Name of the appended parameter. */
  param: string;
  edits: TextEdit[];
}

/**
 * A same-file client helper gets an optional last parameter `answers` ({ '<method>': answer }): the
 * client declares a capability and registers a handler only for the methods answered, so the tests
 * that pass nothing see exactly the client they had.
 */
function helperEdits(helper: FunctionNode, client: ClientDecl, methods: LegacyMethod[], sourceFile: ts.SourceFile, typeName: string | undefined): HelperRewrite | string {
  if (methods.some((m) => alreadyAnswers(client, helper, m))) return `the helper's client already registers a request handler`;
  const helperText = helper.getText(sourceFile);
  const free = (base: string) => {
    for (let i = 1; ; i++) if (!new RegExp(`\\b${base}${i === 1 ? '' : i}\\b`).test(helperText)) return `${base}${i === 1 ? '' : i}`;
  };
  const param = free('answers');
  const caps = capabilityEdits(client, methods, (m) => `...(${param}['${m}'] && { ${capabilityEntry(m)} })`, sourceFile);
  if (typeof caps === 'string') return caps;
  const close = helper.parameters.hasTrailingComma ? helper.parameters.end - 1 : helper.parameters.end;
  const paramText = `${helper.parameters.length > 0 ? ', ' : ''}${param}${typeName ? `: ${typeName}` : ''} = {}`;
  // `async server => { ... }` has no parentheses to append a parameter in.
  const first = helper.parameters[0];
  const bare = ts.isArrowFunction(helper) && first !== undefined && !sourceFile.text.slice(helper.getStart(sourceFile), first.getStart(sourceFile)).includes('(');
  const paramEdits: TextEdit[] = bare
    ? [{ start: first.getStart(sourceFile), end: first.getStart(sourceFile), text: '(' }, { start: close, end: close, text: `${paramText})` }]
    : [{ start: close, end: close, text: paramText }];
  const indent = lineIndent(sourceFile, client.statement);
  const registrations = methods
    .map((m) => {
      const local = free(`${LEGACY_REQUESTS[m].kind}Answer`);
      return (
        `\n${indent}const ${local} = ${param}['${m}'];` +
        `\n${indent}if (${local}) ${client.name}.${CLIENT_REQUEST_HANDLER_REGISTRATION}('${m}', (request) => ${local}(request.params));`
      );
    })
    .join('');
  const end = client.statement.getEnd();
  return { param, edits: [...paramEdits, ...caps, { start: end, end, text: registrations }] };
}

/** The `InputAnswers` type a TypeScript helper's new parameter is declared with, and its imports. */
function answersTypeEdits(sourceFile: ts.SourceFile, methods: LegacyMethod[]): { name: string; edits: TextEdit[] } | string {
  const imports = sourceFile.statements.filter(ts.isImportDeclaration);
  const clientImport = imports.find((d) => ts.isStringLiteral(d.moduleSpecifier) && d.moduleSpecifier.text === TARGET_CLIENT_PACKAGE && d.importClause?.namedBindings && ts.isNamedImports(d.importClause.namedBindings) && !d.importClause.isTypeOnly);
  if (!clientImport) return `the ${TARGET_CLIENT_PACKAGE} import is not a plain named import`;
  const bindings = clientImport.importClause!.namedBindings as ts.NamedImports;
  const imported = new Set(bindings.elements.map((e) => e.name.text));
  const added: string[] = [];
  for (const name of ['RequestTypeMap', 'ResultTypeMap']) {
    if (imported.has(name)) continue;
    if (new RegExp(`\\b${name}\\b`).test(sourceFile.text)) return `${name} is already a name in this file`;
    added.push(`type ${name}`);
  }
  const name = uniqueName('InputAnswers', sourceFile.text, new Set());
  const last = bindings.elements[bindings.elements.length - 1];
  const edits: TextEdit[] = [];
  if (added.length > 0) {
    const at = last ? last.getEnd() : bindings.getStart(sourceFile) + 1;
    edits.push({ start: at, end: at, text: `${last ? ', ' : ' '}${added.join(', ')}` });
  }
  const after = imports[imports.length - 1]!.getEnd();
  const union = methods.map((m) => `'${m}'`).join(' | ');
  edits.push({
    start: after,
    end: after,
    text:
      `\n\n/** Answers the test client gives to the server's input requests, by method (written by mcp-mrtr). */` +
      `\ntype ${name} = { [M in ${union}]?: (params: RequestTypeMap[M]['params']) => ResultTypeMap[M] | Promise<ResultTypeMap[M]> };`,
  });
  return { name, edits };
}

/**
 * Plans the rewrite of every mechanical spy in the file. Returns one plan per match (same order)
 * and the edits of the rewritten ones (spy sites, client options, handler registrations, helper
 * parameters and the calls that pass the answers).
 */
export function planClientAnswers(sourceFile: ts.SourceFile, matches: MockMatch[]): { plans: ClientAnswerPlan[]; edits: TextEdit[] } {
  const classNames = clientClassNames(sourceFile);
  const taken = new Set<string>();
  const plans: ClientAnswerPlan[] = matches.map(() => ({ rewritten: false, why: '' }));
  const byFunction = new Map<FunctionNode, Entry[]>();
  matches.forEach((match, index) => {
    const c = candidate(match, sourceFile, classNames, taken);
    if (typeof c === 'string') plans[index] = { rewritten: false, why: c };
    else byFunction.set(c.fn, [...(byFunction.get(c.fn) ?? []), { index, c }]);
  });
  const reject = (entries: Entry[], why: string) => entries.forEach(({ index }) => (plans[index] = { rewritten: false, why }));
  const edits: TextEdit[] = [];
  const helperUses = new Map<FunctionNode, Entry[][]>();
  for (const group of byFunction.values()) {
    const perMethod = new Map<LegacyMethod, number>();
    for (const { c } of group) perMethod.set(c.method, (perMethod.get(c.method) ?? 0) + 1);
    const accepted: Entry[] = [];
    for (const entry of group) {
      const { c } = entry;
      if (perMethod.get(c.method)! > 1) reject([entry], `this test sets up more than one ${c.match.name} mock`);
      else if (c.source.kind === 'inline' && alreadyAnswers(c.source.client, c.fn, c.method)) reject([entry], `the test's client already registers a request handler that may answer ${c.method}`);
      else accepted.push(entry);
    }
    if (accepted.length === 0) continue;
    const source = accepted[0]!.c.source;
    if (source.kind === 'helper') {
      helperUses.set(source.helper, [...(helperUses.get(source.helper) ?? []), accepted]);
      continue;
    }
    const inline = inlineEdits(source.client, accepted, sourceFile);
    if (typeof inline === 'string') {
      reject(accepted, inline);
      continue;
    }
    edits.push(...inline, ...accepted.flatMap(({ c }) => c.edits));
    for (const { index, c } of accepted) plans[index] = { rewritten: true, method: c.method, note: migratedNote(c) };
  }
  if (helperUses.size === 0) return { plans, edits };

  const allHelperMethods = [...new Set([...helperUses.values()].flat(2).map(({ c }) => c.method))];
  const typed = /\.[cm]?tsx?$/.test(sourceFile.fileName);
  const answersType = typed ? answersTypeEdits(sourceFile, allHelperMethods) : undefined;
  if (typeof answersType === 'string') {
    for (const uses of helperUses.values()) uses.forEach((u) => reject(u, answersType));
    return { plans, edits };
  }
  let helpersRewritten = 0;
  for (const [helper, uses] of helperUses) {
    const first = uses[0]![0]!.c.source as Extract<ClientSource, { kind: 'helper' }>;
    const methods = [...new Set(uses.flat().map(({ c }) => c.method))].sort((a, b) => LEGACY_METHODS_ORDER.indexOf(a) - LEGACY_METHODS_ORDER.indexOf(b));
    const rewrite = helperEdits(helper, first.client, methods, sourceFile, answersType?.name);
    if (typeof rewrite === 'string') {
      uses.forEach((u) => reject(u, rewrite));
      continue;
    }
    helpersRewritten += 1;
    edits.push(...rewrite.edits);
    for (const accepted of uses) {
      const call = (accepted[0]!.c.source as Extract<ClientSource, { kind: 'helper' }>).call;
      const at = call.arguments.hasTrailingComma ? call.arguments.end - 1 : call.arguments.end;
      const answers = accepted.map(({ c }) => `'${c.method}': ${c.answerName}`).join(', ');
      edits.push({ start: at, end: at, text: `${call.arguments.length > 0 ? ', ' : ''}{ ${answers} }` }, ...accepted.flatMap(({ c }) => c.edits));
      for (const { index, c } of accepted) plans[index] = { rewritten: true, method: c.method, note: migratedNote(c) };
    }
  }
  if (answersType && helpersRewritten > 0) edits.push(...answersType.edits);
  return { plans, edits };
}
