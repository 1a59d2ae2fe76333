/**
 * Legacy server-to-client request sites in one source file: v1/v2 server methods,
 * `extra.sendRequest` / destructured `sendRequest`, `server.request`, v2 `ctx.mcpReq.*`, bound and
 * destructured aliases, `throw new UrlElicitationRequiredError`, the completion notifier and raw
 * JSON-RPC request objects. Look-alikes (a user's own `elicitInput(message)`, another library's
 * `createMessage`, client-side handlers, strings) are not sites.
 */
import { Node, SyntaxKind, type CallExpression, type NewExpression, type SourceFile, type ThrowStatement } from 'ts-morph';
import {
  CTX_MCPREQ_METHOD_TO_LEGACY,
  ELICITATION_COMPLETION_NOTIFIER,
  GENERIC_SENDER_SHAPES,
  JSONRPC_REQUEST_FIELDS,
  JSONRPC_VERSION,
  LEGACY_REQUESTS,
  MCP_PACKAGE_PREFIX,
  METHOD_BINDER,
  METHOD_INVOKERS,
  REQUEST_FIELDS,
  RESULT_SCHEMA_TO_LEGACY,
  SERVER_METHOD_TO_LEGACY,
  URL_ELICITATION_ERROR,
  isLegacyMethod,
  type GenericSender,
  type LegacyMethod,
} from '@mcp-mrtr/surface';
import type { Site, SiteShape } from '../model.js';
import { isMcpReqReceiver, isRequestContextReceiver, isServerReceiver, type FindContext } from './receivers.js';
import { declarationOf, isFunctionNode, nameText, referencesOf, unwrapExpression, valueParent } from './resolve.js';
import { declaresSdkRequestMethod } from './sdk-shaped.js';
import { agentObstacle, agentReceiverOf } from './agents.js';
import { forEachWantedDescendant } from '../compiler-walk.js';

// the generic senders of the surface table, each recognised on its own receiver below
const SEND_REQUEST: GenericSender = 'sendRequest';
const SERVER_REQUEST: GenericSender = 'request';
const CTX_SEND: GenericSender = 'send';
const INVOKERS: readonly string[] = METHOD_INVOKERS;

interface Match {
  node: CallExpression | NewExpression | ThrowStatement;
  method: LegacyMethod;
  shape: SiteShape;
  params?: Node;
  obstacle?: string;
}

/** The kinds a site can start at. */
const SITE_KINDS: ReadonlySet<SyntaxKind> = new Set([SyntaxKind.CallExpression, SyntaxKind.NewExpression, SyntaxKind.ObjectLiteralExpression]);

export function findSites(sourceFile: SourceFile, ctx: FindContext): Site[] {
  const matches: Match[] = [];
  const seen = new Set<Node>();
  const add = (match: Match | undefined) => {
    if (!match || seen.has(match.node)) return;
    seen.add(match.node);
    matches.push(match);
  };
  forEachWantedDescendant(
    sourceFile,
    (node) => SITE_KINDS.has(node.kind),
    (node) => {
      if (Node.isCallExpression(node)) add(matchCall(node, ctx));
      else if (Node.isNewExpression(node)) add(matchUrlElicitationError(node));
      else if (Node.isObjectLiteralExpression(node)) add(matchRawJsonRpc(node));
    },
  );
  matches.sort((a, b) => a.node.getStart() - b.node.getStart());
  return matches.map((m) => toSite(sourceFile, m));
}

function toSite(sourceFile: SourceFile, m: Match): Site {
  const start = m.node.getStart();
  const { line, column } = sourceFile.getLineAndColumnAtPos(start);
  const { awaited } = valueParent(Node.isThrowStatement(m.node) ? m.node.getExpression() : m.node);
  return {
    id: `${sourceFile.getFilePath()}:${line}:${column}`,
    sourceFile,
    node: m.node,
    method: m.method,
    kind: LEGACY_REQUESTS[m.method].kind,
    shape: m.shape,
    params: m.params,
    awaited,
    receiverName: receiverNameOf(m.node),
    ...(m.obstacle !== undefined ? { obstacle: m.obstacle } : {}),
    line,
    column,
  };
}

