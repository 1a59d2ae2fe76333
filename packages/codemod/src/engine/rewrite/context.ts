/**
 * The handler's per-request context parameter (`ctx`), which the rewrite reads `inputResponses`,
 * `requestState` and the envelope from; added when the legacy handler did not declare it. Also
 * the handler arguments the requestState digest binds to.
 */
import { Node, SyntaxKind, type ParameterDeclaration } from 'ts-morph';
import { RESOURCE_TEMPLATE_CLASS } from '@mcp-mrtr/surface';
import type { Handler } from '../model.js';
import { Obstacle, line } from './points.js';
import { unplanned, type NameAllocator } from './emit.js';
import type { TextEdit } from '../text-edits.js';
import { unwrapExpression } from '../find/resolve.js';

export interface ContextAccess {
  ctx: string;
  /** Expression of the request's arguments for the state digest (`args`, `request.params`, `uri.href`). */
  args: string;
  edits: TextEdit[];
  /** Statements to put first in the body (destructuring that used to be in the parameter list). */
  bodyPrefix: string[];
}

function hasSchemaConfig(handler: Handler): boolean {
  const args = handler.registrationCall.getArguments();
  if (handler.registration === 'registerTool' || handler.registration === 'registerPrompt') {
    const config = args[1];
    if (config && Node.isObjectLiteralExpression(config)) return !!(config.getProperty('inputSchema') ?? config.getProperty('argsSchema'));
    return true;
  }
  // v1 `tool(name, [description], [schema], [annotations], cb)` / `prompt(name, [description], [schema], cb)`
  return args.slice(1, -1).some((a) => Node.isObjectLiteralExpression(a) || (!Node.isStringLiteral(a) && !Node.isNoSubstitutionTemplateLiteral(a)));
}

/** Index of the context parameter in the handler callback, by registration API. */
export function contextIndex(handler: Handler): number {
  if (handler.contextIndex !== undefined) return handler.contextIndex;
  switch (handler.registration) {
    case 'setRequestHandler':
      return 1;
    case 'dispatched':
      return dispatchContext(handler).index;
    case 'registerResource':
    case 'resource': {
      const template = handler.registrationCall.getArguments().some((a) => Node.isNewExpression(a) && a.getExpression().getText() === RESOURCE_TEMPLATE_CLASS);
      return template ? 2 : 1;
    }
    default:
      return hasSchemaConfig(handler) ? 1 : 0;
  }
}

function isInlineCallback(fn: Node): boolean {
  const parent = fn.getParent();
  return !!parent && Node.isCallExpression(parent);
}

/** v1 context members that only served the legacy requests being rewritten away. */
const LEGACY_ONLY_CONTEXT_MEMBERS = new Set(['sendRequest']);

type FunctionWithParameters = Node & { getParameters(): ParameterDeclaration[]; getBody(): Node | undefined };

/**
 * Why the context parameter cannot be given to `fn` (planning checks this before emit,
 * emit-checks.ts), or undefined. A destructured context is taken only when its members all served
 * the legacy requests (`{ sendRequest }`) and each use of them is one of the `siteCount` sites.
 */
export function contextObstacle(handler: Handler, fn: FunctionWithParameters, siteCount: number): string | undefined {
  const params = fn.getParameters();
  const existing = params[contextIndex(handler)];
  if (existing) {
    const nameNode = existing.getNameNode();
    if (Node.isIdentifier(nameNode)) return undefined;
    const elements = Node.isObjectBindingPattern(nameNode) ? nameNode.getElements() : [];
    const onlyLegacy = elements.length > 0 && elements.every((e) => !e.getPropertyNameNode() && !e.getInitializer() && LEGACY_ONLY_CONTEXT_MEMBERS.has(e.getName()));
    const uses = elements.reduce((n, e) => n + (fn.getBody()?.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === e.getName()).length ?? 0), 0);
    if (!onlyLegacy || uses !== siteCount) return `the handler's context parameter is destructured (\`${nameNode.getText()}\`); the rewrite needs ctx.mcpReq`;
    return undefined;
  }
  const last = params[params.length - 1];
  if (last?.isRestParameter()) return 'the handler takes a rest parameter; cannot add the context parameter';
  if (!last && !fn.getFirstChildByKind(SyntaxKind.OpenParenToken)) return 'the handler has no parameter list to add the context parameter to';
  return undefined;
}

