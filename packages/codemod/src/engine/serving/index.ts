/**
 * Serving the 2026-07-28 revision (issue 5). A server connected with
 * `server.connect(new StdioServerTransport())` or hosted with `StreamableHTTPServerTransport` / SSE
 * speaks only the 2025 era.
 *
 * - stdio, recognisable shapes: the server comes from a factory call (`createServer()`), or its
 *   construction and registrations can be wrapped into one; rewritten to
 *   `serveStdio(factory)` from `@modelcontextprotocol/server/stdio`.
 * - Streamable HTTP / SSE hosting and every stdio shape that is not recognisable: flagged with the
 *   exact replacement.
 * - Per-session state (maps keyed by a session id): flagged.
 */
import { Node, SyntaxKind, type CallExpression, type NewExpression, type SourceFile, type Statement } from 'ts-morph';
import {
  HTTP_TRANSPORTS,
  LEGACY_SDK_PACKAGE,
  LEGACY_TRANSPORTS,
  SERVER_CLASSES,
  SERVER_CONNECT_METHOD,
  SERVER_LIKE_NAME_PATTERN,
  SESSION_ID_PROPERTY,
  SSE_TRANSPORTS,
  STDIO_TRANSPORT,
  TARGET,
  TARGET_SERVER_PACKAGE,
  TARGET_SERVER_STDIO_ENTRY,
} from '@mcp-mrtr/surface';
import { isServerReceiver, type FindContext } from '../find/receivers.js';
import { classifyType, declarationOf, safeType, unwrapExpression, valueParent } from '../find/resolve.js';
import { speaksMcp } from '../prefilter.js';

export interface ServingFinding {
  method: 'serving' | 'session-state';
  status: 'migrated' | 'flagged';
  reason: string;
  advice?: string;
  /** Node to mark (flagged findings); absent once rewritten. */
  node?: Node;
  line: number;
  column: number;
  snippet?: string;
}

const STDIO = STDIO_TRANSPORT;
const ALL_TRANSPORTS = [...LEGACY_TRANSPORTS, ...HTTP_TRANSPORTS, ...SSE_TRANSPORTS];

export const SERVING_ADVICE = {
  stdio: `serve with ${TARGET.serveStdio}(createServer) from '${TARGET_SERVER_STDIO_ENTRY}', where createServer() builds and returns the server with its registrations (one instance per connection); server.connect(new ${STDIO}()) serves 2025-era clients only`,
  http: `serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' (one server per request from a factory; legacy 2025 clients keep working through its stateless fallback): handler.fetch(request) on fetch-native runtimes, toNodeHandler(handler) from '@modelcontextprotocol/node' for Express/node:http; drop the per-session transport map`,
  sse: `the SSE transport predates Streamable HTTP: serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' instead`,
  session: `2026-07-28 requests are stateless and may land on any instance: keep nothing keyed by session id between requests; carry per-flow data in requestState (sealed) or in shared storage keyed by the principal`,
} as const;

export function applyServingRewrites(sourceFile: SourceFile, ctx: FindContext): ServingFinding[] {
  const text = sourceFile.getFullText();
  const mentionsTransport = ALL_TRANSPORTS.some((t) => text.includes(t));
  const findings: ServingFinding[] = [];
  if (mentionsTransport) {
    for (const connect of connectCalls(sourceFile)) {
      const outcome = rewriteStdioConnect(sourceFile, connect);
      findings.push(outcome);
      if (outcome.status === 'migrated') break; // the file changed: remaining shapes are handled on the next pass
    }
    if (findings.some((f) => f.status === 'migrated')) {
      // nodes were replaced: look again for what is left (a second stdio connect, HTTP hosting)
      return [...findings, ...applyServingRewrites(sourceFile, ctx)];
    }
    const served = servedTransports(sourceFile, ctx);
    for (const created of sourceFile.getDescendantsOfKind(SyntaxKind.NewExpression)) {
      const cls = transportClassOf(created);
      const http = HTTP_TRANSPORTS.includes(cls);
      if (!http && !SSE_TRANSPORTS.includes(cls)) continue;
      if (!served.has(created)) continue; // a transport built but never connected to a server here (library code, wrappers)
      findings.push(flag(created, http ? `${cls} hosting serves the 2025 era only` : `${cls} hosting serves the 2024/2025 era only`, http ? SERVING_ADVICE.http : SERVING_ADVICE.sse));
    }
  }
  // session maps are an MCP concern only in files that speak MCP (a web app's `req.sessionId` cache is not)
  if (text.includes(SESSION_ID_PROPERTY) && speaksMcp(text)) findings.push(...sessionStateFindings(sourceFile));
  return findings;
}