function matchCall(call: CallExpression, ctx: FindContext): Match | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!callee) return undefined;
  const args = call.getArguments();

  if (Node.isPropertyAccessExpression(callee)) {
    const name = callee.getName();
    const receiver = callee.getExpression();

    // server.elicitInput.call(server, params) / .apply(server, [params])
    if (INVOKERS.includes(name) && Node.isPropertyAccessExpression(unwrapExpression(receiver))) {
      const ref = legacyReference(receiver, ctx);
      if (ref) {
        const params = name === 'apply' ? firstArrayElement(args[1]) : args[1];
        return finishReference(call, ref, params ? [params, ...args.slice(2)] : [], ctx);
      }
    }

    if (name in CTX_MCPREQ_METHOD_TO_LEGACY && isMcpReqReceiver(receiver, ctx)) {
      return { node: call, method: CTX_MCPREQ_METHOD_TO_LEGACY[name]!, shape: 'ctx-method', params: args[0] };
    }
    if (name === CTX_SEND && isMcpReqReceiver(receiver, ctx)) {
      const request = requestOf(args[0], args[1]);
      if (request) return { node: call, method: request.method, shape: GENERIC_SENDER_SHAPES[CTX_SEND], params: request.params };
    }
    if (name in SERVER_METHOD_TO_LEGACY && (isServerReceiver(receiver, ctx) || declaresSdkRequestMethod(receiver, name))) {
      return { node: call, method: SERVER_METHOD_TO_LEGACY[name]!, shape: 'server-method', params: args[0] };
    }
    if (name in SERVER_METHOD_TO_LEGACY) {
      const agent = agentReceiverOf(receiver);
      if (agent) return { node: call, method: SERVER_METHOD_TO_LEGACY[name]!, shape: 'server-method', params: args[0], obstacle: agentObstacle(receiver.getText(), agent, name) };
    }
    if (name === SEND_REQUEST && isRequestContextReceiver(receiver, ctx)) {
      const request = requestOf(args[0], args[1]);
      if (request) return { node: call, method: request.method, shape: GENERIC_SENDER_SHAPES[SEND_REQUEST], params: request.params };
    }
    if (name === SERVER_REQUEST && isServerReceiver(receiver, ctx)) {
      const request = requestOf(args[0], args[1]);
      if (request) return { node: call, method: request.method, shape: GENERIC_SENDER_SHAPES[SERVER_REQUEST], params: request.params };
    }
    if (name === ELICITATION_COMPLETION_NOTIFIER && isServerReceiver(receiver, ctx)) {
      return { node: call, method: 'elicitation/create', shape: 'completion-notifier', params: args[0] };
    }
    return undefined;
  }

  if (Node.isIdentifier(callee) && mayBeAlias(call.getSourceFile(), callee.getText())) {
    const ref = aliasedReference(callee, ctx);
    if (ref) return finishReference(call, ref, args, ctx);
  }
  return undefined;
}

const LEGACY_NAME = /\b(elicitInput|createMessage|listRoots|requestSampling|sendRequest|request|send)\b/;
const LEGACY_REFERENCE = /\b(elicitInput|createMessage|listRoots|requestSampling|sendRequest)\b(?!\s*\()/;
const aliasNames = new WeakMap<SourceFile, { text: string; names: Set<string> | 'all' }>();

/**
 * Names in the file that may hold a legacy request function: variables/bindings whose declaration
 * mentions one of the legacy names. Resolving every called identifier through the checker would
 * cost a symbol lookup per call; this keeps it to the few that matter. A file that passes a method
 * reference around (`fn(server.elicitInput.bind(server))`) resolves every called name.
 */
function mayBeAlias(sourceFile: SourceFile, name: string): boolean {
  const text = sourceFile.getFullText();
  const cached = aliasNames.get(sourceFile);
  let names = cached?.text === text ? cached.names : undefined;
  if (!names) {
    if (LEGACY_REFERENCE.test(text)) names = 'all';
    else {
      const found = new Set<string>();
      for (const decl of sourceFile.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
        if (LEGACY_NAME.test(decl.getText())) for (const id of decl.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier)) found.add(id.getText());
        const nameNode = decl.getNameNode();
        if (Node.isIdentifier(nameNode) && LEGACY_NAME.test(decl.getText())) found.add(nameNode.getText());
      }
      for (const param of sourceFile.getDescendantsOfKind(SyntaxKind.Parameter)) {
        const nameNode = param.getNameNode();
        if (!Node.isIdentifier(nameNode) && LEGACY_NAME.test(nameNode.getText())) {
          for (const id of nameNode.getDescendantsOfKind(SyntaxKind.Identifier)) found.add(id.getText());
        }
      }
      names = found;
    }
    aliasNames.set(sourceFile, { text, names });
  }
  return names === 'all' || names.has(name);
}

