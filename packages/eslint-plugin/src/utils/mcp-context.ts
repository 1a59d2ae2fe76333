/**
 * Where does a node run? Inside an MRTR-capable handler (tools/call, prompts/get, resources/read),
 * in a context that can never return input_required (hooks, timers, notification handlers, other
 * request handlers, module scope …), on the client side, or somewhere this file cannot tell.
 *
 * Syntactic and per file: registration callbacks are recognised by the surface tables, and named
 * helpers are followed to their callers in the same file (cheap call graph built once per file).
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  CLIENT_HANDLED_REQUEST_SCHEMAS,
  COMPLETABLE_FUNCTION,
  EVENT_EMITTER_METHODS,
  HTTP_ROUTE_METHODS,
  LOW_LEVEL_REGISTRATION,
  NON_HANDLER_HOOK_PROPERTIES,
  NON_MRTR_TEMPLATE_CALLBACKS,
  NOTIFICATION_REGISTRATION,
  REGISTRATION_APIS,
  REQUEST_SCHEMA_TO_METHOD,
  RESOURCE_TEMPLATE_CLASS,
  TIMER_FUNCTIONS,
  isLegacyMethod,
  isMrtrMethod,
  type MrtrMethod,
  type NonHandlerContext,
} from '@mcp-mrtr/surface';
import {
  enclosingFunction,
  getCalleeName,
  getPropertyName,
  getSimpleName,
  getStaticString,
  outerParent,
  qualifiedName,
  unwrap,
  walk,
  type FunctionNode,
} from './ast.js';

export type McpContext =
  | {
      readonly kind: 'handler';
      readonly method: MrtrMethod;
      /** The registration callback (or the node passed as the callback). */
      readonly handler: TSESTree.Node;
      /** Set when the node sits in a same-file helper reached from the handler. */
      readonly viaHelper?: FunctionNode;
    }
  | { readonly kind: 'non-handler'; readonly context: NonHandlerContext; readonly node: TSESTree.Node }
  /** Client-side code answering legacy requests (`client.setRequestHandler(ElicitRequestSchema, …)`). */
  | { readonly kind: 'client'; readonly node: TSESTree.Node }
  | { readonly kind: 'unknown' };

/** How the position a function (or a reference to one) occupies decides where it runs. */
type Position =
  | { kind: 'handler'; method: MrtrMethod; node: TSESTree.Node }
  | { kind: 'non-handler'; context: NonHandlerContext; node: TSESTree.Node }
  | { kind: 'client'; node: TSESTree.Node }
  /** Runs where the enclosing code runs (callback of an unknown call, IIFE …). */
  | { kind: 'inline'; at: TSESTree.Node }
  /** A named helper: resolved through its callers. */
  | { kind: 'named'; name: string; member: boolean }
  | { kind: 'opaque' };

interface FileIndex {
  /** Calls by callee name: `name(...)` (member=false) or `x.name(...)` (member=true). */
  readonly calls: Map<string, { node: TSESTree.CallExpression; member: boolean }[]>;
  /** Identifiers used as values where a function is expected (`registerTool(n, c, handle)`). */
  readonly refs: Map<string, TSESTree.Identifier[]>;
}

const REGISTRATION_NAMES = new Set(Object.keys(REGISTRATION_APIS));
const TIMERS = new Set<string>(TIMER_FUNCTIONS);
const EMITTER_METHODS = new Set<string>(EVENT_EMITTER_METHODS);
const ROUTE_METHODS = new Set<string>(HTTP_ROUTE_METHODS);
const HOOKS = new Set<string>(NON_HANDLER_HOOK_PROPERTIES);
const TEMPLATE_CALLBACKS = new Set<string>(NON_MRTR_TEMPLATE_CALLBACKS);
const CLIENT_SCHEMAS = new Set(CLIENT_HANDLED_REQUEST_SCHEMAS);

