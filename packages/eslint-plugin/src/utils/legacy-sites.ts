/**
 * Finds every legacy server-to-client request site in a file (once per file, shared by the rules
 * that need them: no-server-initiated-requests, no-deprecated-client-features …).
 *
 * Receivers are recognised syntactically (`x.server`, `new Server(…)`/`new McpServer(…)`, aliases,
 * `*.mcpReq`, server-named parameters) and, when the parser offers a type checker, by type.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  AGENT_BASE_CLASS,
  AGENT_PACKAGE,
  CTX_MCPREQ_METHOD_TO_LEGACY,
  CTX_MCPREQ_PROPERTY,
  ELICITATION_COMPLETION_NOTIFIER,
  GENERIC_REQUEST_SENDERS,
  GENERIC_SENDER_SHAPES,
  JSONRPC_REQUEST_FIELDS,
  MCP_PACKAGE_PREFIX,
  MCP_SERVER_INNER_PROPERTY,
  METHOD_BINDER,
  METHOD_INVOKERS,
  REQUEST_FIELDS,
  RESULT_SCHEMA_TO_LEGACY,
  SERVER_CLASSES,
  SERVER_LIKE_NAME_PATTERN,
  SERVER_METHOD_TO_LEGACY,
  URL_ELICITATION_ERROR,
  isLegacyMethod,
  mayContainLegacySite,
  type GenericSender,
  type LegacyMethod,
  type LegacySiteShape,
} from '@mcp-mrtr/surface';
import {
  findProperty,
  getCalleeName,
  getPropertyName,
  getSimpleName,
  getStaticString,
  importedNameOf,
  outerParent,
  resolveConstInit,
  findVariable,
  unwrap,
  walk,
} from './ast.js';
import { getTypeNames } from './types.js';
import { isServerConstruction } from './mcp-imports.js';
import { callsOfFedParameter } from './fed-parameters.js';

/** How the request is spelled: the site shapes the codemod's find stage recognises too. */
export type LegacyShape = LegacySiteShape;

export interface LegacySite {
  readonly node: TSESTree.Node;
  readonly method: LegacyMethod;
  readonly shape: LegacyShape;
}

const SERVER_CLASS_NAMES = new Set<string>(SERVER_CLASSES);
const SENDERS = new Set<string>(GENERIC_REQUEST_SENDERS);
const REFERENCE_METHODS = new Set<string>([METHOD_BINDER, ...METHOD_INVOKERS]);
const SEND_REQUEST: GenericSender = 'sendRequest';
const SERVER_REQUEST: GenericSender = 'request';
const CTX_SEND: GenericSender = 'send';
const CLIENT_NAME = /client/i;

type Source = Readonly<TSESLint.SourceCode>;

/** Does `expr` hold an MCP server (v1 `Server`, `McpServer['server']`, v2 instance server)? */
export function isServerLike(sourceCode: Source, expr: TSESTree.Node, depth = 0): boolean {
  const node = unwrap(expr);
  if (depth > 4) return false;
  if (node.type === AST_NODE_TYPES.Identifier) {
    const declared = declaredServerType(sourceCode, node);
    if (declared !== undefined) return declared;
  }
  const typeNames = getTypeNames(sourceCode, node);
  if (typeNames) return typeNames.some((n) => SERVER_CLASS_NAMES.has(n));
  switch (node.type) {
    case AST_NODE_TYPES.MemberExpression: {
      // a private field `this.#server` is named like any other property
      const name = node.property.type === AST_NODE_TYPES.PrivateIdentifier ? node.property.name : getPropertyName(node);
      return name === MCP_SERVER_INNER_PROPERTY || SERVER_LIKE_NAME_PATTERN.test(name ?? '');
    }
    // `(server as any).server ?? server`, `a || b`, `c ? a : b`: any candidate that is a server
    case AST_NODE_TYPES.LogicalExpression:
      return node.operator !== '&&' && (isServerLike(sourceCode, node.left, depth + 1) || isServerLike(sourceCode, node.right, depth + 1));
    case AST_NODE_TYPES.ConditionalExpression:
      return isServerLike(sourceCode, node.consequent, depth + 1) || isServerLike(sourceCode, node.alternate, depth + 1);
    case AST_NODE_TYPES.NewExpression:
      return isServerConstruction(sourceCode, node);
    case AST_NODE_TYPES.AwaitExpression:
      return isServerLike(sourceCode, node.argument, depth + 1);
    case AST_NODE_TYPES.Identifier: {
      const init = resolveConstInit(sourceCode, node);
      if (init && init !== node && init.type !== AST_NODE_TYPES.CallExpression) return isServerLike(sourceCode, init, depth + 1);
      return SERVER_LIKE_NAME_PATTERN.test(node.name);
    }
    default:
      return false;
  }
}

