/**
 * Handlers that stay on a shared helper's legacy request, so that the helper's other handlers can
 * migrate.
 *
 * A helper is rewritten once for all its callers (helper.ts), so one handler that cannot be migrated
 * for a reason of its own (a live value with no JSON form, an effect it cannot skip) used to leave
 * every other handler calling the helper unmigrated too: the helper's signature could not change
 * under it. When that handler's direct calls are the helper's only references the rewrite does not
 * update, the helper can stay as written for it alone, and its other handlers call a copy of it
 * (helper-copy.ts), which the helper form rewrites for them: the same arrangement as for a helper
 * that code outside handlers also calls (inline.ts's `mixed` helpers).
 */
import { Node, type CallExpression } from 'ts-morph';
import { functionNameNode, referencesOf } from '../find/resolve.js';
import { enclosingFunction } from './points.js';

/** A handler function's key, stable while its file's text is unchanged (the rewrite restores inlined text before it plans again). */
export function handlerKey(fn: Node): string {
  return `${fn.getSourceFile().getFilePath()}:${fn.getStart()}`;
}

/**
 * The handlers in `ownFailures` (left unmigrated for reasons of their own) whose direct calls of
 * `helperFn` are all its references outside `handled`; undefined when any other reference is left
 * (a call from elsewhere, the helper passed or held as a value), or when there is none.
 */
export function blockingHandlers(helperFn: Node, handled: ReadonlySet<CallExpression>, ownFailures: ReadonlySet<Node>): Node[] | undefined {
  const name = functionNameNode(helperFn);
  if (!name || !Node.isIdentifier(name)) return undefined;
  const references = referencesOf(name);
  if (!references) return undefined;
  const blockers = new Set<Node>();
  for (const ref of references) {
    if (ref === name || ref.getSourceFile().isInNodeModules()) continue;
    const parent = ref.getParent();
    if (parent && (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent))) continue;
    const call = parent;
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== ref) return undefined;
    if (handled.has(call)) continue;
    const fn = enclosingFunction(call);
    if (!fn || !ownFailures.has(fn)) return undefined;
    blockers.add(fn);
  }
  return blockers.size > 0 ? [...blockers] : undefined;
}
