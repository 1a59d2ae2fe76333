/**
 * A project's own registration wrapper: a function that hands one of its parameters to a
 * registration API as the callback (as it is, or through a check that returns it unchanged) and
 * names the registration with another of its parameters:
 *
 *   export function registerTool(server: McpServer, name: string, ...rest: unknown[]) {
 *     const callback = ensureCallback(rest.pop());
 *     return server.registerTool(name, { ... }, callback);
 *   }
 *   registerTool(server, 'import', 'Import a key', schema, annotations, async (args, extra) => { ... });
 *
 * Every call of the wrapper whose argument at that position is a function registers that function:
 * the SDK calls it as it calls any callback of that API. Which of its parameters receives the
 * request context is read from the callback type the wrapper declares at that call (the type
 * checker's resolved signature: the context is its last parameter); without that type the call is
 * not taken for a registration.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import { REGISTRATION_APIS } from '@mcp-mrtr/surface';
import type { Handler, HandlerRegistration } from '../model.js';
import { declarationOf, isFunctionNode, isInNodeModules, nameText, referencesOf, resolveCallee, unwrapExpression, type FunctionLike } from './resolve.js';

/** Where a wrapper's caller passes the value: an argument index, or the last argument (`...rest` then `rest.pop()`). */
type Position = { index: number } | { last: true };

/** How many wrappers around wrappers are followed. */
const MAX_WRAPPER_DEPTH = 3;

/**
 * Registrations made through the wrapper that `registration` (a registration API call whose
 * callback is not a function the call site holds) sits in: one per wrapper call passing a function.
 * `handlerFunction` resolves a wrapper call's argument to the function it holds.
 */
export function wrapperRegistrations(registration: CallExpression, api: string, handlerFunction: (arg: Node | undefined) => FunctionLike | undefined): Handler[] {
  const args = registration.getArguments();
  return throughWrapper(registration, args[args.length - 1], args[0], api, handlerFunction, 0);
}

function throughWrapper(
  call: CallExpression,
  callbackArg: Node | undefined,
  nameArg: Node | undefined,
  api: string,
  handlerFunction: (arg: Node | undefined) => FunctionLike | undefined,
  depth: number,
): Handler[] {
  if (depth >= MAX_WRAPPER_DEPTH || !callbackArg) return [];
  const wrapper = call.getFirstAncestor((a) => isFunctionNode(a)) as FunctionLike | undefined;
  if (!wrapper) return [];
  const callbackAt = parameterPosition(callbackArg, wrapper);
  if (!callbackAt) return [];
  const nameAt = nameArg ? parameterPosition(nameArg, wrapper) : undefined;
  const out: Handler[] = [];
  for (const wrapperCall of callsOf(wrapper)) {
    const args = wrapperCall.getArguments();
    const argument = 'last' in callbackAt ? args[args.length - 1] : args[callbackAt.index];
    const named = nameAt ? ('last' in nameAt ? args[args.length - 1] : args[nameAt.index]) : nameArg;
    const fn = handlerFunction(argument);
    if (!fn) {
      // a wrapper of the wrapper: its own parameter handed on
      out.push(...throughWrapper(wrapperCall, argument, named, api, handlerFunction, depth + 1));
      continue;
    }
    const contextIndex = argument ? contextIndexAt(wrapperCall, args.indexOf(argument as never)) : undefined;
    if (contextIndex === undefined || out.some((h) => h.fn === fn)) continue;
    const name = nameText(unwrapExpression(named));
    out.push({
      fn,
      method: REGISTRATION_APIS[api]!.method,
      registration: api as HandlerRegistration,
      ...(name !== undefined ? { name } : {}),
      registrationCall: wrapperCall,
      sourceFile: fn.getSourceFile(),
      contextIndex,
    });
  }
  return out;
}

/**
 * The parameter of `fn` an expression hands on: the parameter itself, a `const` initialised with
 * it, the last element of a rest parameter (`rest.pop()` before any other use, `rest.at(-1)`), or
 * a project function's result that is its first argument unchanged (`ensureCallback(cb, 'tool')`).
 */
