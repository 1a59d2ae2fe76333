/**
 * Helpers that make the request for a handler (`confirmAction(server, message)`): rewritten so a
 * handler can ask through them. The helper gains the handler's context and the wire key, reads the
 * answer on re-entry and otherwise returns the `inputRequired(...)` result, which every call site
 * returns through (`if (isInputRequiredResult(x)) return x;`). The helper's own pre-request logic
 * (capability checks, fail-open defaults) is kept as is.
 */
import { Node, type Block, type CallExpression, type Identifier, type ParameterDeclaration } from 'ts-morph';
import type { CallPathStep, Site } from '../model.js';
import { functionNameNode, referenceHeldBy, referencesOf, unwrapExpression, valueParent } from '../find/resolve.js';
import { functionWithBody, helperName, type FunctionWithBody } from './function-body.js';
import { precedingCode } from './control-flow.js';
import { Obstacle, checkStatementPath, enclosingFunction, line, pointForAwaited, siteLabel, type RequestPoint } from './points.js';
import { abbreviate, firstEffect } from './purity.js';
import { awaitedRequest } from './timeout.js';
import { isIdentifierName } from './text.js';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import type { ContextlessCallers } from './contextless-calls.js';

export interface HelperWork {
  fn: FunctionWithBody;
  body: Block;
  point: RequestPoint;
  name: string;
  /** Name of an existing parameter that already is the handler context (v2 `ctx` helpers). */
  ctxParam?: string;
  /** Number of declared parameters before the rewrite (call sites are padded to it). */
  paramCount: number;
  /** A parameter that only carried the sender function: dropped from the helper and its calls. */
  senderParam?: number;
  /** Callers passing no context for the request: the context stays optional, overloads type their calls. */
  contextless?: ContextlessCallers;
}

/** The call's arguments as the rewritten helper takes them: padded to its parameters, the sender dropped. */
export function helperArguments(call: CallExpression, helper: HelperWork | undefined): string[] {
  const args = call.getArguments().map((a) => a.getText());
  const paramCount = helper?.paramCount ?? args.length;
  while (args.length < paramCount) args.push('undefined');
  return helper?.senderParam === undefined ? args : args.filter((_, i) => i !== helper.senderParam);
}

/** Root identifier of a site receiver (`ctx` in `ctx.mcpReq.elicitInput`). */
function receiverRoot(site: Site): Node | undefined {
  let node: Node | undefined = Node.isCallExpression(site.node) ? site.node.getExpression() : undefined;
  while (node && (Node.isPropertyAccessExpression(node) || Node.isCallExpression(node))) node = node.getExpression();
  return node && Node.isIdentifier(node) ? node : undefined;
}

/**
 * `inner`: the call path from this helper down to the helper that makes the request, per site (empty
 * when this helper makes it itself). An intermediate helper (`ensureConfirmed` calling `confirm`) asks
 * through the next level the way a handler does, passing the context and the key on.
 */
