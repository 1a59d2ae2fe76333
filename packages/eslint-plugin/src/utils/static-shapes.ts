/**
 * Small, syntax-only helpers used by the safety rules (no-sensitive-elicitation,
 * no-secrets-in-request-state, no-input-required-cache, no-deprecated-client-features,
 * no-session-scoped-client-state, require-request-state-binding).
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { importedLocalNames, literalString, textHasAny, unwrap, walk } from './ast.js';

// one vocabulary: these live in ast.ts, re-exported for the safety rules that import from here
export { textHasAny, unwrap, walk };

type Node = TSESTree.Node;


/** Value of a string literal or of a template literal without expressions (ast.ts `literalString`). */
export const staticString = literalString;

/** Name of a non-computed (or computed-literal) property key. */
export function keyName(key: Node, computed = false): string | undefined {
  if (!computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal) return typeof key.value === 'string' || typeof key.value === 'number' ? String(key.value) : undefined;
  return staticString(key);
}

export function propertyName(prop: Node): string | undefined {
  if (prop.type !== AST_NODE_TYPES.Property) return undefined;
  return keyName(prop.key, prop.computed);
}

export function findProperty(obj: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const prop of obj.properties) {
    if (prop.type === AST_NODE_TYPES.Property && propertyName(prop) === name) return prop;
  }
  return undefined;
}

/** `a.b.c` → `c`, `a[\'c\']` → `c`. */
export function memberName(member: TSESTree.MemberExpression): string | undefined {
  return member.computed ? staticString(member.property) : member.property.type === AST_NODE_TYPES.Identifier ? member.property.name : undefined;
}

/** `f()` → `f`, `a.b.f()` → `f`, `a?.f()` → `f`. */
export function calleeName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return memberName(callee);
  return undefined;
}

/** Receiver of a member call: `a.b.f()` → the `a.b` node. */
export function calleeObject(call: TSESTree.CallExpression): Node | undefined {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : undefined;
}

/** Dotted text of a member chain made of identifiers (`ctx.mcpReq.envelope`), `this` as `this`. */
export function chainText(node: Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name;
  if (n.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (n.type === AST_NODE_TYPES.MemberExpression) {
    const head = chainText(n.object);
    const name = memberName(n);
    return head !== undefined && name !== undefined ? `${head}.${name}` : undefined;
  }
  return undefined;
}

/** Like `unwrap`, and also looks through `await`. */
export function unwrapAwait(node: Node): Node {
  let n = unwrap(node);
  while (n.type === AST_NODE_TYPES.AwaitExpression) n = unwrap(n.argument);
  return n;
}

/**
 * Follows an identifier to the initialiser of the `const` (or never reassigned `let`) it names,
 * up to `depth` hops; returns the node itself when it is not such an identifier.
 */
export function resolveValue(node: Node, sourceCode: Readonly<TSESLint.SourceCode>, depth = 3): Node {
  let n = unwrap(node);
  for (let i = 0; i < depth && n.type === AST_NODE_TYPES.Identifier; i++) {
    const variable = ASTUtils.findVariable(sourceCode.getScope(n), n.name);
    const def = variable?.defs[0];
    if (!variable || variable.defs.length !== 1 || !def || def.node.type !== AST_NODE_TYPES.VariableDeclarator) return n;
    if (def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return n;
    const writes = variable.references.filter((r) => r.isWrite() && !r.init);
    if (writes.length > 0) return n;
    n = unwrap(def.node.init);
  }
  return n;
}

/** Local names under which an export of an MCP package is imported (always includes the name itself). */
export function mcpLocalNamesOf(sourceCode: Readonly<TSESLint.SourceCode>, exported: string): ReadonlySet<string> {
  return importedLocalNames(sourceCode, exported, { mcpOnly: true });
}

const FUNCTION_TYPES = new Set<string>([
  AST_NODE_TYPES.FunctionDeclaration,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ArrowFunctionExpression,
]);

export function isFunction(node: Node): node is TSESTree.FunctionLike {
  return FUNCTION_TYPES.has(node.type);
}

/** An identifier that reads a variable (not `a.name` / `{ name: … }` / a declaration id). */
export function isValueReference(id: TSESTree.Identifier): boolean {
  const parent = id.parent;
  if (!parent) return true;
  if (parent.type === AST_NODE_TYPES.MemberExpression) return parent.object === id || parent.computed;
  if (parent.type === AST_NODE_TYPES.Property) return parent.value === id || parent.computed;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.init === id;
  return true;
}

/** A function passed by value: inline, through a const, or a `function name() {}` declaration. */
export function resolveFunction(node: Node, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.FunctionLike | undefined {
  const value = resolveValue(node, sourceCode);
  if (isFunction(value)) return value;
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = ASTUtils.findVariable(sourceCode.getScope(value), value.name)?.defs[0]?.node;
  return def?.type === AST_NODE_TYPES.FunctionDeclaration ? def : undefined;
}

/** Fix that deletes one element of an object literal together with its separating comma. */
export function removeObjectElement(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  element: Node,
): TSESLint.RuleFix {
  const after = sourceCode.getTokenAfter(element);
  if (after && after.value === ',') {
    const next = sourceCode.getTokenAfter(after, { includeComments: true });
    return fixer.removeRange([element.range[0], next ? next.range[0] : after.range[1]]);
  }
  const before = sourceCode.getTokenBefore(element);
  if (before && before.value === ',') return fixer.removeRange([before.range[0], element.range[1]]);
  return fixer.remove(element);
}

/** Optional type checker: present only when the file was parsed with type information. */
export function typeServices(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) {
  const services = context.sourceCode.parserServices;
  if (!services || !services.program || !('esTreeNodeToTSNodeMap' in services) || !services.esTreeNodeToTSNodeMap) return undefined;
  const program = services.program;
  const map = services.esTreeNodeToTSNodeMap;
  return {
    checker: program.getTypeChecker(),
    tsNode: (node: Node) => map.get(node as never),
  };
}