/** A reference to a legacy request function that is called later (`.bind`, alias, destructuring). */
type Reference =
  | { kind: 'method'; method: LegacyMethod }
  /** `sendRequest` / `request` / `send`: the method comes from the call's arguments. */
  | { kind: 'generic' };

function finishReference(call: CallExpression, ref: Reference, args: Node[], _ctx: FindContext): Match | undefined {
  if (ref.kind === 'method') return { node: call, method: ref.method, shape: 'alias-call', params: args[0] };
  const request = requestOf(args[0], args[1]);
  if (!request) return undefined;
  return { node: call, method: request.method, shape: GENERIC_SENDER_SHAPES[SEND_REQUEST], params: request.params };
}

/** `server.elicitInput`, `server.elicitInput.bind(server)`, `extra.sendRequest`, `ctx.mcpReq.elicitInput`. */
function legacyReference(expr: Node | undefined, ctx: FindContext, depth = 0): Reference | undefined {
  const node = unwrapExpression(expr);
  if (!node || depth > 4) return undefined;
  if (Node.isCallExpression(node)) {
    const callee = unwrapExpression(node.getExpression());
    if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === METHOD_BINDER) {
      return legacyReference(callee.getExpression(), ctx, depth + 1);
    }
    return undefined;
  }
  if (Node.isPropertyAccessExpression(node)) {
    const name = node.getName();
    const receiver = node.getExpression();
    if (name in CTX_MCPREQ_METHOD_TO_LEGACY && isMcpReqReceiver(receiver, ctx)) {
      return { kind: 'method', method: CTX_MCPREQ_METHOD_TO_LEGACY[name]! };
    }
    if (name in SERVER_METHOD_TO_LEGACY && (isServerReceiver(receiver, ctx) || declaresSdkRequestMethod(receiver, name))) {
      return { kind: 'method', method: SERVER_METHOD_TO_LEGACY[name]! };
    }
    if (name === SEND_REQUEST && isRequestContextReceiver(receiver, ctx)) return { kind: 'generic' };
    if (name === SERVER_REQUEST && isServerReceiver(receiver, ctx)) return { kind: 'generic' };
    if (name === CTX_SEND && isMcpReqReceiver(receiver, ctx)) return { kind: 'generic' };
    return undefined;
  }
  if (Node.isIdentifier(node)) return aliasedReference(node, ctx, depth + 1);
  return undefined;
}

/** What a called identifier holds: an alias variable, a destructured method, a parameter fed a reference. */
function aliasedReference(id: Node, ctx: FindContext, depth = 0): Reference | undefined {
  if (depth > 4) return undefined;
  const decl = declarationOf(id);
  if (!decl) return undefined;
  if (Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    return init ? legacyReference(init, ctx, depth + 1) : undefined;
  }
  if (Node.isBindingElement(decl)) {
    const property = decl.getPropertyNameNode()?.getText() ?? decl.getName();
    const pattern = decl.getParent();
    const holder = pattern?.getParent();
    // const { elicitInput } = server;  const { sendRequest } = extra;
    if (holder && Node.isVariableDeclaration(holder)) {
      const source = holder.getInitializer();
      return destructuredReference(property, source, ctx);
    }
    // async (args, { sendRequest }) => ...: a handler's context parameter destructured.
    if (holder && Node.isParameterDeclaration(holder)) {
      if (property === SEND_REQUEST) return { kind: 'generic' };
      return undefined;
    }
    return undefined;
  }
  if (Node.isParameterDeclaration(decl)) {
    return parameterReference(decl, ctx, depth);
  }
  return undefined;
}

function destructuredReference(property: string, source: Node | undefined, ctx: FindContext): Reference | undefined {
  if (!source) return undefined;
  if (property in SERVER_METHOD_TO_LEGACY && isServerReceiver(source, ctx)) {
    return { kind: 'method', method: SERVER_METHOD_TO_LEGACY[property]! };
  }
  if (property in CTX_MCPREQ_METHOD_TO_LEGACY && isMcpReqReceiver(source, ctx)) {
    return { kind: 'method', method: CTX_MCPREQ_METHOD_TO_LEGACY[property]! };
  }
  if (property === SEND_REQUEST && isRequestContextReceiver(source, ctx)) return { kind: 'generic' };
  return undefined;
}