export function planHelper(fnNode: Node, sites: Site[], inner: CallPathStep[][] = []): HelperWork {
  const name = helperName(fnNode);
  const { fn, body } = functionWithBody(fnNode, `helper \`${name}\``);
  if (sites.length !== 1) throw new Obstacle(`helper \`${name}\` makes ${sites.length} requests; only single-request helpers are rewritten`);
  const site = sites[0]!;
  const innerCalls = [...new Set(inner.filter((p) => p.length > 0).map((p) => p[0]!.call))];
  if (innerCalls.length > 1 || (innerCalls.length === 1 && inner.some((p) => p.length === 0))) throw new Obstacle(`helper \`${name}\` reaches its request along more than one path; only single-request helpers are rewritten`);
  let point: RequestPoint;
  let what: string;
  if (innerCalls.length === 1) {
    const step = inner.find((p) => p.length > 0)![0]!;
    what = `the call to helper \`${abbreviate(step.call.getExpression().getText(), 40)}\` in helper \`${name}\``;
    const base = pointForAwaited(step.call, fn, what);
    if (base.then) throw new Obstacle(`${what} is consumed through a .then() promise chain`);
    point = { kind: 'helper', ...base, sites: [site], keys: [], helperCall: step.call, helperFn: step.callee, innerPath: [] };
  } else {
    if (site.shape === 'url-elicitation-error' || site.shape === 'completion-notifier') throw new Obstacle(`${siteLabel(site)} in helper \`${name}\` is not a request the helper can ask through`);
    what = `${siteLabel(site)} in helper \`${name}\``;
    point = { kind: 'direct', ...pointForAwaited(awaitedRequest(site), fn, what), sites: [site], keys: [] };
  }
  checkStatementPath(point.statement, fn, what);
  const own = point.kind === 'helper' ? point.helperCall.getArguments() : site.params ? [site.params] : [];
  const effect = firstEffect([...precedingCode(point.statement, body), ...own], fn);
  if (effect) throw new Obstacle(`helper \`${name}\` runs \`${effect.description}\` (line ${line(effect.node)}) before its request; it would repeat on every round`);
  const params = fn.getParameters();
  if (params.some((p) => p.isRestParameter())) throw new Obstacle(`helper \`${name}\` takes a rest parameter; cannot add the context and key parameters`);
  const returnType = (fn as unknown as { getReturnTypeNode?: () => Node | undefined }).getReturnTypeNode?.();
  if (returnType && !/^Promise<[\s\S]*>$/.test(returnType.getText())) throw new Obstacle(`helper \`${name}\` declares return type \`${returnType.getText()}\`, not a Promise`);
  if (!(fn as unknown as { isAsync?: () => boolean }).isAsync?.()) throw new Obstacle(`helper \`${name}\` is not an async function`);
  let ctxParam: string | undefined;
  const root = receiverRoot(site);
  // `extra.sendRequest(...)`, `ctx.mcpReq.send(...)`: the parameter holding the context object. A
  // parameter that IS the sender (`async function sample(sendRequest: SendRequestFn)`) is a
  // function: it has no `.mcpReq`, so the helper gains a context parameter like any other.
  const calledDirectly = Node.isCallExpression(site.node) && unwrapExpression(site.node.getExpression()) === root;
  if (root && !calledDirectly && point.kind === 'direct' && (site.shape === 'ctx-method' || site.shape === 'ctx-send' || site.shape === 'send-request')) {
    const param = params.find((p) => p.getName() === root.getText());
    if (param && Node.isIdentifier(param.getNameNode())) ctxParam = param.getName();
  }
  const senderParam = point.kind === 'direct' && calledDirectly && root ? droppableSender(fn, params, root, site) : undefined;
  return { fn, body, point, name, ctxParam, paramCount: params.length, ...(senderParam !== undefined ? { senderParam } : {}) };
}

/**
 * The index of a parameter that only carries the sender (`async function confirmFlow(elicit, what)`
 * called as `confirmFlow(server.server.elicitInput.bind(server.server), ...)`): once the helper asks
 * through the context, nothing calls it, so it is dropped from the helper and from every call, as
 * long as it is not read anywhere else and no call's argument for it has an effect.
 */
function droppableSender(fn: FunctionWithBody, params: ParameterDeclaration[], root: Node, site: Site): number | undefined {
  const index = params.findIndex((p) => Node.isIdentifier(p.getNameNode()) && p.getName() === root.getText());
  const param = params[index];
  if (!param || param.isRestParameter() || param.hasQuestionToken() || param.getInitializer()) return undefined;
  const nameNode = param.getNameNode() as Identifier;
  const uses = referencesOf(nameNode)?.filter((ref) => ref !== nameNode);
  if (uses?.length !== 1 || uses[0] !== unwrapExpression((site.node as CallExpression).getExpression())) return undefined;
  const fnName = functionNameNode(fn);
  if (!fnName || !Node.isIdentifier(fnName)) return undefined;
  const calls = referencesOf(fnName);
  if (!calls) return undefined;
  for (const ref of calls) {
    if (ref === fnName || ref.getSourceFile().isInNodeModules()) continue;
    const parent = ref.getParent();
    const callee = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref ? parent : ref;
    const call = callee.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== callee) continue;
    const arg = call.getArguments()[index];
    if (!arg || Node.isSpreadElement(arg) || firstEffect([arg], enclosingFunction(call) ?? call.getSourceFile())) return undefined;
  }
  return index;
}

/**
 * Every reference to the helper must be a call the rewrite updates; returns the first one that is not.
 */
export function unhandledReference(helper: HelperWork, handled: Set<CallExpression>): string | undefined {
  const nameNode = functionNameNode(helper.fn);
  if (!nameNode || !Node.isIdentifier(nameNode)) return `helper \`${helper.name}\` has no name to find its callers by`;
  return unhandledReferenceOf(helper, nameNode, handled, 0);
}

