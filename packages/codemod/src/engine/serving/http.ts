/**
 * Streamable HTTP hosting, the stateless per-request shape:
 *
 *     app.post('/mcp', async (req, res) => {
 *       const server = getServer();
 *       const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
 *       res.on('close', () => { transport.close(); server.close(); });
 *       await server.connect(transport);
 *       await transport.handleRequest(req, res, req.body);
 *     });
 *
 * becomes one module-level `const mcpHandler = toNodeHandler(createMcpHandler(getServer))` and
 * `await mcpHandler(req, res, req.body)` in the route (web-standard transports: `mcpHandler.fetch(request)`).
 * Everything else in the route (logging, try/catch, error responses) stays. Stateful hosting
 * (session ids, event stores, session maps) is not this shape and stays flagged.
 */
import { Node, SyntaxKind, type CallExpression, type Identifier, type NewExpression, type SourceFile, type Statement } from 'ts-morph';
import {
  JSON_RESPONSE_OPTION,
  LEGACY_SDK_PACKAGE,
  NODE_HTTP_TRANSPORTS,
  SERVER_CONNECT_METHOD,
  SESSION_ID_GENERATOR_OPTION,
  TARGET,
  TARGET_NODE_ADAPTER,
  TARGET_NODE_PACKAGE,
  TARGET_SERVER_PACKAGE,
  TARGET_NODE_TO_WEB_REQUEST,
  TRANSPORT_CLOSE_METHOD,
  TRANSPORT_HANDLE_METHOD,
} from '@mcp-mrtr/surface';
import { declarationOf, referencesOf, unwrapExpression, valueParent } from '../find/resolve.js';
import { dropUnusedImports, ensureNamedImports } from '../rewrite/imports.js';
import { flavourOf } from '../rewrite/module-flavour.js';
import { applyEdits, indentOf, indentUnit, statementRange, type TextEdit } from '../text-edits.js';
import { abbreviate } from './findings.js';
import { connectedServer, factoryFromCall, serverDeclaration, wrapConstruction } from './factory.js';
import { flag, SERVING_ADVICE, type ServingFinding } from './findings.js';

class NotRecognised extends Error {}
const fail = (why: string): never => {
  throw new NotRecognised(why);
};

type FunctionLike = Node;
const isFunctionLike = (n: Node): boolean => Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isFunctionDeclaration(n) || Node.isMethodDeclaration(n);

export function transportClassOf(created: NewExpression): string {
  return created.getExpression().getText().split('.').pop()!;
}

/** The rewrite of one served HTTP transport; undefined when an earlier run already did it. */
export function rewriteHttpHosting(sourceFile: SourceFile, created: NewExpression): ServingFinding | undefined {
  const cls = transportClassOf(created);
  try {
    return rewrite(sourceFile, created, cls);
  } catch (error) {
    if (!(error instanceof NotRecognised)) throw error;
    return flag(created, `${cls} hosting serves the 2025 era only; not rewritten: ${error.message}`, SERVING_ADVICE.http);
  }
}