/** `function ask(fn, msg) { return fn(msg) }` called as `ask(server.elicitInput.bind(server), ...)`. */
function parameterReference(param: Node, ctx: FindContext, depth: number): Reference | undefined {
  if (!Node.isParameterDeclaration(param)) return undefined;
  const fn = param.getParent();
  if (!fn) return undefined;
  const index = (fn as unknown as { getParameters(): Node[] }).getParameters?.().indexOf(param) ?? -1;
  if (index < 0) return undefined;
  const fnName = functionName(fn);
  if (!fnName) return undefined;
  for (const call of fn.getSourceFile().getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || nameText(Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee) !== fnName) continue;
    const arg = call.getArguments()[index];
    const ref = arg ? legacyReference(arg, ctx, depth + 1) : undefined;
    if (ref) return ref;
  }
  return undefined;
}

function functionName(fn: Node): string | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getName();
  const parent = fn.getParent();
  if (parent && (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent))) return parent.getName();
  return undefined;
}

function firstArrayElement(node: Node | undefined): Node | undefined {
  const n = unwrapExpression(node);
  return n && Node.isArrayLiteralExpression(n) ? n.getElements()[0] : undefined;
}

/**
 * The legacy method of a generic request `({ method, params }, Schema?)`: the `method` literal, else
 * the result schema name. Undefined when neither names one of the three legacy requests.
 */
function requestOf(first: Node | undefined, schema: Node | undefined): { method: LegacyMethod; params?: Node } | undefined {
  const object = objectLiteralOf(first);
  let method: LegacyMethod | undefined;
  let params: Node | undefined;
  if (object) {
    const methodValue = propertyInitializer(object, REQUEST_FIELDS.method);
    const literal = methodValue ? nameText(unwrapExpression(methodValue)) : undefined;
    if (literal !== undefined && !isLegacyMethod(literal)) return undefined;
    method = literal as LegacyMethod | undefined;
    params = propertyInitializer(object, REQUEST_FIELDS.params);
  }
  if (!method && schema) {
    const schemaName = unwrapExpression(schema)?.getText().split('.').pop();
    if (schemaName && schemaName in RESULT_SCHEMA_TO_LEGACY) method = RESULT_SCHEMA_TO_LEGACY[schemaName];
  }
  return method ? { method, params } : undefined;
}

function objectLiteralOf(node: Node | undefined): import('ts-morph').ObjectLiteralExpression | undefined {
  const n = unwrapExpression(node);
  if (!n) return undefined;
  if (Node.isObjectLiteralExpression(n)) return n;
  if (Node.isIdentifier(n)) {
    const decl = declarationOf(n);
    if (decl && Node.isVariableDeclaration(decl)) {
      const init = unwrapExpression(decl.getInitializer());
      if (init && Node.isObjectLiteralExpression(init)) return init;
    }
  }
  return undefined;
}

function propertyInitializer(object: import('ts-morph').ObjectLiteralExpression, name: string): Node | undefined {
  const property = object.getProperty(name);
  if (!property) return undefined;
  if (Node.isPropertyAssignment(property)) return property.getInitializer();
  if (Node.isShorthandPropertyAssignment(property)) {
    const decl = declarationOf(property.getNameNode());
    if (decl && Node.isVariableDeclaration(decl)) return decl.getInitializer() ?? property.getNameNode();
    return property.getNameNode();
  }
  return undefined;
}

/** `throw new UrlElicitationRequiredError([...])` imported from an MCP package (or unresolved). */
function matchUrlElicitationError(node: NewExpression): Match | undefined {
  const cls = unwrapExpression(node.getExpression());
  if (!cls) return undefined;
  const name = Node.isPropertyAccessExpression(cls) ? cls.getName() : cls.getText();
  if (name !== URL_ELICITATION_ERROR) return undefined;
  const id = Node.isPropertyAccessExpression(cls) ? cls.getNameNode() : cls;
  const decl = declarationOf(id);
  if (decl && !decl.getSourceFile().getFilePath().includes('/node_modules/') && Node.isClassDeclaration(decl)) return undefined;
  if (decl && decl.getSourceFile().getFilePath().includes('/node_modules/') && !decl.getSourceFile().getFilePath().includes(`/node_modules/${MCP_PACKAGE_PREFIX}`)) {
    return undefined;
  }
  const { parent } = valueParent(node);
  // only a thrown error asks the client for a URL flow: `return new ...` (McpError.fromError) or a
  // stored instance that is never thrown is just an error value
  if (!parent || !(Node.isThrowStatement(parent) || isThrownVariable(parent, node))) return undefined;
  const site = Node.isThrowStatement(parent) ? parent : node;
  const args = node.getArguments();
  return { node: site, method: 'elicitation/create', shape: 'url-elicitation-error', params: args[0] };
}