/**
 * What the written type of a variable or parameter says (no type checker needed): `srv: Server`
 * imported from an MCP package is a server, `Server` imported from elsewhere (node:http) is not; a
 * locally declared interface or type literal that declares a legacy method with MCP evidence in
 * its signature (`interface Wired { elicitInput(p: ElicitRequest['params']): Promise<ElicitResult> }`)
 * is one too. Undefined when the annotation says nothing either way.
 */
function declaredServerType(sourceCode: Source, id: TSESTree.Identifier): boolean | undefined {
  const def = findVariable(sourceCode, id)?.defs[0];
  if (!def) return undefined;
  const nameNode = def.name as TSESTree.Node;
  const annotated =
    def.node.type === AST_NODE_TYPES.VariableDeclarator ? def.node.id : nameNode.type === AST_NODE_TYPES.Identifier ? nameNode : undefined;
  const annotation = annotated && 'typeAnnotation' in annotated ? annotated.typeAnnotation?.typeAnnotation : undefined;
  const type = annotation && withoutNullish(annotation);
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  // `Server`, or `sdk.Server` through a namespace import
  const head = type.typeName.type === AST_NODE_TYPES.TSQualifiedName ? type.typeName.left : type.typeName;
  const member = type.typeName.type === AST_NODE_TYPES.TSQualifiedName ? type.typeName.right.name : undefined;
  if (head.type !== AST_NODE_TYPES.Identifier) return undefined;
  const typeDef = findVariable(sourceCode, head)?.defs[0];
  if (typeDef?.type === 'ImportBinding') {
    const from = typeDef.parent?.type === AST_NODE_TYPES.ImportDeclaration ? String(typeDef.parent.source.value) : '';
    const spec = typeDef.node;
    const imported =
      member ?? (spec.type === AST_NODE_TYPES.ImportSpecifier ? importedNameOf(spec) : head.name);
    if (!SERVER_CLASS_NAMES.has(imported)) return undefined;
    return from.startsWith(MCP_PACKAGE_PREFIX);
  }
  if (member) return undefined;
  const local = typeDef?.node;
  if (local && (local.type === AST_NODE_TYPES.TSInterfaceDeclaration || local.type === AST_NODE_TYPES.TSTypeAliasDeclaration)) {
    return declaresLegacyMethods(sourceCode, local) ? true : undefined;
  }
  return undefined;
}

/** `T | undefined | null` → `T`. */
function withoutNullish(type: TSESTree.TypeNode): TSESTree.TypeNode | undefined {
  if (type.type !== AST_NODE_TYPES.TSUnionType) return type;
  const rest = type.types.filter((t) => t.type !== AST_NODE_TYPES.TSUndefinedKeyword && t.type !== AST_NODE_TYPES.TSNullKeyword);
  return rest.length === 1 ? rest[0] : undefined;
}

/** Parameter and result types, or fields, that only MCP's legacy requests carry. */
const LEGACY_SIGNATURE_EVIDENCE = /\b(?:Elicit|CreateMessage|ListRoots|Sampling)\w*(?:Request|Result|Params)\b|\brequestedSchema\b|\bmaxTokens\b/;

/**
 * A local interface / type literal shaped like an MCP server: it declares a legacy method whose
 * signature names MCP request or result types, or declares two or more legacy methods. A chat
 * client's own `createMessage(text: string)` alone is not evidence.
 */
