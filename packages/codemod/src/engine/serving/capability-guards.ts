/**
 * Capability checks that read the session: `<server>.getClientCapabilities()` in a guard helper
 * (`function supportsSampling(s) { return !!s.getClientCapabilities()?.sampling }`) or in
 * `oninitialized` gating which tools are registered. Served by `serveStdio` / `createMcpHandler`, a
 * 2026-07-28 request has no session: the read is `undefined` and the feature silently turns off for
 * a client that declares it. A per-request read (the rewrite's
 * `ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()`, where
 * the session read is the 2025-era fallback) is not one of them.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { GET_CLIENT_CAPABILITIES, TARGET } from '@mcp-mrtr/surface';
import { reportLine } from '../report-lines.js';
import { flag, type ServingFinding } from './findings.js';

export interface SessionCapabilityRead {
  node: CallExpression;
  /** `supportsSampling (src/sampling.ts:2)`. */
  where: string;
}

export const CAPABILITY_GUARD_ADVICE = `read the capabilities the request carries (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY], from the handler's ctx) with getClientCapabilities() as the 2025-era fallback, and register capability-gated tools unconditionally (answer a client without the capability inside the tool); then serve with ${TARGET.serveStdio} / ${TARGET.createMcpHandler}`;

export function sessionCapabilityReads(sourceFile: SourceFile, root: string): SessionCapabilityRead[] {
  if (!sourceFile.getFullText().includes(GET_CLIENT_CAPABILITIES)) return [];
  const reads: SessionCapabilityRead[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== GET_CLIENT_CAPABILITIES || call.getArguments().length > 0) continue;
    if (isPerRequestFallback(call)) continue;
    reads.push({ node: call, where: `${enclosingName(call)} (${path.relative(root, sourceFile.getFilePath()) || path.basename(sourceFile.getFilePath())}:${reportLine(call)})` });
  }
  return reads;
}

/** `<per-request read> ?? <server>.getClientCapabilities()`: the session read is only the 2025 fallback. */
function isPerRequestFallback(call: CallExpression): boolean {
  let node: Node = call;
  while (Node.isParenthesizedExpression(node.getParent())) node = node.getParent()!;
  const parent = node.getParent();
  if (!parent || !Node.isBinaryExpression(parent) || parent.getOperatorToken().getKind() !== SyntaxKind.QuestionQuestionToken || parent.getRight() !== node) return false;
  return /\benvelope\b|CLIENT_CAPABILITIES_META_KEY/.test(parent.getLeft().getText());
}

function enclosingName(node: Node): string {
  for (const ancestor of node.getAncestors()) {
    if (Node.isFunctionDeclaration(ancestor) || Node.isMethodDeclaration(ancestor)) return ancestor.getName() ?? 'a function';
    if (Node.isArrowFunction(ancestor) || Node.isFunctionExpression(ancestor)) {
      const holder = ancestor.getParent();
      if (holder && Node.isVariableDeclaration(holder)) return holder.getName();
      if (holder && Node.isBinaryExpression(holder)) return `the ${holder.getLeft().getText().split('.').pop()} callback`;
      if (holder && Node.isPropertyAssignment(holder)) return holder.getName();
    }
  }
  return 'module-level code';
}

/** Why hosting is left as it is while such reads exist. */
export function hostingKeptReason(reads: SessionCapabilityRead[]): string {
  const named = reads.slice(0, 3).map((r) => r.where).join(', ') + (reads.length > 3 ? ', ...' : '');
  return `${named} read${reads.length === 1 ? 's' : ''} the session's client capabilities (${GET_CLIENT_CAPABILITIES}()): served by ${TARGET.serveStdio} / ${TARGET.createMcpHandler}, a 2026-07-28 request has no session, so the check would see no capability and turn the feature off for clients that declare it`;
}

export function guardFinding(read: SessionCapabilityRead): ServingFinding {
  return flag(
    read.node,
    `capability check on the session (${GET_CLIENT_CAPABILITIES}()): a 2026-07-28 request has no session, so under ${TARGET.serveStdio} / ${TARGET.createMcpHandler} this sees no capability and turns the feature off; the hosting is left as it is until the check reads the request's capabilities`,
    CAPABILITY_GUARD_ADVICE,
  );
}