function rewrite(sourceFile: SourceFile, created: NewExpression, cls: string): ServingFinding | undefined {
  const transportImport = sourceFile.getImportDeclarations().find((d) => d.getNamedImports().some((n) => n.getName() === cls));
  if (!transportImport) fail(`${cls} is not imported with an ES import`);
  if (transportImport!.getModuleSpecifierValue().startsWith(LEGACY_SDK_PACKAGE)) fail('the file still imports the v1 SDK');
  const options = transportOptions(created);
  if (options.stateful) return rewriteStateful(sourceFile, created, cls, options);
  if (options.unsupported) fail(`transport option '${options.unsupported}' has no createMcpHandler equivalent`);
  const handlerOptions = handlerOptionsText(options.json ? [`responseMode: 'json'`] : []);

  const { parent: holder, child } = valueParent(created);
  if (!holder || !Node.isVariableDeclaration(holder) || holder.getInitializer() !== child) return fail('the transport is not kept in a variable of its own');
  const transportName = holder.getNameNode();
  if (!Node.isIdentifier(transportName)) return fail('the transport variable is destructured');
  const transportStatement = holder.getVariableStatement();
  if (!transportStatement || transportStatement.getDeclarations().length !== 1) return fail('the transport is declared together with other variables');
  const route = created.getFirstAncestor(isFunctionLike);
  if (!route) return fail('one transport serves every request (created outside a request handler)');

  // every use of the transport: one connect, one handleRequest, any number of close() statements
  let connect: CallExpression | undefined;
  let handle: CallExpression | undefined;
  const closes: Node[] = [];
  for (const ref of sameFileReferences(transportName)) {
    const parent = ref.getParent();
    if (parent && Node.isCallExpression(parent) && parent.getArguments()[0] === ref && calledMethod(parent) === SERVER_CONNECT_METHOD && !connect) connect = parent;
    else if (parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref && Node.isCallExpression(parent.getParent()) && (parent.getParent() as CallExpression).getExpression() === parent) {
      const call = parent.getParent() as CallExpression;
      if (parent.getName() === TRANSPORT_HANDLE_METHOD && !handle) handle = call;
      else if (parent.getName() === TRANSPORT_CLOSE_METHOD) closes.push(closeStatement(call, `'${transportName.getText()}.close()'`));
      else fail(`'${transportName.getText()}.${parent.getName()}' (line ${ref.getStartLineNumber()}) has no createMcpHandler equivalent`);
    } else fail(`'${transportName.getText()}' is used for more than connecting and handling one request (line ${ref.getStartLineNumber()})`);
  }
  if (!connect) return fail('the transport is not connected in the same request handler');
  if (!handle) return fail(`'${transportName.getText()}.${TRANSPORT_HANDLE_METHOD}(...)' is not called in the same request handler`);
  for (const call of [connect, handle]) if (call.getFirstAncestor(isFunctionLike) !== route) fail('connect and handleRequest are not in the same function as the transport');
  const connectStatement = ownStatement(connect);
  if (!connectStatement || !Node.isExpressionStatement(connectStatement)) return fail(`the connect call (line ${connect.getStartLineNumber()}) is part of a larger expression`);

  const insertAt = topLevelStatement(route);
  const server = serverFactory(sourceFile, connect, route, insertAt);
  closes.push(...server.closes);

  const node = NODE_HTTP_TRANSPORTS.includes(cls);
  const { name: handlerName, declaration } = handlerFor(sourceFile, server.factory, handlerOptions, node);

  const removals = new Set<Node>([transportStatement, connectStatement, ...server.removals, ...closes.map((c) => callbackOwner(c, closes))]);
  const edits: TextEdit[] = [...server.edits];
  for (const removal of removals) {
    if ([...removals].some((other) => other !== removal && other.containsRange(removal.getPos(), removal.getEnd()))) continue;
    edits.push({ ...statementRange(sourceFile, removal), text: '' });
  }
  const callee = handle.getExpression();
  edits.push({ start: callee.getStart(), end: callee.getEnd(), text: node ? handlerName : `${handlerName}.fetch` });
  if (declaration) edits.push({ start: insertAt.getStart(), end: insertAt.getStart(), text: `${declaration}\n\n${indentOf(insertAt)}` });

  const original = abbreviate(handle.getText());
  const { line, column } = sourceFile.getLineAndColumnAtPos(created.getStart());
  const text = sourceFile.getFullText();
  sourceFile.replaceWithText(applyEdits(text, edits));
  ensureNamedImports(sourceFile, TARGET_SERVER_PACKAGE, [TARGET.createMcpHandler], [], flavourOf(sourceFile));
  if (node) ensureNamedImports(sourceFile, TARGET_NODE_PACKAGE, [TARGET_NODE_ADAPTER], [], flavourOf(sourceFile));
  dropUnusedImports(sourceFile, [cls]);
  return {
    method: 'serving',
    status: 'migrated',
    reason: `per-request ${cls} → ${TARGET.createMcpHandler}(${server.factory})${node ? ` via ${TARGET_NODE_ADAPTER}` : ''} (serves 2026-07-28 and 2025-era clients from one factory)`,
    advice: SERVING_ADVICE.http,
    line,
    column,
    text,
    snippet: original,
  };
}

interface TransportOptions {
  /** The transport issues session ids (`sessionIdGenerator` set to something). */
  stateful: boolean;
  json: boolean;
  /** An option with no `createMcpHandler` equivalent. */
  unsupported?: string;
}

