/**
 * Serving the 2026-07-28 revision. A server connected with
 * `server.connect(new StdioServerTransport())` or hosted with `StreamableHTTPServerTransport` / SSE
 * speaks only the 2025 era.
 *
 * - stdio, recognisable shapes: the server comes from a factory call (`createServer()`), or its
 *   construction and registrations can be wrapped into one; rewritten to
 *   `serveStdio(factory)` from `@modelcontextprotocol/server/stdio`.
 * - Streamable HTTP, the stateless per-request shape (a transport and a server from a factory per
 *   request): rewritten to one `createMcpHandler(factory)` (`toNodeHandler` for Node's req/res).
 * - SSE hosting, stateful HTTP hosting and every shape that is not recognisable: flagged with the
 *   exact replacement.
 * - Per-session state (maps keyed by a session id): flagged.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { HTTP_TRANSPORTS, LEGACY_TRANSPORTS, SERVER_CLASSES, SERVER_CONNECT_METHOD, SERVER_LIKE_NAME_PATTERN, SESSION_ID_PROPERTY, SSE_TRANSPORTS, TARGET } from '@mcp-mrtr/surface';
import { isServerReceiver, type FindContext } from '../find/receivers.js';
import { classifyType, declarationOf, referencesOf, safeType, unwrapExpression, valueParent } from '../find/resolve.js';
import { speaksMcp } from '../prefilter.js';
import { flag, SERVING_ADVICE, type ServingFinding } from './findings.js';
import { rewriteHttpHosting, transportClassOf } from './http.js';
import { connectCalls, rewriteStdioConnect } from './stdio.js';
import { hostingKeptReason, type SessionCapabilityRead } from './capability-guards.js';
import { swallowedKeptReason, swallowedRequests, type SitesOf } from './swallowed-requests.js';
import { hookedKeptReason, hookedRequests } from './hooked-requests.js';
import { unfollowedFinding, unfollowedKeptReason, unfollowedReferences } from './unfollowed-references.js';

export { SERVING_ADVICE, type ServingFinding } from './findings.js';
export { guardFinding, sessionCapabilityReads, type SessionCapabilityRead } from './capability-guards.js';

const ALL_TRANSPORTS = [...LEGACY_TRANSPORTS, ...HTTP_TRANSPORTS, ...SSE_TRANSPORTS];

/**
 * `sessionReads`: the project's capability checks that read the session (capability-guards.ts);
 * while there are any, switching the hosting would turn their features off for 2026-07-28 clients,
 * so every hosting is flagged with that reason instead. So it is while a request the run left in
 * place has its failure swallowed (swallowed-requests.ts): the fallback would silently replace it.
 * So it is while a request the run left in place runs from a session's hook or a notification
 * handler (hooked-requests.ts): a 2026-07-28 request runs no hook and has no session to ask on.
 * So it is too while the served files read a legacy request method through a reference the find
 * stage does not follow (unfollowed-references.ts): those requests would throw; each such reference
 * is returned as a flagged finding with its legacy method, its node in the file it is in.
 * `sitesOf` gives the legacy request sites of a file as its text is now (the run's, where they
 * still stand).
 */
