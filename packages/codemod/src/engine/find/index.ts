/**
 * Find stage: legacy request sites and handler registrations in a ts-morph SourceFile.
 *
 * Orchestration (run/stages.ts) runs it AFTER the official v1-to-v2 upgrade, so sites are found in
 * the code the rewrite stage will edit: v1 `extra.sendRequest(...)` shows up as v2
 * `ctx.mcpReq.send(...)` ('ctx-send'), `mcp.tool(...)` as `mcp.registerTool(...)`. Both v1 and v2
 * spellings are recognised either way (v2 push-style input, `upgradeV1: false`).
 */
export { findSites, receiverNameOf } from './sites.js';
export { findHandlers, findRegistrations, handlerFunction, dispatchTargetsOf, type OtherRegistration, type Registrations } from './handlers.js';
export { isServerReceiver, isMcpReqReceiver, isRequestContextReceiver, type FindContext } from './receivers.js';
export {
  declarationOf,
  functionOfDeclaration,
  isFunctionNode,
  resolveCallee,
  unwrapExpression,
  valueParent,
  classifyType,
  type FunctionLike,
} from './resolve.js';