function transportOptions(created: NewExpression): TransportOptions {
  const arg = unwrapExpression(created.getArguments()[0]);
  const options: TransportOptions = { stateful: false, json: false };
  if (!arg) return options;
  if (!Node.isObjectLiteralExpression(arg)) return fail('the transport options are not an object literal');
  for (const property of arg.getProperties()) {
    if (Node.isSpreadAssignment(property)) return fail(`transport options spread \`${abbreviate(property.getText())}\``);
    const name = (property as import('ts-morph').PropertyAssignment).getName();
    // `{ eventStore }` and `onsessioninitialized(id) {}` name an option too; only a literal value is read
    const value = Node.isPropertyAssignment(property) ? unwrapExpression(property.getInitializer())?.getText() : Node.isShorthandPropertyAssignment(property) ? name : undefined;
    if (name === SESSION_ID_GENERATOR_OPTION) options.stateful ||= value !== 'undefined';
    else if (name === JSON_RESPONSE_OPTION && (value === 'true' || value === 'false')) options.json = value === 'true';
    else options.unsupported ??= name;
  }
  return options;
}

function handlerOptionsText(entries: string[]): string | undefined {
  return entries.length > 0 ? `{ ${entries.join(', ')} }` : undefined;
}

/** The other references of a name in its own file; the rewrite fails when the language service cannot list them. */
function sameFileReferences(name: Identifier): Node[] {
  const references = referencesOf(name) ?? fail(`the uses of '${name.getText()}' could not be listed`);
  return references.filter((r) => r !== name && r.getSourceFile() === name.getSourceFile());
}

function calledMethod(call: CallExpression): string | undefined {
  const callee = unwrapExpression(call.getExpression());
  return callee && Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined;
}

/** The expression statement a call is on its own (`x.close();`, `await x.close();`, `void x.close();`). */
function ownStatement(call: CallExpression): Node | undefined {
  let node: Node = call;
  let parent = node.getParent();
  while (parent && (Node.isAwaitExpression(parent) || Node.isVoidExpression(parent) || Node.isParenthesizedExpression(parent))) {
    node = parent;
    parent = parent.getParent();
  }
  if (parent && Node.isExpressionStatement(parent)) return parent;
  if (parent && Node.isArrowFunction(parent) && parent.getBody() === node) return parent;
  return undefined;
}

/** A `close()` of the transport or the server: its statement, or the arrow function whose body it is. */
function closeStatement(call: CallExpression, what: string): Node {
  if (call.getArguments().length > 0) fail(`${what} (line ${call.getStartLineNumber()}) takes arguments`);
  return ownStatement(call) ?? fail(`${what} (line ${call.getStartLineNumber()}) is part of a larger expression`);
}

/**
 * What to remove for a close: its statement, or the whole `res.on('close', cb)` when the callback
 * does nothing else.
 */
