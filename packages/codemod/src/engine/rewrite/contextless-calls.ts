/**
 * One function for the handlers and for the callers that pass no context.
 *
 * `createItem(api, data, extra?)` asks on its optional `extra` (`if (extra?.sendRequest) ...`); a
 * handler passes its context, start-up code passes none (`createItem(api, seed)`), so for that code
 * the request never runs (the reach stage names such calls, context `contextless-call`). The helper
 * form rewrites the function once for both: it keeps the context parameter optional, and TypeScript
 * overloads give the callers without a context the result type they had, since without one the
 * rewritten function never asks either: every read of an answer and every `inputRequired(...)` it
 * returns goes through the context, so a path reaching the request without one throws the same
 * TypeError the legacy `extra.sendRequest` threw, and the guarded path (`extra?.…`) skips it as before.
 */
import { Node, SyntaxKind, ts, type CallExpression, type FunctionDeclaration, type MethodDeclaration, type ParameterDeclaration } from 'ts-morph';
import type { CallPathStep, Reach } from '../model.js';
import { resolveCallee } from '../find/resolve.js';
import { flavourOf } from './module-flavour.js';
import { enclosingFunction, line } from './points.js';
import { abbreviate } from './purity.js';
import { helperName } from './function-body.js';

/** What the helper form needs to serve the callers without a context (planned before any text changes). */
export interface ContextlessCallers {
  calls: CallExpression[];
  /** The optional parameter the request is sent on (it stays optional). */
  param: ParameterDeclaration;
  /** The result type those callers get (`T` of the original `Promise<T>`); undefined in JavaScript, which needs no overloads. */
  resultType?: string;
}

/** The calls of a reach that run the request's function without the context it is sent on. */
export function contextlessCallsOf(reach: Reach): CallExpression[] {
  return reach.nonHandlerContexts.flatMap((c) => (c.context === 'contextless-call' && Node.isCallExpression(c.node) ? [c.node] : []));
}

/**
 * The callers without a context of the function making the request, when the helper form can serve
 * them too; otherwise why not (the reason the handlers keep the function as it is).
 */
export function contextlessCallers(reach: Reach): ContextlessCallers | string | undefined {
  const decision = contextlessDecision(reach);
  if (decision === undefined) return undefined;
  return decision.callersObstacle ?? decision.handlerPathObstacle ?? decision.callers;
}

/**
 * The helper form's decision, in its two halves: whether the callers without a context can keep
 * calling the rewritten function (`callers`, or `callersObstacle`), and whether the handlers' own
 * way down to it lets its input request back up (`handlerPathObstacle`). When only the second fails,
 * the callers without a context are not what keeps the function as it is, and the reason says so.
 */
export interface ContextlessDecision {
  callers?: ContextlessCallers;
  callersObstacle?: string;
  handlerPathObstacle?: string;
}

export function contextlessDecision(reach: Reach): ContextlessDecision | undefined {
  const calls = contextlessCallsOf(reach);
  if (calls.length === 0) return undefined;
  const fn = enclosingFunction(reach.site.node);
  if (!fn) return { callersObstacle: 'the request is not in a function' };
  const callers = callersServed(reach, fn, calls);
  const handlerPathObstacle = handlerPathObstacleOf(reach, fn);
  return {
    ...(typeof callers === 'string' ? { callersObstacle: callers } : { callers }),
    ...(handlerPathObstacle !== undefined ? { handlerPathObstacle } : {}),
  };
}

/** Whether the calls without a context can call the rewritten function as they are (optional last parameter, overloads for their result type). */
function callersServed(reach: Reach, fn: Node, calls: CallExpression[]): ContextlessCallers | string {
  const name = helperName(fn);
  // a call one caller further up (the parameter handed on) would need that caller rewritten too
  const further = calls.find((call) => resolveCallee(call.getExpression()) !== fn);
  if (further) return `\`${further.getExpression().getText()}(…)\` calls a function that hands the context on to \`${name}\`, not \`${name}\` itself`;
  const index = sentOnIndex(reach, fn);
  const params = (fn as Node & { getParameters(): ParameterDeclaration[] }).getParameters();
  const param = index === undefined ? undefined : params[index];
  if (!param) return `the parameter \`${name}\` sends its request on is not a plain parameter`;
  const ts = flavourOf(fn.getSourceFile()) === 'ts';
  // in JavaScript every parameter may be left out
  if (ts && !param.hasQuestionToken()) return `\`${param.getName()}\` is not an optional parameter of \`${name}\``;
  if (param !== params[params.length - 1]) return `\`${param.getName()}\` is not the last parameter of \`${name}\``;
  if (!ts) return { calls, param };
  if (!Node.isFunctionDeclaration(fn) && !(Node.isMethodDeclaration(fn) && Node.isClassDeclaration(fn.getParent()))) {
    return `\`${name}\` is not a function declaration or class method, so no overload can give its callers without \`${param.getName()}\` their result type`;
  }
  const resultType = resolvedResultType(fn);
  if (typeof resultType !== 'string' || resultType.includes('import(')) return `the result type of \`${name}\` cannot be named for its callers without \`${param.getName()}\``;
  return { calls, param, resultType };
}

/**
 * The helper form hands the context down a chain of plain calls only; a function handed to another
 * call (a tracer's callback) or held in a variable assigned elsewhere is not a helper it rewrites.
 * The first blocked handler's way down explains the function's flag (each handler's entry names its own).
 */
function handlerPathObstacleOf(reach: Reach, fn: Node): string | undefined {
  for (const { path } of reach.handlers) {
    const obstacle = handlerPathObstacle(path, fn);
    if (obstacle !== undefined) return obstacle;
  }
  return undefined;
}