function unhandledReferenceOf(helper: HelperWork, nameNode: Identifier, handled: Set<CallExpression>, depth: number): string | undefined {
  const references = referencesOf(nameNode);
  if (!references) return `the callers of helper \`${helper.name}\` could not be listed`;
  for (const ref of references) {
    if (ref === nameNode) continue;
    if (ref.getSourceFile().isInNodeModules()) continue;
    let callee: Node = ref;
    const parent = ref.getParent();
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref) callee = parent;
    // the helper held under a name of its own (`const ops = { make: createThing }`,
    // `{ make: configOps.createThing }`, `const make = createThing`): the uses of that name are its uses
    const holder = heldUnder(callee);
    if (holder) {
      const reason = depth < 4 ? unhandledHolderUse(helper, holder, handled, depth) : `helper \`${helper.name}\` is held under ${depth} names in turn (${ref.getSourceFile().getBaseName()}:${line(ref)})`;
      if (reason) return reason;
      continue;
    }
    const call = callee.getParent();
    if (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isShorthandPropertyAssignment(parent)) {
      if (Node.isShorthandPropertyAssignment(parent)) return `helper \`${helper.name}\` is also passed around as a value (${ref.getSourceFile().getBaseName()}:${line(ref)})`;
      continue;
    }
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== callee || !handled.has(call)) {
      return `helper \`${helper.name}\` is also used at ${ref.getSourceFile().getBaseName()}:${line(ref)}, outside a handler the rewrite migrates`;
    }
  }
  return undefined;
}

/** The property or `const` whose initialiser is the reference `value` (the helper's name, or `ns.helper`). */
function heldUnder(value: Node): { name: Identifier; declaration: Node } | undefined {
  const { parent, child } = valueParent(value);
  if (!parent) return undefined;
  if (Node.isPropertyAssignment(parent) && unwrapExpression(parent.getInitializer()) === unwrapExpression(child)) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) ? { name, declaration: parent } : undefined;
  }
  if (Node.isVariableDeclaration(parent) && unwrapExpression(parent.getInitializer()) === unwrapExpression(child) && referenceHeldBy(parent)) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) ? { name, declaration: parent } : undefined;
  }
  return undefined;
}

/**
 * Why the helper held in `holder` is used where the rewrite does not follow it: the holder's own
 * uses (calls the rewrite updates, or further holders), and, for an object's member, the object
 * itself used other than by reading a member (`Object.values(ops)`, `register(ops)`): code that
 * could call the member without the context.
 */
function unhandledHolderUse(helper: HelperWork, holder: { name: Identifier; declaration: Node }, handled: Set<CallExpression>, depth: number): string | undefined {
  const at = (node: Node): string => `${node.getSourceFile().getBaseName()}:${line(node)}`;
  if (Node.isPropertyAssignment(holder.declaration)) {
    const object = holder.declaration.getParent();
    const { parent, child } = Node.isObjectLiteralExpression(object) ? valueParent(object) : { parent: undefined, child: object };
    const variable = parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === child ? parent.getNameNode() : undefined;
    if (!variable || !Node.isIdentifier(variable)) return `helper \`${helper.name}\` is also passed around as a value, in the object at ${at(holder.declaration)}`;
    const uses = referencesOf(variable);
    if (!uses) return `the uses of the object \`${variable.getText()}\` holding helper \`${helper.name}\` (${at(holder.declaration)}) could not be listed`;
    for (const use of uses) {
      if (use === variable || use.getSourceFile().isInNodeModules()) continue;
      const usedBy = use.getParent();
      if (usedBy && (Node.isImportSpecifier(usedBy) || Node.isExportSpecifier(usedBy))) continue;
      if (usedBy && Node.isPropertyAccessExpression(usedBy) && usedBy.getExpression() === use) continue;
      return `helper \`${helper.name}\` is held in the object \`${variable.getText()}\` (${at(holder.declaration)}), which is also used at ${at(use)} other than by calling a member`;
    }
  }
  return unhandledReferenceOf(helper, holder.name, handled, depth + 1);
}

/** Variable names that say nothing about what is asked: a key named after one says nothing either. */
export const GENERIC_NAMES = new Set(['result', 'res', 'response', 'resp', 'r', 'ret', 'value', 'data', 'out', 'output']);

/**
 * The key a helper asks under when its caller passes none, and the base of its generated locals
 * (`<key>Request`): the variable its answer goes to, or the helper's own name when that variable
 * is a generic `result` (two helpers reading into `r` are `summarizeRequest` and `tagRequest`).
 */
export function defaultHelperKey(helper: HelperWork): string {
  const site = helper.point.sites[0]!;
  const b = helper.point.binding;
  if (b.kind === 'declare' && b.name) return GENERIC_NAMES.has(b.name) && isIdentifierName(helper.name) ? helper.name : b.name;
  return LEGACY_REQUESTS[site.method].defaultKey;
}

