/** Small static AST helpers shared by the rules (no MCP knowledge here). */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { MCP_PACKAGE_PREFIX } from '@mcp-mrtr/surface';

export type FunctionNode =
  | TSESTree.FunctionDeclaration
  | TSESTree.FunctionExpression
  | TSESTree.ArrowFunctionExpression;

export function isFunctionNode(node: TSESTree.Node | null | undefined): node is FunctionNode {
  return (
    !!node &&
    (node.type === AST_NODE_TYPES.FunctionDeclaration ||
      node.type === AST_NODE_TYPES.FunctionExpression ||
      node.type === AST_NODE_TYPES.ArrowFunctionExpression)
  );
}

/** Strips TS-only wrappers and optional chains: `(x as T)!` → `x`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSInstantiationExpression:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The parent, skipping TS wrappers and chain expressions (the inverse of `unwrap`). */
export function outerParent(node: TSESTree.Node): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    switch (parent.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.ChainExpression:
        current = parent;
        continue;
      default:
        return parent;
    }
  }
  return undefined;
}

/** `'x'`, `"x"` or a template literal without expressions, as written (not looking through `as`, `satisfies` or `!`). */
export function literalString(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The same, looking through TS-only wrappers (`'x' as const`, see `unwrap`). */
export function getStaticString(node: TSESTree.Node | null | undefined): string | undefined {
  return node ? literalString(unwrap(node)) : undefined;
}

/** Static name of a member access (`a.b`, `a['b']`) or an object/class key (`{ b: 1 }`, `{ 'b': 1 }`). */
export function getPropertyName(
  node:
    | TSESTree.MemberExpression
    | TSESTree.Property
    | TSESTree.MethodDefinition
    | TSESTree.PropertyDefinition
    | TSESTree.Node,
): string | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.MemberExpression:
      if (!node.computed && node.property.type === AST_NODE_TYPES.Identifier) return node.property.name;
      if (node.property.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      return node.computed ? getStaticString(node.property) : undefined;
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.PropertyDefinition:
      if (!node.computed && node.key.type === AST_NODE_TYPES.Identifier) return node.key.name;
      if (node.key.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      if (node.key.type === AST_NODE_TYPES.Literal) return String(node.key.value);
      return node.computed ? getStaticString(node.key) : undefined;
    default:
      return undefined;
  }
}

/** A non-spread property of an object literal by static name. */
export function findProperty(obj: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const prop of obj.properties) {
    if (prop.type === AST_NODE_TYPES.Property && getPropertyName(prop) === name) return prop;
  }
  return undefined;
}

export function hasSpread(obj: TSESTree.ObjectExpression): boolean {
  return obj.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement);
}

/** `foo(...)` → `foo`, `a.b.foo(...)` → `foo`. */
export function getCalleeName(node: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(callee);
  return undefined;
}

/** `a.b.foo(...)` → `a.b` (undefined for a bare call). */
export function getCalleeObject(node: TSESTree.CallExpression | TSESTree.NewExpression): TSESTree.Node | undefined {
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee.object : undefined;
}

/** `JSON.stringify` for `JSON.stringify(x)`, `Buffer.from` for `Buffer.from(x)`, `btoa` for `btoa(x)`. */
export function getQualifiedCalleeName(node: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  return qualifiedName(unwrap(node.callee));
}

export function qualifiedName(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name;
  if (n.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (n.type === AST_NODE_TYPES.MemberExpression) {
    const head = qualifiedName(n.object);
    const prop = getPropertyName(n);
    return head && prop ? `${head}.${prop}` : undefined;
  }
  return undefined;
}

/** Name of an identifier or of the last segment of a member expression. */
export function getSimpleName(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name;
  if (n.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(n);
  return undefined;
}

export function findVariable(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TSESLint.Scope.Variable | null {
  return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
}

/**
 * The initializer of a `const` (or never-reassigned `let`) binding, following `const a = b` chains.
 * Returns undefined for parameters, imports and reassigned variables.
 */
export function resolveConstInit(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
  depth = 0,
): TSESTree.Node | undefined {
  const n = unwrap(node);
  if (n.type !== AST_NODE_TYPES.Identifier) return n;
  if (depth > 5) return undefined;
  const variable = findVariable(sourceCode, n);
  const def = variable?.defs[0];
  if (!variable || !def || variable.defs.length !== 1) return undefined;
  const declarator = def.node;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (!declarator.init) return undefined;
  const writes = variable.references.filter((r) => r.isWrite() && r.identifier !== declarator.id);
  if (writes.length > 0) return undefined;
  return resolveConstInit(sourceCode, declarator.init, depth + 1);
}

/** The definition node behind an identifier (declarator, parameter, import specifier …). */
export function getDefinition(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TSESLint.Scope.Definition | undefined {
  return findVariable(sourceCode, identifier)?.defs[0];
}

/**
 * Depth-first walk over a subtree with the source's visitor keys. `visit` returns `false` to skip a
 * node's children, `'stop'` to end the walk. Returns true when stopped.
 */
export function walk(
  root: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => boolean | 'stop' | void,
): boolean {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const result = visit(node);
    if (result === 'stop') return true;
    if (result === false) continue;
    const keys = visitorKeys[node.type] ?? [];
    for (let k = keys.length - 1; k >= 0; k--) {
      const value = (node as unknown as Record<string, unknown>)[keys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          const child = value[i];
          if (child && typeof child === 'object' && 'type' in child) stack.push(child as TSESTree.Node);
        }
      } else if (value && typeof value === 'object' && 'type' in value) {
        stack.push(value as TSESTree.Node);
      }
    }
  }
  return false;
}

/** True when `text` contains at least one of `tokens` (cheap per-file pre-filter). */
export function textHasAny(text: string, tokens: readonly string[]): boolean {
  for (const token of tokens) if (text.includes(token)) return true;
  return false;
}

/** Nearest enclosing function of a node (undefined at module scope). */
export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  let current = node.parent;
  while (current) {
    if (isFunctionNode(current)) return current;
    current = current.parent;
  }
  return undefined;
}

/** True when `inner` lies inside `outer` (or is it). */
export function isInside(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

const importNameCache = new WeakMap<TSESTree.Program, Map<string, Set<string>>>();

/**
 * Local names under which `exported` is available in the file: its own name plus import aliases
 * (`import { inputRequired as ir } from '...'`). `mcpOnly`: only imports from an MCP package count.
 * Cached per file; the set is shared, callers must not change it.
 */
export function importedLocalNames(sourceCode: Readonly<TSESLint.SourceCode>, exported: string, options: { mcpOnly?: boolean } = {}): ReadonlySet<string> {
  let perFile = importNameCache.get(sourceCode.ast);
  if (!perFile) {
    perFile = new Map();
    importNameCache.set(sourceCode.ast, perFile);
  }
  const key = `${options.mcpOnly ? 'mcp' : 'any'}:${exported}`;
  const hit = perFile.get(key);
  if (hit) return hit;
  const names = new Set([exported]);
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    if (options.mcpOnly && !statement.source.value.startsWith(MCP_PACKAGE_PREFIX)) continue;
    for (const spec of statement.specifiers) {
      if (spec.type !== AST_NODE_TYPES.ImportSpecifier) continue;
      const imported = spec.imported.type === AST_NODE_TYPES.Identifier ? spec.imported.name : spec.imported.value;
      if (imported === exported) names.add(spec.local.name);
    }
  }
  perFile.set(key, names);
  return names;
}