/** `const error = new X(...)` followed by `throw error` in the same function. */
function isThrownVariable(parent: Node, created: NewExpression): boolean {
  if (!Node.isVariableDeclaration(parent) || unwrapExpression(parent.getInitializer()) !== created) return false;
  const nameNode = parent.getNameNode();
  if (!Node.isIdentifier(nameNode)) return false;
  const scope = parent.getFirstAncestor((a) => isFunctionNode(a) || Node.isSourceFile(a));
  return (scope ?? parent.getSourceFile())
    .getDescendantsOfKind(SyntaxKind.ThrowStatement)
    .some((t) => {
      const thrown = unwrapExpression(t.getExpression());
      return thrown !== undefined && Node.isIdentifier(thrown) && thrown.getText() === nameNode.getText() && declarationOf(thrown) === parent;
    });
}

/** `{ jsonrpc: '2.0', id, method: 'elicitation/create', params }` handed to a call (`transport.send(...)`). */
function matchRawJsonRpc(object: import('ts-morph').ObjectLiteralExpression): Match | undefined {
  const jsonrpc = propertyInitializer(object, JSONRPC_REQUEST_FIELDS.version);
  const methodNode = propertyInitializer(object, JSONRPC_REQUEST_FIELDS.method);
  if (!jsonrpc || !methodNode || !object.getProperty(JSONRPC_REQUEST_FIELDS.id)) return undefined;
  const method = nameText(unwrapExpression(methodNode));
  if (!isLegacyMethod(method) || nameText(unwrapExpression(jsonrpc)) !== JSONRPC_VERSION) return undefined;
  const call = callSending(object);
  if (!call) return undefined;
  return { node: call, method, shape: 'raw-jsonrpc', params: propertyInitializer(object, JSONRPC_REQUEST_FIELDS.params) };
}

function callSending(object: Node): CallExpression | undefined {
  const { parent, child } = valueParent(object);
  if (parent && Node.isCallExpression(parent) && parent.getArguments().includes(child)) return parent;
  if (parent && Node.isVariableDeclaration(parent)) {
    const nameNode = parent.getNameNode();
    if (!Node.isIdentifier(nameNode)) return undefined;
    for (const ref of referencesOf(nameNode) ?? []) {
      if (ref.getSourceFile() !== object.getSourceFile()) continue;
      const use = valueParent(ref);
      if (use.parent && Node.isCallExpression(use.parent) && use.parent.getArguments().includes(use.child)) return use.parent;
    }
  }
  return undefined;
}

/**
 * Name for the wire key: the variable that receives the answer (`const user_name = await ...`),
 * the assigned property, or the enclosing function's name when the answer is returned.
 */
export function receiverNameOf(node: Node): string | undefined {
  if (Node.isThrowStatement(node)) return undefined;
  const { parent, child } = valueParent(node);
  // `(await x.elicitInput(...)).content` and `const { action } = await ...` name nothing reliable.
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === child) return undefined;
  if (!parent) return undefined;
  if (Node.isVariableDeclaration(parent)) {
    const nameNode = parent.getNameNode();
    return Node.isIdentifier(nameNode) ? nameNode.getText() : undefined;
  }
  if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === child) {
    const left = unwrapExpression(parent.getLeft());
    if (left && Node.isIdentifier(left)) return left.getText();
    if (left && Node.isPropertyAccessExpression(left)) return left.getName();
    return undefined;
  }
  if (Node.isPropertyAssignment(parent)) return nameText(parent.getNameNode());
  if (Node.isReturnStatement(parent) || Node.isArrowFunction(parent)) {
    const fn = Node.isArrowFunction(parent) ? parent : parent.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isFunctionExpression(a) || Node.isArrowFunction(a) || Node.isMethodDeclaration(a));
    return fn ? functionName(fn) : undefined;
  }
  return undefined;
}
