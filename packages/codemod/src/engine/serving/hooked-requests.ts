/**
 * Legacy requests the run left in place that run from a session's lifecycle hook
 * (`server.oninitialized = ...`) or a notification handler (`setNotificationHandler(...)`), in the
 * hook's own code, in a callback it passes on (`oninitialized = () => loadRoots(() => server.listRoots())`)
 * or a few named callers down. Served by `serveStdio` / `createMcpHandler`, a 2026-07-28 request has
 * no initialize and no session: the hook does not run for it, and a request such code makes has no
 * session to go on. What the hook fills (the client's roots a path check reads, a cache a tool
 * reads) stays empty for clients that support the request, so while such state exists the hosting
 * is flagged instead of switched. A hook whose writes no other running code reads (it logs, or fills
 * a cache only an uncalled export returns) turns nothing off.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { NOTIFICATION_REGISTRATION, TARGET } from '@mcp-mrtr/surface';
import { callOf, declarationOf, functionNameNode, referencesOf, unwrapExpression, valueParent } from '../find/resolve.js';
import { entryContextOf } from '../reach/contexts.js';
import { enclosingFunctionName, forEachServedRequest, type SitesOf } from './swallowed-requests.js';

export interface HookedRequest {
  /** `listRoots in server.ts`: the function making the request (`module-level code`), the file relative to the hosting file. */
  where: string;
  /** `the server.server.oninitialized hook (server.ts)`, `a notifications/roots/list_changed notification handler (server.ts)`. */
  hook: string;
}

/** How many callers up a hook is looked for (request → helper → hook), as for swallowed requests. */
const MAX_CALLER_DEPTH = 3;

export function hookedRequests(hostingFile: SourceFile, sitesOf: SitesOf): HookedRequest[] {
  const found: HookedRequest[] = [];
  forEachServedRequest(hostingFile, sitesOf, (site, fileOf) => {
    const hook = hookOf(site.node, 0, new Set());
    if (hook && feedsOtherCode(hook, site.node)) found.push({ where: `${enclosingFunctionName(site.node)} in ${fileOf(site.node)}`, hook: `${hook.description} (${fileOf(hook.node)})` });
  });
  return found;
}

/** The hook or notification handler `node` runs from: a function around it, or around a call of one. */
function hookOf(node: Node, depth: number, seen: Set<Node>): Hook | undefined {
  let outermost: Node | undefined;
  for (const fn of node.getAncestors()) {
    if (!Node.isFunctionLikeDeclaration(fn)) continue;
    outermost = fn;
    const context = entryContextOf(fn);
    if (context?.context === 'lifecycle-hook') return { description: `the ${context.description}`, node: context.node, fn, chain: [] };
    const notification = notificationRegistration(fn);
    if (notification) return { ...notification, fn, chain: [] };
  }
  if (depth >= MAX_CALLER_DEPTH || !outermost || seen.has(outermost)) return undefined;
  seen.add(outermost);
  // a named function (or the innermost one with a name): each call of it, a level up
  const named = node.getAncestors().find((a) => Node.isFunctionLikeDeclaration(a) && functionNameNode(a) !== undefined);
  const name = named && functionNameNode(named);
  if (!name || !Node.isReferenceFindable(name)) return undefined;
  for (const ref of referencesOf(name) ?? []) {
    const call = callOf(ref);
    if (!call || call.getSourceFile().isInNodeModules()) continue;
    const hook = hookOf(call, depth + 1, seen);
    if (hook) return { ...hook, chain: [...hook.chain, outermost] };
  }
  return undefined;
}

interface Hook {
  description: string;
  /** The hook's assignment or registration. */
  node: Node;
  /** The function registered as the hook. */
  fn: Node;
  /** The functions on the way from the hook down to the request, when it is a few calls down. */
  chain: Node[];
}

const MUTATING_METHODS = new Set(['push', 'unshift', 'splice', 'set', 'add', 'delete', 'clear', 'assign']);

/**
 * The code that handles the request's answer (the hook's function, the functions on the way down to
 * the request, and a function the hook hands the request to: `loadRoots(() => server.listRoots())`)
 * writes a variable declared outside that code, or a property, and other code reads it: a function
 * that is itself used (a schema's check, a tool), or module-level code. A property of such an object
 * (`cache.roots = ...`) is read where that property, or the whole object, is; one of anything else
 * (`this.roots = ...`) is taken as read. Functions the hook calls for other work (a logger) are not
 * looked into.
 */