function transportClassOf(created: NewExpression): string {
  return created.getExpression().getText().split('.').pop()!;
}

/**
 * HTTP/SSE transport constructions that this file hands to `<server>.connect(...)`: inline
 * (`server.connect(new X())`), through a variable (`const t = new X(); server.connect(t)`, also
 * assigned later) or through a property of the same class (`this.t = new X(); this.server.connect(this.t)`).
 * Constructions that never reach a server's connect (the SDK's own wrappers) are not hosting.
 */
function servedTransports(sourceFile: SourceFile, ctx: FindContext): Set<Node> {
  const served = new Set<Node>();
  const connectedHolders = new Set<string | Node>();
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== SERVER_CONNECT_METHOD) continue;
    const arg = unwrapExpression(call.getArguments()[0]);
    if (!arg || !connectsServer(callee.getExpression(), ctx)) continue;
    if (Node.isNewExpression(arg)) served.add(arg);
    else {
      const holder = holderKey(arg);
      if (holder !== undefined) connectedHolders.add(holder);
    }
  }
  if (connectedHolders.size === 0) return served;
  for (const created of sourceFile.getDescendantsOfKind(SyntaxKind.NewExpression)) {
    const cls = transportClassOf(created);
    if (!HTTP_TRANSPORTS.includes(cls) && !SSE_TRANSPORTS.includes(cls)) continue;
    const { parent, child } = valueParent(created);
    let holder: string | Node | undefined;
    if (parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === child) holder = parent;
    else if (parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === child) {
      holder = holderKey(unwrapExpression(parent.getLeft()));
    }
    if (holder !== undefined && connectedHolders.has(holder)) served.add(created);
  }
  return served;
}

/** What a transport is kept in: the variable's declaration, or `<class>#<property>` for `this.<property>`. */
function holderKey(node: Node | undefined): string | Node | undefined {
  if (!node) return undefined;
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    return decl && Node.isVariableDeclaration(decl) ? decl : undefined;
  }
  if (Node.isPropertyAccessExpression(node) && Node.isThisExpression(node.getExpression())) {
    const cls = node.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
    return cls ? `${cls.getPos()}#${node.getName()}` : undefined;
  }
  return undefined;
}

/**
 * The receiver of `.connect(...)` is an MCP server: the find stage's receiver evidence, or a call of
 * a server-named factory (`createServer().connect(t)`), or (with types) an expression typed as one.
 */
function connectsServer(receiver: Node, ctx: FindContext): boolean {
  const node = unwrapExpression(receiver);
  if (!node) return false;
  if (isServerReceiver(node, ctx)) return true;
  const inner = Node.isAwaitExpression(node) ? unwrapExpression(node.getExpression()) : node;
  if (!inner) return false;
  const type = ctx.typeChecked ? safeType(inner) : undefined;
  const typed = type ? classifyType(type, SERVER_CLASSES) : 'unknown';
  if (typed === 'mcp') return true;
  if (Node.isCallExpression(inner)) {
    const callee = unwrapExpression(inner.getExpression());
    const name = callee && (Node.isIdentifier(callee) ? callee.getText() : Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined);
    return name !== undefined && SERVER_LIKE_NAME_PATTERN.test(name) && typed !== 'other';
  }
  return false;
}

function flag(node: Node, reason: string, advice: string): ServingFinding {
  const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
  return { method: 'serving', status: 'flagged', reason, advice, node, line, column, snippet: abbreviate(node.getText()) };
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** `x.connect(transport)` where the transport is a `new StdioServerTransport(...)` (inline or via a const). */
function connectCalls(sourceFile: SourceFile): CallExpression[] {
  const out: CallExpression[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== SERVER_CONNECT_METHOD) continue;
    if (stdioTransportOf(call.getArguments()[0])) out.push(call);
  }
  return out;
}

function stdioTransportOf(arg: Node | undefined): { inline: boolean; declaration?: import('ts-morph').VariableStatement; name?: string } | undefined {
  const node = unwrapExpression(arg);
  if (!node) return undefined;
  if (Node.isNewExpression(node) && node.getExpression().getText() === STDIO) return { inline: true };
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    if (decl && Node.isVariableDeclaration(decl)) {
      const init = unwrapExpression(decl.getInitializer());
      if (init && Node.isNewExpression(init) && init.getExpression().getText() === STDIO) {
        const statement = decl.getVariableStatement();
        return { inline: false, declaration: statement, name: node.getText() };
      }
    }
  }
  return undefined;
}