export function contextAccess(handler: Handler, fn: FunctionWithParameters, names: NameAllocator, ts: boolean, needArgs: boolean, siteCount: number): ContextAccess {
  const obstacle = contextObstacle(handler, fn, siteCount);
  if (obstacle) unplanned(obstacle);
  const params = fn.getParameters();
  const index = contextIndex(handler);
  const edits: TextEdit[] = [];
  const bodyPrefix: string[] = [];
  let ctx: string;
  const existing = params[index];
  if (existing) {
    const nameNode = existing.getNameNode();
    if (Node.isIdentifier(nameNode)) ctx = nameNode.getText();
    else {
      // `async (args, { sendRequest }) => ...`: the destructured members only made the legacy
      // requests (contextObstacle), so the parameter becomes `ctx`.
      ctx = freeName(fn, 'ctx', names);
      edits.push({ start: existing.getStart(), end: existing.getEnd(), text: `${ctx}${existing.getTypeNode() ? `: ${existing.getTypeNode()!.getText()}` : ''}` });
    }
  } else {
    ctx = freeName(fn, 'ctx', names);
    const annotation = ts && !isInlineCallback(fn) ? ': ServerContext' : '';
    const missing: string[] = [];
    const padType = ts && handler.registration === 'dispatched' ? ': unknown' : '';
    for (let i = params.length; i < index; i++) missing.push(`${names.take(i === 0 ? '_args' : `_arg${i}`)}${padType}`);
    missing.push(`${ctx}${annotation}`);
    const last = params[params.length - 1];
    if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${missing.join(', ')}` });
    else {
      const open = fn.getFirstChildByKind(SyntaxKind.OpenParenToken) ?? unplanned('the handler has no parameter list');
      edits.push({ start: open.getEnd(), end: open.getEnd(), text: missing.join(', ') });
    }
  }
  let args = 'null';
  if (needArgs && handler.registration === 'dispatched') {
    const seen: string[] = [];
    for (const { index: at, whole } of dispatchedArguments(handler).names) {
      const param = params[at];
      if (!param) continue;
      const nameNode = param.getNameNode();
      let name: string;
      if (Node.isIdentifier(nameNode)) name = nameNode.getText();
      else {
        name = names.take('args');
        const annotation = param.getTypeNode() ? `: ${param.getTypeNode()!.getText()}` : '';
        edits.push({ start: param.getStart(), end: param.getEnd(), text: `${name}${annotation}` });
        bodyPrefix.push(`const ${nameNode.getText()} = ${name};`);
      }
      seen.push(whole ? `${name}.params` : name);
    }
    args = seen.length === 0 ? 'null' : seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
  } else if (needArgs) {
    const first = params[0];
    const argIndexUsed = handler.registration === 'setRequestHandler' || handler.registration === 'registerResource' || handler.registration === 'resource' || index >= 1;
    if (first && argIndexUsed && index !== 0) {
      const nameNode = first.getNameNode();
      let name: string;
      if (Node.isIdentifier(nameNode)) name = nameNode.getText();
      else {
        name = names.take('args');
        const annotation = first.getTypeNode() ? `: ${first.getTypeNode()!.getText()}` : '';
        edits.push({ start: first.getStart(), end: first.getEnd(), text: `${name}${annotation}` });
        bodyPrefix.push(`const ${nameNode.getText()} = ${name};`);
      }
      if (handler.registration === 'setRequestHandler') args = `${name}.params`;
      else if (handler.registration === 'registerResource' || handler.registration === 'resource') {
        const vars = index === 2 && params[1] && Node.isIdentifier(params[1].getNameNode()) ? params[1].getName() : undefined;
        args = vars ? `[${name}.href, ${vars}]` : `${name}.href`;
      } else args = name;
    }
  }
  return { ctx, args, edits, bodyPrefix };
}

/**
 * `base` unless the function already uses that identifier, then `meaningful` (a name saying more,
 * given by the caller) unless it uses that too, then a fresh name from the allocator.
 */
export function freeName(fn: Node, base: string, names: NameAllocator, meaningful?: string): string {
  const used = (name: string): boolean => fn.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === name);
  if (!used(base)) return base;
  if (meaningful === undefined) return names.take(base);
  return used(meaningful) ? names.take(meaningful) : meaningful;
}

/** How the dispatching call hands the context to the tool function. */
export interface DispatchContext {
  /** Parameter index the tool function receives the context at. */
  index: number;
  /** The tool function already receives the dispatcher's context there (`(a, extra) => t.run(a, extra)`). */
  passed: boolean;
}

function paramsOf(fn: Node): ParameterDeclaration[] {
  return (fn as Node & { getParameters?: () => ParameterDeclaration[] }).getParameters?.() ?? [];
}

/** The dispatcher's context parameter name when it declares one as an identifier. */
function dispatcherContextName(dispatcher: Handler): string | undefined {
  const candidate = paramsOf(dispatcher.fn)[contextIndex(dispatcher)];
  return candidate && Node.isIdentifier(candidate.getNameNode()) ? candidate.getName() : undefined;
}

export function dispatchContext(handler: Handler): DispatchContext {
  const { dispatcher, call } = handler.dispatch!;
  const args = call.getArguments();
  const ctxName = dispatcherContextName(dispatcher);
  const passedAt = ctxName ? args.findIndex((a) => unwrapExpression(a)?.getText() === ctxName) : -1;
  if (passedAt >= 0) return { index: passedAt, passed: true };
  const params = paramsOf(handler.fn);
  if (params.length > args.length) {
    throw new Obstacle(`the tool function takes ${params.length} parameters but the dispatching call at line ${line(call)} passes ${args.length}; the context parameter has no free position`);
  }
  return { index: args.length, passed: false };
}

/**
 * The request's arguments as the tool function sees them (for the requestState digest): the
 * parameters whose dispatch argument comes from the request. `null` when none does: the function
 * then cannot see the arguments, so state minted for other arguments behaves the same.
 */
export function dispatchedArguments(handler: Handler): { names: Array<{ index: number; whole: boolean }> } {
  const { dispatcher, call } = handler.dispatch!;
  const first = paramsOf(dispatcher.fn)[0];
  const source = first && Node.isIdentifier(first.getNameNode()) ? first.getName() : undefined;
  const bound = first && !Node.isIdentifier(first.getNameNode()) ? first.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()) : [];
  const names: Array<{ index: number; whole: boolean }> = [];
  call.getArguments().forEach((arg, index) => {
    const expr = unwrapExpression(arg);
    if (!expr) return;
    const ids = [expr, ...expr.getDescendantsOfKind(SyntaxKind.Identifier)].filter((n) => Node.isIdentifier(n)).map((n) => n.getText());
    // the whole request of a low-level handler: its params are the arguments
    if (source && dispatcher.registration === 'setRequestHandler' && expr.getText() === source) names.push({ index, whole: true });
    else if ((source && ids.includes(source)) || ids.some((id) => bound.includes(id))) names.push({ index, whole: false });
  });
  return { names };
}