/** Every step of one handler's way down to `fn` that the helper form cannot follow, named (removing one alone would not do); undefined when there is none. */
export function handlerPathObstacle(path: CallPathStep[], fn: Node): string | undefined {
  const name = helperName(fn);
  const indirect = path.filter((step) => resolveCallee(step.call.getExpression()) !== step.callee);
  if (indirect.length === 0) return undefined;
  const steps = indirect.map((step, i) => {
    const called = abbreviate(step.call.getExpression().getText(), 40);
    const through = `${i === 0 ? `a handler reaches \`${name}\` through` : 'and through'} \`${called}(…)\` (${place(step.call, fn)})`;
    // a callback (a tracer's): the context may reach the function inside it, but not its result back out
    if (step.call.getArguments().some((argument) => argument === step.callee)) {
      return `${through}, which runs it inside a callback it is handed: the rewritten \`${name}\` would return its input_required result to that callback, and \`${called}\`, which the rewrite does not change, would have to hand it back to the handler`;
    }
    return `${through}, which does not call the function it runs by name, so the context cannot be handed down to it`;
  });
  return steps.join('; ');
}

/** What to do when only the handlers' way down keeps the function as it is. */
export const HANDLER_PATH_ADVICE =
  'have the handler call this function itself, passing its context (not inside a callback handed to another call, nor through a function held in a variable), then run the codemod again; its callers without the context need no change: the rewritten function keeps them as they are';

/**
 * The reason of a function its handlers reach only in ways the helper form cannot follow, while its
 * callers without a context could call the rewritten function unchanged: the way down is the
 * obstacle, and the callers are named as no part of it.
 */
export function handlerPathReason(obstacle: string, callers: ContextlessCallers, fn: Node): string {
  const param = callers.param.getName();
  const [first, ...rest] = callers.calls;
  const named = `\`${abbreviate(first!.getExpression().getText(), 40)}(…)\` (${place(first!, fn)})${rest.length > 0 ? ` and ${rest.length} more` : ''}`;
  const overloads = callers.resultType !== undefined ? ', and an overload would give them the result type they have' : '';
  return `${obstacle}; its callers that pass no \`${param}\` (${named}) are not what keeps it: without \`${param}\` the rewritten function never asks${overloads}`;
}

/** `line 12`, or `index.ts:12` when the node is in another file than the request's function. */
function place(node: Node, fn: Node): string {
  const file = node.getSourceFile();
  return file === fn.getSourceFile() ? `line ${line(node)}` : `${file.getBaseName()}:${line(node)}`;
}

/** Index of the parameter the site's request is sent on: the receiver's root (`extra` of `extra.mcpReq.send`). */
function sentOnIndex(reach: Reach, fn: Node): number | undefined {
  const site = reach.site.node;
  if (!Node.isCallExpression(site)) return undefined;
  let node: Node = site.getExpression();
  while (Node.isPropertyAccessExpression(node) || Node.isNonNullExpression(node) || Node.isParenthesizedExpression(node) || Node.isAsExpression(node)) node = node.getExpression();
  if (!Node.isIdentifier(node)) return undefined;
  const params = (fn as Node & { getParameters(): ParameterDeclaration[] }).getParameters();
  const index = params.findIndex((p) => Node.isIdentifier(p.getNameNode()) && p.getName() === node.getText());
  return index < 0 ? undefined : index;
}

/** `T` of the declared `Promise<T>`, or of the inferred one. */
function resolvedResultType(fn: FunctionDeclaration | MethodDeclaration): string | undefined {
  const declared = fn.getReturnTypeNode()?.getText();
  if (declared !== undefined) return /^Promise<([\s\S]*)>$/.exec(declared)?.[1];
  const promised = fn.getReturnType().getTypeArguments()[0];
  return promised?.getText(fn, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
}

/**
 * The two overloads written above the rewritten function: without the context it returns what it
 * returned (no input request), with one (or a context that may be undefined, handed on) it may ask.
 */
export function overloadsText(fn: FunctionDeclaration | MethodDeclaration, callers: ContextlessCallers, key: string, indent: string): string {
  const modifiers = fn
    .getModifiers()
    .filter((m) => m.getKind() !== SyntaxKind.AsyncKeyword)
    .map((m) => `${m.getText()} `)
    .join('');
  const head = `${modifiers}${Node.isFunctionDeclaration(fn) ? 'function ' : ''}${fn.getName()}${typeParameters(fn)}`;
  const params = fn.getParameters();
  const param = callers.param;
  const without = params.map((p) => (p === param ? `${p.getName()}?: undefined` : p.getText()));
  const withContext = [...params.map((p) => (p === param ? `${p.getName()}: ${typeText(p)} | undefined` : padded(p))), `${key}: string`];
  return [
    `// called without \`${param.getName()}\` it never asks: those callers get the result itself`,
    `${head}(${without.join(', ')}): Promise<${callers.resultType}>;`,
    `${head}(${withContext.join(', ')}): Promise<${callers.resultType} | InputRequiredResult>;`,
  ].join(`\n${indent}`);
}

function typeParameters(fn: FunctionDeclaration | MethodDeclaration): string {
  const list = fn.getTypeParameters();
  return list.length > 0 ? `<${list.map((t) => t.getText()).join(', ')}>` : '';
}

function typeText(p: ParameterDeclaration): string {
  const type = p.getTypeNode()?.getText() ?? 'any';
  return /=>|^new\b/.test(type) ? `(${type})` : type;
}

/** `b?: T` as the helper form's calls pass it (every call padded to the context): `b: T | undefined`. */
function padded(p: ParameterDeclaration): string {
  if (!p.hasQuestionToken() || p.isRestParameter()) return p.getText();
  return `${p.getName()}: ${typeText(p)} | undefined`;
}