function rewriteStdioConnect(sourceFile: SourceFile, connect: CallExpression): ServingFinding {
  const notRecognised = (why: string) => flag(connect, `server.connect(new ${STDIO}()) serves the 2025 era only; not rewritten: ${why}`, SERVING_ADVICE.stdio);
  const stdioImport = sourceFile.getImportDeclarations().find((d) => d.getNamedImports().some((n) => n.getName() === STDIO));
  if (!stdioImport) return notRecognised(`${STDIO} is not imported with an ES import`);
  const module = stdioImport.getModuleSpecifierValue();
  if (module.startsWith(LEGACY_SDK_PACKAGE)) return notRecognised('the file still imports the v1 SDK');

  // the connect call must be a statement of its own (optionally awaited)
  const { parent } = valueParent(connect);
  if (!parent || !Node.isExpressionStatement(parent)) return notRecognised('the connect call is part of a larger expression');
  const connectStatement = parent;
  const transport = stdioTransportOf(connect.getArguments()[0])!;
  const receiver = unwrapExpression((connect.getExpression() as import('ts-morph').PropertyAccessExpression).getExpression())!;

  let factory: string | undefined;
  const removals: Node[] = [];
  let prelude: { at: Statement; text: string } | undefined;
  const awaitedReceiver = Node.isAwaitExpression(receiver) ? unwrapExpression(receiver.getExpression())! : receiver;

  if (Node.isCallExpression(awaitedReceiver)) {
    factory = factoryFromCall(awaitedReceiver);
    if (!factory) return notRecognised('the server comes from a call with non-trivial arguments');
  } else if (Node.isIdentifier(awaitedReceiver)) {
    const decl = declarationOf(awaitedReceiver);
    if (!decl || !Node.isVariableDeclaration(decl) || decl.getSourceFile() !== sourceFile) return notRecognised('the server variable is not declared in this file');
    const statement = decl.getVariableStatement();
    if (!statement || statement.getDeclarations().length !== 1 || statement.isExported()) return notRecognised('the server variable is exported or declared together with others');
    const nameNode = decl.getNameNode();
    if (!Node.isIdentifier(nameNode)) return notRecognised('the server variable is destructured');
    const references = nameNode.findReferencesAsNodes().filter((r) => r !== nameNode && r.getSourceFile() === sourceFile);
    const init = unwrapExpression(decl.getInitializer());
    const initInner = init && Node.isAwaitExpression(init) ? unwrapExpression(init.getExpression()) : init;
    const otherUses = references.filter((r) => !connect.containsRange(r.getPos(), r.getEnd()));
    if (initInner && Node.isCallExpression(initInner)) {
      if (otherUses.length > 0) return notRecognised(`'${nameNode.getText()}' is used after connecting (serveStdio owns the instance)`);
      factory = factoryFromCall(initInner);
      if (!factory) return notRecognised('the server comes from a call with non-trivial arguments');
      removals.push(statement);
    } else if (initInner && Node.isNewExpression(initInner)) {
      const wrapped = wrapConstruction(sourceFile, statement, nameNode.getText(), otherUses, connectStatement);
      if (typeof wrapped === 'string') return notRecognised(wrapped);
      factory = wrapped.name;
      prelude = { at: statement, text: wrapped.text };
      removals.push(statement, ...wrapped.moved);
    } else {
      return notRecognised('the server is not built by a factory call or a construction in this file');
    }
  } else {
    return notRecognised('the server expression is not a factory call or a variable');
  }

  // transport: drop a dedicated `const transport = new StdioServerTransport()` used only here
  let options = '';
  if (!transport.inline && transport.declaration) {
    const decl = transport.declaration.getDeclarations()[0]!;
    const nameNode = decl.getNameNode();
    const uses = Node.isIdentifier(nameNode)
      ? nameNode.findReferencesAsNodes().filter((r) => r !== nameNode && !connect.containsRange(r.getPos(), r.getEnd()))
      : [];
    if (uses.length === 0 && transport.declaration.getDeclarations().length === 1) removals.push(transport.declaration);
    else options = `, { transport: ${transport.name} }`;
  }

  const original = abbreviate(connectStatement.getText());
  const { line, column } = sourceFile.getLineAndColumnAtPos(connect.getStart());
  const replacement = `${TARGET.serveStdio}(${factory}${options});`;

  // edit bottom-up by text ranges so earlier positions stay valid
  const edits: Array<{ start: number; end: number; text: string }> = [];
  edits.push({ start: connectStatement.getStart(), end: connectStatement.getEnd(), text: replacement });
  for (const node of removals) {
    const range = statementRange(sourceFile, node);
    if (prelude && node === prelude.at) edits.push({ start: node.getStart(), end: node.getEnd(), text: prelude.text });
    else edits.push({ ...range, text: '' });
  }
  let next = sourceFile.getFullText();
  for (const edit of edits.sort((a, b) => b.start - a.start)) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  sourceFile.replaceWithText(next);
  fixStdioImports(sourceFile);
  return {
    method: 'serving',
    status: 'migrated',
    reason: `${original} → ${replacement} (serves 2026-07-28 and 2025-era clients from one factory)`,
    line,
    column,
    snippet: original,
  };
}

