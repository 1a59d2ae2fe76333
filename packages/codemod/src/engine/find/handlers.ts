/**
 * Request-handler registrations in one source file: the MRTR-capable ones (`Handler`: tools/call,
 * prompts/get, resources/read through `McpServer` registration APIs or low-level `setRequestHandler`,
 * with switch/map dispatch targets) and every other request/notification handler (entry points the
 * reach stage reports as non-handler contexts).
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import {
  LOW_LEVEL_REGISTRATION,
  NOTIFICATION_REGISTRATION,
  REGISTRATION_APIS,
  REQUEST_SCHEMA_TO_METHOD,
  SERVER_CLASSES,
  isMrtrMethod,
  type MrtrMethod,
} from '@mcp-mrtr/surface';
import type { Handler, HandlerRegistration } from '../model.js';
import { isServerReceiver, type FindContext } from './receivers.js';
import { dispatchedTools } from '../reach/dispatch.js';
import { functionsStoredIn, memberDeclarationOf } from '../reach/members.js';
import { wrapperRegistrations } from './wrappers.js';
import { classifyType, declarationOf, functionOfDeclaration, isFunctionNode, nameText, resolveCallee, safeType, unwrapExpression, type FunctionLike } from './resolve.js';

/** A `setRequestHandler` / `setNotificationHandler` registration that is not MRTR-capable. */
export interface OtherRegistration {
  kind: 'request' | 'notification';
  /** Wire method when known (`tools/list`, `notifications/roots/list_changed`), else the schema text. */
  method: string;
  fn: FunctionLike;
  registrationCall: CallExpression;
}

export interface Registrations {
  handlers: Handler[];
  others: OtherRegistration[];
}

export function findHandlers(sourceFile: SourceFile, ctx: FindContext): Handler[] {
  return findRegistrations(sourceFile, ctx).handlers;
}

export function findRegistrations(sourceFile: SourceFile, ctx: FindContext): Registrations {
  const handlers: Handler[] = [];
  const others: OtherRegistration[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isPropertyAccessExpression(callee)) continue;
    const api = callee.getName();
    if (!(api in REGISTRATION_APIS) && api !== LOW_LEVEL_REGISTRATION && api !== NOTIFICATION_REGISTRATION) continue;
    if (!receiverMayBeServer(callee.getExpression(), api, ctx)) continue;
    const args = call.getArguments();
    const fn = handlerFunction(args[args.length - 1]) ?? returnedCallback(args[args.length - 1]);
    if (!fn) {
      // `server.registerTool(name, config, def.handler)`: every function stored in that member of the project's type;
      // `server.registerTool(name, config, callback)` in the project's own wrapper: every function its callers pass
      if (api in REGISTRATION_APIS) handlers.push(...memberRegistrations(call, api, args[args.length - 1]), ...wrapperRegistrations(call, api, handlerFunction));
      continue;
    }

    if (api in REGISTRATION_APIS) {
      const name = nameText(unwrapExpression(args[0]));
      const nameNode = unwrapExpression(args[0]) ?? call;
      const tableTargets = name === undefined && Node.isPropertyAccessExpression(nameNode) ? dispatchedTools(fn).map((t) => t.fn) : [];
      // A name read from an object (`tool.name`, `this.name`) is a registration too for the specific APIs
      // (a tool base class registering itself, a loop whose callback calls the tool's own code directly).
      // The generic APIs (`tool`) only on a receiver the type checker shows is a server (`this` of a class extending McpServer).
      const namedByMember =
        (!GENERIC_REGISTRATIONS.includes(api) || (ctx.typeChecked && isServerReceiver(callee.getExpression(), ctx))) &&
        (Node.isPropertyAccessExpression(nameNode) || Node.isElementAccessExpression(nameNode));
      if (name === undefined && !Node.isIdentifier(nameNode) && tableTargets.length === 0 && !namedByMember) continue;
      const handler: Handler = { fn, method: REGISTRATION_APIS[api]!.method, registration: api as HandlerRegistration, name, registrationCall: call, sourceFile };
      if (tableTargets.length > 0) handler.dispatchTargets = tableTargets;
      handlers.push(handler);
      continue;
    }

    const method = registeredMethod(args[0]);
    if (!method) continue;
    if (api === LOW_LEVEL_REGISTRATION && isMrtrMethod(method)) {
      const handler: Handler = { fn, method: method as MrtrMethod, registration: 'setRequestHandler', registrationCall: call, sourceFile };
      const targets = dispatchTargetsOf(fn);
      if (targets.length > 0) handler.dispatchTargets = targets;
      handlers.push(handler);
    } else {
      others.push({ kind: api === NOTIFICATION_REGISTRATION ? 'notification' : 'request', method, fn, registrationCall: call });
    }
  }
  return { handlers, others };
}

/**
 * A registration whose callback is a member of a typed value (`toolDef.handler` of a plugin loader's
 * `ToolDefinition` parameter): the functions stored in that member anywhere in the project (object
 * literals the type checker checks against that declaration) are its handlers, each named by the
 * table key it sits under (`tools: { roots_list: { handler } }`).
 */