function feedsOtherCode(hook: Hook, request: Node): boolean {
  const writers = new Set<Node>([hook.fn, ...hook.chain]);
  for (const call of hook.fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (!call.getArguments().some((argument) => argument.containsRange(request.getPos(), request.getEnd()))) continue;
    const callee = unwrapExpression(call.getExpression());
    const decl = callee && Node.isIdentifier(callee) ? declarationOf(callee) : undefined;
    const fn = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
    if (fn && Node.isFunctionLikeDeclaration(fn) && !fn.getSourceFile().isInNodeModules()) writers.add(fn);
  }
  const inWriters = (node: Node) => [...writers].some((w) => w.getSourceFile() === node.getSourceFile() && w.containsRange(node.getPos(), node.getEnd()));
  const written: Node[] = [];
  for (const writer of writers) {
    for (const assignment of writer.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
      const operator = assignment.getOperatorToken().getKind();
      if (operator < SyntaxKind.FirstAssignment || operator > SyntaxKind.LastAssignment) continue;
      written.push(assignment.getLeft());
    }
    for (const call of writer.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = unwrapExpression(call.getExpression());
      if (callee && Node.isPropertyAccessExpression(callee) && MUTATING_METHODS.has(callee.getName())) written.push(callee.getExpression());
    }
  }
  for (const target of written) {
    const node = unwrapExpression(target);
    if (!node) continue;
    // `cache.roots = ...` on an object declared outside: what reads that property (or the whole object)
    const property = Node.isPropertyAccessExpression(node) ? node.getName() : undefined;
    const holder = Node.isPropertyAccessExpression(node) ? unwrapExpression(node.getExpression()) : node;
    if (!holder || !Node.isIdentifier(holder)) {
      if (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node)) return true;
      continue;
    }
    const decl = declarationOf(holder);
    if (!decl || inWriters(decl)) continue; // a local of the hook's own code
    const name = Node.isVariableDeclaration(decl) || Node.isParameterDeclaration(decl) ? decl.getNameNode() : undefined;
    if (!name || !Node.isIdentifier(name)) return true;
    for (const ref of referencesOf(name) ?? []) {
      if (ref === name || inWriters(ref) || ref.getSourceFile().isInNodeModules()) continue;
      const parent = ref.getParent();
      // naming it in an import or export reads nothing
      if (parent && (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isImportClause(parent) || Node.isNamespaceImport(parent))) continue;
      // another property of the same object is not what the hook fills
      if (property !== undefined && parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref && parent.getName() !== property) continue;
      if (runs(ref)) return true;
    }
  }
  return false;
}

/** Code at `node` runs: module-level code, an anonymous function (a callback handed on), or a function whose name is used elsewhere. */
function runs(node: Node): boolean {
  const outermost = node.getAncestors().filter((a) => Node.isFunctionLikeDeclaration(a)).at(-1);
  if (!outermost) return true;
  const name = functionNameNode(outermost);
  if (!name || !Node.isReferenceFindable(name)) return true;
  return (referencesOf(name) ?? []).some((ref) => ref !== name && !outermost.containsRange(ref.getPos(), ref.getEnd()));
}

/** `server.setNotificationHandler(Schema, fn)`: fn handles a notification. */
function notificationRegistration(fn: Node): { description: string; node: Node } | undefined {
  const { parent, child } = valueParent(fn);
  if (!parent || !Node.isCallExpression(parent) || !parent.getArguments().includes(child)) return undefined;
  const callee = unwrapExpression(parent.getExpression());
  if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== NOTIFICATION_REGISTRATION) return undefined;
  // v2 names the notification by its method (the upgraded text), v1 by its schema
  const notification = parent.getArguments()[0];
  const named = notification && (Node.isStringLiteral(notification) || Node.isNoSubstitutionTemplateLiteral(notification)) ? notification.getLiteralValue() : notification?.getText();
  return { description: `a notification handler for ${named ?? 'a notification'}`, node: parent };
}

export function hookedKeptReason(requests: HookedRequest[]): string {
  const one = requests.length === 1;
  const shown = requests.slice(0, 3).map((r) => `${r.where}, run from ${r.hook}`).join('; ') + (requests.length > 3 ? '; ...' : '');
  const subject = one ? 'a request that stays flagged runs' : `${requests.length} requests that stay flagged run`;
  return (
    `${subject} from a session's hook or a notification handler (${shown}): served by ${TARGET.serveStdio} / ${TARGET.createMcpHandler}, ` +
    `a 2026-07-28 request has no initialize and no session, so that code would not get its answer and what it provides (the state it fills) would be missing for clients that support the request`
  );
}