/** `createServer()` / `createServer(config)` with trivially re-evaluable arguments → factory text. */
function factoryFromCall(call: CallExpression): string | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!callee || !(Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee))) return undefined;
  const args = call.getArguments();
  if (args.length === 0) return callee.getText();
  const simple = args.every((a) => Node.isIdentifier(a) || Node.isStringLiteral(a) || Node.isNumericLiteral(a) || Node.isPropertyAccessExpression(a));
  return simple ? `() => ${call.getText()}` : undefined;
}

/**
 * `const server = new McpServer(...)` followed by statements that only register on it: the factory
 * function that builds it (declared where the construction was), or why that is not safe.
 */
function wrapConstruction(
  sourceFile: SourceFile,
  declaration: Statement,
  name: string,
  uses: Node[],
  connectStatement: Statement,
): { name: string; text: string; moved: Statement[] } | string {
  const list = declaration.getParent();
  if (!list || !(Node.isSourceFile(list) || Node.isBlock(list))) return 'the server is not constructed at statement level';
  const siblings = (list as unknown as { getStatements(): Statement[] }).getStatements();
  const moved: Statement[] = [];
  for (const use of uses) {
    const statement = siblings.find((s) => s.containsRange(use.getPos(), use.getEnd()));
    if (!statement || statement === connectStatement) return `'${name}' is used outside the statements that set it up`;
    if (statement.getStart() < declaration.getStart() || statement.getStart() > connectStatement.getStart()) return `'${name}' is used after connecting (serveStdio owns the instance)`;
    if (!Node.isExpressionStatement(statement) || !isSetUpStatement(statement.getExpression(), name)) return `'${name}' is used in a statement that is not a registration on it`;
    if (statement.getDescendantsOfKind(SyntaxKind.AwaitExpression).some((a) => !a.getFirstAncestor((x) => Node.isFunctionLikeDeclaration(x) || Node.isArrowFunction(x) || Node.isFunctionExpression(x))))
      return 'a registration awaits at the top level';
    if (!moved.includes(statement)) moved.push(statement);
  }
  moved.sort((a, b) => a.getStart() - b.getStart());
  const taken = new Set(sourceFile.getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
  let factory = 'createServer';
  for (let i = 2; taken.has(factory); i++) factory = i === 2 ? 'createMcpServer' : `createMcpServer${i - 1}`;
  const indent = indentOf(sourceFile, declaration);
  const unit = /\n( +|\t)\S/.exec(sourceFile.getFullText())?.[1] ?? '  ';
  const body = [declaration, ...moved].map((s) => reindent(s.getText(), indentOf(sourceFile, s), indent + unit)).join('\n');
  const text = `function ${factory}() {\n${body}\n${indent}${unit}return ${name};\n${indent}}`;
  return { name: factory, text, moved };
}

/** `server.registerTool(...)`, `server.server.oninitialized = ...`, `registerTools(server)`. */
function isSetUpStatement(expr: Node, name: string): boolean {
  if (leftmostIdentifier(expr) === name) return true;
  const call = unwrapExpression(expr);
  return (
    call !== undefined &&
    Node.isCallExpression(call) &&
    call.getArguments().some((a) => {
      const arg = unwrapExpression(a);
      return arg !== undefined && Node.isIdentifier(arg) && arg.getText() === name;
    })
  );
}

function leftmostIdentifier(expr: Node): string | undefined {
  let node: Node | undefined = expr;
  while (node) {
    if (Node.isIdentifier(node)) return node.getText();
    if (Node.isCallExpression(node) || Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node) || Node.isNonNullExpression(node)) node = node.getExpression();
    else if (Node.isBinaryExpression(node)) node = node.getLeft();
    else return undefined;
  }
  return undefined;
}