function parameterPosition(expression: Node, fn: FunctionLike, depth = 0): Position | undefined {
  if (depth > 4) return undefined;
  const node = unwrapExpression(expression);
  if (!node) return undefined;
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    if (decl && Node.isParameterDeclaration(decl) && decl.getParent() === fn && !decl.isRestParameter()) {
      return { index: (fn as FunctionLike & { getParameters(): Node[] }).getParameters().indexOf(decl) };
    }
    if (decl && Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === 'const' && decl.getFirstAncestor((a) => isFunctionNode(a)) === fn) {
      const init = decl.getInitializer();
      return init ? parameterPosition(init, fn, depth + 1) : undefined;
    }
    return undefined;
  }
  if (!Node.isCallExpression(node)) return undefined;
  const callee = unwrapExpression(node.getExpression());
  if (callee && Node.isPropertyAccessExpression(callee)) {
    const rest = restParameterOf(callee.getExpression(), fn);
    if (!rest) return undefined;
    const member = callee.getName();
    if (member === 'pop' && node.getArguments().length === 0 && firstUseOf(rest, fn) === callee.getExpression()) return { last: true };
    if (member === 'at' && node.getArguments().length === 1 && node.getArguments()[0]!.getText() === '-1') return { last: true };
    return undefined;
  }
  const target = callee ? resolveCallee(callee) : undefined;
  if (!target || isInNodeModules(target) || !returnsFirstParameter(target)) return undefined;
  const first = node.getArguments()[0];
  return first ? parameterPosition(first, fn, depth + 1) : undefined;
}

function restParameterOf(expression: Node, fn: FunctionLike): Node | undefined {
  const node = unwrapExpression(expression);
  if (!node || !Node.isIdentifier(node)) return undefined;
  const decl = declarationOf(node);
  return decl && Node.isParameterDeclaration(decl) && decl.getParent() === fn && decl.isRestParameter() ? decl : undefined;
}

/** The first reference to a parameter in the function's text (a `pop()` there takes the last argument). */
function firstUseOf(parameter: Node, fn: FunctionLike): Node | undefined {
  const body = fn.getBody?.();
  const name = (parameter as Node & { getName(): string }).getName();
  return body?.getDescendantsOfKind(SyntaxKind.Identifier).find((id) => id.getText() === name && declarationOf(id) === parameter);
}

/** A function whose every `return` returns its first parameter as it is (a check that throws or hands it back). */
function returnsFirstParameter(fn: FunctionLike): boolean {
  const params = (fn as FunctionLike & { getParameters?(): Node[] }).getParameters?.() ?? [];
  const first = params[0];
  const body = fn.getBody?.();
  if (!first || !body || !Node.isParameterDeclaration(first) || !Node.isIdentifier(first.getNameNode())) return false;
  const isFirst = (e: Node | undefined) => {
    const node = unwrapExpression(e);
    return !!node && Node.isIdentifier(node) && declarationOf(node) === first;
  };
  if (!Node.isBlock(body)) return isFirst(body);
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === fn);
  if (returns.length === 0 || !returns.every((r) => isFirst(r.getExpression()))) return false;
  // the parameter is never assigned another value on the way
  return !body.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => b.getOperatorToken().getKind() === SyntaxKind.EqualsToken && isFirst(b.getLeft()));
}

/** The calls of a named wrapper function in project code, found by the type checker's references. */
function callsOf(wrapper: FunctionLike): CallExpression[] {
  let nameNode: Node | undefined;
  if (Node.isFunctionDeclaration(wrapper)) nameNode = wrapper.getNameNode();
  else {
    const parent = wrapper.getParent();
    if (parent && Node.isVariableDeclaration(parent) && unwrapExpression(parent.getInitializer()) === wrapper) nameNode = parent.getNameNode();
  }
  if (!nameNode || !Node.isIdentifier(nameNode)) return [];
  const refs = referencesOf(nameNode);
  if (!refs) return [];
  const out: CallExpression[] = [];
  for (const ref of refs) {
    if (ref === nameNode || isInNodeModules(ref)) continue;
    const parent = ref.getParent();
    if (parent && Node.isCallExpression(parent) && parent.getExpression() === ref) out.push(parent);
  }
  return out;
}

/**
 * The context parameter's index in the callback a wrapper call passes at argument `argIndex`: the
 * last parameter of the callback type the resolved signature declares there (`(args, extra) =>
 * unknown` gives 1). Undefined when the type checker has no such function type.
 */
function contextIndexAt(call: CallExpression, argIndex: number): number | undefined {
  try {
    const signature = call.getProject().getTypeChecker().getResolvedSignature(call);
    const params = signature?.getParameters() ?? [];
    const param = params[Math.min(argIndex, params.length - 1)];
    if (!param) return undefined;
    const type = param.getTypeAtLocation(call);
    const callbacks = type.getNonNullableType().getCallSignatures();
    if (callbacks.length !== 1) return undefined;
    const count = callbacks[0]!.getParameters().length;
    return count > 0 ? count - 1 : undefined;
  } catch {
    return undefined;
  }
}