export function applyServingRewrites(sourceFile: SourceFile, ctx: FindContext, sessionReads: SessionCapabilityRead[], sitesOf: SitesOf): ServingFinding[] {
  const text = sourceFile.getFullText();
  const mentionsTransport = ALL_TRANSPORTS.some((t) => text.includes(t));
  const findings: ServingFinding[] = [];
  const hooked = mentionsTransport && sessionReads.length === 0 ? hookedRequests(sourceFile, sitesOf) : [];
  const swallowed = mentionsTransport && sessionReads.length === 0 && hooked.length === 0 ? swallowedRequests(sourceFile, sitesOf) : [];
  const unfollowed = mentionsTransport ? unfollowedReferences(sourceFile, sitesOf, ctx) : [];
  if (mentionsTransport && (sessionReads.length > 0 || hooked.length > 0 || swallowed.length > 0 || unfollowed.length > 0)) {
    const kept =
      sessionReads.length > 0 ? hostingKeptReason(sessionReads) : hooked.length > 0 ? hookedKeptReason(hooked) : swallowed.length > 0 ? swallowedKeptReason(swallowed) : unfollowedKeptReason(unfollowed);
    for (const connect of connectCalls(sourceFile)) findings.push(flag(connect, `server.connect(new StdioServerTransport()) serves the 2025 era only; not rewritten: ${kept}`, SERVING_ADVICE.stdio));
    const served = servedTransports(sourceFile, ctx);
    for (const created of sourceFile.getDescendantsOfKind(SyntaxKind.NewExpression)) {
      if (!served.has(created)) continue;
      const cls = transportClassOf(created);
      if (SSE_TRANSPORTS.includes(cls)) findings.push(flag(created, `${cls} hosting serves the 2024/2025 era only`, SERVING_ADVICE.sse));
      else if (HTTP_TRANSPORTS.includes(cls) && !text.includes(TARGET.isLegacyRequest)) findings.push(flag(created, `${cls} hosting serves the 2025 era only; not rewritten: ${kept}`, SERVING_ADVICE.http));
    }
    // the requests made through those references, each a flagged site of its own (in its file), once there is hosting to keep
    if (findings.length > 0) findings.push(...unfollowed.map(unfollowedFinding));
  } else if (mentionsTransport) {
    for (const connect of connectCalls(sourceFile)) {
      const outcome = rewriteStdioConnect(sourceFile, connect);
      findings.push(outcome);
      if (outcome.status === 'migrated') break; // the file changed: remaining shapes are handled on the next pass
    }
    if (findings.some((f) => f.status === 'migrated')) {
      // nodes were replaced: look again for what is left (a second stdio connect, HTTP hosting)
      return [...findings, ...applyServingRewrites(sourceFile, ctx, sessionReads, sitesOf)];
    }
    const served = servedTransports(sourceFile, ctx);
    for (const created of sourceFile.getDescendantsOfKind(SyntaxKind.NewExpression)) {
      const cls = transportClassOf(created);
      const http = HTTP_TRANSPORTS.includes(cls);
      if (!http && !SSE_TRANSPORTS.includes(cls)) continue;
      if (!served.has(created)) continue; // a transport built but never connected to a server here (library code, wrappers)
      if (!http) {
        findings.push(flag(created, `${cls} hosting serves the 2024/2025 era only`, SERVING_ADVICE.sse));
        continue;
      }
      const outcome = rewriteHttpHosting(sourceFile, created);
      if (!outcome) continue;
      findings.push(outcome);
      if (outcome.status === 'migrated') return [...findings, ...applyServingRewrites(sourceFile, ctx, sessionReads, sitesOf)];
    }
  }
  // session maps are an MCP concern only in files that speak MCP (a web app's `req.sessionId` cache is not)
  if (text.includes(SESSION_ID_PROPERTY) && speaksMcp(text)) findings.push(...sessionStateFindings(sourceFile));
  return findings;
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














const SESSION_MAP_METHODS = ['set', 'get', 'has', 'delete'];

/**
 * Maps/records used with a session-id key: `transports[sessionId] = ...`, `map.set(extra.sessionId, ...)`.
 * Once 2026-07-28 requests are routed ahead of the session wiring (`isLegacyRequest`), a map of
 * transports only serves 2025-era sessions, where it is right; other session-keyed state is still flagged.
 */
function sessionStateFindings(sourceFile: SourceFile): ServingFinding[] {
  // an identifier's text is as written in the file: absent from the text, no identifier has it (and the
  // token walk the identifiers need is skipped)
  const legacyOnly = sourceFile.getFullText().includes(TARGET.isLegacyRequest) && sourceFile.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === TARGET.isLegacyRequest);
  const flagged = new Set<Node>();
  const findings: ServingFinding[] = [];
  const consider = (container: Node | undefined, key: Node | undefined) => {
    if (!container || !key || !isSessionKey(key)) return;
    const target = unwrapExpression(container);
    if (!target || !Node.isIdentifier(target)) return;
    const decl = declarationOf(target);
    const statement = decl && Node.isVariableDeclaration(decl) ? decl.getVariableStatement() : undefined;
    const node = statement ?? target;
    if (flagged.has(node) || node.getSourceFile() !== sourceFile) return;
    flagged.add(node);
    if (legacyOnly && holdsTransports(target)) return;
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


/**
 * The key is a value read from the session: a name (`sessionId`, `extra.sessionId`,
 * `this.#sessionId`) in the key expression, or in a template's substitutions
 * (`\`${sessionId}:cart\``). A string literal is text, whatever it says: `'DELETE /session/:sessionId'`
 * keys a route table.
 */
function isSessionKey(key: Node): boolean {
  const names = Node.isIdentifier(key) || Node.isPrivateIdentifier(key) ? [key] : [...key.getDescendantsOfKind(SyntaxKind.Identifier), ...key.getDescendantsOfKind(SyntaxKind.PrivateIdentifier)];
  return names.some((name) => /sessionId/i.test(name.getText()));
}

/** The map's declaration or a value stored in it names a transport (`Record<string, Transport>`, `{ transport, ... }`). */
function holdsTransports(map: Node): boolean {
  const decl = declarationOf(map);
  const texts = decl ? [decl.getText()] : [];
  if (Node.isIdentifier(map)) {
    for (const ref of referencesOf(map) ?? []) {
      const parent = ref.getParent();
      const store = parent && Node.isElementAccessExpression(parent) ? parent.getParent() : parent && Node.isPropertyAccessExpression(parent) && parent.getName() === 'set' ? parent.getParent() : undefined;
      if (store && (Node.isBinaryExpression(store) || Node.isCallExpression(store))) texts.push(store.getText());
    }
  }
  return texts.some((t) => /transport/i.test(t));
}
