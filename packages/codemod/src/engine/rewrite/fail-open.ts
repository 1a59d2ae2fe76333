/**
 * A sampling request inside a try whose catch falls back instead of failing. Under the legacy
 * protocol a client that declares sampling and refuses the request answers with an error (a user
 * rejecting a sampling request is a JSON-RPC error, not a result), so the catch is the code's
 * ordinary refusal path. An MRTR answer cannot be an error, and on 2025-era connections the SDK
 * fails the whole call when a pushed request fails: the fallback would be lost, so the site is
 * flagged. Elicitation refuses with an answer (decline / cancel), which still reaches the code after
 * the request; a roots request has no refusal (a client that declares roots lists them), so its
 * catch is there for the client that cannot list roots, which the migrated capability check still
 * sends into it. Both are migrated with a note that a client failing to answer now fails the call.
 * A catch that always rethrows fails the call either way.
 */
import { Node, SyntaxKind, type Block, type CatchClause, type TryStatement } from 'ts-morph';
import type { Site } from '../model.js';
import { definitelyExits } from './control-flow.js';
import { line, siteLabel, type RequestPoint } from './points.js';

/** Why `site`'s fallback would be lost, or undefined. */
export function lostFailureFallback(site: Site): string | undefined {
  if (site.method !== 'sampling/createMessage') return undefined;
  for (const parent of enclosingTries(site.node)) {
    const clause = parent.getCatchClause();
    if (!clause || alwaysThrows(clause.getBlock())) continue;
    return (
      `${siteLabel(site)} is inside a try (line ${line(parent)}) whose catch (line ${line(clause)}) falls back when it fails: ` +
      `a client that declares sampling and refuses or fails the request (a user rejecting it) answers with an error, which this catch handles; ` +
      `an MRTR answer cannot be an error (on 2025-era connections the failed request would fail the whole call), so that fallback would be lost`
    );
  }
  return undefined;
}

/** Every path through the block throws (a rethrow or a wrapped error), none returns or falls through. */
function alwaysThrows(block: Block): boolean {
  if (!definitelyExits(block)) return false;
  return !block.getDescendantsOfKind(SyntaxKind.ReturnStatement).some((r) => {
    const owner = r.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isArrowFunction(a) || Node.isFunctionExpression(a));
    return owner === undefined || block.containsRange(owner.getPos(), owner.getEnd()) === false;
  });
}

/**
 * Whether the migrated request, asked of a 2025-era client that did not declare its capability,
 * fails where the legacy request failed, into a catch that cannot tell the two errors apart. The
 * legacy request to such a client failed (the client answers that it has no such method) and its
 * error went to the innermost catch around it: in its own function, or around a call on the way to
 * it from the handler (`try { summary = await summarize(server, text) } catch { ... }`). The
 * migrated request's capability check throws the legacy SDK's missing-capability error at the same
 * place when it reads the client's capabilities from the server (`capabilitiesFromServer`: the
 * server's 2025-era capabilities, as emit.ts's legacyCapabilitiesFallback passes them), in the
 * write-once form with the request asked in place: alone, or in a wrapped group, also as a round
 * resumed inside a nested block (nested-round.ts: in the first round the code before it runs first,
 * in the block, and the round's statements keep their place). A phased handler or a merged round
 * moves the ask. That catch must not read the error (no binding, or one it never reads), as the two
 * errors differ. The test-mock stage drives a test's failing mock of the request as such a client
 * (shim-answered-calls.ts).
 */
export function undeclaredFailsIntoCatch(site: Site, point: RequestPoint | undefined, work: { form: string }, capabilitiesFromServer: boolean): boolean {
  if (site.method !== 'sampling/createMessage' && site.method !== 'roots/list') return false;
  if (!capabilitiesFromServer || !point || work.form !== 'write-once') return false;
  if (point.kind !== 'direct' && point.kind !== 'helper') return false;
  if ((point.merged && !point.wrapped) || (point.mergedInto && !point.mergedInto.wrapped)) return false;
  // innermost first: the request's own function, then the calls on the way, the deepest first
  const calls = point.kind === 'helper' ? [...point.innerPath.map((step) => step.call)].reverse().concat(point.helperCall) : [];
  for (const node of [site.node, ...calls]) {
    const clause = enclosingCatch(node);
    if (clause) return !readsError(clause);
  }
  return false;
}

/** The catch clause of the innermost try whose block holds `node`, within `node`'s own function. */
export function enclosingCatch(node: Node): CatchClause | undefined {
  for (const statement of enclosingTries(node)) {
    const clause = statement.getCatchClause();
    if (clause) return clause;
  }
  return undefined;
}

/** The try statements whose try block holds `node`, innermost first, within `node`'s own function. */
function* enclosingTries(node: Node): Generator<TryStatement> {
  for (let child = node, parent = node.getParent(); parent; child = parent, parent = parent.getParent()) {
    if (Node.isFunctionLikeDeclaration(parent) || Node.isArrowFunction(parent) || Node.isFunctionExpression(parent)) return;
    if (Node.isTryStatement(parent) && parent.getTryBlock() === child) yield parent;
  }
}

/** A catch that binds its error and names it (by text: any identifier of that name) in its block, or destructures it. */
function readsError(clause: CatchClause): boolean {
  const name = clause.getVariableDeclaration()?.getNameNode();
  if (!name) return false;
  if (!Node.isIdentifier(name)) return true;
  return clause.getBlock().getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === name.getText());
}