function memberRegistrations(call: CallExpression, api: string, arg: Node | undefined): Handler[] {
  const declaration = arg ? memberDeclarationOf(arg) : undefined;
  if (!declaration) return [];
  const out: Handler[] = [];
  for (const fn of functionsStoredIn(declaration)) {
    if (out.some((h) => h.fn === fn)) continue;
    const name = tableKeyOf(fn);
    out.push({ fn, method: REGISTRATION_APIS[api]!.method, registration: api as HandlerRegistration, ...(name !== undefined ? { name } : {}), registrationCall: call, sourceFile: fn.getSourceFile() });
  }
  return out;
}

/** The key of the table entry an object literal holding `fn` is (`roots_list: { handler: fn }`), or its literal `name`. */
function tableKeyOf(fn: Node): string | undefined {
  const object = fn.getFirstAncestor((a) => Node.isObjectLiteralExpression(a));
  if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
  const nameProperty = object.getProperty('name');
  const literal = nameProperty && Node.isPropertyAssignment(nameProperty) ? nameText(unwrapExpression(nameProperty.getInitializer())) : undefined;
  if (literal !== undefined) return literal;
  const holder = object.getParent();
  return holder && Node.isPropertyAssignment(holder) ? nameText(holder.getNameNode()) : undefined;
}

/** Generic registration names (`tool`, `prompt`, `resource`) need a server-like receiver. */
const GENERIC_REGISTRATIONS = ['tool', 'prompt', 'resource'];

function receiverMayBeServer(receiver: Node, api: string, ctx: FindContext): boolean {
  if (!GENERIC_REGISTRATIONS.includes(api) || !ctx.typeChecked) return true;
  if (isServerReceiver(receiver, ctx)) return true;
  // the receiver itself (not a callback parameter): a cheap query that vetoes other libraries' `tool()`
  const type = safeType(receiver);
  return !type || classifyType(type, [...SERVER_CLASSES]) !== 'other';
}

/** The function a registration's last argument holds: inline, by name, `obj.method`, `.bind(...)`. */
export function handlerFunction(arg: Node | undefined): FunctionLike | undefined {
  let node = unwrapExpression(arg);
  if (!node) return undefined;
  if (Node.isCallExpression(node)) {
    const callee = unwrapExpression(node.getExpression());
    if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind') node = callee.getExpression();
    else return undefined;
  }
  if (isFunctionNode(node)) return node;
  if (Node.isIdentifier(node)) return functionOfDeclaration(declarationOf(node));
  if (Node.isPropertyAccessExpression(node)) return resolveCallee(node);
  return undefined;
}

/**
 * `withParams(closeTicket)` as a registration's callback: the function a project function returns
 * (an arrow's function body, or its one `return` of a function expression). The callback it
 * returns is the handler; the functions it calls through its parameters are bound at this call
 * (reach/wrapped-callbacks.ts).
 */
export function returnedCallback(arg: Node | undefined): FunctionLike | undefined {
  const call = unwrapExpression(arg);
  if (!call || !Node.isCallExpression(call)) return undefined;
  const factory = resolveCallee(call.getExpression());
  const body = factory?.getBody?.();
  if (!factory || !body) return undefined;
  if (!Node.isBlock(body)) {
    const returned = unwrapExpression(body);
    return isFunctionNode(returned) ? returned : undefined;
  }
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === factory);
  const returned = returns.length === 1 ? unwrapExpression(returns[0]!.getExpression()) : undefined;
  return isFunctionNode(returned) ? returned : undefined;
}

/** `CallToolRequestSchema` → tools/call; `'tools/call'` literal; a notification schema's text. */
function registeredMethod(arg: Node | undefined): string | undefined {
  const node = unwrapExpression(arg);
  if (!node) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  const schema = node.getText().split('.').pop()!;
  return REQUEST_SCHEMA_TO_METHOD[schema] ?? schema;
}

/**
 * Per-tool functions a low-level tools/call handler dispatches to: project functions called from the
 * clauses of a `switch` over string cases, or the values of a map indexed by the tool name.
 */
export function dispatchTargetsOf(fn: Node): Node[] {
  const targets: Node[] = [];
  const add = (target: Node | undefined) => {
    if (target && !targets.includes(target)) targets.push(target);
  };
  fn.forEachDescendant((node, traversal) => {
    if (node !== fn && isFunctionNode(node)) {
      traversal.skip();
      return;
    }
    if (Node.isSwitchStatement(node)) {
      const clauses = node.getCaseBlock().getClauses();
      const stringCases = clauses.filter((c) => Node.isCaseClause(c) && nameText(unwrapExpression(c.getExpression())) !== undefined);
      if (stringCases.length === 0) return;
      for (const clause of stringCases) {
        for (const call of clause.getDescendantsOfKind(SyntaxKind.CallExpression)) add(resolveCallee(call.getExpression()));
      }
    } else if (Node.isElementAccessExpression(node)) {
      const map = unwrapExpression(node.getExpression());
      if (!map || !Node.isIdentifier(map)) return;
      const decl = declarationOf(map);
      const init = decl && Node.isVariableDeclaration(decl) ? unwrapExpression(decl.getInitializer()) : undefined;
      if (!init || !Node.isObjectLiteralExpression(init)) return;
      for (const property of init.getProperties()) {
        if (Node.isPropertyAssignment(property)) add(handlerFunction(property.getInitializer()));
        else if (Node.isShorthandPropertyAssignment(property)) add(functionOfDeclaration(declarationOf(property.getNameNode())));
        else if (Node.isMethodDeclaration(property)) add(property);
      }
    }
  });
  return targets;
}