function indentOf(sourceFile: SourceFile, node: Node): string {
  const text = sourceFile.getFullText();
  const lineStart = text.lastIndexOf('\n', node.getStart() - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function reindent(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? to + line : line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}

/** The statement with its line (indentation and line break) so removal leaves no blank line. */
function statementRange(sourceFile: SourceFile, node: Node): { start: number; end: number } {
  const text = sourceFile.getFullText();
  let start = node.getStart();
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, start))) start = lineStart;
  let end = node.getEnd();
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd >= 0 && /^[ \t]*\r?$/.test(text.slice(end, lineEnd))) end = lineEnd + 1;
  return { start, end };
}

function fixStdioImports(sourceFile: SourceFile): void {
  const stillUsed = sourceFile
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .some((i) => i.getText() === STDIO && !i.getFirstAncestorByKind(SyntaxKind.ImportDeclaration));
  const stdioImport = sourceFile.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === TARGET_SERVER_STDIO_ENTRY);
  if (!stillUsed) {
    for (const decl of sourceFile.getImportDeclarations()) {
      for (const named of decl.getNamedImports()) if (named.getName() === STDIO) named.remove();
      if (decl.getNamedImports().length === 0 && !decl.getDefaultImport() && !decl.getNamespaceImport() && decl !== stdioImport) decl.remove();
    }
  }
  const target = sourceFile.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === TARGET_SERVER_STDIO_ENTRY);
  if (target) {
    if (!target.getNamedImports().some((n) => n.getName() === TARGET.serveStdio)) target.addNamedImport(TARGET.serveStdio);
  } else {
    const imports = sourceFile.getImportDeclarations();
    const inserted = sourceFile.insertImportDeclaration(imports.length, { moduleSpecifier: TARGET_SERVER_STDIO_ENTRY, namedImports: [TARGET.serveStdio] });
    matchQuoteStyle(inserted.getModuleSpecifier(), imports[0]?.getModuleSpecifier().getText());
  }
  const afterTarget = sourceFile.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === TARGET_SERVER_STDIO_ENTRY);
  if (afterTarget && afterTarget.getNamedImports().length === 0 && !afterTarget.getDefaultImport() && !afterTarget.getNamespaceImport()) afterTarget.remove();
}

const SESSION_MAP_METHODS = ['set', 'get', 'has', 'delete'];

/** Maps/records used with a session-id key: `transports[sessionId] = ...`, `map.set(extra.sessionId, ...)`. */
function sessionStateFindings(sourceFile: SourceFile): ServingFinding[] {
  const flagged = new Set<Node>();
  const findings: ServingFinding[] = [];
  const consider = (container: Node | undefined, key: Node | undefined) => {
    if (!container || !key || !/sessionId/i.test(key.getText())) return;
    const target = unwrapExpression(container);
    if (!target || !Node.isIdentifier(target)) return;
    const decl = declarationOf(target);
    const statement = decl && Node.isVariableDeclaration(decl) ? decl.getVariableStatement() : undefined;
    const node = statement ?? target;
    if (flagged.has(node) || node.getSourceFile() !== sourceFile) return;
    flagged.add(node);
    const f = flag(node, `per-session state: '${target.getText()}' is keyed by session id`, SERVING_ADVICE.session);
    findings.push({ ...f, method: 'session-state' });
  };
  // keyed reads count too: `transports[sessionId]` marks the record even when writes use another name
  for (const access of sourceFile.getDescendantsOfKind(SyntaxKind.ElementAccessExpression)) {
    consider(access.getExpression(), access.getArgumentExpression());
  }
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (callee && Node.isPropertyAccessExpression(callee) && SESSION_MAP_METHODS.includes(callee.getName())) consider(callee.getExpression(), call.getArguments()[0]);
  }
  return findings;
}

/** Gives a new module specifier the quote style of the file's first import. */
export function matchQuoteStyle(specifier: Node, sample: string | undefined): void {
  if (!sample) return;
  const quote = sample[0];
  const current = specifier.getText();
  if ((quote === "'" || quote === '"') && current[0] !== quote) {
    specifier.replaceWithText(quote + current.slice(1, -1) + quote);
  }
}