/** What `setRequestHandler(first, …)` registers for. */
export function classifyRequestHandlerTarget(
  first: TSESTree.Node | undefined,
): { kind: 'handler'; method: MrtrMethod } | { kind: 'client' } | { kind: 'other'; method?: string } | undefined {
  if (!first) return undefined;
  const literal = getStaticString(first);
  const method = literal ?? (getSimpleName(first) ? REQUEST_SCHEMA_TO_METHOD[getSimpleName(first)!] : undefined);
  if (literal === undefined) {
    const name = getSimpleName(first);
    if (name && CLIENT_SCHEMAS.has(name)) return { kind: 'client' };
  }
  if (method === undefined) return undefined;
  if (isMrtrMethod(method)) return { kind: 'handler', method };
  if (isLegacyMethod(method)) return { kind: 'client' };
  return { kind: 'other', method };
}

/**
 * Classify `node` (a function, or a value standing for one) by the argument/property slot it fills.
 * Returns undefined when the slot says nothing.
 */
function classifySlot(node: TSESTree.Node): Position | undefined {
  const parent = outerParent(node);
  if (!parent) return undefined;

  if ((parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) && parent.callee !== node) {
    const args = parent.arguments;
    const index = args.findIndex((a) => a === node || unwrap(a) === node || (a.range[0] <= node.range[0] && a.range[1] >= node.range[1]));
    if (index < 0) return undefined;
    const name = getCalleeName(parent);
    const callee = unwrap(parent.callee);
    const isMember = callee.type === AST_NODE_TYPES.MemberExpression;
    if (parent.type === AST_NODE_TYPES.CallExpression && name) {
      if (isMember && REGISTRATION_NAMES.has(name) && args.length >= 2 && index === args.length - 1) {
        return { kind: 'handler', method: REGISTRATION_APIS[name].method, node };
      }
      if (name === LOW_LEVEL_REGISTRATION && index >= 1) {
        const target = classifyRequestHandlerTarget(args[0]);
        if (target?.kind === 'handler') return { kind: 'handler', method: target.method, node };
        if (target?.kind === 'client') return { kind: 'client', node };
        if (target?.kind === 'other') return { kind: 'non-handler', context: 'non-mrtr-request-handler', node };
        return undefined;
      }
      if (name === NOTIFICATION_REGISTRATION && index >= 1) return { kind: 'non-handler', context: 'notification-handler', node };
      if (name === COMPLETABLE_FUNCTION && index >= 1) return { kind: 'non-handler', context: 'non-mrtr-request-handler', node };
      const qualified = qualifiedName(callee);
      if (TIMERS.has(name) && (!isMember || qualified === `globalThis.${name}` || qualified === `window.${name}`)) {
        return { kind: 'non-handler', context: 'timer', node };
      }
      if (isMember && EMITTER_METHODS.has(name) && index >= 1 && getStaticString(args[0]) !== undefined) {
        return { kind: 'non-handler', context: 'event-emitter', node };
      }
      if (isMember && ROUTE_METHODS.has(name) && index >= 1 && /^[/*]/.test(getStaticString(args[0]) ?? '')) {
        return { kind: 'non-handler', context: 'http-route', node };
      }
    }
    return undefined;
  }

  if (parent.type === AST_NODE_TYPES.Property && parent.value === node) {
    const key = getPropertyName(parent);
    if (key && HOOKS.has(key)) return { kind: 'non-handler', context: 'lifecycle-hook', node };
    if (key && isTemplateCallbackProperty(parent, key)) return { kind: 'non-handler', context: 'non-mrtr-request-handler', node };
    return undefined;
  }

  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === node) {
    const left = parent.left;
    const key = left.type === AST_NODE_TYPES.MemberExpression ? getPropertyName(left) : undefined;
    if (key && HOOKS.has(key)) return { kind: 'non-handler', context: 'lifecycle-hook', node };
  }
  return undefined;
}

/** `new ResourceTemplate(uri, { list: fn, complete: { v: fn } })`. */
function isTemplateCallbackProperty(prop: TSESTree.Property, key: string): boolean {
  let obj: TSESTree.Node | undefined = prop.parent;
  let viaComplete = false;
  if (!TEMPLATE_CALLBACKS.has(key)) {
    // a callback nested under `complete: { var: fn }`
    const outer = obj?.parent;
    if (outer?.type !== AST_NODE_TYPES.Property || getPropertyName(outer) !== 'complete') return false;
    obj = outer.parent;
    viaComplete = true;
  }
  const owner = obj ? outerParent(obj) : undefined;
  if (owner?.type !== AST_NODE_TYPES.NewExpression) return false;
  return getCalleeName(owner) === RESOURCE_TEMPLATE_CLASS && (viaComplete || TEMPLATE_CALLBACKS.has(key));
}

function positionOf(fn: FunctionNode): Position {
  const slot = classifySlot(fn);
  if (slot) return slot;
  const parent = outerParent(fn);
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    return fn.id ? { kind: 'named', name: fn.id.name, member: false } : { kind: 'opaque' };
  }
  if (!parent) return { kind: 'opaque' };
  switch (parent.type) {
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      // IIFE, or callback of an unknown call (`items.map(cb)`, `new Promise(cb)`, `.then(cb)`,
      // `wrap(cb)` passed on): it runs where the call's value goes.
      return { kind: 'inline', at: parent };
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.id.type === AST_NODE_TYPES.Identifier ? { kind: 'named', name: parent.id.name, member: false } : { kind: 'opaque' };
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.PropertyDefinition:
    case AST_NODE_TYPES.Property: {
      const name = getPropertyName(parent);
      return name ? { kind: 'named', name, member: true } : { kind: 'opaque' };
    }
    case AST_NODE_TYPES.AssignmentExpression: {
      const left = parent.left;
      if (left.type === AST_NODE_TYPES.Identifier) return { kind: 'named', name: left.name, member: false };
      const name = left.type === AST_NODE_TYPES.MemberExpression ? getPropertyName(left) : undefined;
      return name ? { kind: 'named', name, member: true } : { kind: 'opaque' };
    }
    default:
      return { kind: 'opaque' };
  }
}

const indexes = new WeakMap<TSESTree.Program, FileIndex>();

function getIndex(sourceCode: Readonly<TSESLint.SourceCode>): FileIndex {
  const program = sourceCode.ast;
  let index = indexes.get(program);
  if (index) return index;
  const calls: FileIndex['calls'] = new Map();
  const refs: FileIndex['refs'] = new Map();
  walk(program, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      const name = getCalleeName(node);
      if (name) {
        const list = calls.get(name) ?? [];
        list.push({ node, member: callee.type === AST_NODE_TYPES.MemberExpression });
        calls.set(name, list);
      }
      for (const arg of node.arguments) {
        const a = unwrap(arg);
        if (a.type === AST_NODE_TYPES.Identifier) pushRef(refs, a);
      }
    } else if (node.type === AST_NODE_TYPES.AssignmentExpression && node.right.type === AST_NODE_TYPES.Identifier) {
      pushRef(refs, node.right);
    } else if (node.type === AST_NODE_TYPES.Property && node.value.type === AST_NODE_TYPES.Identifier && node.parent.type === AST_NODE_TYPES.ObjectExpression) {
      pushRef(refs, node.value);
    }
  });
  index = { calls, refs };
  indexes.set(program, index);
  return index;
}

function pushRef(refs: FileIndex['refs'], id: TSESTree.Identifier): void {
  const list = refs.get(id.name) ?? [];
  list.push(id);
  refs.set(id.name, list);
}

export interface McpContextResolver {
  /** Where `node` runs. */
  contextOf(node: TSESTree.Node): McpContext;
  /**
   * The MRTR handler function that lexically contains `node` (the registration callback itself),
   * or undefined when `node` is not lexically inside one.
   */
  lexicalHandlerOf(node: TSESTree.Node): { fn: FunctionNode; method: MrtrMethod } | undefined;
}

const resolvers = new WeakMap<TSESTree.Program, McpContextResolver>();

/** One resolver per file, shared by every rule linting it. */
export function getMcpContextResolver(sourceCode: Readonly<TSESLint.SourceCode>): McpContextResolver {
  const cached = resolvers.get(sourceCode.ast);
  if (cached) return cached;
  const memo = new Map<TSESTree.Node, McpContext>();

  function contextOf(node: TSESTree.Node, visiting: Set<TSESTree.Node> = new Set()): McpContext {
    const fn = enclosingFunction(node);
    if (!fn) return { kind: 'non-handler', context: 'module-scope', node };
    const hit = memo.get(fn);
    if (hit) return hit;
    if (visiting.has(fn)) return { kind: 'unknown' };
    visiting.add(fn);
    const result = contextOfFunction(fn, visiting);
    visiting.delete(fn);
    memo.set(fn, result);
    return result;
  }

  function fromPosition(position: Position, visiting: Set<TSESTree.Node>, fn?: FunctionNode): McpContext {
    switch (position.kind) {
      case 'handler':
        return { kind: 'handler', method: position.method, handler: position.node };
      case 'non-handler':
        return { kind: 'non-handler', context: position.context, node: position.node };
      case 'client':
        return { kind: 'client', node: position.node };
      case 'inline': {
        // the call's value may itself fill a slot (`registerTool(n, c, wrap(async () => …))`)
        const slot = classifySlot(position.at);
        if (slot) return fromPosition(slot, visiting);
        return contextOf(position.at, visiting);
      }
      case 'named':
        return fn ? resolveNamed(fn, position, visiting) : { kind: 'unknown' };
      case 'opaque':
        return { kind: 'unknown' };
    }
  }

  function contextOfFunction(fn: FunctionNode, visiting: Set<TSESTree.Node>): McpContext {
    return fromPosition(positionOf(fn), visiting, fn);
  }

  /** A named helper runs wherever its same-file callers run. */
  function resolveNamed(fn: FunctionNode, position: { name: string; member: boolean }, visiting: Set<TSESTree.Node>): McpContext {
    const index = getIndex(sourceCode);
    const contexts: McpContext[] = [];
    for (const call of index.calls.get(position.name) ?? []) {
      if (call.member !== position.member && !position.member) continue;
      if (call.node.range[0] >= fn.range[0] && call.node.range[1] <= fn.range[1]) continue; // recursion
      contexts.push(contextOf(call.node, visiting));
    }
    for (const ref of index.refs.get(position.name) ?? []) {
      const slot = classifySlot(ref);
      contexts.push(slot ? fromPosition(slot, visiting) : { kind: 'unknown' });
    }
    const handler = contexts.find((c) => c.kind === 'handler');
    if (handler && handler.kind === 'handler') return { ...handler, viaHelper: fn };
    if (contexts.length === 0 || contexts.some((c) => c.kind === 'unknown')) return { kind: 'unknown' };
    return contexts.find((c) => c.kind === 'non-handler') ?? contexts[0];
  }

  function lexicalHandlerOf(node: TSESTree.Node): { fn: FunctionNode; method: MrtrMethod } | undefined {
    let fn = enclosingFunction(node);
    while (fn) {
      const position = classifySlot(fn);
      if (position?.kind === 'handler') return { fn, method: position.method };
      if (!position) {
        const parent = outerParent(fn);
        if (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) {
          const slot = classifySlot(parent);
          if (slot?.kind === 'handler') return { fn, method: slot.method };
        }
      }
      fn = enclosingFunction(fn);
    }
    return undefined;
  }

  const resolver: McpContextResolver = { contextOf: (node) => contextOf(node), lexicalHandlerOf };
  resolvers.set(sourceCode.ast, resolver);
  return resolver;
}
