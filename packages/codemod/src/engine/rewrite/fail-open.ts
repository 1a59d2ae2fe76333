/**
 * A sampling or roots request inside a try whose catch falls back instead of failing. Under the
 * legacy protocol a client that declares the capability and refuses such a request answers with an
 * error (a user rejecting a sampling request is a JSON-RPC error, not a result), so the catch is the
 * code's ordinary refusal path. An MRTR answer cannot be an error, and on 2025-era connections the
 * SDK fails the whole call when a pushed request fails: the fallback would be lost, so the site is
 * flagged. Elicitation refuses with an answer (decline / cancel), which still reaches the code after
 * the request, and a catch that always rethrows fails the call either way.
 */
import { Node, SyntaxKind, type Block } from 'ts-morph';
import type { Site } from '../model.js';
import { definitelyExits } from './control-flow.js';
import { line, siteLabel } from './points.js';

/** Why `site`'s fallback would be lost, or undefined. */
export function lostFailureFallback(site: Site): string | undefined {
  if (site.method !== 'sampling/createMessage' && site.method !== 'roots/list') return undefined;
  let node: Node = site.node;
  for (let parent = node.getParent(); parent; node = parent, parent = parent.getParent()) {
    if (Node.isFunctionLikeDeclaration(parent) || Node.isArrowFunction(parent) || Node.isFunctionExpression(parent)) return undefined;
    if (!Node.isTryStatement(parent) || parent.getTryBlock() !== node) continue;
    const clause = parent.getCatchClause();
    if (!clause || alwaysThrows(clause.getBlock())) continue;
    const refused = site.method === 'sampling/createMessage' ? 'refuses or fails the sampling request' : 'fails the roots request';
    return (
      `${siteLabel(site)} is inside a try (line ${line(parent)}) whose catch (line ${line(clause)}) falls back when it fails: ` +
      `a client that declares the capability and ${refused} answers with an error, which this catch handles; ` +
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