function callbackOwner(closing: Node, closes: Node[]): Node {
  const fn = Node.isArrowFunction(closing) ? closing : closing.getParent()?.getParent();
  if (!fn || !(Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return closing;
  if (!Node.isArrowFunction(closing) || fn !== closing) {
    const body = fn.getBody();
    if (!Node.isBlock(body) || closing.getParent() !== body) return closing;
    if (body.getStatements().some((s) => !closes.includes(s))) return closing;
  }
  const call = fn.getParent();
  const statement = call && Node.isCallExpression(call) && call.getArguments().includes(fn) ? ownStatement(call) : undefined;
  return statement && Node.isExpressionStatement(statement) ? statement : closing;
}

function topLevelStatement(node: Node): Statement {
  let current: Node = node;
  while (current.getParent() && !Node.isSourceFile(current.getParent()!)) current = current.getParent()!;
  return current as Statement;
}

interface ServerFactory {
  factory: string;
  removals: Node[];
  closes: Node[];
  /** Wrapping a module-level construction into the factory. */
  edits: TextEdit[];
}

/** The factory that builds the server connected per request, and the statements that become obsolete. */
function serverFactory(sourceFile: SourceFile, connect: CallExpression, route: FunctionLike, insertAt: Statement): ServerFactory {
  const inner = connectedServer(connect);
  if (Node.isCallExpression(inner)) return { factory: resolvableFactory(inner, route, insertAt), removals: [], closes: [], edits: [] };
  if (!Node.isIdentifier(inner)) return fail('the server expression is not a factory call or a variable');
  const found = serverDeclaration(inner, sourceFile);
  if (typeof found === 'string') return fail(found);
  const { declaration: decl, statement, nameNode, init } = found;
  const initInner = init && Node.isAwaitExpression(init) ? unwrapExpression(init.getExpression()) : init;
  const inRoute = route.containsRange(decl.getPos(), decl.getEnd());
  const name = nameNode.getText();
  const closes: Node[] = [];
  const outside: Node[] = [];
  for (const ref of sameFileReferences(nameNode)) {
    if (connect.containsRange(ref.getPos(), ref.getEnd())) continue;
    if (route.containsRange(ref.getPos(), ref.getEnd())) {
      const access = ref.getParent();
      const call = access?.getParent();
      if (access && Node.isPropertyAccessExpression(access) && access.getName() === TRANSPORT_CLOSE_METHOD && call && Node.isCallExpression(call) && call.getExpression() === access) {
        closes.push(closeStatement(call, `'${name}.close()'`));
      } else fail(`'${name}' is used for more than connecting in the request handler (line ${ref.getStartLineNumber()})`);
    } else outside.push(ref);
  }
  if (inRoute) {
    if (!initInner || !Node.isCallExpression(initInner)) return fail(`'${name}' is not built by a factory call`);
    return { factory: resolvableFactory(initInner, route, insertAt), removals: [statement], closes, edits: [] };
  }
  if (!Node.isSourceFile(statement.getParent()) || statement.isExported()) return fail(`'${name}' is neither built in the request handler nor a module-level variable of this file`);
  if (initInner && Node.isCallExpression(initInner)) {
    if (outside.length > 0) fail(`the module-level server '${name}' is also used outside the request handler (line ${outside[0]!.getStartLineNumber()})`);
    return { factory: resolvableFactory(initInner, route, insertAt), removals: [statement], closes, edits: [] };
  }
  if (initInner && Node.isNewExpression(initInner)) {
    const wrapped = wrapConstruction(sourceFile, statement, name, outside, insertAt);
    if (typeof wrapped === 'string') return fail(wrapped);
    return { factory: wrapped.name, removals: [], closes, edits: wrapped.edits };
  }
  return fail(`'${name}' is not built by a factory call or a construction in this file`);
}

/** Factory text for a call, if every name it uses is available at module level before `insertAt`. */
function resolvableFactory(call: CallExpression, route: FunctionLike, insertAt: Statement): string {
  const factory = factoryFromCall(call);
  if (!factory) return fail('the server comes from a call with non-trivial arguments');
  const names = [call.getExpression(), ...call.getArguments()].map((n) => {
    let root = unwrapExpression(n);
    while (root && Node.isPropertyAccessExpression(root)) root = root.getExpression();
    return root;
  });
  for (const name of names) {
    if (!name || Node.isStringLiteral(name) || Node.isNumericLiteral(name)) continue;
    if (!Node.isIdentifier(name)) return fail(`the factory \`${abbreviate(call.getExpression().getText())}\` is not reachable from module scope`);
    const decl = declarationOf(name);
    if (!decl) fail(`'${name.getText()}' cannot be resolved`);
    if (route.containsRange(decl!.getPos(), decl!.getEnd())) fail(`the factory uses '${name.getText()}', which is local to the request handler`);
    const imported = Node.isImportSpecifier(decl!) || Node.isImportClause(decl!) || Node.isNamespaceImport(decl!);
    // the declaring statement itself must sit at module level (a const inside main() is not in scope there)
    const statement = Node.isVariableDeclaration(decl!) ? decl.getVariableStatement() : decl!;
    if (!imported && !(statement && Node.isSourceFile(statement.getParent()))) fail(`the factory uses '${name.getText()}', which is not declared at module level`);
    if (!imported && !Node.isFunctionDeclaration(decl!) && statement!.getStart() >= insertAt.getStart()) fail(`the factory uses '${name.getText()}', declared after the request handler`);
  }
  return factory;
}

/** A module-level handler for this factory: an existing one (a second route) or a new declaration. */
function handlerFor(sourceFile: SourceFile, factory: string, options: string | undefined, node: boolean): { name: string; declaration?: string } {
  const core = `${TARGET.createMcpHandler}(${factory}${options ? `, ${options}` : ''})`;
  const init = node ? `${TARGET_NODE_ADAPTER}(${core})` : core;
  for (const statement of sourceFile.getVariableStatements()) {
    const only = statement.getDeclarations().length === 1 ? statement.getDeclarations()[0]! : undefined;
    if (only && only.getInitializer()?.getText() === init) return { name: only.getName() };
  }
  const taken = new Set(sourceFile.getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
  let name = 'mcpHandler';
  for (let i = 2; taken.has(name); i++) name = `mcpHandler${i}`;
  return { name, declaration: `const ${name} = ${init};` };
}

/**
 * Stateful hosting (session ids, session maps, event stores) keeps serving 2025-era clients as it
 * is; 2026-07-28 requests are routed ahead of it to a stateless `createMcpHandler(factory)`
 * (`legacy: 'reject'`, the SDK's documented composition with `isLegacyRequest`). Needs the route to
 * hand the transport a parsed body, so classifying the request does not consume the stream.
 */
function rewriteStateful(sourceFile: SourceFile, created: NewExpression, cls: string, options: TransportOptions): ServingFinding | undefined {
  if (!NODE_HTTP_TRANSPORTS.includes(cls)) return fail('stateful hosting (the transport issues session ids) on a web-standard transport');
  const route = created.getFirstAncestor(isFunctionLike);
  const stateful = 'stateful hosting (the transport issues session ids)';
  if (!route || !(Node.isArrowFunction(route) || Node.isFunctionExpression(route))) return fail(`${stateful} outside a request handler callback`);
  if (route.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === TARGET.isLegacyRequest)) return undefined; // dispatch already in place
  const params = route.getParameters().slice(0, 2).map((p) => p.getNameNode());
  if (params.length < 2 || !params.every((p) => Node.isIdentifier(p))) return fail(`${stateful}: the request handler does not take (req, res)`);
  const [req, res] = params.map((p) => p.getText()) as [string, string];
  if (!route.isAsync()) return fail(`${stateful}: the request handler is not async`);
  const body = route.getBody();
  if (!Node.isBlock(body) || body.getStatements().length === 0) return fail(`${stateful}: the request handler has no statement block`);

  let parsedBody: string | undefined;
  const handles = route.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => calledMethod(c) === TRANSPORT_HANDLE_METHOD && c.getFirstAncestor(isFunctionLike) === route);
  if (handles.length === 0) return fail(`${stateful}: no ${TRANSPORT_HANDLE_METHOD}(...) in the request handler`);
  for (const handle of handles) {
    const args = handle.getArguments();
    if (args.length !== 3 || args[0]!.getText() !== req || args[1]!.getText() !== res) {
      return fail(`${stateful}: ${TRANSPORT_HANDLE_METHOD} (line ${handle.getStartLineNumber()}) reads the request body itself; routing 2026-07-28 requests first needs a parsed body (e.g. express.json() and req.body)`);
    }
    const text = args[2]!.getText();
    if (parsedBody !== undefined && parsedBody !== text) return fail(`${stateful}: ${TRANSPORT_HANDLE_METHOD} is given different bodies`);
    if (!text.startsWith(`${req}.`)) return fail(`${stateful}: the parsed body \`${abbreviate(text)}\` is not read from the request`);
    parsedBody = text;
  }

  const connect = connectOf(created, route);
  const insertAt = topLevelStatement(route);
  const { factory, edits: factoryEdits } = factoryOfReceiver(connect, route, insertAt, stateful);
  const handlerOptions = handlerOptionsText([`legacy: 'reject'`, ...(options.json ? [`responseMode: 'json'`] : [])]);
  const { name: handlerName, declaration } = handlerFor(sourceFile, factory, handlerOptions, true);

  const first = body.getStatements()[0]!;
  const indent = indentOf(first);
  const unit = indentUnit(sourceFile);
  const dispatch = [
    `// 2026-07-28 requests: stateless, one server per request; the session wiring below serves 2025-era clients`,
    `if (!(await ${TARGET.isLegacyRequest}(await ${TARGET_NODE_TO_WEB_REQUEST}(${req}, ${parsedBody}), ${parsedBody}))) {`,
    `${unit}await ${handlerName}(${req}, ${res}, ${parsedBody});`,
    `${unit}return;`,
    `}`,
  ].join(`\n${indent}`);
  const edits: TextEdit[] = [...factoryEdits, { start: first.getStart(), end: first.getStart(), text: `${dispatch}\n${indent}` }];
  if (declaration) edits.push({ start: insertAt.getStart(), end: insertAt.getStart(), text: `${declaration}\n\n${indentOf(insertAt)}` });
  const { line, column } = sourceFile.getLineAndColumnAtPos(created.getStart());
  const snippet = abbreviate(created.getText());
  const text = sourceFile.getFullText();
  sourceFile.replaceWithText(applyEdits(text, edits));
  ensureNamedImports(sourceFile, TARGET_SERVER_PACKAGE, [TARGET.createMcpHandler, TARGET.isLegacyRequest], [], flavourOf(sourceFile));
  ensureNamedImports(sourceFile, TARGET_NODE_PACKAGE, [TARGET_NODE_ADAPTER, TARGET_NODE_TO_WEB_REQUEST], [], flavourOf(sourceFile));
  return {
    method: 'serving',
    status: 'migrated',
    reason: `stateful ${cls}: 2026-07-28 requests are routed first to ${TARGET.createMcpHandler}(${factory}) (stateless); the session wiring is kept for 2025-era clients`,
    advice: SERVING_ADVICE.http,
    line,
    column,
    text,
    snippet,
  };
}

/** The `<server>.connect(<transport>)` call for a transport assigned to a variable in the route. */
function connectOf(created: NewExpression, route: Node): CallExpression {
  const { parent, child } = valueParent(created);
  let holder: string | undefined;
  if (parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === child) holder = parent.getName();
  else if (parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === child) holder = unwrapExpression(parent.getLeft())?.getText();
  if (!holder) return fail('the transport is not kept in a variable');
  const connects = route
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .filter((c) => calledMethod(c) === SERVER_CONNECT_METHOD && unwrapExpression(c.getArguments()[0])?.getText() === holder);
  if (connects.length !== 1) return fail(`the transport is connected ${connects.length === 0 ? 'outside the request handler' : 'more than once'}`);
  return connects[0]!;
}

/**
 * The factory of the server connected by `connect`: a factory call, a variable holding one, or a
 * module-level construction whose registrations are wrapped into a factory (its other connects,
 * e.g. the session wiring's, then connect a fresh instance each: one server per session).
 */
function factoryOfReceiver(connect: CallExpression, route: FunctionLike, insertAt: Statement, what: string): { factory: string; edits: TextEdit[] } {
  const sourceFile = connect.getSourceFile();
  const inner = connectedServer(connect);
  if (Node.isCallExpression(inner)) return { factory: resolvableFactory(inner, route, insertAt), edits: [] };
  if (Node.isIdentifier(inner)) {
    const decl = declarationOf(inner);
    const init = decl && Node.isVariableDeclaration(decl) ? unwrapExpression(decl.getInitializer()) : undefined;
    const call = init && Node.isAwaitExpression(init) ? unwrapExpression(init.getExpression()) : init;
    if (call && Node.isCallExpression(call)) return { factory: resolvableFactory(call, route, insertAt), edits: [] };
    if (call && Node.isNewExpression(call) && Node.isVariableDeclaration(decl!)) return wrapSingleton(sourceFile, decl, insertAt, what);
  }
  return fail(`${what}: the connected server is not built by a factory call`);
}

function wrapSingleton(sourceFile: SourceFile, decl: import('ts-morph').VariableDeclaration, insertAt: Statement, what: string): { factory: string; edits: TextEdit[] } {
  const statement = decl.getVariableStatement();
  const nameNode = decl.getNameNode();
  if (!statement || statement.getDeclarations().length !== 1 || statement.isExported() || !Node.isSourceFile(statement.getParent()) || !Node.isIdentifier(nameNode)) {
    return fail(`${what}: the connected server is neither a factory call nor a module-level construction of its own`);
  }
  const name = nameNode.getText();
  const connects: Node[] = [];
  const setUp: Node[] = [];
  for (const ref of sameFileReferences(nameNode)) {
    const access = ref.getParent();
    const isConnect = access && Node.isPropertyAccessExpression(access) && access.getExpression() === ref && access.getName() === SERVER_CONNECT_METHOD && Node.isCallExpression(access.getParent());
    if (isConnect && ref.getFirstAncestor(isFunctionLike)) connects.push(ref);
    else setUp.push(ref);
  }
  const wrapped = wrapConstruction(sourceFile, statement, name, setUp, insertAt);
  if (typeof wrapped === 'string') return fail(`${what}: ${wrapped}`);
  const edits = [...wrapped.edits];
  for (const ref of connects) edits.push({ start: ref.getStart(), end: ref.getEnd(), text: `${wrapped.name}()` });
  return { factory: wrapped.name, edits };
}