function declaresLegacyMethods(sourceCode: Source, decl: TSESTree.TSInterfaceDeclaration | TSESTree.TSTypeAliasDeclaration): boolean {
  const members =
    decl.type === AST_NODE_TYPES.TSInterfaceDeclaration ? decl.body.body : decl.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral ? decl.typeAnnotation.members : [];
  const legacy = members.filter(
    (m) => (m.type === AST_NODE_TYPES.TSMethodSignature || m.type === AST_NODE_TYPES.TSPropertySignature) && !m.computed && m.key.type === AST_NODE_TYPES.Identifier && Object.prototype.hasOwnProperty.call(SERVER_METHOD_TO_LEGACY, m.key.name),
  );
  if (legacy.length >= 2) return true;
  return legacy.some((m) => LEGACY_SIGNATURE_EVIDENCE.test(sourceCode.getText(m)));
}

/** Does `expr` hold the v2 per-request helper object `ctx.mcpReq`? */
export function isMcpReqLike(sourceCode: Source, expr: TSESTree.Node, depth = 0): boolean {
  const node = unwrap(expr);
  if (depth > 4) return false;
  if (node.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(node) === CTX_MCPREQ_PROPERTY;
  if (node.type === AST_NODE_TYPES.Identifier) {
    if (node.name === CTX_MCPREQ_PROPERTY) return true;
    const init = resolveConstInit(sourceCode, node);
    return !!init && init !== node && isMcpReqLike(sourceCode, init, depth + 1);
  }
  return false;
}

/** The legacy method a `{ method, params }` request (literal or const) names, if any. */
export function requestObjectMethod(sourceCode: Source, arg: TSESTree.Node | undefined): string | undefined {
  if (!arg) return undefined;
  const obj = resolveConstInit(sourceCode, arg);
  if (obj?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const prop = findProperty(obj, REQUEST_FIELDS.method);
  return prop ? getStaticString(prop.value) : undefined;
}

/** Method evidence of a generic sender call: the request's `method` or the result schema. */
function senderMethod(sourceCode: Source, call: TSESTree.CallExpression): LegacyMethod | undefined {
  const named = requestObjectMethod(sourceCode, call.arguments[0]);
  if (named !== undefined) return isLegacyMethod(named) ? named : undefined;
  const schema = call.arguments[1] ? getSimpleName(call.arguments[1]) : undefined;
  return schema ? RESULT_SCHEMA_TO_LEGACY[schema] : undefined;
}

/** `server.elicitInput` / `ctx.mcpReq.requestSampling` as a member expression → legacy method. */
function legacyMember(sourceCode: Source, member: TSESTree.MemberExpression): { method: LegacyMethod; ctx: boolean } | undefined {
  const name = getPropertyName(member);
  if (!name) return undefined;
  if (Object.prototype.hasOwnProperty.call(CTX_MCPREQ_METHOD_TO_LEGACY, name) && isMcpReqLike(sourceCode, member.object)) {
    return { method: CTX_MCPREQ_METHOD_TO_LEGACY[name], ctx: true };
  }
  if (Object.prototype.hasOwnProperty.call(SERVER_METHOD_TO_LEGACY, name) && (isServerLike(sourceCode, member.object) || isAgentLike(sourceCode, member.object))) {
    return { method: SERVER_METHOD_TO_LEGACY[name], ctx: false };
  }
  return undefined;
}

/**
 * `this` (or `const agent = this`) inside a subclass of the `agents` package's `McpAgent`: the agent
 * sends elicitation itself (`this.elicitInput(...)`), a legacy request all the same.
 */
function isAgentLike(sourceCode: Source, expr: TSESTree.Node, depth = 0): boolean {
  const node = unwrap(expr);
  if (depth > 4) return false;
  if (node.type === AST_NODE_TYPES.Identifier) {
    const init = resolveConstInit(sourceCode, node);
    return !!init && init !== node && isAgentLike(sourceCode, init, depth + 1);
  }
  if (node.type !== AST_NODE_TYPES.ThisExpression) return false;
  let current: TSESTree.Node | undefined = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassDeclaration && current.type !== AST_NODE_TYPES.ClassExpression) current = current.parent;
  const base = current?.superClass;
  if (base?.type !== AST_NODE_TYPES.Identifier || base.name !== AGENT_BASE_CLASS) return false;
  const def = findVariable(sourceCode, base)?.defs[0];
  const from = def?.type === 'ImportBinding' && def.parent?.type === AST_NODE_TYPES.ImportDeclaration ? String(def.parent.source.value) : undefined;
  return from === AGENT_PACKAGE || (from?.startsWith(`${AGENT_PACKAGE}/`) ?? false);
}

const cache = new WeakMap<TSESTree.Program, readonly LegacySite[]>();

/** Every legacy site in the file, in source order. Cheap for files without candidate tokens. */
export function findLegacySites(sourceCode: Source): readonly LegacySite[] {
  const program = sourceCode.ast;
  const cached = cache.get(program);
  if (cached) return cached;
  const sites: LegacySite[] = [];
  if (mayContainLegacySite(sourceCode.text)) collect(sourceCode, sites);
  sites.sort((a, b) => a.node.range[0] - b.node.range[0]);
  cache.set(program, sites);
  return sites;
}

function collect(sourceCode: Source, sites: LegacySite[]): void {
  const seen = new Set<TSESTree.Node>();
  const add = (node: TSESTree.Node, method: LegacyMethod, shape: LegacyShape) => {
    if (seen.has(node)) return;
    seen.add(node);
    sites.push({ node, method, shape });
  };
  /** Report every call through a variable that aliases a legacy method. */
  const addAliasCalls = (id: TSESTree.Identifier, method: LegacyMethod) => {
    const variable = findVariable(sourceCode, id);
    for (const ref of variable?.references ?? []) {
      const parent = ref.identifier.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && unwrap(parent.callee) === ref.identifier) add(parent, method, 'alias-call');
    }
  };
  const claimed = new Set<TSESTree.Node>(); // objects/members already explained by an enclosing site

  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    switch (node.type) {
      case AST_NODE_TYPES.CallExpression: {
        const callee = unwrap(node.callee);
        if (callee.type === AST_NODE_TYPES.MemberExpression) {
          const name = getPropertyName(callee);
          if (!name) return;
          // x.elicitInput(…) / ctx.mcpReq.requestSampling(…)
          const direct = legacyMember(sourceCode, callee);
          if (direct) {
            claimed.add(callee);
            add(node, direct.method, direct.ctx ? 'ctx-method' : 'server-method');
            return;
          }
          // x.elicitInput.call(…) / .apply(…) / .bind(…)
          if (REFERENCE_METHODS.has(name)) {
            const target = unwrap(callee.object);
            const ref = target.type === AST_NODE_TYPES.MemberExpression ? legacyMember(sourceCode, target) : undefined;
            if (ref) {
              claimed.add(target);
              if (name === METHOD_BINDER) {
                add(node, ref.method, 'method-reference');
                for (const call of callsOfFedParameter(sourceCode, node)) add(call, ref.method, 'alias-call');
                const parent = node.parent;
                if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) addAliasCalls(parent.id, ref.method);
              } else {
                add(node, ref.method, ref.ctx ? 'ctx-method' : 'server-method');
              }
              return;
            }
          }
          if (name === ELICITATION_COMPLETION_NOTIFIER) {
            add(node, 'elicitation/create', 'completion-notifier');
            return;
          }
          if (SENDERS.has(name)) {
            const receiver = unwrap(callee.object);
            const receiverName = getSimpleName(receiver);
            if (receiverName && CLIENT_NAME.test(receiverName) && !isServerLike(sourceCode, receiver)) return;
            const method = senderMethod(sourceCode, node);
            if (!method) return;
            // `request` is the SDK's own generic sender (`this.request(…)` inside Server): only a
            // server receiver makes it a user's legacy request
            if (name === SERVER_REQUEST && !isServerLike(sourceCode, receiver)) return;
            if (name === CTX_SEND) {
              const isCtx = isMcpReqLike(sourceCode, receiver);
              const obj = resolveConstInit(sourceCode, node.arguments[0] ?? node);
              const isRaw = obj?.type === AST_NODE_TYPES.ObjectExpression && !!findProperty(obj, JSONRPC_REQUEST_FIELDS.version);
              if (!isCtx && !isRaw) return;
              if (obj) claimed.add(obj);
              add(node, method, isCtx ? GENERIC_SENDER_SHAPES[CTX_SEND] : 'raw-jsonrpc');
              return;
            }
            const obj = resolveConstInit(sourceCode, node.arguments[0] ?? node);
            if (obj) claimed.add(obj);
            add(node, method, GENERIC_SENDER_SHAPES[name as GenericSender]);
          }
          return;
        }
        if (callee.type === AST_NODE_TYPES.Identifier && callee.name === SEND_REQUEST) {
          const method = senderMethod(sourceCode, node);
          if (method) {
            const obj = resolveConstInit(sourceCode, node.arguments[0] ?? node);
            if (obj) claimed.add(obj);
            add(node, method, GENERIC_SENDER_SHAPES[SEND_REQUEST]);
          }
        }
        return;
      }
      case AST_NODE_TYPES.NewExpression:
        // thrown by server code (the SDK itself builds one from error data on the client side)
        if (getCalleeName(node) === URL_ELICITATION_ERROR && isThrown(sourceCode, node)) add(node, 'elicitation/create', 'url-elicitation-error');
        return;
      case AST_NODE_TYPES.VariableDeclarator: {
        // const { elicitInput } = mcp.server;  const { requestSampling: sample } = ctx.mcpReq;
        if (node.id.type !== AST_NODE_TYPES.ObjectPattern || !node.init) return;
        const init = node.init;
        for (const prop of node.id.properties) {
          if (prop.type !== AST_NODE_TYPES.Property) continue;
          const key = getPropertyName(prop);
          if (!key) continue;
          let method: LegacyMethod | undefined;
          if (Object.prototype.hasOwnProperty.call(CTX_MCPREQ_METHOD_TO_LEGACY, key) && isMcpReqLike(sourceCode, init)) method = CTX_MCPREQ_METHOD_TO_LEGACY[key];
          else if (Object.prototype.hasOwnProperty.call(SERVER_METHOD_TO_LEGACY, key) && isServerLike(sourceCode, init)) method = SERVER_METHOD_TO_LEGACY[key];
          if (!method) continue;
          add(prop, method, 'method-reference');
          const local = prop.value.type === AST_NODE_TYPES.AssignmentPattern ? prop.value.left : prop.value;
          if (local.type === AST_NODE_TYPES.Identifier) addAliasCalls(local, method);
        }
        return;
      }
      case AST_NODE_TYPES.MemberExpression: {
        // a legacy method taken as a value: `const ask = server.elicitInput;`, `helper(server.elicitInput)`
        if (claimed.has(node)) return;
        const parent = node.parent;
        if (parent?.type === AST_NODE_TYPES.CallExpression && unwrap(parent.callee) === node) return;
        if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) return; // .bind etc. handled above
        if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) return;
        const ref = legacyMember(sourceCode, node);
        if (!ref) return;
        add(node, ref.method, 'method-reference');
        for (const call of callsOfFedParameter(sourceCode, node)) add(call, ref.method, 'alias-call');
        if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) addAliasCalls(parent.id, ref.method);
        return;
      }
      case AST_NODE_TYPES.ObjectExpression: {
        // { jsonrpc: '2.0', id, method: 'elicitation/create', params } built by hand
        if (claimed.has(node) || !findProperty(node, JSONRPC_REQUEST_FIELDS.version)) return;
        const methodProp = findProperty(node, JSONRPC_REQUEST_FIELDS.method);
        const method = methodProp ? getStaticString(methodProp.value) : undefined;
        if (!isLegacyMethod(method)) return;
        if (!findProperty(node, JSONRPC_REQUEST_FIELDS.id) && !findProperty(node, JSONRPC_REQUEST_FIELDS.params)) return;
        add(node, method, 'raw-jsonrpc');
        return;
      }
      default:
        return;
    }
  });
}

/** `throw new E(...)`, or `const e = new E(...); … throw e`. */
function isThrown(sourceCode: Source, node: TSESTree.NewExpression): boolean {
  const parent = outerParent(node);
  if (parent?.type === AST_NODE_TYPES.ThrowStatement) return true;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, parent.id);
    return !!variable?.references.some((r) => outerParent(r.identifier)?.type === AST_NODE_TYPES.ThrowStatement);
  }
  return false;
}
